#include "src/controllers/node_termination.h"

#include <variant>

#include "gtest/gtest.h"
#include "src/api/karpenter_labels.h"
#include "src/api/storage.h"
#include "src/fakes/fake_clock.h"
#include "src/fakes/fake_cloud_provider.h"
#include "src/fakes/fake_event_recorder.h"
#include "src/fakes/fake_kube_cluster.h"
#include "src/fakes/fake_logger.h"
#include "src/metrics/karpenter_metrics.h"
#include "src/metrics/registry.h"

namespace karpenter::controllers {
namespace {

using fakes::FakeKubeCluster;

cloudprovider::InstanceType Type() {
  cloudprovider::InstanceType type;
  type.name = "m5.large";
  type.offerings = {
      {.zone = "us-east-1a", .capacity_type = "on-demand", .price = 0.096, .available = true}};
  return type;
}

struct Fixture {
  fakes::FakeClock clock;
  FakeKubeCluster cluster{clock};
  fakes::FakeCloudProvider cloud;
  fakes::FakeEventRecorder events;
  metrics::Registry metrics{metrics::KarpenterCatalog()};
  EvictionQueue evictions{clock, cluster, cluster, events, metrics};
  fakes::FakeLogger log;
  NodeTermination termination{
      TerminationSeams{clock, cluster, cluster, cloud, events, metrics, &log}, evictions};
  std::string provider_id;

  // A registered NodeClaim and its Ready Node "n1", with the instance running.
  Fixture() {
    cloud.SetInstanceTypes({Type()});
    api::NodeClaim claim;
    claim.metadata.name = "default-abc";
    claim.metadata.labels[std::string(api::kNodePoolLabelKey)] = "default";
    claim.metadata.finalizers = {std::string(api::kTerminationFinalizer)};
    claim.spec.node_class_ref =
        api::NodeClassReference{"EC2NodeClass", "default", std::string(api::kAwsGroup)};
    claim = std::get<api::NodeClaim>(cloud.Create(claim));
    provider_id = claim.status.provider_id;
    claim.status.conditions = {{.type = "DisruptionReason", .status = "True", .reason = "Drifted"}};
    // The API server drops status on create; it is written through the status subresource.
    const api::NodeClaimStatus status = claim.status;
    claim = std::get<api::NodeClaim>(*cluster.Create(claim));
    claim.status = status;
    EXPECT_TRUE(cluster.UpdateStatus(claim).ok());
    api::Node node;
    node.metadata.name = "n1";
    node.metadata.labels[std::string(api::kNodePoolLabelKey)] = "default";
    node.metadata.finalizers = {std::string(api::kTerminationFinalizer)};
    node.spec.provider_id = provider_id;
    node = std::get<api::Node>(*cluster.Create(node));
    node.status.conditions.push_back({"Ready", "True"});
    EXPECT_TRUE(cluster.UpdateStatus(node).ok());
  }

  template <class T>
  T Get(std::string kind, std::string ns, std::string name) const {
    return std::get<T>(*cluster.Get({std::move(kind), std::move(ns), std::move(name)}));
  }
  bool Exists(std::string kind, std::string ns, std::string name) const {
    return cluster.Get({std::move(kind), std::move(ns), std::move(name)}).has_value();
  }
  api::NodeClaim Claim() const { return Get<api::NodeClaim>("NodeClaim", "", "default-abc"); }

  void AddPod(std::string name, const std::function<void(api::Pod&)>& shape = {}) {
    api::Pod pod;
    pod.metadata.name = std::move(name);
    pod.metadata.namespace_ = "default";
    pod.metadata.labels = {{"app", "web"}};
    pod.spec.node_name = "n1";
    pod.status.phase = "Running";
    if (shape) shape(pod);
    ASSERT_TRUE(cluster.Create(pod).ok());
  }

