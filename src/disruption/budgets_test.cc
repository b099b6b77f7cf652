#include "src/disruption/budgets.h"

#include "gtest/gtest.h"
#include "src/disruption/disruption_test_util.h"

namespace karpenter::disruption {
namespace {

using namespace ::karpenter::disruption::testing;  // NOLINT: test fixtures

api::Time At(const char* text) { return *api::Time::ParseRfc3339(text); }

api::NodePool PoolWith(std::vector<api::Budget> budgets) {
  api::NodePool pool;
  pool.metadata.name = "default";
  pool.spec.disruption = api::Disruption{};
  pool.spec.disruption->budgets = std::move(budgets);
  return pool;
}

TEST(AllowedDisruptions, PercentRoundsUp) {
  const api::NodePool pool = PoolWith({{.nodes = "10%"}});
  EXPECT_EQ(*AllowedDisruptions(pool, At("2026-12-02T00:00:00Z"), 3, Reason::kEmpty), 1);
  EXPECT_EQ(*AllowedDisruptions(pool, At("2026-12-02T00:00:00Z"), 11, Reason::kEmpty), 2);
  EXPECT_EQ(*AllowedDisruptions(pool, At("2026-12-02T00:00:00Z"), 0, Reason::kEmpty), 0);
}

TEST(AllowedDisruptions, DefaultBudgetIsTenPercentWhenDisruptionAbsent) {
  api::NodePool pool;
  EXPECT_EQ(*AllowedDisruptions(pool, At("2026-12-02T00:00:00Z"), 20, Reason::kDrifted), 2);
}

TEST(AllowedDisruptions, EmptyBudgetListIsUnlimited) {
  const api::NodePool pool = PoolWith({});
  EXPECT_EQ(*AllowedDisruptions(pool, At("2026-12-02T00:00:00Z"), 5, Reason::kEmpty),
            kUnlimitedDisruptions);
}

TEST(AllowedDisruptions, MinimumOverBudgetsNamingTheReason) {
  const api::NodePool pool =
      PoolWith({{.reasons = {"Drifted"}, .nodes = "0"}, {.nodes = "4"}, {.nodes = "50%"}});
  const api::Time now = At("2026-12-02T00:00:00Z");
  EXPECT_EQ(*AllowedDisruptions(pool, now, 10, Reason::kDrifted), 0);
  EXPECT_EQ(*AllowedDisruptions(pool, now, 10, Reason::kEmpty), 4);
  EXPECT_EQ(*AllowedDisruptions(pool, now, 6, Reason::kUnderutilized), 3);
}

TEST(IsBudgetActive, InsideAndOutsideTheCronWindow) {
  const api::Budget budget{
      .nodes = "0", .schedule = "0 9 * * mon-fri", .duration = *api::Duration::Parse("8h")};
  EXPECT_TRUE(*IsBudgetActive(budget, At("2026-12-02T09:00:00Z")));  // Wednesday, at the fire
  EXPECT_TRUE(*IsBudgetActive(budget, At("2026-12-02T16:59:59Z")));
  EXPECT_FALSE(*IsBudgetActive(budget, At("2026-12-02T17:00:01Z")));  // after the window
  EXPECT_FALSE(*IsBudgetActive(budget, At("2026-12-05T12:00:00Z")));  // Saturday
}

TEST(IsBudgetActive, InvalidCronIsAnError) {
  const api::Budget budget{.nodes = "0", .schedule = "not a cron", .duration = api::Duration()};
  EXPECT_FALSE(IsBudgetActive(budget, At("2026-12-02T00:00:00Z")).ok());
}

TEST(BuildBudgetMapping, DisruptingNodesConsumeBudgetAndRemainderIsNotNegative) {
  absl::StatusOr<state::ClusterSnapshot> snapshot = state::testing_util::SnapshotFromYaml(
      Join({kNodeClass, NodePoolYaml("default", "{consolidateAfter: 0s, budgets: [{nodes: '1'}]}"),
            NodeYaml({.name = "a"}), NodeYaml({.name = "b"}), NodeYaml({.name = "c"})}));
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  auto budgets = BuildBudgetMapping(*snapshot, At("2026-12-02T00:00:00Z"), Reason::kEmpty,
                                    /*extra_disrupting=*/{"a", "b"});
  EXPECT_EQ(budgets["default"].nodes, 3);
  EXPECT_EQ(budgets["default"].disrupting, 2);
  EXPECT_EQ(budgets["default"].allowed, 1);
  EXPECT_EQ(budgets["default"].remaining, 0);
}

TEST(BuildBudgetMapping, UninitializedNodesAreNotCounted) {
  absl::StatusOr<state::ClusterSnapshot> snapshot = state::testing_util::SnapshotFromYaml(Join(
      {kNodeClass, NodePoolYaml("default", "{consolidateAfter: 0s, budgets: [{nodes: '50%'}]}"),
       NodeYaml({.name = "a"}), NodeYaml({.name = "b", .initialized = false})}));
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  auto budgets = BuildBudgetMapping(*snapshot, At("2026-12-02T00:00:00Z"), Reason::kEmpty);
  EXPECT_EQ(budgets["default"].nodes, 1);
  EXPECT_EQ(budgets["default"].allowed, 1);
}

TEST(BuildBudgetMapping, MalformedScheduleAllowsNothingAndSaysWhy) {
  absl::StatusOr<state::ClusterSnapshot> snapshot = state::testing_util::SnapshotFromYaml(
      Join({kNodeClass,
            NodePoolYaml("default",
                         "{consolidateAfter: 0s, budgets: [{nodes: '5', schedule: '61 * * * *', "
                         "duration: 1h}]}"),
            NodeYaml({.name = "a"})}));
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  auto budgets = BuildBudgetMapping(*snapshot, At("2026-12-02T00:00:00Z"), Reason::kEmpty);
  EXPECT_EQ(budgets["default"].allowed, 0);
  EXPECT_FALSE(budgets["default"].problem.empty());
}

}  // namespace
}  // namespace karpenter::disruption
