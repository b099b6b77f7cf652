#include "src/controllers/conditions.h"

#include "gtest/gtest.h"
#include "src/fakes/fake_clock.h"

namespace karpenter::controllers {
namespace {

std::string Types(const std::vector<api::Condition>& conditions) {
  std::string types;
  for (const api::Condition& condition : conditions) types += condition.type + " ";
  return types;
}

TEST(ConditionSet, MissingConditionsStartUnknownAndStaySortedByType) {
  fakes::FakeClock clock;
  std::vector<api::Condition> conditions;
  ConditionSet set(conditions, NodeClaimDependentConditions(), clock, 3);
  EXPECT_EQ(Types(conditions), "Initialized Launched Ready Registered ");
  EXPECT_TRUE(set.IsUnknown("Launched"));
  EXPECT_TRUE(set.IsUnknown("Drifted"));  // absent counts as unknown
  EXPECT_EQ(set.Get("Ready")->reason, "AwaitingReconciliation");
  EXPECT_EQ(set.Get("Ready")->observed_generation, 3);
}

TEST(ConditionSet, TheRootIsTrueOnlyWhenEveryDependentIs) {
  fakes::FakeClock clock;
  std::vector<api::Condition> conditions;
  ConditionSet set(conditions, NodeClaimDependentConditions(), clock, 1);
  set.SetTrue("Launched");
  set.SetTrue("Registered");
  EXPECT_TRUE(set.IsUnknown("Ready"));
  set.SetTrue("Initialized");
  EXPECT_TRUE(set.IsTrue("Ready"));
  set.SetFalse("Registered", "NodeGone", "the node vanished");
  EXPECT_TRUE(set.IsFalse("Ready"));
  EXPECT_EQ(set.Get("Ready")->reason, "NodeGone");
  // A failed dependent outweighs an unknown one.
  set.SetUnknown("Initialized", "NodeNotReady", "");
  EXPECT_TRUE(set.IsFalse("Ready"));
  EXPECT_EQ(set.Get("Ready")->reason, "NodeGone");
}

TEST(ConditionSet, TheTransitionTimeMovesOnlyWhenTheConditionChanges) {
  fakes::FakeClock clock;
  std::vector<api::Condition> conditions;
  ConditionSet set(conditions, NodeClaimDependentConditions(), clock, 1);
  set.SetUnknown("Registered", "NodeNotFound", "Node not registered with cluster");
  const api::Time first = *set.Get("Registered")->last_transition_time;
  clock.Advance(60'000);
  set.SetUnknown("Registered", "NodeNotFound", "Node not registered with cluster");
  EXPECT_EQ(*set.Get("Registered")->last_transition_time, first);
  set.SetTrue("Registered");
  EXPECT_EQ(*set.Get("Registered")->last_transition_time, clock.Now());
}

TEST(ConditionSet, OtherConditionsDoNotMoveTheRootDown) {
  fakes::FakeClock clock;
  std::vector<api::Condition> conditions;
  ConditionSet set(conditions, {"Launched"}, clock, 1);
  set.SetTrue("Launched");
  set.SetFalse("Drifted", "AMIDrift", "");
  EXPECT_TRUE(set.IsTrue("Ready"));
}

}  // namespace
}  // namespace karpenter::controllers
