#include "src/provisioning/input_region.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace karpenter::provisioning {
namespace {

using ::testing::HasSubstr;

const std::vector<std::string> kKnown = {"eu-west-1", "us-east-1", "us-west-2"};

api::Node NodeWithLabels(const std::string& name, std::map<std::string, std::string> labels) {
  api::Node node;
  node.metadata.name = name;
  node.metadata.labels = std::move(labels);
  return node;
}

api::EC2NodeClass ClassInZones(const std::string& name, const std::vector<std::string>& zones) {
  api::EC2NodeClass node_class;
  node_class.metadata.name = name;
  for (const std::string& zone : zones) {
    node_class.status.subnets.push_back({.id = "subnet-" + zone, .zone = zone});
  }
  return node_class;
}

TEST(RegionOfZone, StripsTheZoneLetterOrALocalZoneSuffix) {
  EXPECT_EQ(RegionOfZone("us-west-2a", kKnown), "us-west-2");
  EXPECT_EQ(RegionOfZone("us-east-1-bos-1a", kKnown), "us-east-1");
  EXPECT_EQ(RegionOfZone("ap-south-7b", kKnown), "ap-south-7");
}

TEST(RegionEvidenceOf, NamesEveryFieldThatNamesARegion) {
  std::vector<RegionEvidence> evidence =
      RegionEvidenceOf({NodeWithLabels("n1", {{"topology.kubernetes.io/region", "eu-west-1"},
                                              {"topology.kubernetes.io/zone", "eu-west-1b"}})},
                       {ClassInZones("default", {"eu-west-1a"})}, kKnown);
  ASSERT_EQ(evidence.size(), 3u);
  EXPECT_EQ(evidence[0].region, "eu-west-1");
  EXPECT_EQ(evidence[0].field, "Node/n1: metadata.labels[topology.kubernetes.io/region] eu-west-1");
  EXPECT_EQ(evidence[1].field, "Node/n1: metadata.labels[topology.kubernetes.io/zone] eu-west-1b");
  EXPECT_EQ(evidence[2].field, "EC2NodeClass/default: status.subnets[0].zone eu-west-1a");
}

TEST(ChooseRegion, TakesTheRegionTheInputNames) {
  absl::StatusOr<RegionChoice> choice = ChooseRegion(
      RegionEvidenceOf({}, {ClassInZones("c", {"us-west-2a", "us-west-2b"})}, kKnown), "", kKnown);
  ASSERT_TRUE(choice.ok()) << choice.status();
  EXPECT_EQ(choice->region, "us-west-2");
  EXPECT_EQ(choice->source, "EC2NodeClass/c: status.subnets[0].zone us-west-2a");
  EXPECT_FALSE(choice->assumed);
}

TEST(ChooseRegion, AssumesUsEast1WhenTheInputIsSilent) {
  absl::StatusOr<RegionChoice> choice = ChooseRegion({}, "", kKnown);
  ASSERT_TRUE(choice.ok()) << choice.status();
  EXPECT_EQ(choice->region, "us-east-1");
  EXPECT_TRUE(choice->assumed);
  EXPECT_THAT(choice->source, HasSubstr("the input names no region"));
}

TEST(ChooseRegion, TheFlagDecidesWhenTheInputIsSilentOrAgrees) {
  EXPECT_EQ(ChooseRegion({}, "eu-west-1", kKnown)->source, "--region");
  EXPECT_EQ(ChooseRegion({{"eu-west-1", "f"}}, "eu-west-1", kKnown)->region, "eu-west-1");
}

TEST(ChooseRegion, TwoRegionsInTheInputIsAnErrorNamingBothFields) {
  absl::StatusOr<RegionChoice> choice = ChooseRegion(
      RegionEvidenceOf({NodeWithLabels("n1", {{"topology.kubernetes.io/zone", "us-east-1a"}})},
                       {ClassInZones("c", {"eu-west-1a"})}, kKnown),
      "", kKnown);
  ASSERT_EQ(choice.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(choice.status().message(),
              HasSubstr("Node/n1: metadata.labels[topology.kubernetes.io/zone] us-east-1a is in "
                        "us-east-1, but EC2NodeClass/c: status.subnets[0].zone eu-west-1a is in "
                        "eu-west-1"));
}

TEST(ChooseRegion, AFlagThatDisagreesWithTheInputIsAnError) {
  absl::StatusOr<RegionChoice> choice =
      ChooseRegion({{"eu-west-1", "Node/n1: metadata.labels[x] eu-west-1"}}, "us-west-2", kKnown);
  ASSERT_EQ(choice.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(choice.status().message(),
              HasSubstr("--region us-west-2 disagrees with the input: Node/n1: "
                        "metadata.labels[x] eu-west-1 is in eu-west-1"));
}

TEST(ChooseRegion, AnUnknownRegionListsTheKnownOnes) {
  absl::StatusOr<RegionChoice> flag = ChooseRegion({}, "mars-1", kKnown);
  EXPECT_THAT(flag.status().message(),
              HasSubstr("--region: unknown region \"mars-1\"; known regions: eu-west-1, "
                        "us-east-1, us-west-2"));
  absl::StatusOr<RegionChoice> input = ChooseRegion({{"mars-1", "Node/n: f"}}, "", kKnown);
  EXPECT_THAT(input.status().message(), HasSubstr("Node/n: f: unknown region \"mars-1\""));
}

}  // namespace
}  // namespace karpenter::provisioning
