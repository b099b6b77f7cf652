// The whole controller over fakes: a pending pod becomes a NodeClaim, an instance, a registered
// and initialized node; once its pod is gone the node is consolidated away and its instance
// terminated. The kubelet and kube-scheduler are played by the test.
#include "src/manager/manager.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "gtest/gtest.h"
#include "src/api/karpenter_labels.h"
#include "src/api/nodeclaim.h"
#include "src/cloudprovider/catalog.h"
#include "src/fakes/fake_clock.h"
#include "src/fakes/fake_cloud_provider.h"
#include "src/fakes/fake_event_recorder.h"
#include "src/fakes/fake_interruption_queue.h"
#include "src/fakes/fake_kube_cluster.h"
#include "src/fakes/fake_logger.h"
#include "src/metrics/karpenter_metrics.h"
#include "src/metrics/registry.h"

namespace karpenter::manager {
namespace {

constexpr int64_t kSecond = 1000;
constexpr int64_t kMinute = 60 * kSecond;

settings::Settings TestSettings() {
  absl::StatusOr<settings::Settings> parsed = settings::Parse({{"CLUSTER_NAME", "demo"}}, {});
  EXPECT_TRUE(parsed.ok()) << parsed.status();
  return *parsed;
}

std::vector<metrics::MetricDescription> Catalog() {
  std::vector<metrics::MetricDescription> catalog = metrics::KarpenterCatalog();
  for (metrics::MetricDescription& status : metrics::OperatorCatalog()) {
    catalog.push_back(std::move(status));
  }
  return catalog;
}

struct Fixture {
  fakes::FakeClock clock;
  fakes::FakeKubeCluster cluster{clock};
  fakes::FakeCloudProvider cloud;
  fakes::FakeEventRecorder events;
  fakes::FakeInterruptionQueue queue;
  metrics::Registry metrics{Catalog()};
  fakes::FakeLogger logger;
  Manager manager{ManagerSeams{.clock = clock,
                               .reader = cluster,
                               .writer = cluster,
                               .cloud = cloud,
                               .recorder = events,
                               .metrics = metrics,
                               .interruption_queue = &queue,
                               .logger = &logger},
                  OptionsFrom(TestSettings())};

  Fixture() {
    absl::StatusOr<cloudprovider::Catalog> catalog = cloudprovider::Catalog::LoadEmbedded();
    EXPECT_TRUE(catalog.ok()) << catalog.status();
    cloud.SetInstanceTypes(catalog->Types());
    for (const char* file : {"ec2nodeclass.yaml", "nodepool.yaml"}) {
      const std::string path = std::string(KP_SOURCE_DIR) + "/examples/article/" + file;
      EXPECT_TRUE(fakes::CreateFromFile(cluster, path).ok()) << path;
    }
    // The EC2NodeClass is ready, as the AWS provider's node class controller reports.
    auto node_class = std::get<api::EC2NodeClass>(*cluster.Get({"EC2NodeClass", "", "default"}));
    node_class.status.conditions.push_back({.type = "Ready", .status = "True", .reason = "Ready"});
    EXPECT_TRUE(cluster.UpdateStatus(node_class).ok());
  }

  void AddPendingPod(const std::string& name) {
    EXPECT_TRUE(fakes::CreateUnschedulablePod(cluster, name, "1", "1Gi").ok());
  }

  std::vector<api::NodeClaim> Claims() const {
    std::vector<api::NodeClaim> claims;
    for (const api::Object& object : cluster.List("NodeClaim")) {
      claims.push_back(std::get<api::NodeClaim>(object));
    }
    return claims;
  }

  // The kubelet joins: a Node with the claim's provider ID and capacity, Ready at once.
  std::string Join(const api::NodeClaim& claim) {
    api::Node node;
    node.metadata.name = "ip-10-0-0-" + std::to_string(++joined);
    node.spec.provider_id = claim.status.provider_id;
    node.spec.taints.push_back(
        {.key = std::string(api::kUnregisteredTaintKey), .effect = "NoExecute"});
    node = std::get<api::Node>(*cluster.Create(node));
    node.status.capacity = claim.status.capacity;
    node.status.allocatable =
        claim.status.allocatable.empty() ? claim.status.capacity : claim.status.allocatable;
    node.status.conditions.push_back({.type = "Ready", .status = "True", .reason = "KubeletReady"});
    EXPECT_TRUE(cluster.UpdateStatus(node).ok());
    return node.metadata.name;
  }

