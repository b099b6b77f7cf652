#include "src/disruption/balanced.h"

#include <cmath>

#include "gtest/gtest.h"

namespace karpenter::disruption {
namespace {

TEST(BalancedScore, SavingsShareOverDisruptionShare) {
  const PoolTotals totals{.cost = 2.0, .disruption_cost = 10.0};
  EXPECT_DOUBLE_EQ(BalancedScore(1.0, 5.0, totals), 1.0);   // 50% / 50%
  EXPECT_DOUBLE_EQ(BalancedScore(0.2, 4.0, totals), 0.25);  // 10% / 40%
}

TEST(BalancedScore, NoSavingsScoresZeroAndNoDisruptionIsInfinite) {
  const PoolTotals totals{.cost = 2.0, .disruption_cost = 10.0};
  EXPECT_EQ(BalancedScore(0.0, 5.0, totals), 0.0);
  EXPECT_EQ(BalancedScore(-0.1, 5.0, totals), 0.0);
  EXPECT_TRUE(std::isinf(BalancedScore(0.5, 0.0, totals)));
  EXPECT_EQ(BalancedScore(0.5, 1.0, PoolTotals{}), 0.0);  // nothing to normalise against
}

TEST(ApproveBalanced, ThresholdIsOneOverK) {
  api::NodePool pool;
  pool.metadata.name = "p";
  pool.spec.disruption = api::Disruption{.consolidation_policy = "Balanced"};
  Candidate candidate;
  candidate.node_pool = &pool;
  candidate.price = 1.0;
  candidate.reschedule_disruption_cost = 4.0;
  const Candidate* candidates[] = {&candidate};
  const std::map<std::string, PoolTotals> totals = {{"p", {.cost = 4.0, .disruption_cost = 8.0}}};
  Command command;
  command.savings_per_hour = 1.0;  // 25% of cost for 50% of disruption: exactly 1/2
  EXPECT_TRUE(ApproveBalanced(command, candidates, totals));
  command.savings_per_hour = 0.99;
  EXPECT_FALSE(ApproveBalanced(command, candidates, totals));
  pool.spec.disruption->consolidation_policy = "WhenEmptyOrUnderutilized";
  EXPECT_TRUE(ApproveBalanced(command, candidates, totals));
}

TEST(ComputePoolTotals, SumsOnlyBalancedPools) {
  api::NodePool balanced;
  balanced.metadata.name = "balanced";
  balanced.spec.disruption = api::Disruption{.consolidation_policy = "Balanced"};
  api::NodePool underutilized;
  underutilized.metadata.name = "underutilized";
  underutilized.spec.disruption =
      api::Disruption{.consolidation_policy = "WhenEmptyOrUnderutilized"};
  std::vector<Candidate> candidates(2);
  candidates[0].node_pool = &balanced;
  candidates[0].price = 1.5;
  candidates[1].node_pool = &underutilized;
  candidates[1].price = 2.0;
  const std::map<std::string, PoolTotals> totals =
      ComputePoolTotals(state::ClusterSnapshot(), candidates);
  ASSERT_EQ(totals.size(), 1u);
  EXPECT_DOUBLE_EQ(totals.at("balanced").cost, 1.5);
}

}  // namespace
}  // namespace karpenter::disruption
