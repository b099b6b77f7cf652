// The per-node, per-method verdicts the engine records for `plan --explain node/NAME`: each
// method's answer for each node, with the numbers behind it, and no effect on the decisions.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "src/disruption/disruption.h"
#include "src/disruption/disruption_test_util.h"

namespace karpenter::disruption {
namespace {

using namespace ::karpenter::disruption::testing;  // NOLINT: test fixtures

const api::Time kNow = *api::Time::ParseRfc3339("2026-12-02T00:00:00Z");

DisruptionResult Decide(const std::vector<std::string>& documents, bool record = true) {
  LoadedCluster cluster = LoadCluster(documents, kNow);
  return ComputeDisruption(cluster.snapshot, cluster.input, kNow, {.record_verdicts = record});
}

const MethodVerdict* Find(const DisruptionResult& result, const std::string& node, Method method) {
  for (const MethodVerdict& verdict : result.verdicts) {
    if (verdict.node == node && verdict.method == method) return &verdict;
  }
  return nullptr;
}

// n1 and n2 each hold one small pod; n3 is empty.
std::vector<std::string> ThreeNodes(const std::string& disruption) {
  return {kNodeClass,
          NodePoolYaml("default", disruption),
          NodeYaml({.name = "n1"}),
          NodeYaml({.name = "n2"}),
          NodeYaml({.name = "n3"}),
          PodYaml({.name = "a", .node = "n1", .cpu = "1", .labels = "{app: web}"}),
          PodYaml({.name = "b", .node = "n2", .cpu = "1"})};
}

TEST(Verdicts, NotRecordedUnlessAskedAndDecisionsAreTheSame) {
  const std::vector<std::string> docs = ThreeNodes("{consolidateAfter: 0s}");
  const DisruptionResult quiet = Decide(docs, false);
  const DisruptionResult explained = Decide(docs, true);
  EXPECT_TRUE(quiet.verdicts.empty());
  EXPECT_FALSE(explained.verdicts.empty());
  ASSERT_EQ(quiet.commands.size(), explained.commands.size());
  for (size_t i = 0; i < quiet.commands.size(); ++i) {
    EXPECT_EQ(quiet.commands[i].candidates, explained.commands[i].candidates);
  }
  EXPECT_EQ(quiet.notes, explained.notes);
}

TEST(Verdicts, EveryNodeGetsEveryMethodInRunOrder) {
  const DisruptionResult result = Decide(ThreeNodes("{consolidateAfter: 0s}"));
  ASSERT_EQ(result.verdicts.size(), 18u);  // 3 nodes × 6 methods
  const std::vector<Method> order = {Method::kExpiration,
                                     Method::kEmptiness,
                                     Method::kStaticDrift,
                                     Method::kDrift,
                                     Method::kMultiNodeConsolidation,
                                     Method::kSingleNodeConsolidation};
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(result.verdicts[i].node, "n1");
    EXPECT_EQ(result.verdicts[i].method, order[i]);
  }
  // Emptiness takes n3; the others wait, and the verdicts say who ended the pass.
  EXPECT_TRUE(Find(result, "n3", Method::kEmptiness)->acts());
  const MethodVerdict* n1_empty = Find(result, "n1", Method::kEmptiness);
  EXPECT_EQ(n1_empty->code, VerdictCode::kNotEmpty);
  const MethodVerdict* n1_single = Find(result, "n1", Method::kSingleNodeConsolidation);
  EXPECT_EQ(n1_single->code, VerdictCode::kNotEvaluated);
  EXPECT_NE(n1_single->message.find("Emptiness issued this pass's command (n3)"), std::string::npos)
      << n1_single->message;
  EXPECT_EQ(Find(result, "n1", Method::kStaticDrift)->code, VerdictCode::kNotEvaluated);
}

TEST(Verdicts, ConsolidateAfterSaysHowLongIsLeft) {
  // Initialized 2026-12-01T00:00Z, evaluated a day later: 24h of 48h are left.
  const DisruptionResult result = Decide(ThreeNodes("{consolidateAfter: 48h}"));
  const MethodVerdict* empty = Find(result, "n3", Method::kEmptiness);
  EXPECT_EQ(empty->code, VerdictCode::kConsolidateAfter);
  ASSERT_TRUE(empty->time_left.has_value());
  EXPECT_EQ(*empty->time_left, api::Duration::FromHours(24));
  EXPECT_NE(empty->message.find("24h0m0s left"), std::string::npos) << empty->message;
  const MethodVerdict* single = Find(result, "n1", Method::kSingleNodeConsolidation);
  EXPECT_EQ(single->code, VerdictCode::kConsolidateAfter);
  EXPECT_EQ(*single->time_left, api::Duration::FromHours(24));
}

TEST(Verdicts, BudgetCountsAreThoseTheMethodSaw) {
  const DisruptionResult result =
      Decide(ThreeNodes("{consolidateAfter: 0s, budgets: [{nodes: '0'}]}"));
  EXPECT_TRUE(result.commands.empty());
  const MethodVerdict* empty = Find(result, "n3", Method::kEmptiness);
  EXPECT_EQ(empty->code, VerdictCode::kBudget);
  ASSERT_TRUE(empty->budget.has_value());
  EXPECT_EQ(empty->budget->node_pool, "default");
  EXPECT_EQ(empty->budget->reason, Reason::kEmpty);
  EXPECT_EQ(empty->budget->budget.allowed, 0);
  EXPECT_EQ(empty->budget->budget.nodes, 3);
  EXPECT_EQ(empty->budget->budget.disrupting, 0);
  const MethodVerdict* single = Find(result, "n1", Method::kSingleNodeConsolidation);
  EXPECT_EQ(single->code, VerdictCode::kBudget);
  EXPECT_EQ(single->budget->reason, Reason::kUnderutilized);
}

TEST(Verdicts, PodBlockedNodesNameThePdbsAndPods) {
  std::vector<std::string> docs = ThreeNodes("{consolidateAfter: 0s}");
  docs.erase(docs.begin() + 4);  // without the empty n3, Emptiness does not end the pass
  docs.push_back(PdbYaml("web", "web", 0));
  docs.push_back(PodYaml(
      {.name = "pinned", .node = "n1", .annotations = "{karpenter.sh/do-not-disrupt: 'true'}"}));
  const DisruptionResult result = Decide(docs);
  const MethodVerdict* drift = Find(result, "n1", Method::kDrift);
  ASSERT_NE(drift, nullptr);
  for (Method method : {Method::kDrift, Method::kMultiNodeConsolidation}) {
    const MethodVerdict* verdict = Find(result, "n1", method);
    EXPECT_TRUE(verdict->do_not_disrupt);
    EXPECT_EQ(verdict->blocking_pdbs, std::vector<std::string>{"default/web"});
    EXPECT_EQ(verdict->blocking_pods, (std::vector<std::string>{"default/a", "default/pinned"}));
  }
  EXPECT_EQ(Find(result, "n1", Method::kDrift)->code, VerdictCode::kPodBlocked);
  EXPECT_TRUE(Find(result, "n2", Method::kDrift)->blocking_pods.empty());
  // Expiration is forceful: the pods do not stop it, so its verdict names none.
  EXPECT_TRUE(Find(result, "n1", Method::kExpiration)->blocking_pods.empty());
}

TEST(Verdicts, NodesThatAreNotCandidatesSayWhyForEveryBudgetedMethod) {
  std::vector<std::string> docs = {
      kNodeClass, NodePoolYaml("default", "{consolidateAfter: 0s}"),
      NodeYaml({.name = "n1", .node_annotations = "{karpenter.sh/do-not-disrupt: 'true'}"})};
  const DisruptionResult result = Decide(docs);
  const MethodVerdict* single = Find(result, "n1", Method::kSingleNodeConsolidation);
  ASSERT_NE(single, nullptr);
  EXPECT_EQ(single->code, VerdictCode::kNotCandidate);
  EXPECT_TRUE(single->do_not_disrupt);
  EXPECT_NE(single->message.find("do-not-disrupt"), std::string::npos);
  EXPECT_EQ(Find(result, "n1", Method::kExpiration)->code, VerdictCode::kNotExpired);
}

TEST(Verdicts, ExpirationSaysWhenTheNodeExpires) {
  // Created 2026-12-01T00:00Z with the default expireAfter of 720h, evaluated a day later.
  const DisruptionResult result = Decide(ThreeNodes("{consolidateAfter: 0s}"));
  const MethodVerdict* expiry = Find(result, "n1", Method::kExpiration);
  EXPECT_EQ(expiry->code, VerdictCode::kNotExpired);
  EXPECT_EQ(*expiry->time_left, api::Duration::FromHours(696));
  EXPECT_NE(expiry->message.find("2026-12-31T00:00:00Z"), std::string::npos) << expiry->message;
}

TEST(Verdicts, SingleNodeConsolidationNamesTheCheaperReplacementOrItsAbsence) {
  // n1 is an m5.2xlarge holding one small pod: an m5.large replaces it. n2, an m5.large (the
  // family's cheapest), holds a pod too big for n1's leftover room in a cheaper type: no move.
  const DisruptionResult replaced =
      Decide({kNodeClass, NodePoolYaml("default", "{consolidateAfter: 0s}"),
              NodeYaml({.name = "n1", .instance_type = "m5.2xlarge", .cpu = "7910m"}),
              PodYaml({.name = "a", .node = "n1", .cpu = "1"})});
  const MethodVerdict* acts = Find(replaced, "n1", Method::kSingleNodeConsolidation);
  ASSERT_TRUE(acts->acts()) << acts->message;
  ASSERT_EQ(acts->replacements.size(), 1u);
  EXPECT_EQ(acts->replacements[0].instance_type, "m5.large");
  EXPECT_GT(acts->replacements[0].price, 0);
  EXPECT_NE(acts->message.find("replace with on-demand m5.large"), std::string::npos)
      << acts->message;

  const DisruptionResult kept =
      Decide({kNodeClass, NodePoolYaml("default", "{consolidateAfter: 0s}"),
              NodeYaml({.name = "n1", .instance_type = "m5.large", .cpu = "1930m"}),
              PodYaml({.name = "a", .node = "n1", .cpu = "1"})});
  const MethodVerdict* none = Find(kept, "n1", Method::kSingleNodeConsolidation);
  EXPECT_EQ(none->code, VerdictCode::kNoMove);
  EXPECT_TRUE(none->replacements.empty());
  EXPECT_FALSE(none->message.empty());
}

TEST(Verdicts, BalancedPoolsCarryTheScoreAndThreshold) {
  // Two m5.xlarge with six 250m pods each, two full m5.2xlarge: deleting `a` alone saves 1/6 of
  // the pool's cost for 7/18 of its disruption, a score of 0.43 under the threshold 1/2.
  std::vector<std::string> docs = {
      kNodeClass, NodePoolYaml("default",
                               "{consolidationPolicy: Balanced, consolidateAfter: 0s, budgets: "
                               "[{nodes: '100%'}]}")};
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
  const DisruptionResult result = Decide(docs);
  EXPECT_TRUE(result.commands.empty());
  const MethodVerdict* single = Find(result, "a", Method::kSingleNodeConsolidation);
  EXPECT_EQ(single->code, VerdictCode::kBalancedThreshold) << single->message;
  ASSERT_TRUE(single->balanced.has_value());
  EXPECT_NEAR(single->balanced->score, (1.0 / 6) / (7.0 / 18), 1e-9);
  EXPECT_DOUBLE_EQ(single->balanced->threshold, 0.5);
}

}  // namespace
}  // namespace karpenter::disruption
