#include "src/controllers/eviction_queue.h"

#include <functional>
#include <variant>

#include "gtest/gtest.h"
#include "src/api/karpenter_labels.h"
#include "src/fakes/fake_clock.h"
#include "src/fakes/fake_event_recorder.h"
#include "src/fakes/fake_kube_cluster.h"
#include "src/metrics/karpenter_metrics.h"
#include "src/metrics/registry.h"

namespace karpenter::controllers {
namespace {

struct Fixture {
  fakes::FakeClock clock;
  fakes::FakeKubeCluster cluster{clock};
  fakes::FakeEventRecorder events;
  metrics::Registry metrics{metrics::KarpenterCatalog()};
  EvictionQueue evictions{clock, cluster, cluster, events, metrics};

  // Node "n1" of NodeClaim "default-abc", which is being disrupted for drift.
  Fixture() {
    api::NodeClaim claim;
    claim.metadata.name = "default-abc";
    claim = std::get<api::NodeClaim>(*cluster.Create(claim));
    claim.status.provider_id = "fake:///us-east-1a/i-1";
    claim.status.conditions = {{.type = "DisruptionReason", .status = "True", .reason = "Drifted"}};
    EXPECT_TRUE(cluster.UpdateStatus(claim).ok());
    api::Node node;
    node.metadata.name = "n1";
    node.spec.provider_id = "fake:///us-east-1a/i-1";
    EXPECT_TRUE(cluster.Create(node).ok());
  }

