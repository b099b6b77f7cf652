#include "src/disruption/candidates.h"

#include "gtest/gtest.h"
#include "src/disruption/disruption_test_util.h"
#include "src/provisioning/snapshot_input.h"

namespace karpenter::disruption {
namespace {

using namespace ::karpenter::disruption::testing;  // NOLINT: test fixtures

api::Time Now() { return *api::Time::ParseRfc3339("2026-12-02T00:00:00Z"); }

api::Pod PodWith(std::map<std::string, std::string> annotations, std::optional<int32_t> priority) {
  api::Pod pod;
  pod.metadata.annotations = std::move(annotations);
  pod.spec.priority = priority;
  return pod;
}

TEST(EvictionCost, DeletionCostAndPriorityShiftTheDefaultOfOne) {
  EXPECT_DOUBLE_EQ(EvictionCost(PodWith({}, std::nullopt)), 1.0);
  EXPECT_DOUBLE_EQ(
      EvictionCost(PodWith({{"controller.kubernetes.io/pod-deletion-cost", "134217728"}}, {})),
      2.0);
  EXPECT_DOUBLE_EQ(EvictionCost(PodWith({}, 33554432)), 2.0);
  EXPECT_DOUBLE_EQ(EvictionCost(PodWith({}, 1000000000)), 10.0);  // clamped
  EXPECT_DOUBLE_EQ(
      EvictionCost(PodWith({{"controller.kubernetes.io/pod-deletion-cost", "junk"}}, {})), 1.0);
}

TEST(LifetimeRemaining, ScalesFromOneToZeroOverExpireAfter) {
  api::NodeClaim claim;
  claim.metadata.creation_timestamp = *api::Time::ParseRfc3339("2026-12-01T00:00:00Z");
  claim.spec.expire_after = *api::NillableDuration::Parse("48h");
  EXPECT_DOUBLE_EQ(LifetimeRemaining(claim, nullptr, Now()), 0.5);
  claim.spec.expire_after = *api::NillableDuration::Parse("12h");
  EXPECT_DOUBLE_EQ(LifetimeRemaining(claim, nullptr, Now()), 0.0);
  claim.spec.expire_after = api::NillableDuration::Never();
  EXPECT_DOUBLE_EQ(LifetimeRemaining(claim, nullptr, Now()), 1.0);
}

using Built = LoadedCluster;

Built Build(const std::vector<std::string>& documents) { return LoadCluster(documents, Now()); }

TEST(BuildCandidates, PricesTheNodeAndCountsReschedulablePods) {
  Built built =
      Build({kNodeClass, NodePoolYaml("default", "{consolidateAfter: 0s}"), NodeYaml({.name = "a"}),
             PodYaml({.name = "p", .node = "a"}), PodYaml({.name = "q", .node = "a"})});
  const PoolInstanceTypes types = IndexInstanceTypes(built.input.input);
  CandidateSet set = BuildCandidates(built.snapshot, types, Now());
  ASSERT_EQ(set.candidates.size(), 1u);
  const Candidate& candidate = set.candidates.front();
  EXPECT_EQ(candidate.name(), "a");
  EXPECT_NEAR(candidate.price, 0.192, 1e-9);
  EXPECT_EQ(candidate.reschedulable_pods.size(), 2u);
  EXPECT_DOUBLE_EQ(candidate.reschedule_disruption_cost, 3.0);
  EXPECT_FALSE(candidate.IsEmpty());
  EXPECT_TRUE(set.blocked.empty());
}

TEST(BuildCandidates, BlockedNodesCarryAReasonAndPodBlocksKeepTheCandidate) {
  Built built =
      Build({kNodeClass, NodePoolYaml("default", "{consolidateAfter: 0s}"), NodeYaml({.name = "a"}),
             NodeYaml({.name = "b", .initialized = false}),
             NodeYaml({.name = "c", .node_annotations = "{karpenter.sh/do-not-disrupt: 'true'}"}),
             NodeYaml({.name = "d"}), PodYaml({.name = "web", .node = "d", .labels = "{app: web}"}),
             PdbYaml("web", "web", 0)});
  const PoolInstanceTypes types = IndexInstanceTypes(built.input.input);
  CandidateSet set = BuildCandidates(built.snapshot, types, Now());
  ASSERT_EQ(set.blocked.size(), 3u);
  EXPECT_EQ(set.blocked[0].node, "b");
  EXPECT_NE(set.blocked[0].reason.find("initialized"), std::string::npos);
  EXPECT_EQ(set.blocked[1].node, "c");
  EXPECT_NE(set.blocked[1].reason.find("do-not-disrupt"), std::string::npos);
  EXPECT_EQ(set.blocked[2].node, "d");
  EXPECT_EQ(set.blocked[2].reason, "PDB default/web allows 0 disruptions (pod default/web)");
  // a is clean; d stays a candidate for eventual methods, marked by its pod block.
  ASSERT_EQ(set.candidates.size(), 2u);
  EXPECT_TRUE(set.candidates[0].pod_block.empty());
  EXPECT_FALSE(set.candidates[1].pod_block.empty());
}

}  // namespace
}  // namespace karpenter::disruption
