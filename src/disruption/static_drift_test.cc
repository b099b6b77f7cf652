// AllowStaticDrift: budget, drifted count, limits.nodes and the scale-down rule of upstream
// StaticDrift.ComputeCommands.
#include "src/disruption/static_drift.h"

#include "gtest/gtest.h"

namespace karpenter::disruption {
namespace {

api::NodePool StaticPool(int64_t replicas, const char* node_limit = nullptr) {
  api::NodePool pool;
  pool.metadata.name = "static";
  pool.spec.replicas = replicas;
  if (node_limit != nullptr) pool.spec.limits["nodes"] = *api::Quantity::Parse(node_limit);
  return pool;
}

TEST(AllowStaticDrift, WithoutNodeLimitTheBudgetAndDriftedCountDecide) {
  const StaticPoolCounts counts{.active = 5};
  EXPECT_EQ(AllowStaticDrift(StaticPool(5), counts, 2, 4).replaceable, 2);
  EXPECT_EQ(AllowStaticDrift(StaticPool(5), counts, 10, 4).replaceable, 4);
  EXPECT_EQ(AllowStaticDrift(StaticPool(5), counts, 10, 4).held_by, "");
}

TEST(AllowStaticDrift, NodeLimitLeavesRoomForSpareNodesOnly) {
  const StaticPoolCounts counts{.active = 3};
  EXPECT_EQ(AllowStaticDrift(StaticPool(3, "5"), counts, 10, 3).replaceable, 2);
  const StaticDriftAllowance none = AllowStaticDrift(StaticPool(3, "3"), counts, 10, 3);
  EXPECT_EQ(none.replaceable, 0);
  EXPECT_NE(none.held_by.find("limits.nodes 3"), std::string::npos) << none.held_by;
}

TEST(AllowStaticDrift, DeletingNodeClaimsTakeLimitRoom) {
  EXPECT_EQ(AllowStaticDrift(StaticPool(3, "5"), {.active = 3, .deleting = 1}, 10, 3).replaceable,
            1);
  // A limit already exceeded grants nothing rather than a negative count.
  EXPECT_EQ(AllowStaticDrift(StaticPool(3, "2"), {.active = 3}, 10, 3).replaceable, 0);
}

TEST(AllowStaticDrift, NothingWhileMoreNodeClaimsThanReplicas) {
  const StaticDriftAllowance waiting =
      AllowStaticDrift(StaticPool(2, "10"), {.active = 2, .pending_disruption = 1}, 10, 2);
  EXPECT_EQ(waiting.replaceable, 0);
  EXPECT_NE(waiting.held_by.find("3 NodeClaims for 2 replicas"), std::string::npos);
  EXPECT_EQ(AllowStaticDrift(StaticPool(3, "10"), {.active = 2, .pending_disruption = 1}, 10, 2)
                .replaceable,
            2);
}

}  // namespace
}  // namespace karpenter::disruption