  // The kube-scheduler binds and the kubelet runs the pod.
  void Bind(const std::string& pod_name, const std::string& node) {
    auto pod = std::get<api::Pod>(*cluster.Get({"Pod", "default", pod_name}));
    pod.spec.node_name = node;
    pod = std::get<api::Pod>(*cluster.Update(pod));
    pod.status.phase = "Running";
    pod.status.conditions = {{.type = "PodScheduled", .status = "True"}};
    EXPECT_TRUE(cluster.UpdateStatus(pod).ok());
  }

  int joined = 0;
};

TEST(Manager, APendingPodGetsANodeThatGoesOnceItIsEmpty) {
  Fixture f;
  f.manager.Start();
  f.AddPendingPod("web-0");
  // The batch closes after a quiet second; the claim is created and launched.
  f.clock.Advance(2 * kSecond);
  std::vector<api::NodeClaim> claims = f.Claims();
  ASSERT_EQ(claims.size(), 1u);
  api::NodeClaim claim = claims[0];
  ASSERT_FALSE(claim.status.provider_id.empty()) << "the lifecycle controller launched it";
  EXPECT_EQ(f.cloud.instances().size(), 1u);
  EXPECT_FALSE(claim.metadata.finalizers.empty());

  const std::string node = f.Join(claim);
  f.clock.Advance(2 * kSecond);
  claim = f.Claims()[0];
  EXPECT_EQ(claim.status.node_name, node);
  const api::Node registered = std::get<api::Node>(*f.cluster.Get({"Node", "", node}));
  EXPECT_EQ(registered.metadata.labels.at(std::string(api::kNodeRegisteredLabelKey)), "true");
  EXPECT_EQ(registered.metadata.labels.at(std::string(api::kNodeInitializedLabelKey)), "true");
  // The NodePool's hash and counters are kept.
  const auto pool = std::get<api::NodePool>(*f.cluster.Get({"NodePool", "", "default"}));
  EXPECT_FALSE(pool.metadata.annotations.at(std::string(api::kNodePoolHashAnnotationKey)).empty());
  f.clock.Advance(10 * kSecond);
  EXPECT_EQ(std::get<api::NodePool>(*f.cluster.Get({"NodePool", "", "default"})).status.nodes, 1);

  f.Bind("web-0", node);
  f.clock.Advance(5 * kMinute);
  ASSERT_EQ(f.Claims().size(), 1u) << "a node running a pod stays";
  EXPECT_TRUE(f.Claims()[0].status.last_pod_event_time.has_value());

  // The pod goes: after consolidateAfter (1m) and the 15 s validation the node is removed and
  // its instance terminated.
  ASSERT_TRUE(f.cluster.Delete({"Pod", "default", "web-0"}).ok());
  f.cluster.ReapTerminatingPods();
  for (int i = 0; i < 30 && !f.Claims().empty(); ++i) {
    f.clock.Advance(10 * kSecond);
    f.cloud.FinishTerminations();
  }
  EXPECT_TRUE(f.Claims().empty());
  EXPECT_FALSE(f.cluster.Get({"Node", "", node}).has_value());
  EXPECT_TRUE(f.cloud.instances().empty());
  EXPECT_EQ(f.manager.disruption().commands_finished(), 1u);
}

TEST(Manager, ASpotInterruptionDeletesTheNodeClaim) {
  Fixture f;
  f.manager.Start();
  f.AddPendingPod("web-0");
  f.clock.Advance(5 * kSecond);
  ASSERT_EQ(f.Claims().size(), 1u);
  // The state metrics run with the rest: the launched claim is one node of cluster state.
  EXPECT_EQ(f.metrics.Value("karpenter_cluster_state_node_count", {}), 1);
  const api::NodeClaim claim = f.Claims()[0];
  const std::string instance =
      claim.status.provider_id.substr(claim.status.provider_id.rfind('/') + 1);
  f.queue.Send(R"({"version":"0","id":"1","detail-type":"EC2 Spot Instance Interruption Warning",)"
               R"("source":"aws.ec2","detail":{"instance-id":")" +
               instance + R"(","instance-action":"terminate"}})");
  f.clock.Advance(2 * kSecond);
  const std::optional<api::Object> after = f.cluster.Get({"NodeClaim", "", claim.metadata.name});
  EXPECT_TRUE(!after || std::get<api::NodeClaim>(*after).metadata.deletion_timestamp.has_value());
  EXPECT_GE(f.events.Count("SpotInterrupted"), 1u);
  const std::string line =
      "initiating delete from interruption message controller=interruption "
      "messageKind=spot_interrupted NodeClaim=" +
      claim.metadata.name + " action=CordonAndDrain";
  EXPECT_EQ(std::count(f.logger.lines().begin(), f.logger.lines().end(), line), 1)
      << "once, although the claim stays until drained";
}

