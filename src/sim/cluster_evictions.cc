// Upstream: the eviction subresource (k8s pkg/registry/core/pod/storage/eviction.go) and the
// disruption controller's PDB status (k8s pkg/controller/disruption).
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <string_view>

#include "src/api/pod.h"
#include "src/api/selector_match.h"
#include "src/sim/cluster.h"

namespace karpenter::sim {
namespace {

// An int, or "N%" of `total` rounded up (intstr.GetScaledValueFromIntOrPercent, roundUp).
int32_t Scaled(const api::IntOrString& value, int32_t total) {
  if (value.is_int) return value.int_value;
  const std::string& text = value.str_value;
  const double percent = std::atof(text.substr(0, text.find('%')).c_str());
  return static_cast<int32_t>(std::ceil(percent * total / 100.0));
}

bool Covers(const api::PodDisruptionBudget& pdb, const api::Pod& pod) {
  return pdb.metadata.namespace_ == pod.metadata.namespace_ &&
         api::Matches(pdb.spec.selector, pod.metadata.labels);
}

}  // namespace

api::PodDisruptionBudgetStatus Cluster::PdbStatus(const api::PodDisruptionBudget& pdb) const {
  api::PodDisruptionBudgetStatus status;
  for (const auto& [key, record] : pods_.all()) {
    // A terminating pod is neither expected nor healthy (it is being replaced).
    if (record.terminating() || !Covers(pdb, record.pod)) continue;
    ++status.expected_pods;
    const Instance* instance = FindInstanceByNode(record.pod.spec.node_name);
    if (instance != nullptr && instance->phase == NodePhase::kReady) ++status.current_healthy;
  }
  if (pdb.spec.min_available) {
    status.desired_healthy = Scaled(*pdb.spec.min_available, status.expected_pods);
  } else if (pdb.spec.max_unavailable) {
    status.desired_healthy =
        std::max(0, status.expected_pods - Scaled(*pdb.spec.max_unavailable, status.expected_pods));
  }
  status.disruptions_allowed = std::max(0, status.current_healthy - status.desired_healthy);
  return status;
}

Cluster::Eviction Cluster::Evict(const std::string& pod_key) {
  auto it = pods_.find(pod_key);
  if (it == pods_.end() || it->second.terminating()) return Eviction::kNoSuchPod;
  const api::Pod& pod = it->second.pod;
  int covering = 0;
  bool allowed = true;
  for (const auto& [key, pdb] : pdbs_) {
    if (!Covers(pdb, pod)) continue;
    ++covering;
    if (PdbStatus(pdb).disruptions_allowed <= 0) allowed = false;
  }
  // More than one PDB: the API server refuses to pick one.
  if (covering > 1) return Eviction::kMultiplePdbs;
  if (!allowed) return Eviction::kBlockedByPdb;
  TakeAwayGracefully(pod_key,
                     pod.spec.termination_grace_period_seconds.value_or(
                         api::kDefaultTerminationGracePeriodSeconds),
                     "PodEvicted");
  return Eviction::kEvicted;
}

Cluster::Eviction Cluster::DeleteGracefully(const std::string& pod_key, int64_t grace_seconds) {
  auto it = pods_.find(pod_key);
  if (it == pods_.end() || it->second.terminating()) return Eviction::kNoSuchPod;
  TakeAwayGracefully(pod_key, std::max<int64_t>(grace_seconds, 1), "PodForceDeleted");
  return Eviction::kEvicted;
}

void Cluster::TakeAwayGracefully(const std::string& pod_key, int64_t grace_seconds,
                                 std::string_view event) {
  auto it = pods_.find(pod_key);
  const api::Pod& pod = it->second.pod;
  const std::string node_name = pod.spec.node_name;
  std::set<std::string> owners;
  if (!it->second.owner.empty()) owners.insert(it->second.owner);
  NoteTakenAway(it->second);
  ++counters_.evictions;
  log_.Record(queue_.now(), event, {Str("pod", pod_key), Str("node", node_name)});
  if (grace_seconds <= 0 || node_name.empty()) {
    DeletePod(pod_key);
  } else {
    PodRecord& record = it->second;
    // As the API server stamps a graceful delete: the instant the grace period runs out.
    record.pod.metadata.deletion_timestamp =
        queue_.Now() + api::Duration::FromSeconds(grace_seconds);
    record.pod.metadata.deletion_grace_period_seconds = grace_seconds;
    NotePodEvent(record.pod);  // terminating: upstream's pod event, not its removal later
    PodChanged(pod_key, record.pod.metadata);
    // A grace period is any int64 the API accepts: saturate rather than overflow (such a pod
    // outlives the run).
    SimMillis until = 0;
    if (__builtin_mul_overflow(grace_seconds, SimMillis{1000}, &until) ||
        __builtin_add_overflow(until, queue_.now(), &until)) {
      until = std::numeric_limits<SimMillis>::max();
    }
    record.terminating_until = until;
    MarkUnconsolidated();
    queue_.At(record.terminating_until,
              [this, pod_key, uid = record.pod.metadata.uid] { FinishTermination(pod_key, uid); });
  }
  RecreateLater(owners);
}

void Cluster::FinishTermination(const std::string& key, const std::string& uid) {
  auto it = pods_.find(key);
  if (it == pods_.end() || it->second.pod.metadata.uid != uid) return;  // gone with its node
  const std::string owner = it->second.owner;
  const bool stateful = it->second.stateful_set;
  DeletePod(key);
  if (stateful) RecreateLater({owner});
  RequestSchedulingPass();  // its resources are free
}

}  // namespace karpenter::sim
