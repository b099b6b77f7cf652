#include "src/controllers/nodeclaim_lifecycle.h"

#include <variant>

#include "gtest/gtest.h"
#include "src/api/karpenter_labels.h"
#include "src/fakes/fake_clock.h"
#include "src/fakes/fake_cloud_provider.h"
#include "src/fakes/fake_event_recorder.h"
#include "src/fakes/fake_kube_cluster.h"
#include "src/fakes/fake_logger.h"
#include "src/metrics/karpenter_metrics.h"
#include "src/metrics/registry.h"

namespace karpenter::controllers {
namespace {

using fakes::FakeCloudProvider;
using fakes::FakeKubeCluster;

constexpr int64_t kMinute = 60 * 1000;

cloudprovider::InstanceType Type(std::string name, double price) {
  cloudprovider::InstanceType type;
  type.name = std::move(name);
  type.capacity = {{"cpu", api::Quantity::Parse("2").value()},
                   {"memory", api::Quantity::Parse("8Gi").value()},
                   {"pods", api::Quantity::Parse("29").value()}};
  type.offerings = {
      {.zone = "us-east-1a", .capacity_type = "on-demand", .price = price, .available = true}};
  return type;
}

struct Fixture {
  fakes::FakeClock clock;
  FakeKubeCluster cluster{clock};
  FakeCloudProvider cloud;
  fakes::FakeEventRecorder events;
  metrics::Registry metrics{metrics::KarpenterCatalog()};
  NodePoolHealth health;
  fakes::FakeLogger log;
  NodeClaimLifecycle lifecycle{
      LifecycleSeams{clock, cluster, cluster, cloud, events, metrics, health, &log}};
  std::string pool_uid;

  Fixture() {
    cloud.SetInstanceTypes({Type("m5.large", 0.096)});
    api::NodePool pool;
    pool.metadata.name = "default";
    pool_uid = std::get<api::NodePool>(*cluster.Create(pool)).metadata.uid;
  }

  // A NodeClaim as the provisioner creates it: owned by NodePool "default".
  api::NodeClaim NewClaim(std::string name = "default-abc") {
    api::NodeClaim claim;
    claim.metadata.name = std::move(name);
    claim.metadata.labels[std::string(api::kNodePoolLabelKey)] = "default";
    claim.metadata.owner_references.push_back(
        {.api_version = "karpenter.sh/v1", .kind = "NodePool", .name = "default", .uid = pool_uid});
    claim.spec.node_class_ref =
        api::NodeClassReference{"EC2NodeClass", "default", std::string(api::kAwsGroup)};
    claim.spec.requirements.push_back({.key = std::string(api::kCapacityTypeLabelKey),
                                       .operator_ = "In",
                                       .values = {"on-demand"}});
    claim.spec.taints.push_back({.key = "team", .value = "a", .effect = "NoSchedule"});
    claim.spec.resources.requests["cpu"] = api::Quantity::Parse("1").value();
    return claim;
  }
  void CreateClaim(api::NodeClaim claim) { ASSERT_TRUE(cluster.Create(claim).ok()); }

  std::optional<api::NodeClaim> Claim(const std::string& name = "default-abc") const {
    std::optional<api::Object> object = cluster.Get({"NodeClaim", "", name});
    if (!object) return std::nullopt;
    return std::get<api::NodeClaim>(*object);
  }
  api::Node Node(const std::string& name) const {
    return std::get<api::Node>(*cluster.Get({"Node", "", name}));
  }
  api::NodePool Pool() const {
    return std::get<api::NodePool>(*cluster.Get({"NodePool", "", "default"}));
  }

