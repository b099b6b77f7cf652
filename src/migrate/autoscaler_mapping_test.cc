#include "src/migrate/autoscaler_mapping.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace karpenter::migrate {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Pair;

ClusterAutoscalerConfig PriorityConfig(std::vector<PriorityRule> rules) {
  ClusterAutoscalerConfig config;
  config.deployment_found = true;
  config.expanders = {"priority"};
  config.priorities_found = true;
  config.priorities = std::move(rules);
  config.skip_nodes_with_local_storage = false;
  config.skip_nodes_with_system_pods = false;
  return config;
}

std::vector<std::string> Fields(const std::vector<LossyMapping>& lossy) {
  std::vector<std::string> fields;
  for (const LossyMapping& loss : lossy) fields.push_back(loss.group + " " + loss.field);
  return fields;
}

TEST(WeightsFromPriorities, KeepsPrioritiesThatAreValidWeights) {
  std::vector<LossyMapping> lossy;
  auto weights =
      WeightsFromPriorities(PriorityConfig({{50, {"^eks-general"}}, {10, {"spot"}}}),
                            {{"general", {"eks-general-1"}}, {"batch", {"eks-spot-2"}}}, lossy);
  EXPECT_THAT(weights, ElementsAre(Pair("batch", 10), Pair("general", 50)));
  EXPECT_THAT(lossy, IsEmpty());
}

TEST(WeightsFromPriorities, RescalesOutOfRangePrioritiesKeepingTheirOrder) {
  std::vector<LossyMapping> lossy;
  auto weights =
      WeightsFromPriorities(PriorityConfig({{1000, {"-a$"}}, {50, {"-b$"}}, {-5, {"-c$"}}}),
                            {{"ga", {"asg-a"}}, {"gb", {"asg-b"}}, {"gc", {"asg-c"}}}, lossy);
  EXPECT_THAT(weights, ElementsAre(Pair("ga", 100), Pair("gb", 50), Pair("gc", 1)));
  EXPECT_EQ(lossy.size(), 3u);
  EXPECT_THAT(lossy[0].reason, HasSubstr("outside a NodePool's 1..100"));
}

TEST(WeightsFromPriorities, AGroupNoPatternMatchesGetsNoWeightAndIsListed) {
  std::vector<LossyMapping> lossy;
  auto weights =
      WeightsFromPriorities(PriorityConfig({{20, {"^eks-general"}}}), {{"gpu", {}}}, lossy);
  EXPECT_THAT(weights, IsEmpty());
  EXPECT_THAT(Fields(lossy), ElementsAre("gpu priority"));
  EXPECT_THAT(lossy[0].reason, HasSubstr("matches gpu"));  // the group's name stands in
}

TEST(WeightsFromPriorities, OtherExpandersGiveNoWeights) {
  ClusterAutoscalerConfig config = PriorityConfig({{20, {".*"}}});
  config.expanders = {"least-waste"};
  std::vector<LossyMapping> lossy;
  EXPECT_THAT(WeightsFromPriorities(config, {{"g", {"asg"}}}, lossy), IsEmpty());
  EXPECT_THAT(Fields(lossy),
              ElementsAre("cluster-autoscaler cluster-autoscaler-priority-expander"));
}

TEST(WeightsFromPriorities, ThePriorityExpanderWithoutItsConfigMapIsListed) {
  ClusterAutoscalerConfig config = PriorityConfig({});
  config.priorities_found = false;
  std::vector<LossyMapping> lossy;
  EXPECT_THAT(WeightsFromPriorities(config, {{"g", {"asg"}}}, lossy), IsEmpty());
  EXPECT_THAT(Fields(lossy), ElementsAre("cluster-autoscaler --expander=priority"));
}

