#include "src/sim/karpenter_host.h"

#include <gtest/gtest.h>

#include "absl/strings/str_split.h"
#include "src/api/karpenter_labels.h"
#include "src/sim/sim_test_util.h"

namespace karpenter::sim {
namespace {

using testing::BoundPods;
using testing::MakeDeployment;
using testing::World;

api::EC2NodeClass NodeClass() { return testing::MakeNodeClass(); }

// Only c6i.xlarge, so the predicted launch is known.
api::NodePool NodePool(const std::string& capacity_type) {
  return testing::MakeNodePool({"c6i.xlarge"}, {capacity_type});
}

void ApplyPool(World& world, const std::string& capacity_type) {
  ASSERT_TRUE(world.cluster.Apply(NodeClass(), true).ok());
  ASSERT_TRUE(world.cluster.Apply(NodePool(capacity_type), true).ok());
}

size_t CountEvents(const EventLog& log, const std::string& fragment) {
  size_t count = 0;
  for (const std::string& line : log.lines()) count += line.find(fragment) != std::string::npos;
  return count;
}

// An on-demand c6i.xlarge pool, Karpenter started, and three pods of 1 cpu / 1Gi just created.
struct ThreeWebPods {
  ThreeWebPods() {
    ApplyPool(world, "on-demand");
    host.Start();
    EXPECT_TRUE(world.cluster.Apply(MakeDeployment("web", 3, "1", "1Gi"), false).ok());
  }
  World world;
  KarpenterHost host{world.cluster};
};

TEST(KarpenterHost, BatchesPendingPodsLaunchesANodeClaimAndPodsBind) {
  ThreeWebPods w;
  World& world = w.world;
  KarpenterHost& host = w.host;
  world.queue.RunUntil(120000);
  EXPECT_EQ(host.node_claims_created(), 1u);
  EXPECT_EQ(BoundPods(world.cluster), 3u);
  // Unschedulable at 1 s, batch closes 1 s later, CreateFleet 3 s, bring-up 50 s, bind 1 s.
  for (double pending : world.cluster.counters().pod_pending_seconds) EXPECT_EQ(pending, 56);
  EXPECT_EQ(world.cluster.counters().node_ready_seconds, (std::vector<double>{53}));
  const Instance& instance = world.cluster.instances().begin()->second;
  EXPECT_EQ(instance.request.instance_type, "c6i.xlarge");
  EXPECT_EQ(instance.node.metadata.labels.at("karpenter.sh/nodepool"), "default");
  EXPECT_EQ(instance.node.metadata.labels.at("karpenter.sh/initialized"), "true");
  // Bound: kube-scheduler's condition turned True.
  for (const auto& [key, record] : world.cluster.pods()) {
    ASSERT_EQ(record.pod.status.conditions.size(), 1u) << key;
    EXPECT_EQ(record.pod.status.conditions[0].status, "True") << key;
  }
}

// Upstream's podevents controller: a NodeClaim's lastPodEventTime moves when a pod binds to its
// node, starts terminating or goes, at most once per 10 s; consolidateAfter counts from it.
TEST(KarpenterHost, PodEventsMoveTheClaimsLastPodEventTimeAtMostOncePerTenSeconds) {
  ThreeWebPods w;
  World& world = w.world;
  world.queue.RunUntil(59000);
  ASSERT_EQ(BoundPods(world.cluster), 3u);
  const std::string claim_name = world.cluster.node_claims().begin()->first;
  auto last_event_seconds = [&] {
    const api::NodeClaim* claim = world.cluster.FindNodeClaim(claim_name);
    EXPECT_TRUE(claim != nullptr && claim->status.last_pod_event_time.has_value());
    if (claim == nullptr || !claim->status.last_pod_event_time) return int64_t{-1};
    return (*claim->status.last_pod_event_time - world.queue.Now()).Nanos() /
               api::Duration::kSecond +
           world.queue.now() / kMillisPerSecond;
  };
  EXPECT_EQ(last_event_seconds(), 56) << "the pods bound at 56 s";
  world.queue.At(60000, [&] { ASSERT_TRUE(world.cluster.ScaleDeployment("default/web", 2).ok()); });
  world.queue.RunUntil(61000);
  EXPECT_EQ(last_event_seconds(), 56) << "a pod went 4 s later: de-duplicated";
  world.queue.At(70000, [&] {
    std::string pod;
    for (const auto& [key, record] : world.cluster.pods()) {
      if (!record.pod.spec.node_name.empty()) pod = key;
    }
    EXPECT_EQ(world.cluster.Evict(pod), Cluster::Eviction::kEvicted);
  });
  world.queue.RunUntil(71000);
  EXPECT_EQ(last_event_seconds(), 70) << "the evicted pod started terminating";
  world.queue.RunUntil(105000);
  EXPECT_EQ(last_event_seconds(), 70) << "its removal after the 30 s grace period is no event";
}

TEST(KarpenterHost, TheFinalScrapeHasTheDashboardsGaugesFromTheStateMetricsController) {
  ThreeWebPods w;
  w.world.queue.RunUntil(120000);
  w.host.FinishMetrics();
  const metrics::Registry& metrics = w.host.metrics();
  EXPECT_EQ(metrics.Value("karpenter_cluster_state_node_count", {}), 1);
  // The NodePool counter's status.resources: one c6i.xlarge, 4 vCPU.
  EXPECT_EQ(metrics.Value("karpenter_nodepools_usage",
                          {{"nodepool", "default"}, {"resource_type", "cpu"}}),
            4);
  EXPECT_EQ(w.world.cluster.FindNodePool("default")->status.nodes, 1);
  const std::string text = metrics.PrometheusText();
  // The Karpenter node's requests: the three web pods of 1 cpu each.
  const Instance& instance = w.world.cluster.instances().begin()->second;
  const std::string node_label = "node_name=\"" + instance.node.metadata.name + "\"";
  bool requests_seen = false;
  for (const std::string& line : std::vector<std::string>(absl::StrSplit(text, '\n'))) {
    if (line.starts_with("karpenter_nodes_total_pod_requests{") &&
        line.find(R"(resource_type="cpu")") != std::string::npos) {
      EXPECT_NE(line.find(node_label), std::string::npos) << line;
      EXPECT_NE(line.find(R"(managed="true")"), std::string::npos) << line;
      EXPECT_NE(line.find(R"(nodepool="default")"), std::string::npos) << line;
      EXPECT_TRUE(line.ends_with(" 3")) << line;
      requests_seen = true;
    }
  }
  EXPECT_TRUE(requests_seen) << text;
  EXPECT_NE(text.find("karpenter_nodes_allocatable{"), std::string::npos);
  // Every web pod runs, bound and Ready, on that node.
  size_t running = 0;
  for (size_t at = text.find("karpenter_pods_state{"); at != std::string::npos;
       at = text.find("karpenter_pods_state{", at + 1)) {
    const std::string line = text.substr(at, text.find('\n', at) - at);
    running += line.find(R"(phase="Running")") != std::string::npos &&
               line.find(R"(ready="true")") != std::string::npos &&
               line.find(R"(nodepool="default")") != std::string::npos;
  }
  EXPECT_EQ(running, 3u) << text;
  // The pods were not watched as they changed: no startup durations.
  EXPECT_EQ(metrics.Value("karpenter_pods_startup_duration_seconds", {}), 0);
}

TEST(KarpenterHost, WatchedPodsReportTheirStartupAndBindingDurations) {
  World world;
  ApplyPool(world, "on-demand");
  KarpenterHost host{world.cluster};
  host.Start();
  host.WatchPodMetrics();
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("web", 3, "1", "1Gi"), false).ok());
  world.queue.RunUntil(120000);
  host.FinishMetrics();
  // Seen pending, bound and Ready 56 s after their creation (the twin's pending time).
  EXPECT_EQ(host.metrics().Value("karpenter_pods_startup_duration_seconds", {}), 3);
  EXPECT_EQ(host.metrics().Value("karpenter_pods_bound_duration_seconds", {}), 3);
  const std::string text = host.metrics().PrometheusText();
  EXPECT_NE(text.find("karpenter_pods_startup_duration_seconds_sum 168"), std::string::npos)
      << text;
  EXPECT_EQ(text.find("karpenter_pods_unbound_time_seconds{"), std::string::npos)
      << "no pod is waiting";
}

