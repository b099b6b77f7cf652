#include "src/controllers/nodepool_readiness.h"

#include <variant>

#include "gtest/gtest.h"
#include "src/api/ec2nodeclass.h"
#include "src/api/karpenter_labels.h"
#include "src/api/nodepool.h"
#include "src/fakes/fake_clock.h"
#include "src/fakes/fake_kube_cluster.h"

namespace karpenter::controllers {
namespace {

struct Fixture {
  fakes::FakeClock clock;
  fakes::FakeKubeCluster cluster{clock};
  NodePoolReadiness readiness{clock, cluster, cluster};

  Fixture() {
    api::NodePool pool;
    pool.metadata.name = "default";
    pool.spec.template_.spec.node_class_ref =
        api::NodeClassReference{"EC2NodeClass", "default", std::string(api::kAwsGroup)};
    EXPECT_TRUE(cluster.Create(pool).ok());
  }
  void SetClassReady(std::string status, std::string reason = "Ready") {
    std::optional<api::Object> existing = cluster.Get({"EC2NodeClass", "", "default"});
    api::EC2NodeClass node_class;
    if (existing) {
      node_class = std::get<api::EC2NodeClass>(*existing);
    } else {
      node_class.metadata.name = "default";
      node_class = std::get<api::EC2NodeClass>(*cluster.Create(node_class));
    }
    node_class.status.conditions = {
        {.type = "Ready", .status = std::move(status), .reason = std::move(reason)}};
    EXPECT_TRUE(cluster.UpdateStatus(node_class).ok());
  }
  std::string NodeClassReady() { return Condition("NodeClassReady"); }
  // "status/reason" of the pool's condition `type` after a reconcile.
  std::string Condition(std::string_view type, std::string* message = nullptr) {
    EXPECT_TRUE(readiness.Reconcile("default").ok());
    const auto pool = std::get<api::NodePool>(*cluster.Get({"NodePool", "", "default"}));
    for (const api::Condition& condition : pool.status.conditions) {
      if (condition.type != type) continue;
      if (message != nullptr) *message = condition.message;
      return condition.status + "/" + condition.reason;
    }
    return "absent";
  }
};

TEST(NodePoolReadiness, FollowsTheNodeClassReadyCondition) {
  Fixture f;
  EXPECT_EQ(f.NodeClassReady(), "False/NodeClassNotFound");
  f.SetClassReady("Unknown");
  EXPECT_EQ(f.NodeClassReady(), "False/NodeClassReadinessUnknown");
  f.SetClassReady("False", "SubnetsNotFound");
  EXPECT_EQ(f.NodeClassReady(), "False/SubnetsNotFound");
  f.SetClassReady("True");
  EXPECT_EQ(f.NodeClassReady(), "True/NodeClassReady");
}

TEST(NodePoolReadiness, ValidPoolWithReadyClassIsReady) {
  Fixture f;
  f.SetClassReady("True");
  EXPECT_EQ(f.Condition("ValidationSucceeded"), "True/ValidationSucceeded");
  EXPECT_EQ(f.Condition("Ready"), "True/Ready");
}

TEST(NodePoolReadiness, PoolFailingRuntimeValidationIsNotReady) {
  Fixture f;
  f.SetClassReady("True");
  auto pool = std::get<api::NodePool>(*f.cluster.Get({"NodePool", "", "default"}));
  // The API server accepts it; upstream's runtime validation refuses the pool's own label.
  pool.spec.template_.spec.requirements = {
      {.key = "karpenter.sh/nodepool", .operator_ = "In", .values = {"other"}}};
  ASSERT_TRUE(f.cluster.Update(pool).ok());
  std::string message;
  EXPECT_EQ(f.Condition("ValidationSucceeded", &message), "False/NodePoolValidationFailed");
  EXPECT_NE(message.find("spec.template.spec.requirements[0]"), std::string::npos) << message;
  EXPECT_EQ(f.Condition("Ready"), "False/NodePoolValidationFailed");
}

TEST(NodePoolReadiness, StartReactsToTheNodeClass) {
  Fixture f;
  f.readiness.Start();
  f.clock.Advance(10);
  f.SetClassReady("True");
  f.clock.Advance(10);
  const auto pool = std::get<api::NodePool>(*f.cluster.Get({"NodePool", "", "default"}));
  bool ready = false;
  for (const api::Condition& condition : pool.status.conditions) {
    ready |= condition.type == "NodeClassReady" && condition.status == "True";
  }
  EXPECT_TRUE(ready);
}

}  // namespace
}  // namespace karpenter::controllers
