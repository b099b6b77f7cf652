#include "src/state/pdb_limits.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace karpenter::state {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::SizeIs;
using Blocker = PdbLimits::Blocker;

constexpr api::Time kNow = api::Time::FromUnixNanos(1'700'000'000'000'000'000);

api::IntOrString Int(int32_t value) { return {.is_int = true, .int_value = value}; }
api::IntOrString Str(std::string value) { return {.str_value = std::move(value)}; }

api::PodDisruptionBudget Budget(std::string name, std::string app, int32_t allowed) {
  api::PodDisruptionBudget budget;
  budget.metadata.name = std::move(name);
  budget.metadata.namespace_ = "default";
  budget.spec.selector = api::LabelSelector{.match_labels = {{"app", std::move(app)}}};
  budget.spec.max_unavailable = Int(1);
  budget.status.disruptions_allowed = allowed;
  return budget;
}

api::Pod App(std::string app) {
  api::Pod pod;
  pod.metadata.name = "p";
  pod.metadata.namespace_ = "default";
  pod.metadata.labels["app"] = std::move(app);
  return pod;
}

TEST(PdbLimits, FullyBlockingBudgetShapes) {
  api::PodDisruptionBudget budget;
  budget.spec.max_unavailable = Int(0);
  EXPECT_TRUE(IsFullyBlockingBudget(budget));
  budget.spec.max_unavailable = Str("0%");
  EXPECT_TRUE(IsFullyBlockingBudget(budget));
  budget.spec.max_unavailable = Int(1);
  EXPECT_FALSE(IsFullyBlockingBudget(budget));
  budget.spec.max_unavailable.reset();
  budget.spec.min_available = Str("100%");
  EXPECT_TRUE(IsFullyBlockingBudget(budget));
  // An integer minAvailable equal to the replica count blocks too, but only the status knows.
  budget.spec.min_available = Int(3);
  EXPECT_FALSE(IsFullyBlockingBudget(budget));
}

TEST(PdbLimits, ZeroDisruptionsBlocksOnlyInThatMode) {
  const std::vector<api::PodDisruptionBudget> budgets = {Budget("web", "web", 0)};
  const PdbLimits limits(budgets);
  EXPECT_THAT(limits.BlockingBudgets(App("web"), kNow, Blocker::kZeroDisruptions),
              ElementsAre("default/web"));
  EXPECT_THAT(limits.BlockingBudgets(App("web"), kNow, Blocker::kFullyBlocking), IsEmpty());
  EXPECT_THAT(limits.BlockingBudgets(App("api"), kNow, Blocker::kZeroDisruptions), IsEmpty());
}

TEST(PdbLimits, PodUnderTwoBudgetsIsBlockedByBoth) {
  const std::vector<api::PodDisruptionBudget> budgets = {Budget("a", "web", 5),
                                                         Budget("b", "web", 5)};
  const PdbLimits limits(budgets);
  EXPECT_THAT(limits.BlockingBudgets(App("web"), kNow, Blocker::kFullyBlocking),
              ElementsAre("default/a", "default/b"));
  EXPECT_TRUE(limits.IsFullyBlocked(App("web"), kNow));
}

TEST(PdbLimits, BudgetInOtherNamespaceOrWithoutSelectorMatchesNothing) {
  std::vector<api::PodDisruptionBudget> budgets = {Budget("elsewhere", "web", 0),
                                                   Budget("no-selector", "web", 0)};
  budgets[0].metadata.namespace_ = "other";
  budgets[1].spec.selector.reset();
  const PdbLimits limits(budgets);
  EXPECT_THAT(limits.BlockingBudgets(App("web"), kNow, Blocker::kZeroDisruptions), IsEmpty());
}

TEST(PdbLimits, AlwaysAllowLetsNotReadyPodsThrough) {
  std::vector<api::PodDisruptionBudget> budgets = {Budget("web", "web", 0)};
  budgets[0].spec.unhealthy_pod_eviction_policy = "AlwaysAllow";
  const PdbLimits limits(budgets);
  api::Pod pod = App("web");
  EXPECT_THAT(limits.BlockingBudgets(pod, kNow, Blocker::kZeroDisruptions), SizeIs(1));
  pod.status.conditions.push_back({.type = "Ready", .status = "False"});
  EXPECT_THAT(limits.BlockingBudgets(pod, kNow, Blocker::kZeroDisruptions), IsEmpty());
}

TEST(PdbLimits, PodsKarpenterWouldNotEvictAreNeverBlocked) {
  const std::vector<api::PodDisruptionBudget> budgets = {Budget("web", "web", 0)};
  const PdbLimits limits(budgets);
  api::Pod done = App("web");
  done.status.phase = "Succeeded";
  EXPECT_THAT(limits.BlockingBudgets(done, kNow, Blocker::kZeroDisruptions), IsEmpty());
}

}  // namespace
}  // namespace karpenter::state