// kube-scheduler marks pods unschedulable 0.2 s after they arrive, so the batcher sees the
// arrival gaps themselves.
LatencyModel QuickScheduler() {
  LatencyModel latency = testing::FixedLatency();
  latency.kube_scheduler_bind = {0.2, 0.2};
  return latency;
}

TEST(KarpenterHost, NodesCarryTheNodePoolsTaintsAndClass) {
  World world;
  ASSERT_TRUE(world.cluster.Apply(NodeClass(), true).ok());
  api::NodePool pool = NodePool("on-demand");
  api::Taint taint;
  taint.key = "dedicated";
  taint.value = "ci";
  taint.effect = "NoSchedule";
  pool.spec.template_.spec.taints = {taint};
  ASSERT_TRUE(world.cluster.Apply(pool, true).ok());
  KarpenterHost host(world.cluster);
  host.Start();
  api::Deployment tolerating = MakeDeployment("ci", 1, "1", "1Gi");
  api::Toleration toleration;
  toleration.key = "dedicated";
  toleration.operator_ = "Exists";
  tolerating.spec.template_.spec.tolerations = {toleration};
  ASSERT_TRUE(world.cluster.Apply(tolerating, false).ok());
  world.queue.RunUntil(20000);
  // Created in flight: its taint keeps a pod that does not tolerate it from riding along.
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("web", 1, "500m", "256Mi"), false).ok());
  world.queue.RunUntil(120000);
  ASSERT_EQ(world.cluster.LiveInstanceCount(), 1u);
  const Instance& instance = world.cluster.instances().begin()->second;
  ASSERT_EQ(instance.node.spec.taints.size(), 1u);
  EXPECT_EQ(instance.node.spec.taints[0].key, "dedicated");
  const api::NodeClaim* node_claim = world.cluster.FindNodeClaim(instance.request.node_claim);
  ASSERT_NE(node_claim, nullptr);
  ASSERT_TRUE(node_claim->spec.node_class_ref.has_value());
  EXPECT_EQ(node_claim->spec.node_class_ref->name, "default");
  EXPECT_EQ(BoundPods(world.cluster), 1u);
  EXPECT_EQ(world.cluster.UnschedulablePods().size(), 1u);
}

