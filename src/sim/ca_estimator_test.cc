#include "src/sim/ca_estimator.h"

#include <gtest/gtest.h>

#include <set>

#include "src/sim/sim_test_util.h"

namespace karpenter::sim {
namespace {

provisioning::ExistingNodeView Template(const std::string& type) {
  const cloudprovider::InstanceType* found = testing::TestCatalog().Find(type);
  provisioning::ExistingNodeView view;
  view.name = "group";
  view.labels = found->labels;
  view.allocatable = found->Allocatable();
  return view;
}

std::vector<api::Pod> Pods(const std::string& name, int count, const std::string& cpu,
                           const std::string& memory) {
  api::Deployment deployment = testing::MakeDeployment(name, count, cpu, memory);
  std::vector<api::Pod> pods;
  for (int i = 0; i < count; ++i) {
    api::Pod pod;
    pod.metadata.name = name + "-" + std::to_string(i);
    pod.metadata.namespace_ = "default";
    pod.spec = deployment.spec.template_.spec;
    pods.push_back(std::move(pod));
  }
  return pods;
}

TEST(EstimateNodes, FirstFitDecreasingPacksLargestFirst) {
  // c6i.2xlarge has ~7.9 allocatable cores: two 3-core pods and one 1-core pod per node.
  std::vector<api::Pod> pods = Pods("small", 2, "1", "1Gi");
  for (api::Pod& pod : Pods("big", 4, "3", "1Gi")) pods.push_back(std::move(pod));
  const Estimate estimate = EstimateNodes(Template("c6i.2xlarge"), 10, pods, {});
  EXPECT_EQ(estimate.nodes, 2);
  EXPECT_EQ(estimate.pods.size(), 6u);
  EXPECT_DOUBLE_EQ(estimate.cpu_requested, 14);
}

TEST(EstimateNodes, StopsAtTheGroupsRoom) {
  const Estimate estimate =
      EstimateNodes(Template("c6i.2xlarge"), 2, Pods("big", 6, "3", "1Gi"), {});
  EXPECT_EQ(estimate.nodes, 2);
  EXPECT_EQ(estimate.pods.size(), 4u);
}

TEST(EstimateNodes, PodsTooBigForTheTemplateAreLeftOut) {
  const Estimate estimate =
      EstimateNodes(Template("m6i.large"), 5, Pods("huge", 2, "4", "1Gi"), {});
  EXPECT_EQ(estimate.nodes, 0);
  EXPECT_TRUE(estimate.pods.empty());
}

TEST(EstimateNodes, DaemonSetOverheadShrinksEachNode) {
  // Two 3-core pods share a c6i.2xlarge (~7.9 cores) until a 2-core daemon takes its share.
  const Estimate without =
      EstimateNodes(Template("c6i.2xlarge"), 10, Pods("big", 2, "3", "1Gi"), {});
  const Estimate with = EstimateNodes(Template("c6i.2xlarge"), 10, Pods("big", 2, "3", "1Gi"),
                                      Pods("daemon", 1, "2", "64Mi"));
  EXPECT_EQ(without.nodes, 1);
  EXPECT_EQ(with.nodes, 2);
}

ExpansionOption Option(const std::string& group, int nodes, double node_cpu, double cpu_used,
                       int pods, int priority = 0) {
  ExpansionOption option;
  option.group = group;
  option.estimate.nodes = nodes;
  option.estimate.cpu_requested = cpu_used;
  option.estimate.memory_requested = 0;
  for (int i = 0; i < pods; ++i) option.estimate.pods.push_back(std::to_string(i));
  option.node_cpu = node_cpu;
  option.node_memory = 16;
  option.priority = priority;
  return option;
}

TEST(ChooseExpansion, LeastWastePicksTheLeastIdleCpu) {
  Random random(1);
  const std::vector<ExpansionOption> options = {Option("big", 1, 16, 8, 4),
                                                Option("small", 2, 4, 7, 4)};
  EXPECT_EQ(ChooseExpansion(Expander::kLeastWaste, options, random), 1u);
}

TEST(ChooseExpansion, MostPodsPicksTheGroupPlacingMost) {
  Random random(1);
  const std::vector<ExpansionOption> options = {Option("a", 1, 16, 8, 3),
                                                Option("b", 1, 16, 15, 5)};
  EXPECT_EQ(ChooseExpansion(Expander::kMostPods, options, random), 1u);
}

TEST(ChooseExpansion, PriorityPicksTheHighestPriority) {
  Random random(1);
  const std::vector<ExpansionOption> options = {Option("spot", 1, 16, 1, 1, 10),
                                                Option("on-demand", 1, 4, 4, 1, 1)};
  EXPECT_EQ(ChooseExpansion(Expander::kPriority, options, random), 0u);
}

TEST(ChooseExpansion, TiesAreBrokenBySeededRandomness) {
  const std::vector<ExpansionOption> options = {Option("a", 1, 4, 2, 1), Option("b", 1, 4, 2, 1),
                                                Option("c", 1, 4, 2, 1)};
  std::set<size_t> picked;
  for (uint64_t seed = 0; seed < 30; ++seed) {
    Random random(seed);
    Random again(seed);
    const size_t choice = ChooseExpansion(Expander::kRandom, options, random);
    EXPECT_EQ(choice, ChooseExpansion(Expander::kRandom, options, again));
    picked.insert(choice);
  }
  EXPECT_EQ(picked.size(), 3u);
}

}  // namespace
}  // namespace karpenter::sim