  // The Node a kubelet registers for `claim`: the unregistered taint, not Ready yet.
  void RegisterNode(const api::NodeClaim& claim, std::string name = "ip-10-0-0-1") {
    api::Node node;
    node.metadata.name = std::move(name);
    node.spec.provider_id = claim.status.provider_id;
    node.spec.taints.push_back(
        {.key = std::string(api::kUnregisteredTaintKey), .effect = "NoExecute"});
    node.spec.taints.push_back({.key = "node.kubernetes.io/not-ready", .effect = "NoSchedule"});
    ASSERT_TRUE(cluster.Create(node).ok());
  }
  void UpdateNode(const std::function<void(api::Node&)>& change, std::string name = "ip-10-0-0-1") {
    api::Node node = Node(name);
    change(node);
    ASSERT_TRUE(cluster.Update(node).ok());
  }
  void UpdateNodeStatus(const std::function<void(api::Node&)>& change) {
    api::Node node = Node("ip-10-0-0-1");
    change(node);
    ASSERT_TRUE(cluster.UpdateStatus(node).ok());
  }

  ReconcileResult Reconcile(const std::string& name = "default-abc") {
    absl::StatusOr<ReconcileResult> result = lifecycle.Reconcile(name);
    EXPECT_TRUE(result.ok()) << result.status();
    return result.value_or(ReconcileResult{});
  }

