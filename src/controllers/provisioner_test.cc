#include "src/controllers/provisioner.h"

#include <algorithm>
#include <variant>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "src/api/karpenter_labels.h"
#include "src/cloudprovider/catalog.h"
#include "src/fakes/fake_clock.h"
#include "src/fakes/fake_cloud_provider.h"
#include "src/fakes/fake_event_recorder.h"
#include "src/fakes/fake_kube_cluster.h"
#include "src/fakes/fake_logger.h"
#include "src/metrics/karpenter_metrics.h"
#include "src/metrics/registry.h"

namespace karpenter::controllers {
namespace {

// An informer cache behind the API server: while `lagging`, it shows no NodeClaim.
class LaggingReader : public ClusterReader {
 public:
  explicit LaggingReader(ClusterReader& cluster) : cluster_(cluster) {}
  bool lagging = false;

  bool Synced() const override { return cluster_.Synced(); }
  std::optional<api::Object> Get(const ObjectKey& key) const override {
    if (key.kind == "NodeClaim" && lagging) return std::nullopt;
    return cluster_.Get(key);
  }
  std::vector<api::Object> List(std::string_view kind) const override {
    std::vector<api::Object> objects = cluster_.List(kind);
    if (kind == "NodeClaim" && lagging) objects.clear();
    return objects;
  }
  std::vector<api::Pod> PodsOnNode(std::string_view node_name) const override {
    return cluster_.PodsOnNode(node_name);
  }
  std::optional<api::Node> NodeByProviderId(std::string_view provider_id) const override {
    return cluster_.NodeByProviderId(provider_id);
  }
  std::optional<api::NodeClaim> NodeClaimByProviderId(std::string_view provider_id) const override {
    return cluster_.NodeClaimByProviderId(provider_id);
  }
  void Watch(std::string_view kind, std::function<void(const ObjectKey&)> on_change) override {
    cluster_.Watch(kind, std::move(on_change));
  }

 private:
  ClusterReader& cluster_;
};

struct Fixture {
  fakes::FakeClock clock;
  fakes::FakeKubeCluster cluster{clock};
  fakes::FakeEventRecorder events;
  metrics::Registry metrics{metrics::KarpenterCatalog()};
  fakes::FakeLogger logger;
  Provisioner provisioner{ProvisionerSeams{clock, cluster, cluster, events, metrics, &logger},
                          ProvisionerOptions{}};

  // The article's NodePool and EC2NodeClass.
  Fixture() {
    for (const char* file : {"ec2nodeclass.yaml", "nodepool.yaml"}) {
      const std::string path = std::string(KP_SOURCE_DIR) + "/examples/article/" + file;
      EXPECT_TRUE(fakes::CreateFromFile(cluster, path).ok()) << path;
    }
  }

  // A pod the kube-scheduler could not place.
  void AddPendingPod(const std::string& name, const std::string& cpu) {
    EXPECT_TRUE(fakes::CreateUnschedulablePod(cluster, name, cpu, "512Mi").ok());
  }

