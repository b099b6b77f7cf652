// Pods' own termination grace periods and DaemonSet pods in the drains (upstream: the kubelet's
// graceful shutdown after an eviction; Karpenter's terminator evicts DaemonSet pods last but
// skips pods that tolerate karpenter.sh/disrupted, which most agents do; Cluster Autoscaler's
// drain leaves DaemonSet pods to go with the node).
#include <gtest/gtest.h>

#include <limits>

#include "src/sim/cluster_autoscaler.h"
#include "src/sim/drain.h"
#include "src/sim/sim_test_util.h"

namespace karpenter::sim {
namespace {

using testing::EventLines;
using testing::MakeDeployment;
using testing::World;

InstanceRequest Node(const std::string& zone) {
  InstanceRequest request;
  request.instance_type = "m6i.xlarge";
  request.zone = zone;
  request.capacity_type = "on-demand";
  request.price = 0.19;
  request.node_group = "group";
  return request;
}

// Two web pods with a 10 s grace period on node A, node B joins, A is cordoned.
struct GraceWorld {
  explicit GraceWorld(std::optional<int64_t> grace_seconds) {
    a = world.cluster.LaunchInstance(Node("us-east-1a"), true);
    node_a = world.cluster.instances().at(a).node.metadata.name;
    api::Deployment web = MakeDeployment("web", 2, "500m", "512Mi");
    web.spec.template_.spec.termination_grace_period_seconds = grace_seconds;
    EXPECT_TRUE(world.cluster.Apply(web, false).ok());
    world.queue.RunUntil(2000);
    world.cluster.LaunchInstance(Node("us-east-1b"), true);
    world.cluster.Cordon(a);
  }
  World world;
  std::string a;
  std::string node_a;
};

TEST(TerminationGrace, AnEvictedPodKeepsItsNodeForItsGracePeriodWhileItIsReplaced) {
  GraceWorld w(10);
  const std::string pod = w.world.cluster.WorkloadPodsOn(w.node_a)[0]->pod.metadata.namespace_ +
                          "/" + w.world.cluster.WorkloadPodsOn(w.node_a)[0]->pod.metadata.name;
  ASSERT_EQ(w.world.cluster.Evict(pod), Cluster::Eviction::kEvicted);
  EXPECT_EQ(w.world.cluster.Evict(pod), Cluster::Eviction::kNoSuchPod);  // already going
  const PodRecord& record = w.world.cluster.pods().at(pod);
  EXPECT_TRUE(record.terminating());
  // Stamped as the API server stamps a graceful delete: the end of the grace period.
  ASSERT_TRUE(record.pod.metadata.deletion_timestamp.has_value());
  EXPECT_EQ(*record.pod.metadata.deletion_timestamp,
            w.world.queue.Now() + api::Duration::FromSeconds(10));
  EXPECT_EQ(record.pod.metadata.deletion_grace_period_seconds, 10);
  EXPECT_EQ(record.pod.spec.node_name, w.node_a);
  w.world.queue.RunUntil(5000);
  // The ReplicaSet did not wait: three pods, the replacement bound on B.
  EXPECT_EQ(w.world.cluster.pods().size(), 3u);
  EXPECT_EQ(testing::BoundPods(w.world.cluster), 3u);
  w.world.queue.RunUntil(11999);
  EXPECT_TRUE(w.world.cluster.pods().contains(pod));
  w.world.queue.RunUntil(12000);
  EXPECT_FALSE(w.world.cluster.pods().contains(pod));
  EXPECT_EQ(w.world.cluster.counters().evictions, 1);
}

TEST(TerminationGrace, AGracePeriodAsLongAsTheApiAllowsOutlivesTheRun) {
  GraceWorld w(std::numeric_limits<int64_t>::max());
  const PodRecord* first = w.world.cluster.WorkloadPodsOn(w.node_a)[0];
  const std::string pod = first->pod.metadata.namespace_ + "/" + first->pod.metadata.name;
  ASSERT_EQ(w.world.cluster.Evict(pod), Cluster::Eviction::kEvicted);
  w.world.queue.RunUntil(24 * 3600 * 1000);
  EXPECT_TRUE(w.world.cluster.pods().at(pod).terminating());
}

TEST(TerminationGrace, ADrainEndsWhenTheEvictedPodsAreGone) {
  for (const auto& [grace, expected_seconds] :
       std::vector<std::pair<std::optional<int64_t>, double>>{
           {std::nullopt, 30}, {10, 10}, {0, 0}}) {
    GraceWorld w(grace);
    double done_at = -1;
    StartDrain(w.world.cluster, w.node_a, DrainOptions{.priority_tiers = true}, [&](bool drained) {
      EXPECT_TRUE(drained);
      done_at = MillisToSeconds(w.world.queue.now());
    });
    w.world.queue.RunUntil(60000);
    EXPECT_EQ(done_at, 2 + expected_seconds) << "grace " << grace.value_or(-1);
    EXPECT_EQ(w.world.cluster.counters().evictions, 2);
  }
}

// Cluster Autoscaler's drain waits the same way; its two-minute limit is on evictions only.
TEST(TerminationGrace, ClusterAutoscalersDrainWaitsBeyondItsEvictionLimit) {
  GraceWorld w(150);
  double done_at = -1;
  const DrainOptions options{.retry_base = kEvictionRetryMillis,
                             .retry_max = kEvictionRetryMillis,
                             .give_up_after = kMaxPodEvictionMillis};
  StartDrain(w.world.cluster, w.node_a, options, [&](bool drained) {
    EXPECT_TRUE(drained);
    done_at = MillisToSeconds(w.world.queue.now());
  });
  w.world.queue.RunUntil(300000);
  EXPECT_EQ(done_at, 152);
  EXPECT_TRUE(EventLines(w.world.log, "DrainFailed").empty());
}

// Upstream's terminator drains DaemonSet pods too, in their own tier after the workload, unless
// they tolerate karpenter.sh/disrupted:NoSchedule (most agents tolerate every taint): those stay
// and go with the instance.
TEST(TerminationGrace, DaemonSetPodsGoAfterTheWorkloadUnlessTheyTolerateTheDisruptedTaint) {
  GraceWorld w(0);
  for (const bool tolerates_everything : {false, true}) {
    api::DaemonSet daemon_set;
    daemon_set.metadata.name = tolerates_everything ? "proxy" : "agent";
    daemon_set.metadata.namespace_ = "kube-system";
    daemon_set.spec.template_ =
        MakeDeployment(daemon_set.metadata.name, 1, "50m", "64Mi").spec.template_;
    if (tolerates_everything) {
      daemon_set.spec.template_.spec.tolerations = {api::Toleration{.operator_ = "Exists"}};
    }
    ASSERT_TRUE(w.world.cluster.Apply(daemon_set, true).ok());
  }
  bool finished = false;
  StartDrain(w.world.cluster, w.node_a,
             DrainOptions{.priority_tiers = true, .skip_disrupted_tolerating = true},
             [&](bool drained) { finished = drained; });
  // The agent is evicted once the web pods (grace 0) are gone, and takes its default 30 s.
  w.world.queue.RunUntil(31999);
  EXPECT_FALSE(finished);
  w.world.queue.RunUntil(32000);
  EXPECT_TRUE(finished);
  std::vector<std::string> evicted;
  for (const std::string& line : EventLines(w.world.log, "PodEvicted")) {
    evicted.push_back(line.find("agent") != std::string::npos   ? "agent"
                      : line.find("proxy") != std::string::npos ? "proxy"
                                                                : "web");
  }
  EXPECT_EQ(evicted, (std::vector<std::string>{"web", "web", "agent"}));
  EXPECT_FALSE(w.world.cluster.pods().contains("kube-system/agent-" + w.a));
  // The tolerating one is still there until the instance goes.
  EXPECT_TRUE(w.world.cluster.pods().contains("kube-system/proxy-" + w.a));
  w.world.cluster.TerminateInstance(w.a);
  EXPECT_FALSE(w.world.cluster.pods().contains("kube-system/proxy-" + w.a));
}

}  // namespace
}  // namespace karpenter::sim
