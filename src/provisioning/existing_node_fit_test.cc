// Each existing node's answer for one pod, with the check that refuses it, and agreement with the
// solve: a node the explanation accepts is one the solve may place the pod on.
#include "src/provisioning/existing_node_fit.h"

#include "gtest/gtest.h"
#include "src/provisioning/scheduler.h"
#include "src/provisioning/scheduler_test_util.h"

namespace karpenter::provisioning {
namespace {

using namespace ::karpenter::provisioning::testing;  // NOLINT: test fixtures

const ExistingNodeFit& Fit(const std::vector<ExistingNodeFit>& fits, const std::string& node) {
  for (const ExistingNodeFit& fit : fits) {
    if (fit.node == node) return fit;
  }
  static const ExistingNodeFit kNone{"(missing)", false, "(missing)"};
  return kNone;
}

SchedulerInput FourNodes() {
  SchedulerInput input;  // no NodePool: only existing nodes can take the pod
  input.existing_nodes.push_back(MakeNode("a-tainted", "4", "16Gi"));
  input.existing_nodes.back().taints.push_back({"dedicated", "gpu", "NoSchedule", std::nullopt});
  input.existing_nodes.push_back(MakeNode("b-full", "4", "16Gi"));
  input.existing_nodes.back().requested = Resources({{"cpu", "3900m"}});
  input.existing_nodes.push_back(MakeNode("c-arm", "4", "16Gi"));
  input.existing_nodes.back().labels["kubernetes.io/arch"] = "arm64";
  input.existing_nodes.push_back(MakeNode("d-fits", "4", "16Gi"));
  input.existing_nodes.push_back(MakeNode("e-in-flight", "4", "16Gi"));
  input.existing_nodes.back().initialized = false;
  return input;
}

api::Pod AmdPod() {
  api::Pod pod = MakePod("web", "500m");
  pod.spec.node_selector["kubernetes.io/arch"] = "amd64";
  return pod;
}

TEST(ExplainExistingNodes, NamesTheCheckThatRefusesEachNode) {
  const std::vector<ExistingNodeFit> fits = ExplainExistingNodes(FourNodes(), AmdPod());
  ASSERT_EQ(fits.size(), 5u);
  EXPECT_EQ(Fit(fits, "a-tainted").refusal, "taint dedicated=gpu:NoSchedule is not tolerated");
  EXPECT_EQ(Fit(fits, "b-full").refusal.rfind("resources: the pod requests ", 0), 0u)
      << Fit(fits, "b-full").refusal;
  EXPECT_EQ(Fit(fits, "c-arm").refusal.rfind("requirement: ", 0), 0u) << Fit(fits, "c-arm").refusal;
  EXPECT_NE(Fit(fits, "c-arm").refusal.find("kubernetes.io/arch"), std::string::npos);
  EXPECT_EQ(Fit(fits, "d-fits").refusal, "");
  EXPECT_EQ(Fit(fits, "e-in-flight").refusal, "");
  // The solve's order: initialized nodes by name, then the in-flight ones.
  EXPECT_EQ(fits.back().node, "e-in-flight");
  EXPECT_FALSE(fits.back().initialized);
}

TEST(ExplainExistingNodes, AgreesWithTheSolve) {
  SchedulerInput input = FourNodes();
  input.pending_pods = {AmdPod()};
  const SchedulerResult solved = Solve(input);
  const std::vector<ExistingNodeFit> fits = ExplainExistingNodes(input, AmdPod());
  ASSERT_EQ(solved.existing_node_pods.size(), 1u);
  const std::string& landed = solved.existing_node_pods.begin()->first;
  EXPECT_EQ(landed, "d-fits");
  EXPECT_EQ(Fit(fits, landed).refusal, "");
}

TEST(ExplainExistingNodes, ToleratedTaintIsNoRefusal) {
  api::Pod pod = AmdPod();
  pod.spec.tolerations.push_back({.key = "dedicated", .operator_ = "Equal", .value = "gpu"});
  EXPECT_EQ(Fit(ExplainExistingNodes(FourNodes(), pod), "a-tainted").refusal, "");
}

}  // namespace
}  // namespace karpenter::provisioning