  double Disrupted(const std::string& reason, const std::string& capacity_type = "") const {
    return metrics.Value("karpenter_nodeclaims_disrupted_total",
                         {{"reason", reason},
                          {"nodepool", "default"},
                          {"capacity_type", capacity_type},
                          {"consolidation_policy", ""},
                          {"termination_mode", "graceful"}});
  }
};

const api::Condition* Find(const api::NodeClaim& claim, std::string_view type) {
  for (const api::Condition& condition : claim.status.conditions) {
    if (condition.type == type) return &condition;
  }
  return nullptr;
}

std::string Status(const api::NodeClaim& claim, std::string_view type) {
  const api::Condition* condition = Find(claim, type);
  return condition == nullptr ? "absent" : condition->status + "/" + condition->reason;
}

bool HasTaint(const api::Node& node, std::string_view key) {
  for (const api::Taint& taint : node.spec.taints) {
    if (taint.key == key) return true;
  }
  return false;
}

TEST(NodeClaimLifecycle, AddsTheFinalizerThenLaunchesOnceAndRecordsTheInstance) {
  Fixture f;
  f.CreateClaim(f.NewClaim());
  f.Reconcile();
  api::NodeClaim claim = *f.Claim();
  EXPECT_EQ(claim.metadata.finalizers, std::vector<std::string>{"karpenter.sh/termination"});
  EXPECT_EQ(claim.status.provider_id, "fake:///us-east-1a/i-1");
  EXPECT_EQ(claim.status.image_id, "ami-fake");
  EXPECT_EQ(claim.metadata.labels.at(std::string(api::kLabelInstanceTypeStable)), "m5.large");
  EXPECT_EQ(Status(claim, "Launched"), "True/Launched");
  EXPECT_EQ(Status(claim, "Registered"), "Unknown/NodeNotFound");
  EXPECT_EQ(Status(claim, "Initialized"), "Unknown/AwaitingReconciliation");
  EXPECT_EQ(Status(claim, "Ready"), "Unknown/NodeNotFound");
  f.Reconcile();
  EXPECT_EQ(f.cloud.calls(), std::vector<std::string>{"Create default-abc"});
}

TEST(NodeClaimLifecycle, AUserLabelWinsOverTheCloudsLabel) {
  Fixture f;
  api::NodeClaim claim = f.NewClaim();
  claim.metadata.labels[std::string(api::kLabelInstanceTypeStable)] = "pinned";
  f.CreateClaim(claim);
  f.Reconcile();
  EXPECT_EQ(f.Claim()->metadata.labels.at(std::string(api::kLabelInstanceTypeStable)), "pinned");
}

TEST(NodeClaimLifecycle, ALostStatusWriteDoesNotLaunchASecondInstance) {
  Fixture f;
  f.CreateClaim(f.NewClaim());
  f.cluster.FailNext(FakeKubeCluster::Verb::kUpdateStatus, absl::UnavailableError("timeout"));
  EXPECT_FALSE(f.lifecycle.Reconcile("default-abc").ok());
  EXPECT_EQ(Status(*f.Claim(), "Launched"), "absent");
  f.Reconcile();
  EXPECT_EQ(Status(*f.Claim(), "Launched"), "True/Launched");
  EXPECT_EQ(f.cloud.calls(), std::vector<std::string>{"Create default-abc"});
  EXPECT_EQ(f.cloud.instances().size(), 1u);
}

TEST(NodeClaimLifecycle, InsufficientCapacityDeletesTheNodeClaimAndCountsIt) {
  Fixture f;
  f.cloud.SetInsufficientCapacity({"m5.large", "us-east-1a", "on-demand"});
  f.CreateClaim(f.NewClaim());
  f.Reconcile();
  ASSERT_TRUE(f.Claim()->metadata.deletion_timestamp.has_value());
  EXPECT_EQ(f.events.Count("InsufficientCapacityError"), 1u);
  EXPECT_EQ(f.Disrupted("insufficient_capacity"), 1);
  // No instance was launched, so the finalizer goes at once.
  f.Reconcile();
  EXPECT_FALSE(f.Claim().has_value());
  EXPECT_EQ(f.metrics.Value("karpenter_nodeclaims_terminated_total",
                            {{"nodepool", "default"}, {"capacity_type", ""}, {"zone", ""}}),
            1);
}

TEST(NodeClaimLifecycle, ANodeClassNotReadyDeletesTheNodeClaim) {
  Fixture f;
  f.cloud.FailNext(FakeCloudProvider::Method::kCreate,
                   CloudError{.kind = CloudErrorKind::kNodeClassNotReady, .message = "not ready"});
  f.CreateClaim(f.NewClaim());
  f.Reconcile();
  EXPECT_TRUE(f.Claim()->metadata.deletion_timestamp.has_value());
  EXPECT_EQ(f.events.Count("NodeClassNotReady"), 1u);
  EXPECT_EQ(f.Disrupted("nodeclass_not_ready"), 1);
}

TEST(NodeClaimLifecycle, OtherLaunchErrorsLeaveLaunchedUnknownWithTheReasonAndRetry) {
  Fixture f;
  f.cloud.FailNext(FakeCloudProvider::Method::kCreate,
                   CloudError{.kind = CloudErrorKind::kCreateError,
                              .reason = "LaunchTemplateNotFound",
                              .message = std::string(400, 'x')});
  f.CreateClaim(f.NewClaim());
  absl::StatusOr<ReconcileResult> result = f.lifecycle.Reconcile("default-abc");
  EXPECT_FALSE(result.ok());
  api::NodeClaim claim = *f.Claim();
  EXPECT_FALSE(claim.metadata.deletion_timestamp.has_value());
  EXPECT_EQ(Status(claim, "Launched"), "Unknown/LaunchTemplateNotFound");
  EXPECT_EQ(Find(claim, "Launched")->message, std::string(300, 'x') + "...");
  f.Reconcile();
  EXPECT_EQ(Status(*f.Claim(), "Launched"), "True/Launched");
}

TEST(NodeClaimLifecycle, RegistrationSyncsTheNodeAndMarksTheNodePoolHealthy) {
  Fixture f;
  f.CreateClaim(f.NewClaim());
  f.Reconcile();
  f.RegisterNode(*f.Claim());
  f.Reconcile();
  api::NodeClaim claim = *f.Claim();
  EXPECT_EQ(Status(claim, "Registered"), "True/Registered");
  EXPECT_EQ(claim.status.node_name, "ip-10-0-0-1");
  api::Node node = f.Node("ip-10-0-0-1");
  EXPECT_EQ(node.metadata.finalizers, std::vector<std::string>{"karpenter.sh/termination"});
  ASSERT_EQ(node.metadata.owner_references.size(), 1u);
  EXPECT_EQ(node.metadata.owner_references[0].uid, claim.metadata.uid);
  EXPECT_EQ(node.metadata.labels.at("karpenter.sh/registered"), "true");
  EXPECT_EQ(node.metadata.labels.at(std::string(api::kNodePoolLabelKey)), "default");
  EXPECT_FALSE(HasTaint(node, api::kUnregisteredTaintKey));
  EXPECT_TRUE(HasTaint(node, "team"));
  EXPECT_EQ(f.events.Count("UnregisteredTaintMissing"), 0u);
  EXPECT_EQ(f.metrics.Value("karpenter_nodes_created_total",
                            {{"nodepool", "default"}, {"zone", "us-east-1a"}}),
            1);
  const api::NodePool pool = f.Pool();
  ASSERT_EQ(pool.status.conditions.size(), 4u);  // NodeClassReady, NodeRegistrationHealthy, ...
  EXPECT_EQ(pool.status.conditions[1].type, "NodeRegistrationHealthy");
  EXPECT_EQ(pool.status.conditions[1].status, "True");
}

TEST(NodeClaimLifecycle, ANodeWithoutTheUnregisteredTaintIsReportedAndOptOutKeepsItsTaints) {
  Fixture f;
  f.CreateClaim(f.NewClaim());
  f.Reconcile();
  api::Node node;
  node.metadata.name = "ip-10-0-0-1";
  node.metadata.labels[std::string(api::kNodeDoNotSyncTaintsLabelKey)] = "true";
  node.spec.provider_id = f.Claim()->status.provider_id;
  ASSERT_TRUE(f.cluster.Create(node).ok());
  f.Reconcile();
  EXPECT_EQ(f.events.Count("UnregisteredTaintMissing"), 1u);
  EXPECT_FALSE(HasTaint(f.Node("ip-10-0-0-1"), "team"));
  EXPECT_EQ(Status(*f.Claim(), "Registered"), "True/Registered");
}

TEST(NodeClaimLifecycle, InitializationWaitsForReadinessTaintsAndResources) {
  Fixture f;
  api::NodeClaim fresh = f.NewClaim();
  fresh.spec.startup_taints.push_back({.key = "cni", .effect = "NoSchedule"});
  f.CreateClaim(fresh);
  f.Reconcile();
  f.RegisterNode(*f.Claim());
  f.Reconcile();
  EXPECT_EQ(Status(*f.Claim(), "Initialized"), "Unknown/NodeNotReady");

  f.UpdateNodeStatus([](api::Node& node) { node.status.conditions.push_back({"Ready", "True"}); });
  f.Reconcile();
  EXPECT_EQ(Status(*f.Claim(), "Initialized"), "Unknown/StartupTaintsExist");
  EXPECT_EQ(Find(*f.Claim(), "Initialized")->message,
            "StartupTaint \"cni:NoSchedule\" still exists");

  f.UpdateNode([](api::Node& node) {
    std::erase_if(node.spec.taints, [](const api::Taint& t) { return t.key == "cni"; });
  });
  f.Reconcile();
  EXPECT_EQ(Status(*f.Claim(), "Initialized"), "Unknown/KnownEphemeralTaintsExist");

  f.UpdateNode([](api::Node& node) {
    std::erase_if(node.spec.taints,
                  [](const api::Taint& t) { return t.key == "node.kubernetes.io/not-ready"; });
  });
  f.Reconcile();
  EXPECT_EQ(Status(*f.Claim(), "Initialized"), "Unknown/ResourceNotRegistered");

  f.UpdateNodeStatus([](api::Node& node) {
    node.status.allocatable["cpu"] = api::Quantity::Parse("1930m").value();
  });
  f.Reconcile();
  api::NodeClaim claim = *f.Claim();
  EXPECT_EQ(Status(claim, "Initialized"), "True/Initialized");
  EXPECT_EQ(Status(claim, "Ready"), "True/Ready");
  EXPECT_EQ(f.Node("ip-10-0-0-1").metadata.labels.at("karpenter.sh/initialized"), "true");
}

TEST(NodeClaimLifecycle, ALaunchThatKeepsFailingIsDeletedAfterFiveMinutes) {
  Fixture f;
  f.CreateClaim(f.NewClaim());
  for (int i = 0; i < 3; ++i) {
    f.cloud.FailNext(
        FakeCloudProvider::Method::kCreate,
        CloudError{
            .kind = CloudErrorKind::kCreateError, .reason = "LaunchFailed", .message = "denied"});
  }
  EXPECT_FALSE(f.lifecycle.Reconcile("default-abc").ok());
  f.clock.Advance(4 * kMinute);
  EXPECT_FALSE(f.lifecycle.Reconcile("default-abc").ok());
  EXPECT_FALSE(f.Claim()->metadata.deletion_timestamp.has_value());
  f.clock.Advance(kMinute);
  EXPECT_FALSE(f.lifecycle.Reconcile("default-abc").ok());
  EXPECT_TRUE(f.Claim()->metadata.deletion_timestamp.has_value());
  EXPECT_EQ(f.Disrupted("launch_timeout"), 1);
}

TEST(NodeClaimLifecycle, AClaimWhoseNodeNeverComesIsDeletedAfterFifteenMinutes) {
  Fixture f;
  f.CreateClaim(f.NewClaim());
  ReconcileResult result = f.Reconcile();
  ASSERT_TRUE(result.requeue_after_millis.has_value());
  EXPECT_EQ(*result.requeue_after_millis, 15 * kMinute);
  f.clock.Advance(10 * kMinute);
  EXPECT_EQ(*f.Reconcile().requeue_after_millis, 5 * kMinute);
  f.clock.Advance(5 * kMinute);
  f.Reconcile();
  EXPECT_TRUE(f.Claim()->metadata.deletion_timestamp.has_value());
  EXPECT_EQ(f.Disrupted("registration_timeout", "on-demand"), 1);
}

TEST(NodeClaimLifecycle, TwoFailedRegistrationsOfFourMakeTheNodePoolUnhealthy) {
  Fixture f;
  for (std::string name : {"a", "b"}) {
    f.CreateClaim(f.NewClaim(name));
    f.Reconcile(name);
  }
  f.clock.Advance(15 * kMinute);
  f.Reconcile("a");
  const auto healthy = [&f]() -> std::string {
    for (const api::Condition& condition : f.Pool().status.conditions) {
      if (condition.type == "NodeRegistrationHealthy")
        return condition.status + "/" + condition.reason;
    }
    return "absent";
  };
  EXPECT_EQ(healthy(), "absent");
  f.Reconcile("b");
  EXPECT_EQ(healthy(), "False/RegistrationFailed");
}

TEST(NodeClaimLifecycle, FinalizationDeletesTheNodeThenTheInstanceThenTheFinalizer) {
  Fixture f;
  f.CreateClaim(f.NewClaim());
  f.Reconcile();
  f.RegisterNode(*f.Claim());
  f.Reconcile();
  const std::string provider_id = f.Claim()->status.provider_id;
  ASSERT_TRUE(f.cluster.Delete({"NodeClaim", "", "default-abc"}).ok());

  f.Reconcile();  // the Node goes first; its finalizer keeps it while it drains
  EXPECT_TRUE(f.Node("ip-10-0-0-1").metadata.deletion_timestamp.has_value());
  EXPECT_TRUE(f.cloud.instances().contains(provider_id));
  EXPECT_TRUE(f.cloud.terminating().empty());

  f.UpdateNode([](api::Node& node) { node.metadata.finalizers.clear(); });
  ReconcileResult result = f.Reconcile();  // the instance next, polled until it is gone
  EXPECT_EQ(result.requeue_after_millis, std::optional<int64_t>(5000));
  EXPECT_TRUE(f.cloud.terminating().contains(provider_id));
  EXPECT_EQ(Status(*f.Claim(), "InstanceTerminating"), "True/InstanceTerminating");

  f.clock.Advance(30 * 1000);
  f.cloud.FinishTerminations();
  f.Reconcile();
  EXPECT_FALSE(f.Claim().has_value());
  EXPECT_EQ(f.metrics.Value(
                "karpenter_nodeclaims_terminated_total",
                {{"nodepool", "default"}, {"capacity_type", "on-demand"}, {"zone", "us-east-1a"}}),
            1);
  EXPECT_EQ(f.metrics.Value("karpenter_nodeclaims_instance_termination_duration_seconds",
                            {{"nodepool", "default"}}),
            1);
}

TEST(NodeClaimLifecycle, LogsUpstreamsLinesOnceAtEachStep) {
  Fixture f;
  f.CreateClaim(f.NewClaim());
  f.Reconcile();
  const std::string provider_id = f.Claim()->status.provider_id;
  ASSERT_EQ(f.log.lines().size(), 1u);
  EXPECT_EQ(f.log.lines()[0],
            "launched nodeclaim NodeClaim=default-abc provider-id=" + provider_id +
                " instance-type=m5.large zone=us-east-1a capacity-type=on-demand "
                "allocatable=" +
                ResourceListText(f.Claim()->status.allocatable));
  f.RegisterNode(*f.Claim());
  f.Reconcile();
  f.Reconcile();
  ASSERT_EQ(f.log.lines().size(), 2u);
  EXPECT_EQ(f.log.lines()[1], "registered nodeclaim NodeClaim=default-abc Node=ip-10-0-0-1");
  f.UpdateNode([](api::Node& node) {
    std::erase_if(node.spec.taints,
                  [](const api::Taint& t) { return t.key == "node.kubernetes.io/not-ready"; });
  });
  f.UpdateNodeStatus([](api::Node& node) {
    node.status.conditions.push_back({"Ready", "True"});
    node.status.allocatable["cpu"] = api::Quantity::Parse("1930m").value();
  });
  f.Reconcile();
  f.Reconcile();
  ASSERT_EQ(f.log.lines().size(), 3u);
  EXPECT_EQ(f.log.lines()[2],
            "initialized nodeclaim NodeClaim=default-abc Node=ip-10-0-0-1 allocatable=cpu=1930m");

  ASSERT_TRUE(f.cluster.Delete({"NodeClaim", "", "default-abc"}).ok());
  f.Reconcile();
  f.UpdateNode([](api::Node& node) { node.metadata.finalizers.clear(); });
  f.Reconcile();
  f.cloud.FinishTerminations();
  f.Reconcile();
  ASSERT_FALSE(f.Claim().has_value());
  ASSERT_EQ(f.log.lines().size(), 4u);
  EXPECT_EQ(f.log.lines()[3], "deleted nodeclaim NodeClaim=default-abc Node=ip-10-0-0-1");
}

TEST(NodeClaimLifecycle, DeletionWithAGracePeriodRecordsTheDeadline) {
  Fixture f;
  api::NodeClaim claim = f.NewClaim();
  claim.spec.termination_grace_period = api::Duration::FromHours(1);
  f.CreateClaim(claim);
  f.Reconcile();
  ASSERT_TRUE(f.cluster.Delete({"NodeClaim", "", "default-abc"}).ok());
  const api::Time deleted = *f.Claim()->metadata.deletion_timestamp;
  f.Reconcile();
  std::optional<api::NodeClaim> after = f.Claim();
  ASSERT_TRUE(after.has_value());
  EXPECT_EQ(after->metadata.annotations.at("karpenter.sh/nodeclaim-termination-timestamp"),
            (deleted + api::Duration::FromHours(1)).Rfc3339());
  EXPECT_EQ(f.events.Count("TerminationGracePeriodExpiring"), 1u);
}

TEST(NodeClaimLifecycle, AConflictOnTheFinalizerRequeuesWithoutLaunching) {
  Fixture f;
  f.CreateClaim(f.NewClaim());
  f.cluster.ConflictStorm(1);
  ReconcileResult result = f.Reconcile();
  EXPECT_TRUE(result.requeue);
  EXPECT_TRUE(f.cloud.calls().empty());
  f.Reconcile();
  EXPECT_EQ(f.cloud.calls().size(), 1u);
}

TEST(NodeClaimLifecycle, StartReconcilesOnNodeClaimAndNodeChanges) {
  Fixture f;
  f.lifecycle.Start();
  f.CreateClaim(f.NewClaim());
  f.clock.Advance(1000);
  ASSERT_EQ(Status(*f.Claim(), "Launched"), "True/Launched");
  f.RegisterNode(*f.Claim());
  f.clock.Advance(1000);
  EXPECT_EQ(Status(*f.Claim(), "Registered"), "True/Registered");
}

}  // namespace
}  // namespace karpenter::controllers
