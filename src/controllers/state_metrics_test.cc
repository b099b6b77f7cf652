#include "src/controllers/state_metrics.h"

#include <algorithm>
#include <map>
#include <optional>
#include <variant>

#include "gtest/gtest.h"
#include "src/api/karpenter_labels.h"
#include "src/fakes/fake_clock.h"
#include "src/fakes/fake_kube_cluster.h"

namespace karpenter::controllers {
namespace {

// Keeps the live series, so that a test can look one up by a few of its labels.
class LiveSeries : public Metrics {
 public:
  void Add(std::string_view name, const MetricLabels& labels, double delta) override {
    series_[std::string(name)][Sorted(labels)] += delta;
  }
  void Set(std::string_view name, const MetricLabels& labels, double value) override {
    series_[std::string(name)][Sorted(labels)] = value;
  }
  void Observe(std::string_view name, const MetricLabels& labels, double value) override {
    observed_[std::string(name)].push_back(value);
    (void)labels;
  }
  void Delete(std::string_view name, const MetricLabels& labels) override {
    series_[std::string(name)].erase(Sorted(labels));
  }

  // The series of `name` whose labels include every one of `subset`, if exactly one does.
  std::optional<double> Find(const std::string& name, const MetricLabels& subset) const {
    std::optional<double> found;
    int matches = 0;
    auto family = series_.find(name);
    if (family == series_.end()) return std::nullopt;
    for (const auto& [labels, value] : family->second) {
      const bool all = std::all_of(subset.begin(), subset.end(), [&](const auto& label) {
        return std::find(labels.begin(), labels.end(), label) != labels.end();
      });
      if (all) {
        found = value;
        ++matches;
      }
    }
    return matches == 1 ? found : std::nullopt;
  }
  size_t Count(const std::string& name) const {
    auto family = series_.find(name);
    return family == series_.end() ? 0 : family->second.size();
  }
  const std::vector<double>& observed(const std::string& name) { return observed_[name]; }

 private:
  static MetricLabels Sorted(MetricLabels labels) {
    std::sort(labels.begin(), labels.end());
    return labels;
  }
  std::map<std::string, std::map<MetricLabels, double>> series_;
  std::map<std::string, std::vector<double>> observed_;
};

api::ResourceList Resources(const std::string& cpu, const std::string& memory) {
  return {{"cpu", *api::Quantity::Parse(cpu)}, {"memory", *api::Quantity::Parse(memory)}};
}

struct Fixture {
  fakes::FakeClock clock;
  fakes::FakeKubeCluster cluster{clock};
  LiveSeries metrics;
  StateMetrics state{clock, cluster, metrics};