  std::vector<api::NodeClaim> Claims() const {
    std::vector<api::NodeClaim> claims;
    for (const api::Object& object : cluster.List("NodeClaim")) {
      claims.push_back(std::get<api::NodeClaim>(object));
    }
    return claims;
  }
};

const api::NodeSelectorRequirementWithMinValues* Requirement(const api::NodeClaim& claim,
                                                             std::string_view key) {
  for (const auto& requirement : claim.spec.requirements) {
    if (requirement.key == key) return &requirement;
  }
  return nullptr;
}

TEST(Provisioner, CreatesTheNodeClaimsTheSolveWantsAndNominatesThePods) {
  Fixture f;
  f.AddPendingPod("a", "500m");
  f.AddPendingPod("b", "500m");
  absl::StatusOr<ProvisionOutcome> outcome = f.provisioner.Provision();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  ASSERT_EQ(outcome->created.size(), 1u);
  const std::vector<api::NodeClaim> claims = f.Claims();
  ASSERT_EQ(claims.size(), 1u);
  const api::NodeClaim& claim = claims[0];
  EXPECT_TRUE(claim.metadata.name.starts_with("default-"));
  EXPECT_EQ(claim.metadata.labels.at(std::string(api::kNodePoolLabelKey)), "default");
  ASSERT_EQ(claim.metadata.owner_references.size(), 1u);
  EXPECT_EQ(claim.metadata.owner_references[0].kind, "NodePool");
  EXPECT_FALSE(claim.metadata.owner_references[0].uid.empty());
  ASSERT_TRUE(claim.spec.node_class_ref.has_value());
  EXPECT_EQ(claim.spec.node_class_ref->name, "default");
  ASSERT_TRUE(claim.spec.expire_after.has_value());
  EXPECT_EQ(claim.spec.resources.requests.at("cpu"), api::Quantity::Parse("1").value());
  const auto* types = Requirement(claim, api::kLabelInstanceTypeStable);
  ASSERT_NE(types, nullptr);
  EXPECT_EQ(types->operator_, "In");
  EXPECT_GE(types->values.size(), 1u);
  EXPECT_LE(types->values.size(), kMaxNodeClaimInstanceTypes);
  const auto* generation = Requirement(claim, "karpenter.k8s.aws/instance-generation");
  ASSERT_NE(generation, nullptr);
  EXPECT_EQ(generation->operator_, "Gt");
  EXPECT_EQ(generation->values, std::vector<std::string>{"5"});
  EXPECT_EQ(f.events.Count("Nominated"), 2u);
  EXPECT_EQ(f.events.events()[0].message,
            "Pod should schedule on: nodeclaim/" + claim.metadata.name);
  EXPECT_EQ(
      f.metrics.Value(
          "karpenter_nodeclaims_created_total",
          {{"reason", "provisioning"}, {"nodepool", "default"}, {"min_values_relaxed", "false"}}),
      1);

  // Once the lifecycle controller has launched it, the next pass sees the claim in flight and
  // creates nothing more.
  api::NodeClaim launched = claim;
  launched.metadata.labels[std::string(api::kLabelInstanceTypeStable)] = types->values[0];
  launched.metadata.labels[std::string(api::kLabelTopologyZone)] = "us-east-1a";
  launched.metadata.labels[std::string(api::kCapacityTypeLabelKey)] = "spot";
  launched = std::get<api::NodeClaim>(*f.cluster.Update(launched));
  launched.status.provider_id = "aws:///us-east-1a/i-0123";
  ASSERT_TRUE(f.cluster.UpdateStatus(launched).ok());
  outcome = f.provisioner.Provision();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_TRUE(outcome->created.empty());
  EXPECT_EQ(f.Claims().size(), 1u);
}

TEST(Provisioner, LogsUpstreamsLinesForASolveThatLaunches) {
  Fixture f;
  for (const char* name : {"a", "b", "c", "d", "e", "f", "g"}) f.AddPendingPod(name, "100m");
  absl::StatusOr<ProvisionOutcome> outcome = f.provisioner.Provision();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  ASSERT_EQ(outcome->created.size(), 1u);
  const std::vector<std::string>& lines = f.logger.lines();
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0],
            "found provisionable pod(s) controller=provisioner Pods=default/a, default/b, "
            "default/c, default/d, default/e and 2 other(s) duration=0s");
  EXPECT_EQ(lines[1],
            "computed new nodeclaim(s) to fit pod(s) controller=provisioner nodeclaims=1 pods=7");
  const api::NodeClaim claim = f.Claims()[0];
  const auto* types = Requirement(claim, api::kLabelInstanceTypeStable);
  ASSERT_NE(types, nullptr);
  ASSERT_GT(types->values.size(), 5u);
  EXPECT_EQ(lines[2],
            absl::StrCat("created nodeclaim controller=provisioner NodePool=default "
                         "NodeClaim=",
                         claim.metadata.name, " requests={\"cpu\":\"700m\",",
                         "\"memory\":\"3584Mi\",\"pods\":\"7\"} instance-types=", types->values[0],
                         ", ", types->values[1], ", ", types->values[2], ", ", types->values[3],
                         ", ", types->values[4], " and ", types->values.size() - 5, " other(s)"));
  EXPECT_EQ(f.logger.debug_lines(),
            std::vector<std::string>{"computing scheduling decision for provisionable pod(s) "
                                     "controller=provisioner pending-pods=7"});
}