  template <class T>
  T Get(std::string kind, std::string ns, std::string name) const {
    return std::get<T>(*cluster.Get({std::move(kind), std::move(ns), std::move(name)}));
  }

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
};

TEST(EvictionQueue, EvictsWithTheNodeClaimsDisruptionReason) {
  Fixture f;
  f.AddPod("web");
  const api::Pod pod = f.Get<api::Pod>("Pod", "default", "web");
  f.evictions.Add(std::nullopt, {pod});
  EXPECT_TRUE(f.evictions.Has(pod));
  f.clock.Advance(10);  // the queue's own worker
  EXPECT_TRUE(f.Get<api::Pod>("Pod", "default", "web").metadata.deletion_timestamp.has_value());
  EXPECT_FALSE(f.evictions.Has(pod));
  ASSERT_EQ(f.events.Count("Evicted"), 1u);
  EXPECT_EQ(f.events.events().back().message, "Evicted pod: Drifted");
  EXPECT_EQ(f.metrics.Value("karpenter_pods_drained_total", {{"reason", "Drifted"}}), 1);
  EXPECT_EQ(f.metrics.Value("karpenter_pods_eviction_requests_total", {{"code", "200"}}), 1);
}

TEST(EvictionQueue, APdbThatAllowsNoDisruptionIsRetriedAndReported) {
  Fixture f;
  f.AddPod("web");
  api::PodDisruptionBudget pdb;
  pdb.metadata.name = "web";
  pdb.metadata.namespace_ = "default";
  pdb.spec.selector = api::LabelSelector{.match_labels = {{"app", "web"}}};
  pdb = std::get<api::PodDisruptionBudget>(*f.cluster.Create(pdb));
  const api::Pod pod = f.Get<api::Pod>("Pod", "default", "web");
  f.evictions.Add(std::nullopt, {pod});
  absl::StatusOr<ReconcileResult> result = f.evictions.Reconcile("default/web");
  ASSERT_TRUE(result.ok());
  EXPECT_TRUE(result->requeue);
  EXPECT_EQ(f.events.Count("FailedDraining"), 1u);
  EXPECT_EQ(f.events.events().back().message,
            "Failed to drain node, evicting pod violates a PDB (Pod=default/web)");
  EXPECT_EQ(f.metrics.Value("karpenter_pods_eviction_requests_total", {{"code", "429"}}), 1);
  pdb.status.disruptions_allowed = 1;
  ASSERT_TRUE(f.cluster.UpdateStatus(pdb).ok());
  ASSERT_TRUE(f.evictions.Reconcile("default/web").ok());
  EXPECT_TRUE(f.Get<api::Pod>("Pod", "default", "web").metadata.deletion_timestamp.has_value());
  EXPECT_FALSE(f.evictions.Has(pod));
}

TEST(EvictionQueue, DoNotDisruptHoldsTheEvictionUntilTheDeadlineForcesIt) {
  Fixture f;
  f.AddPod("web", [](api::Pod& pod) {
    pod.metadata.annotations[std::string(api::kDoNotDisruptAnnotationKey)] = "true";
    pod.spec.termination_grace_period_seconds = 30;
  });
  const api::Pod pod = f.Get<api::Pod>("Pod", "default", "web");
  const api::Time deadline = f.clock.Now() + api::Duration::FromSeconds(60);
  f.evictions.Add(deadline, {pod});
  EXPECT_TRUE(f.evictions.Reconcile("default/web")->requeue);
  EXPECT_FALSE(f.Get<api::Pod>("Pod", "default", "web").metadata.deletion_timestamp.has_value());
  // Retried under the backoff until, 30 s before the deadline, the pod's own 30 s no longer
  // fit: then deleted with the grace that is left, not evicted.
  f.clock.Advance(29'000);
  EXPECT_FALSE(f.Get<api::Pod>("Pod", "default", "web").metadata.deletion_timestamp.has_value());
  f.clock.Advance(11'000);
  const std::string& last = f.cluster.writes().back();
  ASSERT_TRUE(last.starts_with("Delete Pod/default/web grace=")) << last;
  const int grace = std::stoi(last.substr(last.find('=') + 1));
  EXPECT_GE(grace, 20);
  EXPECT_LT(grace, 30);
  for (const std::string& write : f.cluster.writes()) EXPECT_FALSE(write.starts_with("Evict"));
  EXPECT_EQ(f.events.Count("Disrupted"), 1u);
  EXPECT_FALSE(f.evictions.Has(pod));
}

TEST(EvictionQueue, AReplacedPodOfTheSameNameIsLeftAlone) {
  Fixture f;
  f.AddPod("web");
  const api::Pod old_pod = f.Get<api::Pod>("Pod", "default", "web");
  f.evictions.Add(std::nullopt, {old_pod});
  api::Pod replacement = old_pod;
  ASSERT_TRUE(f.cluster.Delete({"Pod", "default", "web"}, {.grace_period_seconds = 0}).ok());
  replacement.metadata.resource_version.clear();
  ASSERT_TRUE(f.cluster.Create(replacement).ok());
  ASSERT_TRUE(f.evictions.Reconcile("default/web").ok());
  EXPECT_FALSE(f.Get<api::Pod>("Pod", "default", "web").metadata.deletion_timestamp.has_value());
}

TEST(EvictionQueue, ForceDeletionFollowsThePodsGracePeriodAgainstTheDeadline) {
  api::Pod pod;
  const api::Time now = api::Time::FromUnixSeconds(1000);
  const api::Time deadline = now + api::Duration::FromSeconds(60);
  EXPECT_FALSE(NeedsForceDelete(pod, std::nullopt, now));
  EXPECT_FALSE(NeedsForceDelete(pod, deadline, now));  // no grace period of its own
  pod.spec.termination_grace_period_seconds = 30;
  EXPECT_FALSE(NeedsForceDelete(pod, deadline, now));
  EXPECT_TRUE(NeedsForceDelete(pod, deadline, now + api::Duration::FromSeconds(31)));
  pod.metadata.deletion_timestamp = deadline + api::Duration::FromSeconds(1);
  EXPECT_TRUE(NeedsForceDelete(pod, deadline, now));  // terminating past the deadline
}

}  // namespace
}  // namespace karpenter::controllers
