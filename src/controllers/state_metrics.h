// Upstream: kubernetes-sigs/karpenter pkg/controllers/metrics/{node,pod,nodepool}. The gauges
// users' dashboards are built on, read from the cluster as it stands:
//   - per Node, every 5 s: allocatable, pod requests and limits (DaemonSet pods included),
//     DaemonSet requests and limits, system overhead (capacity − allocatable) per resource, and
//     its age; the cluster's utilization per resource; the nodes cluster state tracks;
//   - per NodePool, in the same pass: status.resources as usage and spec.limits as limit;
//   - per Pod, on each change and every 30 s: `karpenter_pods_state` labelled by where and how
//     it runs; while a pod seen pending is not Ready (not bound) its age in
//     `karpenter_pods_unstarted_time_seconds` (`_unbound_`), and once it is, its startup (bound)
//     duration.
// Series of objects that are gone are dropped, so a scrape shows the cluster, not its history.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "karpenter/clock.h"
#include "karpenter/kube_cluster.h"
#include "karpenter/metrics.h"
#include "src/api/pod.h"
#include "src/controllers/reconciler.h"

namespace karpenter::controllers {

inline constexpr int64_t kNodeMetricsPeriodMillis = 5 * 1000;
inline constexpr int64_t kPodMetricsRequeueMillis = 30 * 1000;

class StateMetrics {
 public:
  StateMetrics(Clock& clock, ClusterReader& reader, Metrics& metrics);

  void Start();
  // One pass over Nodes, NodeClaims and NodePools.
  absl::StatusOr<ReconcileResult> ReconcileNodes();
  // One Pod, by "namespace/name".
  absl::StatusOr<ReconcileResult> ReconcilePod(const std::string& key);

 private:
  void RecordStartup(const std::string& key, const api::Pod& pod,
                     const std::optional<api::PodCondition>& ready);
  void RecordBinding(const std::string& key, const api::Pod& pod,
                     const std::optional<api::PodCondition>& scheduled);
  double AgeSeconds(const api::Pod& pod) const;
  // Sets every series in `fresh` and drops the ones of the last pass that are not in it.
  void Replace(std::map<std::string, std::set<MetricLabels>>& published,
               const std::map<std::string, std::map<MetricLabels, double>>& fresh);

  Clock& clock_;
  ClusterReader& reader_;
  Metrics& metrics_;
  std::map<std::string, std::set<MetricLabels>> node_series_;
  // Per pod: the labels of its karpenter_pods_state series.
  std::map<std::string, MetricLabels> pod_series_;
  // Pods seen pending whose startup (Ready) and binding are still to be measured.
  std::set<std::string> unstarted_pods_;
  std::set<std::string> unbound_pods_;
  SingletonLoop node_loop_;
  KeyedController pod_controller_;
};

}  // namespace karpenter::controllers