TEST(Provisioner, PodsAlreadyPendingAtStartAreProvisioned) {
  Fixture f;
  // A new leader starts long after the pod became unschedulable: no watch event will come.
  f.AddPendingPod("a", "500m");
  f.provisioner.Start();
  f.clock.Advance(2000);
  EXPECT_EQ(f.Claims().size(), 1u);
}

TEST(Provisioner, APodKubeSchedulerHasNotGivenUpOnIsNotProvisionedFor) {
  Fixture f;
  f.provisioner.Start();
  // Created and not yet looked at by kube-scheduler: it may still fit an existing node.
  api::Pod pod;
  pod.metadata.name = "fresh";
  pod.metadata.namespace_ = "default";
  api::Container container;
  container.name = "app";
  container.image = "nginx";
  container.resources.requests["cpu"] = api::Quantity::Parse("500m").value();
  pod.spec.containers.push_back(std::move(container));
  absl::StatusOr<api::Object> created = f.cluster.Create(pod);
  ASSERT_TRUE(created.ok()) << created.status();
  f.clock.Advance(2 * kPendingPodRecheckMillis);
  absl::StatusOr<ProvisionOutcome> outcome = f.provisioner.Provision();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_TRUE(f.Claims().empty());
  // kube-scheduler found no node: the status update is the watch event that opens a batch.
  pod = std::get<api::Pod>(*created);
  pod.status.phase = "Pending";
  pod.status.conditions.push_back(
      {.type = "PodScheduled", .status = "False", .reason = "Unschedulable"});
  ASSERT_TRUE(f.cluster.UpdateStatus(pod).ok());
  f.clock.Advance(1000);
  EXPECT_EQ(f.Claims().size(), 1u);
}

TEST(Provisioner, PodsStillPendingAreTriedAgainEveryTenSeconds) {
  Fixture f;
  f.provisioner.Start();
  f.AddPendingPod("a", "500m");
  f.clock.Advance(2000);
  ASSERT_EQ(f.Claims().size(), 1u);
  const std::string first = f.Claims()[0].metadata.name;
  // While the claim has not launched, the pod waits for it: no second claim.
  f.clock.Advance(3 * kPendingPodRecheckMillis);
  ASSERT_EQ(f.Claims().size(), 1u);
  // Its launch found no capacity and the lifecycle deleted it: the pod is provisioned again
  // although nothing about the pod changed.
  ASSERT_TRUE(f.cluster.Delete({"NodeClaim", "", first}).ok());
  f.clock.Advance(kPendingPodRecheckMillis + 2000);
  ASSERT_EQ(f.Claims().size(), 1u);
  EXPECT_NE(f.Claims()[0].metadata.name, first);
}

TEST(Provisioner, ANodeClaimStillLaunchingHoldsTheNextSolve) {
  Fixture f;
  f.AddPendingPod("a", "500m");
  ASSERT_TRUE(f.provisioner.Provision().ok());
  ASSERT_EQ(f.Claims().size(), 1u);
  EXPECT_EQ(f.metrics.Value("karpenter_cluster_state_synced", {}), 1);
  // Another pod arrives before the claim has launched: pod a is still pending, and the claim's
  // type and size are not known, so a solve now would launch for pod a a second time.
  f.AddPendingPod("b", "500m");
  absl::StatusOr<ProvisionOutcome> outcome = f.provisioner.Provision();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_FALSE(outcome->synced);
  EXPECT_EQ(f.Claims().size(), 1u);
  EXPECT_EQ(f.metrics.Value("karpenter_cluster_state_synced", {}), 0);

  api::NodeClaim launched = f.Claims()[0];
  launched.metadata.labels[std::string(api::kLabelInstanceTypeStable)] = "m5.large";
  launched = std::get<api::NodeClaim>(*f.cluster.Update(launched));
  launched.status.provider_id = "aws:///us-east-1a/i-0123";
  ASSERT_TRUE(f.cluster.UpdateStatus(launched).ok());
  outcome = f.provisioner.Provision();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_TRUE(outcome->synced);
  EXPECT_EQ(f.metrics.Value("karpenter_cluster_state_synced", {}), 1);
}

