#include <atomic>
#include <thread>

#include "gtest/gtest.h"
#include "src/disruption/disruption.h"
#include "src/disruption/disruption_test_util.h"

namespace karpenter::disruption {
namespace {

using namespace ::karpenter::disruption::testing;  // NOLINT: test fixtures

api::Time Now() { return *api::Time::ParseRfc3339("2026-12-02T00:00:00Z"); }

using Cluster = LoadedCluster;

Cluster Load(const std::vector<std::string>& documents) { return LoadCluster(documents, Now()); }

// n1 (one small pod) consolidates onto n2; with `empty_node`, n3 has no pods at all.
std::vector<std::string> Documents(bool empty_node) {
  std::vector<std::string> documents = {
      kNodeClass,
      NodePoolYaml("default", "{consolidateAfter: 0s, budgets: [{nodes: '1'}]}"),
      NodeYaml({.name = "n1"}),
      NodeYaml({.name = "n2"}),
      PodYaml({.name = "a", .node = "n1", .cpu = "1"}),
      PodYaml({.name = "b", .node = "n2", .cpu = "1"})};
  if (empty_node) documents.push_back(NodeYaml({.name = "n3"}));
  return documents;
}

// The consolidation step may run on a thread of its own; the pass then decides as
// ComputeDisruption does.
TEST(DisruptionPass, ConsolidatingOnAnotherThreadDecidesAsComputeDisruption) {
  Cluster cluster = Load(Documents(false));
  const DisruptionResult whole = ComputeDisruption(cluster.snapshot, cluster.input, Now());
  ASSERT_EQ(whole.commands.size(), 1u);
  ASSERT_EQ(whole.commands[0].method, Method::kSingleNodeConsolidation);

  DisruptionPass pass(cluster.snapshot, cluster.input, Now(), {});
  EXPECT_FALSE(pass.FoundCommand());
  std::thread worker([&pass] { pass.Consolidate(); });
  worker.join();
  const DisruptionResult stepped = std::move(pass).Finish();
  ASSERT_EQ(stepped.commands.size(), 1u);
  EXPECT_EQ(stepped.commands[0].method, whole.commands[0].method);
  EXPECT_EQ(stepped.commands[0].candidates, whole.commands[0].candidates);
  EXPECT_EQ(stepped.notes, whole.notes);
  EXPECT_EQ(stepped.now_consolidated, whole.now_consolidated);
}

// Emptiness decides before consolidation: the pass knows it has a command after its first step,
// and consolidation then adds nothing.
TEST(DisruptionPass, FindsAnEmptinessCommandBeforeConsolidating) {
  Cluster cluster = Load(Documents(true));
  DisruptionPass pass(cluster.snapshot, cluster.input, Now(), {});
  EXPECT_TRUE(pass.FoundCommand());
  pass.Consolidate();
  const DisruptionResult result = std::move(pass).Finish();
  ASSERT_EQ(result.commands.size(), 1u);
  EXPECT_EQ(result.commands[0].method, Method::kEmptiness);
  EXPECT_EQ(result.commands[0].candidates, std::vector<std::string>{"n3"});
}

// A pass cancelled before it consolidates runs no consolidation method.
TEST(DisruptionPass, ACancelledPassConsolidatesNothing) {
  Cluster cluster = Load(Documents(false));
  DisruptionPass pass(cluster.snapshot, cluster.input, Now(), {});
  const std::atomic<bool> cancelled = true;
  pass.Consolidate(&cancelled);
  EXPECT_TRUE(std::move(pass).Finish().commands.empty());
}

// Marks learned after the constructor count as if the options had them: the single-node move
// is skipped. Emptiness's mark, set by the constructor, is known before consolidating.
TEST(DisruptionPass, MethodsMarkedAfterConstructionAreSkipped) {
  Cluster cluster = Load(Documents(false));
  DisruptionPass pass(cluster.snapshot, cluster.input, Now(), {});
  EXPECT_TRUE(pass.NowConsolidated().empty());  // no empty node: Emptiness had no candidate
  const Method consolidated[] = {Method::kMultiNodeConsolidation, Method::kSingleNodeConsolidation};
  pass.AlsoConsolidated(consolidated);
  pass.Consolidate();
  EXPECT_TRUE(std::move(pass).Finish().commands.empty());
}

}  // namespace
}  // namespace karpenter::disruption