// The twin's NodeClaims are built as the provisioner controller builds them (ToNodeClaim), with a
// reproducible name in place of the API server's generated one.
TEST(KarpenterHost, NodeClaimsAreTheProvisionersNodeClaims) {
  ThreeWebPods w;
  World& world = w.world;
  world.queue.RunUntil(10000);
  ASSERT_EQ(world.cluster.instances().size(), 1u);
  const Instance& instance = world.cluster.instances().begin()->second;
  const api::NodeClaim* claim = world.cluster.FindNodeClaim(instance.request.node_claim);
  ASSERT_NE(claim, nullptr);
  EXPECT_TRUE(claim->metadata.name.starts_with("default-"));
  EXPECT_TRUE(claim->metadata.generate_name.empty());
  ASSERT_EQ(claim->metadata.owner_references.size(), 1u);
  EXPECT_EQ(claim->metadata.owner_references[0].kind, "NodePool");
  EXPECT_EQ(claim->metadata.owner_references[0].name, "default");
  EXPECT_EQ(claim->spec.resources.requests.at("cpu"), api::Quantity::Parse("3").value());
  bool names_the_type = false;
  for (const auto& requirement : claim->spec.requirements) {
    if (requirement.key != api::kLabelInstanceTypeStable) continue;
    names_the_type = requirement.operator_ == "In" &&
                     requirement.values == std::vector<std::string>{"c6i.xlarge"};
  }
  EXPECT_TRUE(names_the_type);
  EXPECT_EQ(claim->metadata.labels.at(std::string(api::kLabelInstanceTypeStable)), "c6i.xlarge");
}

