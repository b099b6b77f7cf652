#include "src/migrate/diversify.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace karpenter::migrate {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

const cloudprovider::Catalog& TestCatalog() {
  static const cloudprovider::Catalog* catalog =
      new cloudprovider::Catalog(*cloudprovider::Catalog::LoadEmbedded());
  return *catalog;
}

TEST(Diversify, WidensToFamiliesOfTheSameRatioSizeAndArchitecture) {
  WideningOrRefusal result =
      Widen("spot-batch", {"c5.2xlarge", "c5a.2xlarge"}, /*spot=*/true, TestCatalog());
  ASSERT_TRUE(result.widening) << result.refusal;
  const Widening& widening = *result.widening;
  EXPECT_THAT(widening.architectures, ElementsAre("amd64"));
  EXPECT_THAT(widening.cpus, ElementsAre("8"));
  EXPECT_THAT(widening.families, Contains("c5"));
  EXPECT_THAT(widening.families, Contains("c6i"));
  EXPECT_THAT(widening.families, Not(Contains("m5")));    // 4 GiB per vCPU
  EXPECT_THAT(widening.families, Not(Contains("c5n")));   // 2.625 GiB per vCPU
  EXPECT_THAT(widening.families, Not(Contains("c6g")));   // arm64
  EXPECT_THAT(widening.families, Not(Contains("t3")));    // burstable
  EXPECT_THAT(widening.families, Not(Contains("g4dn")));  // GPUs
  EXPECT_EQ(widening.type_count, static_cast<int>(widening.families.size()));
  EXPECT_GE(widening.type_count, 15);
}

TEST(Diversify, KeepsEverySizeTheGroupHad) {
  WideningOrRefusal result =
      Widen("general", {"m5.xlarge", "m5.2xlarge"}, /*spot=*/false, TestCatalog());
  ASSERT_TRUE(result.widening) << result.refusal;
  EXPECT_THAT(result.widening->cpus, ElementsAre("4", "8"));
  EXPECT_THAT(result.widening->families, Contains("m6i"));
  EXPECT_THAT(result.widening->families, Not(Contains("r5")));
  EXPECT_THAT(result.widening->families, Not(Contains("d3en")));  // 4 GiB per vCPU, category d
}

TEST(Diversify, StaysOnArmForAGravitonGroup) {
  WideningOrRefusal result = Widen("arm", {"m6g.xlarge"}, /*spot=*/false, TestCatalog());
  ASSERT_TRUE(result.widening) << result.refusal;
  EXPECT_THAT(result.widening->architectures, ElementsAre("arm64"));
  EXPECT_THAT(result.widening->families, Contains("m7g"));
  EXPECT_THAT(result.widening->families, Not(Contains("m6i")));
}

TEST(Diversify, AGpuGroupStaysOnAcceleratedFamilies) {
  WideningOrRefusal result = Widen("gpu", {"g5.xlarge"}, /*spot=*/false, TestCatalog());
  ASSERT_TRUE(result.widening) << result.refusal;
  EXPECT_THAT(result.widening->families, Contains("g5"));
  EXPECT_THAT(result.widening->families, Not(Contains("m5")));
}

TEST(Diversify, RefusesATypeTheCatalogDoesNotKnow) {
  WideningOrRefusal result = Widen("x", {"m5.xlarge", "z9.huge"}, false, TestCatalog());
  EXPECT_FALSE(result.widening);
  EXPECT_THAT(result.refusal, HasSubstr("z9.huge is not in the catalog"));
}

TEST(Diversify, RequirementsNameArchitectureFamilyAndCpu) {
  Widening widening{"g", {"m5.xlarge"}, {"amd64"}, {"m5", "m6i"}, {"4"}, 2};
  std::vector<nlohmann::ordered_json> requirements = WidenedRequirements(widening);
  ASSERT_EQ(requirements.size(), 3u);
  EXPECT_EQ(requirements[1]["key"], "karpenter.k8s.aws/instance-family");
  EXPECT_EQ(requirements[1]["values"], nlohmann::ordered_json::parse(R"(["m5", "m6i"])"));
  EXPECT_EQ(requirements[2]["key"], "karpenter.k8s.aws/instance-cpu");
}

}  // namespace
}  // namespace karpenter::migrate