  void Node(const std::string& name, const std::string& provider_id) {
    api::Node node;
    node.metadata.name = name;
    node.metadata.labels = {{std::string(api::kNodePoolLabelKey), "default"},
                            {std::string(api::kLabelInstanceTypeStable), "m5.large"},
                            {std::string(api::kLabelTopologyZone), "us-east-1a"},
                            {std::string(api::kCapacityTypeLabelKey), "spot"},
                            {std::string(api::kLabelArchStable), "amd64"}};
    node.spec.provider_id = provider_id;
    api::Node stored = std::get<api::Node>(*cluster.Create(node));
    stored.status.capacity = Resources("2", "8Gi");
    stored.status.allocatable = Resources("1930m", "7Gi");
    ASSERT_TRUE(cluster.UpdateStatus(stored).ok());
  }
  void Claim(const std::string& name, const std::string& provider_id) {
    api::NodeClaim claim;
    claim.metadata.name = name;
    api::NodeClaim stored = std::get<api::NodeClaim>(*cluster.Create(claim));
    stored.status.provider_id = provider_id;
    ASSERT_TRUE(cluster.UpdateStatus(stored).ok());
  }
  // A pod on `node` ("" for pending) requesting and limited to `cpu`, owned by an `owner_kind`.
  void Pod(const std::string& name, const std::string& node, const std::string& cpu,
           const std::string& phase, const std::string& owner_kind = "ReplicaSet") {
    api::Pod pod;
    pod.metadata.namespace_ = "default";
    pod.metadata.name = name;
    pod.metadata.owner_references.push_back(api::OwnerReference{.api_version = "apps/v1",
                                                                .kind = owner_kind,
                                                                .name = "owner",
                                                                .uid = "u",
                                                                .controller = true});
    api::Container container;
    container.name = "c";
    container.resources.requests = {{"cpu", *api::Quantity::Parse(cpu)}};
    container.resources.limits = {{"cpu", *api::Quantity::Parse(cpu)}};
    pod.spec.containers.push_back(container);
    pod.spec.node_name = node;
    api::Pod stored = std::get<api::Pod>(*cluster.Create(pod));
    stored.status.phase = phase;
    ASSERT_TRUE(cluster.UpdateStatus(stored).ok());
  }
  void SetPodStatus(const std::string& name, const std::string& phase, bool scheduled, bool ready) {
    api::Pod pod = std::get<api::Pod>(*cluster.Get({"Pod", "default", name}));
    pod.status.phase = phase;
    pod.status.conditions.clear();
    const api::Time now = clock.Now();
    pod.status.conditions.push_back({.type = "PodScheduled",
                                     .status = scheduled ? "True" : "False",
                                     .last_transition_time = now});
    pod.status.conditions.push_back(
        {.type = "Ready", .status = ready ? "True" : "False", .last_transition_time = now});
    ASSERT_TRUE(cluster.UpdateStatus(pod).ok());
  }
  void NodesPass() { ASSERT_TRUE(state.ReconcileNodes().ok()); }
};

TEST(StateMetrics, NodeGaugesCountItsPodsAndDaemonsAndSayWhetherKarpenterOwnsIt) {
  Fixture f;
  f.Node("karpenter-node", "aws:///us-east-1a/i-1");
  f.Claim("default-abc", "aws:///us-east-1a/i-1");
  f.Node("legacy-node", "aws:///us-east-1a/i-2");
  f.Pod("app", "karpenter-node", "500m", "Running");
  f.Pod("agent", "karpenter-node", "100m", "Running", "DaemonSet");
  f.Pod("done", "karpenter-node", "1", "Succeeded");  // terminal: holds nothing
  f.NodesPass();

  const MetricLabels karpenter_cpu = {{"node_name", "karpenter-node"},
                                      {"resource_type", "cpu"},
                                      {"managed", "true"},
                                      {"nodepool", "default"},
                                      {"instance_type", "m5.large"},
                                      {"capacity_type", "spot"},
                                      {"zone", "us-east-1a"},
                                      {"arch", "amd64"}};
  EXPECT_EQ(f.metrics.Find("karpenter_nodes_allocatable", karpenter_cpu), 1.93);
  EXPECT_EQ(f.metrics.Find("karpenter_nodes_total_pod_requests", karpenter_cpu), 0.6);
  EXPECT_EQ(f.metrics.Find("karpenter_nodes_total_pod_limits", karpenter_cpu), 0.6);
  EXPECT_EQ(f.metrics.Find("karpenter_nodes_total_daemon_requests", karpenter_cpu), 0.1);
  EXPECT_EQ(f.metrics.Find("karpenter_nodes_system_overhead", karpenter_cpu), 0.07);
  EXPECT_EQ(f.metrics.Find("karpenter_nodes_allocatable",
                           {{"node_name", "karpenter-node"}, {"resource_type", "memory"}}),
            7.0 * 1024 * 1024 * 1024);
  // A Node no NodeClaim names is not Karpenter's, whatever its labels say.
  EXPECT_EQ(f.metrics.Find(
                "karpenter_nodes_allocatable",
                {{"node_name", "legacy-node"}, {"resource_type", "cpu"}, {"managed", "false"}}),
            1.93);
  // 0.6 of 3.86 cores requested across the cluster.
  std::optional<double> utilization =
      f.metrics.Find("karpenter_cluster_utilization_percent", {{"resource_type", "cpu"}});
  ASSERT_TRUE(utilization.has_value());
  EXPECT_NEAR(*utilization, 100 * 0.6 / 3.86, 1e-9);
  EXPECT_EQ(f.metrics.Find("karpenter_cluster_state_node_count", {}), 2);
}

TEST(StateMetrics, AGoneNodeLeavesNoSeriesBehind) {
  Fixture f;
  f.Node("a", "aws:///us-east-1a/i-1");
  f.Node("b", "aws:///us-east-1a/i-2");
  f.NodesPass();
  const size_t both = f.metrics.Count("karpenter_nodes_allocatable");
  ASSERT_EQ(both, 4u);  // cpu and memory of each
  ASSERT_TRUE(f.cluster.Delete({"Node", "", "b"}).ok());
  f.NodesPass();
  EXPECT_EQ(f.metrics.Count("karpenter_nodes_allocatable"), 2u);
  EXPECT_FALSE(f.metrics.Find("karpenter_nodes_allocatable", {{"node_name", "b"}}).has_value());
  EXPECT_EQ(f.metrics.Find("karpenter_cluster_state_node_count", {}), 1);
}

TEST(StateMetrics, NodePoolUsageAndLimitsPerResource) {
  Fixture f;
  api::NodePool pool;
  pool.metadata.name = "default";
  pool.spec.limits = Resources("1000", "1000Gi");
  api::NodePool stored = std::get<api::NodePool>(*f.cluster.Create(pool));
  stored.status.resources = Resources("4", "16Gi");
  ASSERT_TRUE(f.cluster.UpdateStatus(stored).ok());
  f.NodesPass();
  EXPECT_EQ(f.metrics.Find("karpenter_nodepools_limit",
                           {{"nodepool", "default"}, {"resource_type", "cpu"}}),
            1000);
  EXPECT_EQ(f.metrics.Find("karpenter_nodepools_usage",
                           {{"nodepool", "default"}, {"resource_type", "cpu"}}),
            4);
  ASSERT_TRUE(f.cluster.Delete({"NodePool", "", "default"}).ok());
  f.NodesPass();
  EXPECT_EQ(f.metrics.Count("karpenter_nodepools_usage"), 0u);
}

TEST(StateMetrics, PodStateFollowsThePodAndStartupIsMeasuredForPodsSeenPending) {
  Fixture f;
  f.Node("n", "aws:///us-east-1a/i-1");
  f.Pod("waiting", "", "500m", "Pending");
  f.Pod("already-running", "n", "500m", "Running");
  f.state.Start();
  f.clock.RunDue();
  EXPECT_EQ(f.metrics.Find("karpenter_pods_state", {{"name", "waiting"},
                                                    {"scheduled", "false"},
                                                    {"phase", "Pending"},
                                                    {"node", ""},
                                                    {"managed", "false"},
                                                    {"owner",
                                                     "/apis/apps/v1/namespaces/default/"
                                                     "replicasets/owner"}}),
            1);

  // Bound 12 s after creation, Running and Ready 20 s after it.
  f.clock.Advance(12'000);
  api::Pod bound = std::get<api::Pod>(*f.cluster.Get({"Pod", "default", "waiting"}));
  bound.spec.node_name = "n";
  ASSERT_TRUE(f.cluster.Update(bound).ok());
  f.SetPodStatus("waiting", "Pending", /*scheduled=*/true, /*ready=*/false);
  f.clock.Advance(8'000);
  f.SetPodStatus("waiting", "Running", /*scheduled=*/true, /*ready=*/true);
  api::Pod ready = std::get<api::Pod>(*f.cluster.Get({"Pod", "default", "waiting"}));
  for (api::PodCondition& condition : ready.status.conditions) {
    if (condition.type == "PodScheduled") {
      condition.last_transition_time =
          *ready.metadata.creation_timestamp + api::Duration::FromMillis(12'000);
    }
  }
  ASSERT_TRUE(f.cluster.UpdateStatus(ready).ok());
  f.clock.RunDue();

  // One series per pod: the pending one was replaced.
  EXPECT_EQ(f.metrics.Count("karpenter_pods_state"), 2u);
  EXPECT_EQ(f.metrics.Find("karpenter_pods_state", {{"name", "waiting"},
                                                    {"scheduled", "true"},
                                                    {"phase", "Running"},
                                                    {"ready", "true"},
                                                    {"node", "n"},
                                                    {"nodepool", "default"},
                                                    {"zone", "us-east-1a"},
                                                    {"instance_type", "m5.large"},
                                                    {"managed", "true"}}),
            1);
  EXPECT_EQ(f.metrics.observed("karpenter_pods_startup_duration_seconds"), std::vector<double>{20});
  EXPECT_EQ(f.metrics.observed("karpenter_pods_bound_duration_seconds"), std::vector<double>{12});

  // Gone: its series goes too.
  ASSERT_TRUE(
      f.cluster
          .Delete({"Pod", "default", "already-running"}, DeleteOptions{.grace_period_seconds = 0})
          .ok());
  f.cluster.ReapTerminatingPods();
  f.clock.RunDue();
  EXPECT_EQ(f.metrics.Count("karpenter_pods_state"), 1u);
  EXPECT_FALSE(f.metrics.Find("karpenter_pods_state", {{"name", "already-running"}}).has_value());
}

TEST(StateMetrics, AWaitingPodShowsItsAgeUntilItIsBoundAndStarted) {
  Fixture f;
  f.Node("n", "aws:///us-east-1a/i-1");
  f.Pod("waiting", "", "500m", "Pending");
  f.Pod("doomed", "", "500m", "Pending");
  f.state.Start();
  f.clock.Advance(7'000);
  ASSERT_TRUE(f.state.ReconcilePod("default/waiting").ok());
  const MetricLabels waiting = {{"name", "waiting"}, {"namespace", "default"}};
  EXPECT_EQ(f.metrics.Find("karpenter_pods_unstarted_time_seconds", waiting), 7);
  EXPECT_EQ(f.metrics.Find("karpenter_pods_unbound_time_seconds", waiting), 7);

  // Bound at 12 s: the unbound gauge keeps its last value while the pod is still Pending.
  f.clock.Advance(5'000);
  api::Pod bound = std::get<api::Pod>(*f.cluster.Get({"Pod", "default", "waiting"}));
  bound.spec.node_name = "n";
  ASSERT_TRUE(f.cluster.Update(bound).ok());
  f.SetPodStatus("waiting", "Pending", /*scheduled=*/true, /*ready=*/false);
  f.clock.Advance(3'000);
  ASSERT_TRUE(f.state.ReconcilePod("default/waiting").ok());
  EXPECT_EQ(f.metrics.Find("karpenter_pods_unstarted_time_seconds", waiting), 15);
  EXPECT_EQ(f.metrics.Find("karpenter_pods_unbound_time_seconds", waiting), 7);

  // Running but not Ready yet: still unstarted, no longer unbound.
  f.SetPodStatus("waiting", "Running", /*scheduled=*/true, /*ready=*/false);
  f.clock.Advance(2'000);
  ASSERT_TRUE(f.state.ReconcilePod("default/waiting").ok());
  EXPECT_EQ(f.metrics.Find("karpenter_pods_unstarted_time_seconds", waiting), 17);
  EXPECT_FALSE(f.metrics.Find("karpenter_pods_unbound_time_seconds", waiting).has_value());

  f.SetPodStatus("waiting", "Running", /*scheduled=*/true, /*ready=*/true);
  ASSERT_TRUE(f.state.ReconcilePod("default/waiting").ok());
  EXPECT_FALSE(f.metrics.Find("karpenter_pods_unstarted_time_seconds", waiting).has_value());

  // A pod deleted while waiting leaves no gauge behind.
  const MetricLabels doomed = {{"name", "doomed"}, {"namespace", "default"}};
  ASSERT_TRUE(f.state.ReconcilePod("default/doomed").ok());
  EXPECT_TRUE(f.metrics.Find("karpenter_pods_unbound_time_seconds", doomed).has_value());
  ASSERT_TRUE(
      f.cluster.Delete({"Pod", "default", "doomed"}, DeleteOptions{.grace_period_seconds = 0})
          .ok());
  f.cluster.ReapTerminatingPods();
  ASSERT_TRUE(f.state.ReconcilePod("default/doomed").ok());
  EXPECT_EQ(f.metrics.Count("karpenter_pods_unbound_time_seconds"), 0u);
  EXPECT_EQ(f.metrics.Count("karpenter_pods_unstarted_time_seconds"), 0u);
}

}  // namespace
}  // namespace karpenter::controllers