TEST(DisruptionFromAutoscaler, WithoutTheDeploymentKeepsTheArticlesSettings) {
  std::vector<LossyMapping> lossy;
  DisruptionSettings settings = DisruptionFromAutoscaler(ClusterAutoscalerConfig{}, lossy);
  EXPECT_EQ(settings.consolidation_policy, "WhenEmptyOrUnderutilized");
  EXPECT_EQ(settings.consolidate_after, "1m");
  EXPECT_THAT(lossy, IsEmpty());
}

TEST(DisruptionFromAutoscaler, UnneededTimeBecomesConsolidateAfter) {
  ClusterAutoscalerConfig config = PriorityConfig({});
  config.scale_down_unneeded_time = api::Duration::FromSeconds(5430);
  config.set_flags = {"scale-down-unneeded-time"};
  std::vector<LossyMapping> lossy;
  EXPECT_EQ(DisruptionFromAutoscaler(config, lossy).consolidate_after, "1h30m30s");
  EXPECT_THAT(lossy, IsEmpty());
}

TEST(DisruptionFromAutoscaler, AZeroThresholdConsolidatesOnlyEmptyNodes) {
  ClusterAutoscalerConfig config = PriorityConfig({});
  config.scale_down_utilization_threshold = 0;
  config.set_flags = {"scale-down-utilization-threshold"};
  std::vector<LossyMapping> lossy;
  EXPECT_EQ(DisruptionFromAutoscaler(config, lossy).consolidation_policy, "WhenEmpty");
  config.scale_down_utilization_threshold = 0.7;
  EXPECT_EQ(DisruptionFromAutoscaler(config, lossy).consolidation_policy,
            "WhenEmptyOrUnderutilized");
  EXPECT_THAT(Fields(lossy), ElementsAre("cluster-autoscaler --scale-down-utilization-threshold"));
}

TEST(DisruptionFromAutoscaler, ScaleDownDisabledNeverConsolidates) {
  ClusterAutoscalerConfig config = PriorityConfig({});
  config.scale_down_enabled = false;
  std::vector<LossyMapping> lossy;
  EXPECT_EQ(DisruptionFromAutoscaler(config, lossy).consolidate_after, "Never");
  EXPECT_THAT(Fields(lossy), ElementsAre("cluster-autoscaler --scale-down-enabled=false"));
}

TEST(DisruptionFromAutoscaler, ListsEveryFlagWithoutAnEquivalent) {
  ClusterAutoscalerConfig config;
  config.deployment_found = true;
  config.expanders = {"random", "most-pods"};
  config.balance_similar_node_groups = true;
  config.max_node_provision_time = api::Duration::FromMinutes(25);
  config.set_flags = {"scale-down-delay-after-add", "max-node-provision-time",
                      "expendable-pods-priority-cutoff"};
  std::vector<LossyMapping> lossy;
  DisruptionFromAutoscaler(config, lossy);
  EXPECT_THAT(Fields(lossy), ElementsAre("cluster-autoscaler --expander=random",
                                         "cluster-autoscaler --expander=most-pods",
                                         "cluster-autoscaler --balance-similar-node-groups",
                                         "cluster-autoscaler --scale-down-delay-after-add",
                                         "cluster-autoscaler --skip-nodes-with-local-storage",
                                         "cluster-autoscaler --skip-nodes-with-system-pods",
                                         "cluster-autoscaler --max-node-provision-time",
                                         "cluster-autoscaler --expendable-pods-priority-cutoff"));
  EXPECT_THAT(lossy[6].reason, HasSubstr("25m0s is not carried"));
}

TEST(KarpenterDurationText, MatchesTheCrdPatternRoundingUpToASecond) {
  EXPECT_EQ(KarpenterDurationText(api::Duration::FromMinutes(10)), "10m");
  EXPECT_EQ(KarpenterDurationText(api::Duration::FromHours(2)), "2h");
  EXPECT_EQ(KarpenterDurationText(api::Duration::FromMillis(1500)), "2s");
  EXPECT_EQ(KarpenterDurationText(api::Duration()), "0s");
}

}  // namespace
}  // namespace karpenter::migrate