// Registration and initialization are the lifecycle controller's (controllers::RegisterNode,
// InitializationBlocker): the node is the NodeClaim's (finalizer, owner, annotations, no
// karpenter.sh/unregistered taint), and its startup taint keeps pods and a DaemonSet that do not
// tolerate it away until it is gone; the twin removes it as the node turns Ready, and only then
// is the node initialized.
TEST(KarpenterHost, NodesRegisterAndInitializeAsTheLifecycleControllerMakesThem) {
  World world;
  ASSERT_TRUE(world.cluster.Apply(NodeClass(), true).ok());
  api::NodePool pool = NodePool("on-demand");
  pool.spec.template_.spec.startup_taints = {
      api::Taint{.key = "node.cilium.io/agent-not-ready", .value = "true", .effect = "NoSchedule"}};
  ASSERT_TRUE(world.cluster.Apply(pool, true).ok());
  api::DaemonSet agent;
  agent.metadata.name = "log-agent";
  agent.metadata.namespace_ = "kube-system";
  agent.spec.template_.spec.containers.push_back(api::Container{.name = "agent", .image = "agent"});
  ASSERT_TRUE(world.cluster.Apply(agent, true).ok());
  KarpenterHost host(world.cluster);
  host.Start();
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("web", 1, "1", "1Gi"), false).ok());
  // Registered at 5 + 35 s, Ready 15 s later.
  world.queue.RunUntil(45000);
  ASSERT_EQ(world.cluster.instances().size(), 1u);
  const Instance& instance = world.cluster.instances().begin()->second;
  ASSERT_EQ(instance.phase, NodePhase::kRegistered);
  const api::NodeClaim* claim = world.cluster.FindNodeClaim(instance.request.node_claim);
  ASSERT_NE(claim, nullptr);
  const api::Node& node = instance.node;
  EXPECT_EQ(node.metadata.labels.at(std::string(api::kNodeRegisteredLabelKey)), "true");
  EXPECT_FALSE(node.metadata.labels.contains(std::string(api::kNodeInitializedLabelKey)));
  EXPECT_EQ(node.metadata.finalizers,
            std::vector<std::string>{std::string(api::kTerminationFinalizer)});
  ASSERT_EQ(node.metadata.owner_references.size(), 1u);
  EXPECT_EQ(node.metadata.owner_references[0].uid, claim->metadata.uid);
  for (const auto& [key, value] : claim->metadata.annotations) {
    EXPECT_EQ(node.metadata.annotations.at(key), value) << key;
  }
  std::vector<std::string> taints;
  for (const api::Taint& taint : node.spec.taints) taints.push_back(taint.key);
  EXPECT_EQ(taints, (std::vector<std::string>{"node.cilium.io/agent-not-ready",
                                              "node.kubernetes.io/not-ready"}));
  EXPECT_EQ(world.cluster.WorkloadPodsOn(node.metadata.name).size(), 0u);
  EXPECT_EQ(world.cluster.pods().size(), 1u);  // no DaemonSet pod while the startup taint holds

  world.queue.RunUntil(120000);
  ASSERT_EQ(instance.phase, NodePhase::kReady);
  EXPECT_TRUE(instance.node.spec.taints.empty());
  EXPECT_EQ(instance.node.metadata.labels.at(std::string(api::kNodeInitializedLabelKey)), "true");
  EXPECT_EQ(world.cluster.pods().size(), 2u);
  EXPECT_EQ(BoundPods(world.cluster), 2u);
}

TEST(KarpenterHost, PlansOnlyForPodsKubeSchedulerFoundNoNodeFor) {
  World world;
  ApplyPool(world, "on-demand");
  KarpenterHost host(world.cluster);
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("web", 1, "1", "1Gi"), false).ok());
  // Created, and kube-scheduler (1 s) has not looked at it yet: it may still fit a node.
  world.queue.RunUntil(500);
  absl::StatusOr<std::unique_ptr<PlanningInput>> planning = host.BuildPlanningInput();
  ASSERT_TRUE(planning.ok()) << planning.status();
  EXPECT_TRUE((*planning)->input.input.pending_pods.empty());
  world.queue.RunUntil(1500);
  planning = host.BuildPlanningInput();
  ASSERT_TRUE(planning.ok()) << planning.status();
  ASSERT_EQ((*planning)->input.input.pending_pods.size(), 1u);
  const api::Pod& pod = (*planning)->input.input.pending_pods[0];
  ASSERT_EQ(pod.status.conditions.size(), 1u);
  EXPECT_EQ(pod.status.conditions[0].type, "PodScheduled");
  EXPECT_EQ(pod.status.conditions[0].status, "False");
  EXPECT_EQ(pod.status.conditions[0].reason, "Unschedulable");
}

