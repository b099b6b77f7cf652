// The opt-in extended consolidation search (extended_consolidation.h): moves upstream's prefix
// search misses, found only when asked for, and the same invariants as upstream's moves.
#include "src/disruption/extended_consolidation.h"

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rapidcheck.h"
#include "src/disruption/disruption.h"
#include "src/disruption/disruption_test_util.h"
#include "src/disruption/report.h"
#include "src/state/pdb_limits.h"
#include "src/state/pod_predicates.h"
#include "test/property_check.h"

namespace karpenter::disruption {
namespace {

using namespace ::karpenter::disruption::testing;  // NOLINT: test fixtures

const api::Time kNow = *api::Time::ParseRfc3339("2026-12-02T00:00:00Z");
const DisruptionOptions kExtended = {.consolidation_search = ConsolidationSearch::kExtended};

std::string Pool() {
  return NodePoolYaml("default", "{consolidateAfter: 0s, budgets: [{nodes: '100%'}]}");
}

// A running pod that only an m5.2xlarge may hold: it can move to a new m5.2xlarge, never share.
std::string PinnedPodYaml(const std::string& name, const std::string& node) {
  return fmt::format(R"(apiVersion: v1
kind: Pod
metadata: {{name: {}, namespace: default}}
spec:
  nodeSelector: {{node.kubernetes.io/instance-type: m5.2xlarge}}
  containers:
  - {{name: app, image: pause, resources: {{requests: {{cpu: 7800m, memory: 128Mi}}}}}}
  nodeName: {}
status: {{phase: Running, startTime: '2026-12-01T00:00:00Z'}}
)",
                     name, node);
}

DisruptionResult Decide(const std::string& yaml, const DisruptionOptions& options) {
  absl::StatusOr<state::ClusterSnapshot> snapshot = state::testing_util::SnapshotFromYaml(yaml);
  EXPECT_TRUE(snapshot.ok()) << snapshot.status();
  absl::StatusOr<DisruptionResult> result = ComputeDisruption(*snapshot, kNow, options);
  EXPECT_TRUE(result.ok()) << result.status();
  return *std::move(result);
}

// `count` m5.xlarge nodes x0..., each with `pods` pods of `milli` millicores.
std::vector<std::string> XlargeNodes(int count, int pods, int milli) {
  std::vector<std::string> docs;
  for (int i = 0; i < count; ++i) {
    const std::string name = "x" + std::to_string(i);
    docs.push_back(NodeYaml({.name = name}));
    for (int j = 0; j < pods; ++j) {
      docs.push_back(PodYaml({.name = name + "-p" + std::to_string(j),
                              .node = name,
                              .cpu = fmt::format("{}m", milli)}));
    }
  }
  return docs;
}

TEST(ExtendedConsolidation, FillsALargerNodeWhereTheBinarySearchStepsOverIt) {
  // Five m5.xlarge at 2 × 1400m: no pod fits another node's 1120m, no node fits an m5.large, and
  // the binary search tries prefixes of 3 (8400m: only an m5.4xlarge, dearer than three) and 2
  // (an m5.2xlarge at the same price) only. All five fit one m5.4xlarge: $0.768 < $0.96.
  std::vector<std::string> docs = {kNodeClass, Pool()};
  for (std::string& doc : XlargeNodes(5, 2, 1400)) docs.push_back(std::move(doc));
  const std::string yaml = Join(docs);

  EXPECT_TRUE(Decide(yaml, {}).commands.empty());

  const DisruptionResult result = Decide(yaml, kExtended);
  ASSERT_EQ(result.commands.size(), 1u);
  const Command& command = result.commands.front();
  EXPECT_EQ(command.method, Method::kMultiNodeConsolidation);
  EXPECT_EQ(command.reason, Reason::kUnderutilized);
  EXPECT_EQ(command.candidates, (std::vector<std::string>{"x0", "x1", "x2", "x3", "x4"}));
  ASSERT_EQ(command.replacements.size(), 1u);
  EXPECT_EQ(command.replacements.front().launch.instance_type, "m5.4xlarge");
  EXPECT_NEAR(command.savings_per_hour, 5 * 0.192 - 0.768, 1e-9);
  EXPECT_EQ(command.detail,
            "extended search: nodepool default, candidates of instance type m5.xlarge");
  EXPECT_EQ(command.destinations.size(), 10u);
}

TEST(ExtendedConsolidation, GroupsByInstanceTypeAroundANodeThatCannotShare) {
  // The pinned node has the highest savings ratio, so every upstream prefix starts with it, and
  // its pod fills any m5.2xlarge: no prefix consolidates. Of the m5.xlarge alone, three at 2600m
  // fit one m5.2xlarge ($0.384 < $0.576).
  std::vector<std::string> docs = {
      kNodeClass, Pool(),
      NodeYaml({.name = "a-pinned", .instance_type = "m5.2xlarge", .cpu = "7910m"}),
      PinnedPodYaml("pinned", "a-pinned")};
  for (std::string& doc : XlargeNodes(3, 1, 2600)) docs.push_back(std::move(doc));
  const std::string yaml = Join(docs);

  EXPECT_TRUE(Decide(yaml, {}).commands.empty());

  const DisruptionResult result = Decide(yaml, kExtended);
  ASSERT_EQ(result.commands.size(), 1u);
  const Command& command = result.commands.front();
  EXPECT_EQ(command.candidates, (std::vector<std::string>{"x0", "x1", "x2"}));
  ASSERT_EQ(command.replacements.size(), 1u);
  EXPECT_EQ(command.replacements.front().launch.instance_type, "m5.2xlarge");
  EXPECT_NEAR(command.savings_per_hour, 3 * 0.192 - 0.384, 1e-9);
}

TEST(ExtendedConsolidation, LeavesUpstreamDecisionsAlone) {
  // Four lightly used m5.xlarge: upstream's multi-node consolidation acts, and the extended
  // search must decide exactly the same.
  std::vector<std::string> docs = {kNodeClass, Pool()};
  for (std::string& doc : XlargeNodes(4, 1, 500)) docs.push_back(std::move(doc));
  const std::string yaml = Join(docs);
  const DisruptionResult upstream = Decide(yaml, {});
  ASSERT_FALSE(upstream.commands.empty());
  EXPECT_EQ(RenderDisruptionText(Decide(yaml, kExtended)), RenderDisruptionText(upstream));
}

TEST(ExtendedConsolidation, HonoursTheNodePoolBudget) {
  // The five-node move of the first test, with a budget of two disruptions: the extension only
  // sees two candidates, and two m5.xlarge at 2800m have no cheaper home.
  std::vector<std::string> docs = {
      kNodeClass, NodePoolYaml("default", "{consolidateAfter: 0s, budgets: [{nodes: '2'}]}")};
  for (std::string& doc : XlargeNodes(5, 2, 1400)) docs.push_back(std::move(doc));
  EXPECT_TRUE(Decide(Join(docs), kExtended).commands.empty());
}

TEST(ParseConsolidationSearch, KnowsBothSearches) {
  EXPECT_EQ(ParseConsolidationSearch("upstream"), ConsolidationSearch::kUpstream);
  EXPECT_EQ(ParseConsolidationSearch("extended"), ConsolidationSearch::kExtended);
  EXPECT_EQ(ParseConsolidationSearch("Extended"), std::nullopt);
}

constexpr property_test::PropertyOptions kProperty = {0x657874656e646564, 30, 100};

// One pool with a random budget; 2–7 m5.xlarge (and maybe m5.large) nodes holding one or two
// pods each, mostly large ones that fit no other node, and maybe the pinned m5.2xlarge that
// spoils every upstream prefix: the extension often has a move, and upstream has one in the
// clusters of light pods. Some pods are do-not-disrupt or behind a PDB allowing no disruption.
std::string CrowdedCluster() {
  const std::vector<std::string> budgets = {"'100%'", "'50%'", "'3'", "'2'", "'1'"};
  const std::string budget = budgets[*rc::gen::inRange<size_t>(0, budgets.size())];
  std::vector<std::string> docs = {
      kNodeClass,
      NodePoolYaml("default", "{consolidateAfter: 0s, budgets: [{nodes: " + budget + "}]}")};
  if (*rc::gen::inRange(0, 3) != 2) {
    docs.push_back(NodeYaml({.name = "a-pinned", .instance_type = "m5.2xlarge", .cpu = "7910m"}));
    docs.push_back(PinnedPodYaml("pinned", "a-pinned"));
  }
  // RapidCheck's small sizes keep inRange near its lower end, so the common cases (many nodes,
  // big pods, no protection) sit at that end.
  const int nodes = 7 - *rc::gen::inRange(0, 5);
  // A third of the clusters carry light pods, which upstream's own moves consolidate.
  const bool light = *rc::gen::inRange(0, 3) == 2;
  for (int i = 0; i < nodes; ++i) {
    const bool large = *rc::gen::inRange(0, 5) == 4;
    const std::string name = "n" + std::to_string(i);
    docs.push_back(NodeYaml({.name = name,
                             .instance_type = large ? "m5.large" : "m5.xlarge",
                             .cpu = large ? "1930m" : "3920m"}));
    const int pods = *rc::gen::inRange(0, 4) == 3 ? 2 : 1;
    for (int j = 0; j < pods; ++j) {
      const int milli = large   ? 900 - *rc::gen::inRange(0, 500)
                        : light ? 1200 - *rc::gen::inRange(0, 900)
                                : (pods == 1 ? 2600 : 1900) - *rc::gen::inRange(0, 900);
      const int kind = 11 - *rc::gen::inRange(0, 12);
      docs.push_back(
          PodYaml({.name = name + "-p" + std::to_string(j),
                   .node = name,
                   .cpu = std::to_string(milli) + "m",
                   .labels = kind == 1 ? "{app: guarded}" : "{app: free}",
                   .annotations = kind == 0 ? "{karpenter.sh/do-not-disrupt: 'true'}" : "{}"}));
    }
  }
  docs.push_back(PdbYaml("guarded", "guarded", 0));
  return Join(docs);
}

TEST(ExtendedConsolidationProperty, MovesSaveMoneyWithinBudgetsAndProtection) {
  int extended_moves = 0;
  int upstream_moves = 0;
  property_test::CheckProperty(kProperty, "extended consolidation invariants", [&] {
    absl::StatusOr<state::ClusterSnapshot> snapshot =
        state::testing_util::SnapshotFromYaml(CrowdedCluster());
    RC_ASSERT(snapshot.ok());
    absl::StatusOr<DisruptionResult> upstream = ComputeDisruption(*snapshot, kNow);
    absl::StatusOr<DisruptionResult> extended = ComputeDisruption(*snapshot, kNow, kExtended);
    RC_ASSERT(upstream.ok() && extended.ok());
    // Whatever upstream decides is decided the same way.
    if (!upstream->commands.empty()) {
      ++upstream_moves;
      RC_ASSERT(RenderDisruptionText(*extended) == RenderDisruptionText(*upstream));
      return;
    }
    RC_ASSERT(extended->commands.size() <= 1u);
    if (extended->commands.empty()) return;
    ++extended_moves;
    const Command& command = extended->commands.front();
    RC_ASSERT(command.method == Method::kMultiNodeConsolidation);
    RC_ASSERT(command.candidates.size() >= 2u);
    // Never more nodes than it removes (a re-shape launches two or three, reshape_consolidation.h).
    RC_ASSERT(command.replacements.size() <= command.candidates.size());
    // Strictly cheaper: the candidates' summed node prices above the replacement's launch price.
    double candidate_price = 0;
    for (const std::string& name : command.candidates) {
      const api::Node* node = snapshot->FindNode(name);
      RC_ASSERT(node != nullptr);
      // A re-shape may take the pinned m5.2xlarge too.
      const std::map<std::string, double> prices = {
          {"m5.large", 0.096}, {"m5.xlarge", 0.192}, {"m5.2xlarge", 0.384}};
      candidate_price += prices.at(node->metadata.labels.at("node.kubernetes.io/instance-type"));
    }
    RC_ASSERT(std::abs(candidate_price - command.candidate_price_per_hour) < 1e-9);
    double replacement_price = 0;
    for (const auto& planned : command.replacements) replacement_price += planned.launch.price;
    RC_ASSERT(replacement_price < candidate_price);
    RC_ASSERT(command.savings_per_hour > 0);
    const auto budgets = BuildBudgetMapping(*snapshot, kNow, command.reason);
    RC_ASSERT(static_cast<int64_t>(command.candidates.size()) <= budgets.at("default").remaining);
    const state::PdbLimits pdbs(snapshot->pod_disruption_budgets());
    for (const std::string& name : command.candidates) {
      for (const api::Pod* pod : snapshot->PodsOnNode(name)) {
        RC_ASSERT(!state::IsDoNotDisruptActive(*pod, kNow));
        RC_ASSERT(
            pdbs.BlockingBudgets(*pod, kNow, state::PdbLimits::Blocker::kZeroDisruptions).empty());
        RC_ASSERT(
            command.destinations.contains(pod->metadata.namespace_ + "/" + pod->metadata.name));
      }
    }
  });
  // The generator must reach moves only the extension makes, and moves upstream makes, or the
  // checks above hold vacuously.
  EXPECT_GE(extended_moves, 3);
  EXPECT_GE(upstream_moves, 3);
}

}  // namespace
}  // namespace karpenter::disruption
