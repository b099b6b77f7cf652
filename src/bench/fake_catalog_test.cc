#include "src/bench/fake_catalog.h"

#include "gtest/gtest.h"
#include "src/api/karpenter_labels.h"
#include "src/api/quantity.h"

namespace karpenter::bench {
namespace {

api::Quantity Q(const char* text) { return *api::Quantity::Parse(text); }

TEST(FakeCatalog, Has400TypesNamedByIndex) {
  const std::vector<FakeInstanceType> types = FakeCatalog400();
  ASSERT_EQ(types.size(), 400u);
  EXPECT_EQ(types.front().name, "fake-it-0");
  EXPECT_EQ(types.back().name, "fake-it-399");
}

TEST(FakeCatalog, TypeIHasIPlusOneCpusTwiceThatInGibAndTenTimesThatInPods) {
  const FakeInstanceType type = FakeInstanceTypes(4)[3];
  EXPECT_EQ(type.capacity.at("cpu"), Q("4"));
  EXPECT_EQ(type.capacity.at("memory"), Q("8Gi"));
  EXPECT_EQ(type.capacity.at("pods"), Q("40"));
}

TEST(FakeCatalog, AllocatableSubtractsKubeReserved) {
  const FakeInstanceType type = FakeInstanceTypes(1)[0];
  EXPECT_EQ(type.allocatable.at("cpu"), Q("900m"));
  EXPECT_EQ(type.allocatable.at("memory"), Q("2038Mi"));
  EXPECT_EQ(type.allocatable.at("pods"), Q("10"));
}

TEST(FakeCatalog, PriceIsLinearInSize) {
  const std::vector<FakeInstanceType> types = FakeCatalog400();
  for (size_t i : {size_t{0}, size_t{9}, size_t{399}}) {
    EXPECT_NEAR(types[i].CheapestPrice(), 0.3147483648 * static_cast<double>(i + 1), 1e-9);
  }
}

TEST(FakeCatalog, EveryTypeHasFiveAvailableOfferingsAtOnePrice) {
  const FakeInstanceType type = FakeInstanceTypes(2)[1];
  ASSERT_EQ(type.offerings.size(), 5u);
  int spot = 0;
  for (const FakeOffering& offering : type.offerings) {
    EXPECT_TRUE(offering.available);
    EXPECT_DOUBLE_EQ(offering.price, type.offerings.front().price);
    if (offering.capacity_type == "spot") {
      ++spot;
      EXPECT_NE(offering.zone, kFakeZone3);
    }
  }
  EXPECT_EQ(spot, 2);
}

TEST(FakeCatalog, SizeIsLargeOnlyAboveFourCpusAndEightGib) {
  const std::vector<FakeInstanceType> types = FakeInstanceTypes(5);
  const scheduling::Requirement* small = types[3].requirements.Find(kLabelInstanceSize);
  const scheduling::Requirement* large = types[4].requirements.Find(kLabelInstanceSize);
  ASSERT_NE(small, nullptr);
  ASSERT_NE(large, nullptr);
  EXPECT_TRUE(small->Has("small"));
  EXPECT_FALSE(small->Has("large"));
  EXPECT_TRUE(large->Has("large"));
  EXPECT_FALSE(types[3].requirements.Find(kLabelExotic)->Has("optional"));
  EXPECT_TRUE(types[4].requirements.Find(kLabelExotic)->Has("optional"));
}

TEST(FakeCatalog, RequirementsCarryWellKnownLabels) {
  const FakeInstanceType type = FakeInstanceTypes(8)[7];
  const scheduling::Requirements& r = type.requirements;
  EXPECT_TRUE(r.Find(api::kLabelInstanceTypeStable)->Has("fake-it-7"));
  EXPECT_TRUE(r.Find(api::kLabelArchStable)->Has("amd64"));
  EXPECT_TRUE(r.Find(api::kLabelOSStable)->Has("darwin"));
  EXPECT_TRUE(r.Find(api::kLabelOSStable)->Has("windows"));
  EXPECT_TRUE(r.Find(api::kLabelTopologyZone)->Has(kFakeZone3));
  EXPECT_TRUE(r.Find(api::kCapacityTypeLabelKey)->Has("spot"));
  EXPECT_TRUE(r.Find(kLabelInteger)->Has("8"));
  EXPECT_FALSE(r.Find(kLabelInteger)->Has("7"));
}

TEST(FakeCatalog, CheapestPriceIgnoresUnavailableOfferings) {
  FakeInstanceType type = FakeInstanceTypes(1)[0];
  type.offerings[0].price = 0.01;
  type.offerings[0].available = false;
  EXPECT_NEAR(type.CheapestPrice(), 0.3147483648, 1e-9);
  for (FakeOffering& offering : type.offerings) offering.available = false;
  EXPECT_EQ(type.CheapestPrice(), 0);
}

}  // namespace
}  // namespace karpenter::bench