TEST(KarpenterHost, PodsArrivingWithinTheIdleWindowShareOneBatch) {
  World world({}, QuickScheduler());
  ApplyPool(world, "on-demand");
  KarpenterHost host(world.cluster);
  host.Start();
  for (int i = 0; i < 5; ++i) {
    world.queue.At(i * 500, [&world, i] {
      world.cluster.Apply(MakeDeployment("web-" + std::to_string(i), 1, "500m", "256Mi"), false)
          .IgnoreError();
    });
  }
  world.queue.RunUntil(100000);
  EXPECT_EQ(CountEvents(world.log, "\"BatchClosed\""), 1u);
  EXPECT_EQ(host.node_claims_created(), 1u);
  EXPECT_EQ(BoundPods(world.cluster), 5u);
}

TEST(KarpenterHost, BatchClosesAtTheMaximumWhenPodsKeepArriving) {
  World world({}, QuickScheduler());
  ApplyPool(world, "on-demand");
  KarpenterHost host(world.cluster);
  host.Start();
  for (int i = 0; i < 30; ++i) {
    world.queue.At(i * 700, [&world, i] {
      world.cluster.Apply(MakeDeployment("web-" + std::to_string(i), 1, "100m", "64Mi"), false)
          .IgnoreError();
    });
  }
  world.queue.RunUntil(12500);
  // The first pod was unschedulable at 0.2 s; pods kept coming every 0.7 s, so only the 10 s
  // maximum closed the batch, at 10.2 s.
  EXPECT_NE(
      world.log.lines().end(),
      std::find_if(world.log.lines().begin(), world.log.lines().end(), [](const std::string& line) {
        return line.find("\"t\":10.200,\"run\":\"\",\"event\":\"BatchClosed\"") !=
               std::string::npos;
      }));
}

TEST(KarpenterHost, InsufficientCapacityFallsBackToTheNextOffering) {
  World world({CapacityFault{"c6i.xlarge", "on-demand", {"us-east-1a"}, 0, 1000}});
  ApplyPool(world, "on-demand");
  KarpenterHost host(world.cluster);
  host.Start();
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("web", 1, "1", "1Gi"), false).ok());
  world.queue.RunUntil(120000);
  EXPECT_EQ(CountEvents(world.log, "\"InsufficientCapacity\""), 1u);
  ASSERT_EQ(world.cluster.LiveInstanceCount(), 1u);
  EXPECT_NE(world.cluster.instances().begin()->second.request.zone, "us-east-1a");
  EXPECT_EQ(BoundPods(world.cluster), 1u);
}

// Upstream's provider launches one capacity type per CreateFleet. With every spot offering
// refused, the fleet fails and its NodeClaim is deleted; the next batch, with those offerings
// unavailable, launches on demand. One launch never switches capacity type.
TEST(KarpenterHost, AFleetRefusedOnEveryOfferingIsDeletedAndTheNextClaimTakesOnDemand) {
  World world({CapacityFault{"c6i.xlarge", "spot", {}, 0, 1000}});
  ASSERT_TRUE(world.cluster.Apply(NodeClass(), true).ok());
  ASSERT_TRUE(
      world.cluster.Apply(testing::MakeNodePool({"c6i.xlarge"}, {"spot", "on-demand"}), true).ok());
  KarpenterHost host(world.cluster);
  host.Start();
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("web", 1, "1", "1Gi"), false).ok());
  world.queue.RunUntil(120000);
  // The spot fleet asked for the type in each of the three zones, and each was refused.
  EXPECT_EQ(CountEvents(world.log, "\"InsufficientCapacity\""), 3u);
  EXPECT_EQ(CountEvents(world.log, "\"NodeClaimLaunchFailed\""), 1u);
  EXPECT_EQ(host.node_claims_created(), 2u);
  ASSERT_EQ(world.cluster.LiveInstanceCount(), 1u);
  EXPECT_EQ(world.cluster.instances().begin()->second.request.capacity_type, "on-demand");
  EXPECT_EQ(BoundPods(world.cluster), 1u);
}

// The kubelet runs with the class's settings: a node of a class with maxPods 4 registers with
// room for 4 pods, as Karpenter planned, not with the type's default.
TEST(KarpenterHost, NodesReportTheAllocatableOfTheirClassesKubeletSettings) {
  World world({}, QuickScheduler());
  api::EC2NodeClass node_class = NodeClass();
  node_class.spec.kubelet = api::KubeletConfiguration{};
  node_class.spec.kubelet->max_pods = 4;
  ASSERT_TRUE(world.cluster.Apply(node_class, true).ok());
  ASSERT_TRUE(world.cluster.Apply(NodePool("on-demand"), true).ok());
  KarpenterHost host(world.cluster);
  host.Start();
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("web", 6, "100m", "128Mi"), false).ok());
  world.queue.RunUntil(120000);
  EXPECT_EQ(host.node_claims_created(), 2u);
  EXPECT_EQ(BoundPods(world.cluster), 6u);
  for (const auto& [id, instance] : world.cluster.instances()) {
    EXPECT_EQ(instance.node.status.allocatable.at("pods").Value(), 4) << id;
    EXPECT_LE(world.cluster.WorkloadPodsOn(instance.node.metadata.name).size(), 4u) << id;
  }
}