  // The attach-detach controller's record of volume `pv` attached to n1.
  void AttachVolume(const std::string& name, const std::string& pv) {
    api::VolumeAttachment attachment;
    attachment.metadata.name = name;
    attachment.spec.attacher = "ebs.csi.aws.com";
    attachment.spec.node_name = "n1";
    attachment.spec.source.persistent_volume_name = pv;
    ASSERT_TRUE(cluster.Create(attachment).ok());
  }

  ReconcileResult Reconcile() {
    absl::StatusOr<ReconcileResult> result = termination.Reconcile("n1");
    EXPECT_TRUE(result.ok()) << result.status();
    return result.value_or(ReconcileResult{});
  }
  // The eviction queue's work, then the kubelets confirming their pods are gone.
  void RunEvictions() {
    clock.Advance(100);
    cluster.ReapTerminatingPods();
  }
};

std::string ConditionOf(const api::NodeClaim& claim, std::string_view type) {
  for (const api::Condition& condition : claim.status.conditions) {
    if (condition.type == type) return condition.status + "/" + condition.reason;
  }
  return "absent";
}

void OwnByDaemonSet(api::Pod& pod) {
  pod.metadata.owner_references.push_back(
      {.api_version = "apps/v1", .kind = "DaemonSet", .name = "agent", .uid = "ds"});
}

TEST(NodeTermination, DrainsInTiersThenTerminatesTheInstanceThenLetsTheNodeGo) {
  Fixture f;
  f.AddPod("web");
  f.AddPod("agent", OwnByDaemonSet);
  f.AddPod("dns", [](api::Pod& pod) { pod.spec.priority_class_name = "system-cluster-critical"; });
  f.AddPod("proxy", [](api::Pod& pod) {
    pod.spec.priority_class_name = "system-node-critical";
    OwnByDaemonSet(pod);
  });
  f.AddPod("stays", [](api::Pod& pod) {
    pod.spec.tolerations.push_back(
        {.key = std::string(api::kDisruptedTaintKey), .operator_ = "Exists"});
  });
  ASSERT_TRUE(f.cluster.Delete({"Node", "", "n1"}).ok());

  EXPECT_EQ(f.Reconcile().requeue_after_millis, std::optional<int64_t>(1000));
  EXPECT_TRUE(f.Claim().metadata.deletion_timestamp.has_value());
  const api::Node tainted = f.Get<api::Node>("Node", "", "n1");
  ASSERT_EQ(tainted.spec.taints.size(), 1u);
  EXPECT_EQ(tainted.spec.taints[0].key, "karpenter.sh/disrupted");
  EXPECT_EQ(tainted.metadata.labels.at("node.kubernetes.io/exclude-from-external-load-balancers"),
            "karpenter");
  EXPECT_EQ(ConditionOf(f.Claim(), "Drained"), "Unknown/Draining");
  EXPECT_EQ(f.log.lines(),
            std::vector<std::string>{"tainted node Node=n1 taint.Key=karpenter.sh/"
                                     "disrupted taint.Value= taint.Effect=NoSchedule"});

  // One tier at a time: each is queued only once the one before is gone.
  for (const char* expected : {"web", "agent", "dns", "proxy"}) {
    f.RunEvictions();
    EXPECT_FALSE(f.Exists("Pod", "default", expected)) << expected;
    f.Reconcile();
  }
  EXPECT_TRUE(f.Exists("Pod", "default", "stays"));
  EXPECT_EQ(f.metrics.Value("karpenter_pods_drained_total", {{"reason", "Drifted"}}), 4);
  EXPECT_EQ(f.events.Count("Evicted"), 4u);

  // Drained only once the drain has lasted 5 s.
  EXPECT_EQ(ConditionOf(f.Claim(), "Drained"), "Unknown/Draining");
  EXPECT_TRUE(f.cloud.terminating().empty());
  f.clock.Advance(5000);
  EXPECT_EQ(f.Reconcile().requeue_after_millis, std::optional<int64_t>(5000));
  EXPECT_EQ(ConditionOf(f.Claim(), "Drained"), "True/Drained");
  EXPECT_EQ(ConditionOf(f.Claim(), "VolumesDetached"), "True/VolumesDetached");
  EXPECT_EQ(ConditionOf(f.Claim(), "InstanceTerminating"), "True/InstanceTerminating");
  EXPECT_TRUE(f.cloud.terminating().contains(f.provider_id));
  EXPECT_EQ(f.metrics.Value("karpenter_nodes_drained_total", {{"nodepool", "default"}}), 1);

  f.cloud.FinishTerminations();
  f.Reconcile();
  EXPECT_FALSE(f.Exists("Node", "", "n1"));
  EXPECT_EQ(
      f.metrics.Value("karpenter_nodes_terminated_total", {{"nodepool", "default"}, {"zone", ""}}),
      1);
  // Tainted once although reconciled many times; deleted once.
  ASSERT_EQ(f.log.lines().size(), 2u);
  EXPECT_EQ(f.log.lines()[1], "deleted node Node=n1");
}

TEST(NodeTermination, ANotReadyNodeWhoseInstanceIsGoneIsLetGoWithoutADrain) {
  Fixture f;
  f.AddPod("web");
  api::Node node = f.Get<api::Node>("Node", "", "n1");
  node.status.conditions.clear();
  ASSERT_TRUE(f.cluster.UpdateStatus(node).ok());
  f.cloud.RemoveInstance(f.provider_id);
  ASSERT_TRUE(f.cluster.Delete({"Node", "", "n1"}).ok());
  f.Reconcile();
  EXPECT_FALSE(f.Exists("Node", "", "n1"));
  EXPECT_TRUE(f.Exists("Pod", "default", "web"));
  EXPECT_FALSE(f.evictions.controller().queue().Len() > 0);
}

TEST(NodeTermination, AttachedVolumesOfDrainedPodsHoldTheInstanceUntilDetached) {
  Fixture f;
  f.AttachVolume("csi-1", "pv-1");
  ASSERT_TRUE(f.cluster.Delete({"Node", "", "n1"}).ok());
  f.Reconcile();
  f.clock.Advance(5000);
  EXPECT_EQ(f.Reconcile().requeue_after_millis, std::optional<int64_t>(1000));
  EXPECT_EQ(ConditionOf(f.Claim(), "VolumesDetached"), "Unknown/AwaitingVolumeDetachment");
  EXPECT_EQ(f.events.Count("AwaitingVolumeDetachment"), 1u);
  EXPECT_TRUE(f.cloud.terminating().empty());
  ASSERT_TRUE(f.cluster.Delete({"VolumeAttachment", "", "csi-1"}).ok());
  f.Reconcile();
  EXPECT_TRUE(f.cloud.terminating().contains(f.provider_id));
}

TEST(NodeTermination, PastTheGracePeriodVolumesNoLongerHoldTheInstance) {
  Fixture f;
  api::NodeClaim claim = f.Claim();
  claim.metadata.annotations[std::string(api::kNodeClaimTerminationTimestampAnnotationKey)] =
      (f.clock.Now() + api::Duration::FromSeconds(10)).Rfc3339();
  ASSERT_TRUE(f.cluster.Update(claim).ok());
  f.AttachVolume("csi-1", "pv-1");
  ASSERT_TRUE(f.cluster.Delete({"Node", "", "n1"}).ok());
  f.Reconcile();
  f.clock.Advance(11'000);
  f.Reconcile();
  EXPECT_EQ(ConditionOf(f.Claim(), "VolumesDetached"), "False/TerminationGracePeriodElapsed");
  EXPECT_TRUE(f.cloud.terminating().contains(f.provider_id));
  EXPECT_GE(f.events.Count("TerminationGracePeriodExpiring"), 1u);
}

}  // namespace
}  // namespace karpenter::controllers
