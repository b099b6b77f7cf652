#include "src/disruption/queue.h"

#include <map>

#include "gtest/gtest.h"

namespace karpenter::disruption {
namespace {

using Kind = QueueAction::Kind;

api::Time T0() { return *api::Time::ParseRfc3339("2026-12-02T00:00:00Z"); }

Command Replace(std::vector<std::string> candidates, size_t replacements) {
  Command command{.method = Method::kSingleNodeConsolidation, .reason = Reason::kUnderutilized};
  command.candidates = std::move(candidates);
  command.replacements.resize(replacements);
  return command;
}

struct FakeClaims {
  std::map<std::string, ReplacementState> states;
  ReplacementState operator()(const std::string& name) const {
    auto it = states.find(name);
    return it == states.end() ? ReplacementState::kGone : it->second;
  }
};

TEST(OrchestrationQueue, StartTaintsCandidatesThenLaunchesReplacements) {
  OrchestrationQueue queue;
  std::vector<QueueAction> actions;
  const uint64_t id = queue.Start(Replace({"a", "b"}, 1), T0(), actions);
  EXPECT_EQ(actions, (std::vector<QueueAction>{
                         {.kind = Kind::kTaintCandidate, .command_id = id, .node = "a"},
                         {.kind = Kind::kTaintCandidate, .command_id = id, .node = "b"},
                         {.kind = Kind::kLaunchReplacement, .command_id = id, .replacement = 0},
                     }));
  EXPECT_TRUE(queue.Contains("a"));
  EXPECT_FALSE(queue.Contains("c"));
}

TEST(OrchestrationQueue, CandidatesAreDeletedOnlyAfterReplacementsInitialize) {
  OrchestrationQueue queue;
  std::vector<QueueAction> actions;
  const uint64_t id = queue.Start(Replace({"a"}, 1), T0(), actions);
  FakeClaims claims;
  // Not created yet, then launching: nothing to do.
  EXPECT_TRUE(queue.Reconcile(T0() + api::Duration::FromSeconds(1), claims).empty());
  queue.ReplacementCreated(id, 0, "default-x1");
  claims.states["default-x1"] = ReplacementState::kLaunching;
  EXPECT_TRUE(queue.Reconcile(T0() + api::Duration::FromSeconds(30), claims).empty());
  claims.states["default-x1"] = ReplacementState::kInitialized;
  EXPECT_EQ(
      queue.Reconcile(T0() + api::Duration::FromSeconds(60), claims),
      (std::vector<QueueAction>{{.kind = Kind::kDeleteCandidate, .command_id = id, .node = "a"}}));
  EXPECT_EQ(queue.size(), 0u);
  EXPECT_FALSE(queue.Contains("a"));
}

TEST(OrchestrationQueue, DeleteOnlyCommandsFinishOnTheFirstReconcile) {
  OrchestrationQueue queue;
  std::vector<QueueAction> actions;
  const uint64_t id = queue.Start(Replace({"a", "b"}, 0), T0(), actions);
  EXPECT_EQ(queue.Reconcile(T0(), FakeClaims{}).size(), 2u);
  EXPECT_EQ(actions.front().command_id, id);
}

TEST(OrchestrationQueue, ReplacementGoneRollsBack) {
  OrchestrationQueue queue;
  std::vector<QueueAction> actions;
  const uint64_t id = queue.Start(Replace({"a"}, 1), T0(), actions);
  queue.ReplacementCreated(id, 0, "default-x1");
  EXPECT_EQ(
      queue.Reconcile(T0() + api::Duration::FromSeconds(5), FakeClaims{}),
      (std::vector<QueueAction>{{.kind = Kind::kUntaintCandidate, .command_id = id, .node = "a"}}));
  EXPECT_FALSE(queue.Contains("a"));
}

TEST(OrchestrationQueue, TimeoutRollsBackAfterTenMinutesForSmallQueues) {
  OrchestrationQueue queue;
  std::vector<QueueAction> actions;
  const uint64_t id = queue.Start(Replace({"a"}, 1), T0(), actions);
  queue.ReplacementCreated(id, 0, "default-x1");
  FakeClaims claims;
  claims.states["default-x1"] = ReplacementState::kLaunching;
  EXPECT_EQ(queue.RetryTimeout(), api::Duration::FromMinutes(10));
  EXPECT_TRUE(queue.Reconcile(T0() + api::Duration::FromMinutes(10), claims).empty());
  EXPECT_EQ(queue.Reconcile(T0() + api::Duration::FromMinutes(11), claims).size(), 1u);
  EXPECT_EQ(queue.size(), 0u);
}

TEST(OrchestrationQueue, RetryTimeoutScalesWithQueuedCandidatesUpToAnHour) {
  OrchestrationQueue queue;
  std::vector<QueueAction> actions;
  std::vector<std::string> many;
  for (int i = 0; i < 10000; ++i) many.push_back("n" + std::to_string(i));
  queue.Start(Replace(many, 0), T0(), actions);
  EXPECT_EQ(queue.RetryTimeout(), api::Duration::FromMillis(800000));  // 13m20s
  queue.Start(Replace(many, 0), T0(), actions);
  queue.Start(Replace(many, 0), T0(), actions);
  queue.Start(Replace(many, 0), T0(), actions);
  queue.Start(Replace(many, 0), T0(), actions);
  EXPECT_EQ(queue.RetryTimeout(), api::Duration::FromHours(1));
}

TEST(OrchestrationQueue, FailedLaunchUntaintsAndForgets) {
  OrchestrationQueue queue;
  std::vector<QueueAction> actions;
  const uint64_t id = queue.Start(Replace({"a", "b"}, 1), T0(), actions);
  EXPECT_EQ(queue.ReplacementFailed(id).size(), 2u);
  EXPECT_EQ(queue.size(), 0u);
}

}  // namespace
}  // namespace karpenter::disruption