TEST(KarpenterHost, NoOfferingLeftFailsTheNodeClaimAndPodsStayPending) {
  World world({CapacityFault{"c6i.xlarge", "on-demand", {}, 0, 1000}});
  ApplyPool(world, "on-demand");
  KarpenterHost host(world.cluster);
  host.Start();
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("web", 1, "1", "1Gi"), false).ok());
  world.queue.RunUntil(60000);
  EXPECT_EQ(CountEvents(world.log, "\"NodeClaimLaunchFailed\""), 1u);
  EXPECT_EQ(world.cluster.LiveInstanceCount(), 0u);
  EXPECT_EQ(world.cluster.UnschedulablePods().size(), 1u);
  EXPECT_EQ(world.cluster.FindNodeClaim("default-x"), nullptr);
  // Upstream's launch counts the claim it deletes for insufficient capacity; nothing ran on it.
  const MetricLabels labels = testing::DefaultPoolDisruptedLabels("insufficient_capacity");
  EXPECT_EQ(host.metrics().Value("karpenter_nodeclaims_disrupted_total", labels), 1);
  EXPECT_EQ(host.metrics().PrometheusText().find("karpenter_pods_disruption_initiated_total"),
            std::string::npos);
}

TEST(KarpenterHost, NodeClaimThatNeverRegistersIsReplacedAfterTheRegistrationTimeout) {
  CapacityFault stuck{"c6i.xlarge", "on-demand", {}, 0, 10};
  stuck.kind = FaultKind::kNeverRegisters;
  World world({stuck});
  ApplyPool(world, "on-demand");
  KarpenterHost host(world.cluster);
  host.Start();
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("web", 1, "1", "1Gi"), false).ok());
  world.queue.RunUntil(900000);
  EXPECT_EQ(BoundPods(world.cluster), 0u);
  world.queue.RunUntil(1000000);
  EXPECT_EQ(CountEvents(world.log, "\"NodeClaimRegistrationTimeout\""), 1u);
  EXPECT_EQ(host.metrics().Value("karpenter_nodeclaims_disrupted_total",
                                 testing::DefaultPoolDisruptedLabels("registration_timeout")),
            1);
  EXPECT_EQ(host.node_claims_created(), 2u);
  EXPECT_EQ(world.cluster.LiveInstanceCount(), 1u);
  EXPECT_EQ(BoundPods(world.cluster), 1u);
  // Created at 2 s, timed out 15 min later at 902 s (upstream times registration from the
  // claim, not the launch at 5 s); the next batch (unschedulable pods re-batched at once, closed
  // 1 s later), CreateFleet 3 s, bring-up 50 s, bind 1 s.
  EXPECT_EQ(world.cluster.counters().pod_pending_seconds, (std::vector<double>{957}));
}

// CreateFleet that has not answered 5 minutes after the claim was created: the claim is deleted
// (upstream's launch timeout) and its pods are planned again.
TEST(KarpenterHost, NodeClaimThatNeverLaunchesIsDeletedAfterTheLaunchTimeout) {
  World world;
  world.latency.create_fleet = {400, 400};
  ApplyPool(world, "on-demand");
  KarpenterHost host(world.cluster);
  host.Start();
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("web", 1, "1", "1Gi"), false).ok());
  world.queue.RunUntil(301000);
  EXPECT_EQ(CountEvents(world.log, "\"NodeClaimLaunchTimeout\""), 0u);
  world.queue.RunUntil(303000);
  EXPECT_EQ(CountEvents(world.log, "\"NodeClaimLaunchTimeout\""), 1u);
  EXPECT_EQ(host.metrics().Value("karpenter_nodeclaims_disrupted_total",
                                 testing::DefaultPoolDisruptedLabels("launch_timeout")),
            1);
  // The answer that comes at 402 s launches nothing for the deleted claim.
  world.queue.RunUntil(410000);
  EXPECT_EQ(CountEvents(world.log, "\"NodeClaimLaunched\""), 0u);
  EXPECT_EQ(world.cluster.LiveInstanceCount(), 0u);
  EXPECT_EQ(host.node_claims_created(), 2u);  // the pod's next claim
}

