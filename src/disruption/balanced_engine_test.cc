// The Balanced policy as the engine applies it: every consolidation method asks it, upstream's
// multi-node consolidation included (multinodeconsolidation.go scores each prefix it finds).
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "src/disruption/disruption.h"
#include "src/disruption/disruption_test_util.h"

namespace karpenter::disruption {
namespace {

using namespace ::karpenter::disruption::testing;  // NOLINT: test fixtures

const api::Time kNow = *api::Time::ParseRfc3339("2026-12-02T00:00:00Z");

// Two m5.xlarge with six 250m pods each and two m5.2xlarge full with one 7000m pod each.
std::string Cluster(const std::string& policy) {
  std::vector<std::string> docs = {
      kNodeClass,
      NodePoolYaml("default", "{consolidationPolicy: " + policy +
                                  ", consolidateAfter: 0s, budgets: [{nodes: '100%'}]}")};
  for (const std::string name : {"a", "b"}) {
    docs.push_back(NodeYaml({.name = name}));
    for (int i = 0; i < 6; ++i) {
      docs.push_back(
          PodYaml({.name = name + "-p" + std::to_string(i), .node = name, .cpu = "250m"}));
    }
  }
  for (const std::string name : {"c", "d"}) {
    docs.push_back(NodeYaml({.name = name, .instance_type = "m5.2xlarge", .cpu = "7910m"}));
    docs.push_back(PodYaml({.name = name + "-big", .node = name, .cpu = "7000m"}));
  }
  return Join(docs);
}

std::vector<Command> Decide(const std::string& yaml) {
  absl::StatusOr<state::ClusterSnapshot> snapshot = state::testing_util::SnapshotFromYaml(yaml);
  EXPECT_TRUE(snapshot.ok()) << snapshot.status();
  absl::StatusOr<DisruptionResult> result = ComputeDisruption(*snapshot, kNow);
  EXPECT_TRUE(result.ok()) << result.status();
  return result->commands;
}

TEST(BalancedEngine, MultiNodeConsolidationAsksTheBalancedPolicy) {
  // Replacing a and b by one m5.xlarge saves $0.192/h of the pool's $1.152/h (17 %) but causes
  // 14 of its 18 disruption cost (78 %): score 0.21 < 1/2. Deleting a alone (its pods fit on b)
  // scores 0.167 / 0.389 = 0.43, also under 1/2. Under WhenEmptyOrUnderutilized the multi-node
  // move is taken, which shows the cluster has one.
  const std::vector<Command> underutilized = Decide(Cluster("WhenEmptyOrUnderutilized"));
  ASSERT_EQ(underutilized.size(), 1u);
  EXPECT_EQ(underutilized.front().method, Method::kMultiNodeConsolidation);

  EXPECT_TRUE(Decide(Cluster("Balanced")).empty());
}

}  // namespace
}  // namespace karpenter::disruption