TEST(Manager, TheNodePoolsInstanceTypesArePublishedOnceAMinute) {
  Fixture f;
  f.manager.Start();
  f.clock.Advance(kSecond);
  const MetricLabels timed = {{"controller", "cloudprovider.metrics"},
                              {"method", "GetInstanceTypes"},
                              {"provider", "fake"}};
  EXPECT_EQ(f.metrics.Value("karpenter_cloudprovider_duration_seconds", timed), 1);
  EXPECT_EQ(f.metrics.Value("karpenter_cloudprovider_instance_type_cpu_cores",
                            {{"instance_type", "m5.large"}}),
            2);
  EXPECT_EQ(
      f.metrics.Value(
          "karpenter_cloudprovider_instance_type_offering_available",
          {{"instance_type", "m5.large"}, {"capacity_type", "on-demand"}, {"zone", "us-east-1a"}}),
      1);
  f.clock.Advance(kMinute);
  EXPECT_EQ(f.metrics.Value("karpenter_cloudprovider_duration_seconds", timed), 2);
}

TEST(Manager, StatusConditionsOfTheNodeClassAndPoolAreCounted) {
  Fixture f;
  f.manager.Start();
  f.clock.Advance(kSecond);
  EXPECT_EQ(f.metrics.Value("operator_ec2nodeclass_status_condition_count", {{"namespace", ""},
                                                                             {"name", "default"},
                                                                             {"type", "Ready"},
                                                                             {"status", "True"},
                                                                             {"reason", "Ready"}}),
            1);
  EXPECT_NE(f.metrics.PrometheusText().find("operator_nodepool_status_condition_count{"),
            std::string::npos);
  EXPECT_TRUE(f.metrics.undeclared().empty()) << *f.metrics.undeclared().begin();
}

TEST(Manager, TheProvidersNodeClassResolutionKeepsTheClassStatus) {
  Fixture f;
  int resolved = 0;
  Manager manager{ManagerSeams{.clock = f.clock,
                               .reader = f.cluster,
                               .writer = f.cluster,
                               .cloud = f.cloud,
                               .recorder = f.events,
                               .metrics = f.metrics,
                               .resolve_node_class = [&resolved](const api::EC2NodeClass&)
                                   -> absl::StatusOr<api::EC2NodeClassStatus> {
                                 ++resolved;
                                 api::EC2NodeClassStatus status;
                                 status.subnets.push_back({.id = "subnet-1", .zone = "us-east-1a"});
                                 return status;
                               }},
                  OptionsFrom(TestSettings())};
  manager.Start();
  f.clock.Advance(0);
  EXPECT_GE(resolved, 1);
  const int after_start = resolved;
  const auto node_class =
      std::get<api::EC2NodeClass>(*f.cluster.Get({"EC2NodeClass", "", "default"}));
  ASSERT_EQ(node_class.status.subnets.size(), 1u);
  // Re-resolved every AMI/subnet refresh interval (1 minute by default).
  f.clock.Advance(60 * kSecond);
  EXPECT_EQ(resolved, after_start + 1);
}