TEST(KarpenterHost, PodsThatFitNoNodePoolLaunchNothing) {
  World world;
  ApplyPool(world, "on-demand");
  KarpenterHost host(world.cluster);
  host.Start();
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("huge", 1, "64", "1Gi"), false).ok());
  world.queue.RunUntil(60000);
  EXPECT_EQ(host.node_claims_created(), 0u);
  EXPECT_EQ(world.cluster.UnschedulablePods().size(), 1u);
}

// Upstream's termination controller keeps a Node draining at least 5 s (MinDrainTime), empty or
// not: a pod bound before kube-scheduler saw the taint is evicted too.
TEST(KarpenterHost, AnEmptyNodesTerminationTakesTheMinimumDrainTime) {
  ThreeWebPods w;
  World& world = w.world;
  world.queue.RunUntil(100000);
  ASSERT_TRUE(world.cluster.ScaleDeployment("default/web", 0).ok());
  world.queue.RunUntil(110000);
  ASSERT_EQ(BoundPods(world.cluster), 0u);
  const Instance& instance = world.cluster.instances().begin()->second;
  world.queue.At(120000, [&] { w.host.TerminateNodeClaim(instance); });
  world.queue.RunUntil(124999);
  EXPECT_NE(instance.phase, NodePhase::kTerminated) << "still draining";
  world.queue.RunUntil(125000);
  EXPECT_EQ(instance.phase, NodePhase::kTerminated);
  EXPECT_EQ(instance.terminated_at, 125000);
}

// Upstream's provisioning node controller triggers a batch when a node gets the disrupted taint,
// and the pods of a deleting node are planned for while still bound: here a PDB refuses the
// evictions for now, yet the replacement NodeClaim is launched as soon as the termination starts.
TEST(KarpenterHost, ATerminatingNodesPodsGetCapacityBeforeTheyAreEvicted) {
  World world;
  ApplyPool(world, "on-demand");
  KarpenterHost host(world.cluster);
  host.Start();
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("web", 2, "1", "1Gi"), false).ok());
  api::PodDisruptionBudget pdb;
  pdb.metadata.name = "web";
  pdb.metadata.namespace_ = "default";
  pdb.spec.selector = api::LabelSelector{.match_labels = {{"app", "web"}}};
  // minAvailable 2 of 2: no eviction is allowed now, but the budget is not fully blocking (a
  // pod that is fully blocked, e.g. maxUnavailable 0, is not planned for, as upstream).
  pdb.spec.min_available = api::IntOrString{.is_int = true, .int_value = 2};
  ASSERT_TRUE(world.cluster.Apply(pdb, false).ok());
  world.queue.RunUntil(100000);
  ASSERT_EQ(world.cluster.LiveInstanceCount(), 1u);
  ASSERT_EQ(BoundPods(world.cluster), 2u);
  const size_t claims_before = CountEvents(world.log, "\"NodeClaimCreated\"");
  host.TerminateNodeClaim(world.cluster.instances().begin()->second);
  world.queue.RunUntil(120000);  // one batch (1 s idle) and CreateFleet (3 s) later
  EXPECT_EQ(CountEvents(world.log, "\"PodEvicted\""), 0u);
  EXPECT_EQ(CountEvents(world.log, "\"NodeClaimCreated\""), claims_before + 1);
  EXPECT_EQ(world.cluster.LiveInstanceCount(), 2u);
}

TEST(KarpenterHost, DisruptionPassIsPolledEveryTenSecondsOnceSet) {
  World world;
  KarpenterHost host(world.cluster);
  host.Start();
  world.queue.RunUntil(60000);
  std::vector<SimMillis> polls;
  host.SetDisruptionPass([&](KarpenterHost& h) { polls.push_back(h.cluster().queue().now()); });
  world.queue.RunUntil(95000);
  EXPECT_EQ(polls, (std::vector<SimMillis>{70000, 80000, 90000}));
}

}  // namespace
}  // namespace karpenter::sim
