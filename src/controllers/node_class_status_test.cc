#include "src/controllers/node_class_status.h"

#include <string>
#include <variant>

#include "gtest/gtest.h"
#include "src/fakes/fake_clock.h"
#include "src/fakes/fake_kube_cluster.h"

namespace karpenter::controllers {
namespace {

struct Fixture {
  fakes::FakeClock clock;
  fakes::FakeKubeCluster cluster{clock};
  std::string subnet = "subnet-1";
  absl::Status failure;
  int resolutions = 0;
  NodeClassStatusController controller{
      clock, cluster, cluster,
      [this](const api::EC2NodeClass&) -> absl::StatusOr<api::EC2NodeClassStatus> {
        ++resolutions;
        if (!failure.ok()) return failure;
        api::EC2NodeClassStatus status;
        status.subnets.push_back({.id = subnet, .zone = "us-east-1a"});
        status.conditions.push_back({.type = "Ready",
                                     .status = "True",
                                     .last_transition_time = clock.Now(),
                                     .reason = "Ready"});
        return status;
      },
      60'000};

  Fixture() {
    api::EC2NodeClass node_class;
    node_class.metadata.name = "default";
    EXPECT_TRUE(cluster.Create(node_class).ok());
  }
  api::EC2NodeClass Stored() const {
    return std::get<api::EC2NodeClass>(*cluster.Get({"EC2NodeClass", "", "default"}));
  }
  size_t StatusWrites() const {
    size_t writes = 0;
    for (const std::string& write : cluster.writes()) writes += write.starts_with("UpdateStatus");
    return writes;
  }
};

TEST(NodeClassStatusController, WritesTheResolvedStatusAndOnlyChangesAfterThat) {
  Fixture f;
  absl::StatusOr<ReconcileResult> result = f.controller.Reconcile("default");
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->requeue_after_millis, std::optional<int64_t>(60'000));
  ASSERT_EQ(f.Stored().status.subnets.size(), 1u);
  const std::optional<api::Time> ready_since = f.Stored().status.conditions[0].last_transition_time;
  EXPECT_EQ(f.StatusWrites(), 1u);

  // A minute later the world is the same: nothing is written, Ready keeps its time.
  f.clock.Advance(60'000);
  ASSERT_TRUE(f.controller.Reconcile("default").ok());
  EXPECT_EQ(f.StatusWrites(), 1u);
  EXPECT_EQ(f.Stored().status.conditions[0].last_transition_time, ready_since);

  f.subnet = "subnet-2";
  ASSERT_TRUE(f.controller.Reconcile("default").ok());
  EXPECT_EQ(f.StatusWrites(), 2u);
  EXPECT_EQ(f.Stored().status.subnets[0].id, "subnet-2");
}

TEST(NodeClassStatusController, ConditionsGetTheTimeAndReasonTheCrdRequires) {
  fakes::FakeClock clock;
  fakes::FakeKubeCluster cluster{clock};
  api::EC2NodeClass node_class;
  node_class.metadata.name = "default";
  ASSERT_TRUE(cluster.Create(node_class).ok());
  NodeClassStatusController controller(
      clock, cluster, cluster,
      [](const api::EC2NodeClass&) -> absl::StatusOr<api::EC2NodeClassStatus> {
        api::EC2NodeClassStatus status;
        status.conditions.push_back({.type = "SubnetsReady", .status = "True"});
        return status;
      },
      60'000);
  ASSERT_TRUE(controller.Reconcile("default").ok());
  const auto stored = std::get<api::EC2NodeClass>(*cluster.Get({"EC2NodeClass", "", "default"}));
  ASSERT_EQ(stored.status.conditions.size(), 1u);
  EXPECT_EQ(stored.status.conditions[0].last_transition_time, clock.Now());
  EXPECT_EQ(stored.status.conditions[0].reason, "SubnetsReady");
}

TEST(NodeClassStatusController, AFailedResolutionLeavesTheStatusAlone) {
  Fixture f;
  ASSERT_TRUE(f.controller.Reconcile("default").ok());
  f.failure = absl::UnavailableError("throttled");
  f.subnet = "subnet-9";
  EXPECT_FALSE(f.controller.Reconcile("default").ok());
  EXPECT_EQ(f.Stored().status.subnets[0].id, "subnet-1");
}

TEST(NodeClassStatusController, StartResolvesEveryClassAndFollowsChanges) {
  Fixture f;
  f.controller.Start();
  f.clock.Advance(0);
  // The status write is itself a change of the class: it is resolved once more, writes nothing,
  // and the loop ends there.
  EXPECT_EQ(f.resolutions, 2);
  EXPECT_EQ(f.StatusWrites(), 1u);
  EXPECT_EQ(f.Stored().status.subnets.size(), 1u);
  f.clock.Advance(60'000);
  EXPECT_EQ(f.resolutions, 3);
}

}  // namespace
}  // namespace karpenter::controllers