TEST(Manager, TheProvidersTaggingRunsOnRegisteredNodeClaims) {
  Fixture f;
  std::vector<std::map<std::string, std::string>> tagged;
  Manager manager{ManagerSeams{.clock = f.clock,
                               .reader = f.cluster,
                               .writer = f.cluster,
                               .cloud = f.cloud,
                               .recorder = f.events,
                               .metrics = f.metrics,
                               .tag_instance =
                                   [&tagged](const std::string&,
                                             const std::map<std::string, std::string>& tags) {
                                     tagged.push_back(tags);
                                     return absl::StatusOr<bool>(true);
                                   }},
                  OptionsFrom(TestSettings())};
  api::NodeClaim claim;
  claim.metadata.name = "default-a";
  claim.spec.node_class_ref =
      api::NodeClassReference{"EC2NodeClass", "default", "karpenter.k8s.aws"};
  claim.status.provider_id = "aws:///us-east-1a/i-0123";
  claim.status.node_name = "ip-10-0-1-5.ec2.internal";
  ASSERT_TRUE(f.cluster.Create(claim).ok());
  manager.Start();
  f.clock.Advance(0);
  ASSERT_EQ(tagged.size(), 1u);
  EXPECT_EQ(tagged[0].at("eks:eks-cluster-name"), "demo");
  EXPECT_EQ(tagged[0].at("Name"), "ip-10-0-1-5.ec2.internal");
}

TEST(Manager, TheProvidersInstanceProfileCollectionSeesTheProfilesInUse) {
  Fixture f;
  std::vector<std::set<std::string>> collected;
  Manager manager{ManagerSeams{.clock = f.clock,
                               .reader = f.cluster,
                               .writer = f.cluster,
                               .cloud = f.cloud,
                               .recorder = f.events,
                               .metrics = f.metrics,
                               .collect_instance_profiles =
                                   [&collected](const std::set<std::string>& in_use) {
                                     collected.push_back(in_use);
                                     return absl::OkStatus();
                                   }},
                  OptionsFrom(TestSettings())};
  auto node_class = std::get<api::EC2NodeClass>(*f.cluster.Get({"EC2NodeClass", "", "default"}));
  node_class.status.instance_profile = "demo_1";
  ASSERT_TRUE(f.cluster.UpdateStatus(node_class).ok());
  manager.Start();
  f.clock.Advance(0);
  ASSERT_EQ(collected.size(), 1u);
  EXPECT_EQ(collected[0], std::set<std::string>{"demo_1"});
}

TEST(Manager, SettingsReachTheControllers) {
  absl::StatusOr<settings::Settings> parsed =
      settings::Parse({{"CLUSTER_NAME", "demo"},
                       {"BATCH_IDLE_DURATION", "3s"},
                       {"BATCH_MAX_DURATION", "20s"},
                       {"PREFERENCE_POLICY", "Ignore"},
                       {"MIN_VALUES_POLICY", "BestEffort"},
                       {"FEATURE_GATES", "SpotToSpotConsolidation=true"}},
                      {});
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  const ManagerOptions options = OptionsFrom(*parsed);
  EXPECT_EQ(options.provisioner.batch_idle_millis, 3000);
  EXPECT_EQ(options.provisioner.batch_max_millis, 20000);
  EXPECT_EQ(options.provisioner.scheduler.preference_policy,
            provisioning::PreferencePolicy::kIgnore);
  EXPECT_EQ(options.disruption.engine.scheduler.min_values_policy,
            provisioning::MinValuesPolicy::kBestEffort);
  EXPECT_TRUE(options.disruption.engine.spot_to_spot_consolidation);
  EXPECT_EQ(options.cluster_name, "demo");
  EXPECT_EQ(options.node_class_refresh_millis, 60 * kSecond);
}

}  // namespace
}  // namespace karpenter::manager