// Upstream puts a NodeClaim it created into its cluster state at once. Ours waits for the
// reader to show it: a pass in between would otherwise solve pod a again and launch twice.
TEST(Provisioner, ANodeClaimTheReaderHasNotShownYetHoldsTheNextSolve) {
  fakes::FakeClock clock;
  fakes::FakeKubeCluster cluster{clock};
  for (const char* file : {"ec2nodeclass.yaml", "nodepool.yaml"}) {
    ASSERT_TRUE(
        fakes::CreateFromFile(cluster, std::string(KP_SOURCE_DIR) + "/examples/article/" + file)
            .ok());
  }
  LaggingReader reader(cluster);
  fakes::FakeEventRecorder events;
  metrics::Registry registry{metrics::KarpenterCatalog()};
  Provisioner provisioner{ProvisionerSeams{clock, reader, cluster, events, registry, nullptr},
                          ProvisionerOptions{}};
  provisioner.Start();
  ASSERT_TRUE(fakes::CreateUnschedulablePod(cluster, "a", "500m", "512Mi").ok());
  reader.lagging = true;
  absl::StatusOr<ProvisionOutcome> first = provisioner.Provision();
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_EQ(first->created.size(), 1u);
  const std::string name = first->created[0];
  // Before the cluster shows the pod's claim: the gate holds, nothing more is created.
  absl::StatusOr<ProvisionOutcome> second = provisioner.Provision();
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_FALSE(second->synced);
  EXPECT_EQ(cluster.List("NodeClaim").size(), 1u);
  // The claim is deleted before the reader ever showed it (a launch refused at once): its
  // delete event lifts the gate, and pod a, still pending, gets a new claim.
  ASSERT_TRUE(cluster.Delete(ObjectKey{"NodeClaim", "", name}, {}).ok());
  reader.lagging = false;
  absl::StatusOr<ProvisionOutcome> third = provisioner.Provision();
  ASSERT_TRUE(third.ok()) << third.status();
  EXPECT_TRUE(third->synced);
  EXPECT_EQ(third->created.size(), 1u);
}

// With a cloud provider, each pass takes the NodePool's types from it, as upstream: offerings
// it marks unavailable (an ICE) are not planned for, and a pool whose types it cannot resolve
// is skipped.
TEST(Provisioner, TakesEachNodePoolsInstanceTypesFromTheCloudProvider) {
  Fixture f;
  absl::StatusOr<cloudprovider::Catalog> catalog = cloudprovider::Catalog::LoadEmbedded();
  ASSERT_TRUE(catalog.ok()) << catalog.status();
  // c6i.large is the cheaper, but every offering of it is out of capacity.
  cloudprovider::InstanceType exhausted = *catalog->Find("c6i.large");
  for (cloudprovider::Offering& offering : exhausted.offerings) offering.available = false;
  const cloudprovider::InstanceType available = *catalog->Find("m6i.xlarge");
  fakes::FakeCloudProvider cloud;
  cloud.SetInstanceTypes({exhausted, available});
  fakes::FakeLogger logger;
  Provisioner provisioner{
      ProvisionerSeams{f.clock, f.cluster, f.cluster, f.events, f.metrics, &logger, &cloud},
      ProvisionerOptions{}};
  f.AddPendingPod("a", "500m");
  absl::StatusOr<ProvisionOutcome> outcome = provisioner.Provision();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  ASSERT_EQ(outcome->created.size(), 1u);
  const std::vector<api::NodeClaim> claims = f.Claims();
  const auto* types = Requirement(claims[0], api::kLabelInstanceTypeStable);
  ASSERT_NE(types, nullptr);
  EXPECT_EQ(types->values, std::vector<std::string>{"m6i.xlarge"});
  EXPECT_EQ(cloud.calls(), std::vector<std::string>{"GetInstanceTypes default"});

  cloud.FailNext(fakes::FakeCloudProvider::Method::kGetInstanceTypes,
                 CloudError{.kind = CloudErrorKind::kNodeClassNotReady,
                            .reason = "NodeClassNotReady",
                            .message = "no subnets"});
  ASSERT_TRUE(f.cluster.Delete(ObjectKey{"NodeClaim", "", outcome->created[0]}, {}).ok());
  outcome = provisioner.Provision();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_TRUE(outcome->created.empty());
  EXPECT_EQ(outcome->unschedulable_pods, 1u);
  ASSERT_FALSE(logger.lines().empty());
  EXPECT_NE(std::find_if(logger.lines().begin(), logger.lines().end(),
                         [](const std::string& line) {
                           return line.starts_with(
                               "skipping, unable to resolve instance types controller=provisioner "
                               "NodePool=default error=no subnets");
                         }),
            logger.lines().end())
      << absl::StrJoin(logger.lines(), "\n");
}

