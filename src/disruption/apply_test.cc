#include "src/disruption/apply.h"

#include "gtest/gtest.h"
#include "src/disruption/disruption.h"
#include "src/disruption/disruption_test_util.h"

namespace karpenter::disruption {
namespace {

using namespace ::karpenter::disruption::testing;  // NOLINT: test fixtures

api::Time Now() { return *api::Time::ParseRfc3339("2026-12-02T00:00:00Z"); }

state::ClusterSnapshot Load(const std::vector<std::string>& documents) {
  absl::StatusOr<state::ClusterSnapshot> snapshot =
      state::testing_util::SnapshotFromYaml(Join(documents));
  EXPECT_TRUE(snapshot.ok()) << snapshot.status();
  return *std::move(snapshot);
}

const std::string kPool = NodePoolYaml("default", "{consolidateAfter: 0s}");

TEST(ApplyCommands, ADeleteMovesThePodsAndRemovesTheNodeAndItsClaim) {
  const state::ClusterSnapshot before =
      Load({kNodeClass, kPool, NodeYaml({.name = "n1"}), NodeYaml({.name = "n2"}),
            PodYaml({.name = "a", .node = "n1", .cpu = "1"}),
            PodYaml({.name = "b", .node = "n2", .cpu = "1"})});
  provisioning::CatalogCache catalogs;
  provisioning::SnapshotSchedulerInput input =
      *provisioning::BuildSchedulerInput(before, {.now = Now()}, catalogs);
  const DisruptionResult result = ComputeDisruption(before, input, Now());
  ASSERT_EQ(result.commands.size(), 1u);
  ASSERT_TRUE(result.commands[0].replacements.empty());
  absl::StatusOr<state::ClusterSnapshot> after = ApplyCommands(before, result.commands, Now());
  ASSERT_TRUE(after.ok()) << after.status();
  ASSERT_EQ(after->nodes().size(), 1u);
  EXPECT_EQ(after->node_claims().size(), 1u);
  const std::string kept = after->nodes()[0].metadata.name;
  ASSERT_EQ(after->pods().size(), 2u);
  for (const api::Pod& pod : after->pods()) EXPECT_EQ(pod.spec.node_name, kept);
  // Nothing left to consolidate.
  provisioning::SnapshotSchedulerInput again =
      *provisioning::BuildSchedulerInput(*after, {.now = Now()}, catalogs);
  EXPECT_TRUE(ComputeDisruption(*after, again, Now()).commands.empty());
}

TEST(ApplyCommands, AReplacementBecomesAnInitializedNodeOfThePredictedLaunch) {
  const state::ClusterSnapshot before = Load(
      {kNodeClass, kPool, NodeYaml({.name = "n1", .instance_type = "m5.4xlarge", .cpu = "15890m"}),
       PodYaml({.name = "a", .node = "n1", .cpu = "1"})});
  provisioning::CatalogCache catalogs;
  provisioning::SnapshotSchedulerInput input =
      *provisioning::BuildSchedulerInput(before, {.now = Now()}, catalogs);
  const DisruptionResult result = ComputeDisruption(before, input, Now());
  ASSERT_EQ(result.commands.size(), 1u);
  ASSERT_EQ(result.commands[0].replacements.size(), 1u);
  const provisioning::LaunchPrediction& launch = result.commands[0].replacements[0].launch;
  absl::StatusOr<state::ClusterSnapshot> after = ApplyCommands(before, result.commands, Now());
  ASSERT_TRUE(after.ok()) << after.status();
  ASSERT_EQ(after->nodes().size(), 1u);
  const api::Node& node = after->nodes()[0];
  EXPECT_EQ(node.metadata.name, "replacement-1");
  EXPECT_EQ(node.metadata.labels.at("node.kubernetes.io/instance-type"), launch.instance_type);
  EXPECT_FALSE(node.status.allocatable.empty());
  ASSERT_EQ(after->node_claims().size(), 1u);
  EXPECT_EQ(after->NodeClaimForNode(node), &after->node_claims()[0]);
  ASSERT_EQ(after->pods().size(), 1u);
  EXPECT_EQ(after->pods()[0].spec.node_name, "replacement-1");
}

}  // namespace
}  // namespace karpenter::disruption