TEST(Provisioner, UnsyncedTimeCountsFromTheFirstUnsyncedPassAndResetsOnceSynced) {
  Fixture f;
  f.AddPendingPod("a", "500m");
  ASSERT_TRUE(f.provisioner.Provision().ok());
  EXPECT_EQ(f.metrics.Value("karpenter_cluster_state_unsynced_time_seconds", {}), 0);
  // The claim has not launched: cluster state is not synced from now on.
  f.AddPendingPod("b", "500m");
  ASSERT_TRUE(f.provisioner.Provision().ok());
  f.clock.Advance(2'500);
  ASSERT_TRUE(f.provisioner.Provision().ok());
  EXPECT_EQ(f.metrics.Value("karpenter_cluster_state_unsynced_time_seconds", {}), 2.5);

  api::NodeClaim launched = f.Claims()[0];
  launched.status.provider_id = "aws:///us-east-1a/i-0123";
  ASSERT_TRUE(f.cluster.UpdateStatus(launched).ok());
  ASSERT_TRUE(f.provisioner.Provision().ok());
  EXPECT_EQ(f.metrics.Value("karpenter_cluster_state_unsynced_time_seconds", {}), 0);
}

TEST(Provisioner, QueueDepthIsWhatTheLastSolveLeftUnscheduledUnderItsSchedulingId) {
  Fixture f;
  f.AddPendingPod("huge", "4000");
  ASSERT_TRUE(f.provisioner.Provision().ok());
  EXPECT_EQ(f.metrics.Value("karpenter_scheduler_queue_depth",
                            {{"controller", "provisioner"}, {"scheduling_id", "1"}}),
            1);
  f.AddPendingPod("small", "500m");
  ASSERT_TRUE(f.provisioner.Provision().ok());
  // The first solve's series is gone: one series per controller.
  const std::string text = f.metrics.PrometheusText();
  EXPECT_EQ(text.find("scheduling_id=\"1\""), std::string::npos) << text;
  EXPECT_NE(
      text.find(
          "karpenter_scheduler_queue_depth{controller=\"provisioner\",scheduling_id=\"2\"} 1"),
      std::string::npos)
      << text;
}

TEST(Provisioner, APodNothingCanTakeIsReportedAndNothingIsCreated) {
  Fixture f;
  f.AddPendingPod("huge", "4000");
  absl::StatusOr<ProvisionOutcome> outcome = f.provisioner.Provision();
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_TRUE(outcome->created.empty());
  EXPECT_EQ(outcome->unschedulable_pods, 1u);
  ASSERT_EQ(f.events.Count("FailedScheduling"), 1u);
  EXPECT_TRUE(f.events.events()[0].message.starts_with("Failed to schedule pod, "));
  EXPECT_EQ(f.metrics.Value("karpenter_scheduler_unschedulable_pods_count",
                            {{"controller", "provisioner"}}),
            1);
  EXPECT_EQ(f.metrics.Value("karpenter_scheduler_scheduling_duration_seconds",
                            {{"controller", "provisioner"}}),
            1)
      << "one solve observed";
}

TEST(Provisioner, WaitsForTheClusterViewToSync) {
  Fixture f;
  f.AddPendingPod("a", "500m");
  f.cluster.set_synced(false);
  absl::StatusOr<ProvisionOutcome> outcome = f.provisioner.Provision();
  ASSERT_TRUE(outcome.ok());
  EXPECT_FALSE(outcome->synced);
  EXPECT_TRUE(f.Claims().empty());
}

TEST(Provisioner, AnUnschedulablePodOpensABatchThatClosesAfterTheIdleSecond) {
  Fixture f;
  f.provisioner.Start();
  f.AddPendingPod("a", "500m");
  f.clock.Advance(999);
  EXPECT_TRUE(f.Claims().empty());
  f.clock.Advance(1);
  EXPECT_EQ(f.Claims().size(), 1u);
}

}  // namespace
}  // namespace karpenter::controllers
