// Upstream: the StatefulSet controller (k8s pkg/controller/statefulset, stateful_set_control.go).
// Pods are named `<set>-<ordinal>` for ordinals [start, start + replicas). With the default
// OrderedReady policy the controller creates the lowest missing ordinal and waits until it is
// Running and Ready before the next, and on scale-down removes the highest ordinal first, only
// while every other pod is Running and Ready; Parallel creates and removes them all at once.
#include <algorithm>
#include <map>

#include "absl/strings/str_cat.h"
#include "src/sim/cluster.h"

namespace karpenter::sim {
namespace {

// The label the StatefulSet controller puts on each pod (and a headless Service may select).
constexpr char kPodNameLabel[] = "statefulset.kubernetes.io/pod-name";

bool Parallel(const api::StatefulSet& stateful_set) {
  return stateful_set.spec.pod_management_policy == "Parallel";
}

}  // namespace

absl::Status Cluster::ApplyStatefulSet(api::StatefulSet stateful_set, bool initial) {
  if (!stateful_set.spec.volume_claim_templates.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "StatefulSet ", stateful_set.metadata.name,
        ": spec.volumeClaimTemplates: the twin models no PersistentVolumes (a replica would not be "
        "held in its volume's zone); drop the templates"));
  }
  MarkUnconsolidated();
  const std::string key =
      stateful_set.metadata.namespace_.empty()
          ? stateful_set.metadata.name
          : absl::StrCat(stateful_set.metadata.namespace_, "/", stateful_set.metadata.name);
  StatefulSetState& state = stateful_sets_[key];
  state.stateful_set = std::move(stateful_set);
  state.initial = initial;
  log_.Record(
      queue_.now(), "StatefulSetApplied",
      {Str("statefulSet", key),
       Count("replicas", static_cast<int64_t>(state.stateful_set.spec.replicas.value_or(1)))});
  ReconcileStatefulSet(key);
  return absl::OkStatus();
}

absl::Status Cluster::ScaleStatefulSet(const std::string& key, int replicas) {
  auto it = stateful_sets_.find(key);
  if (it == stateful_sets_.end()) return absl::NotFoundError("no statefulset " + key);
  it->second.stateful_set.spec.replicas = replicas;
  it->second.scaled = true;
  log_.Record(queue_.now(), "StatefulSetScaled",
              {Str("statefulSet", key), Count("replicas", static_cast<int64_t>(replicas))});
  ReconcileStatefulSet(key);
  return absl::OkStatus();
}

void Cluster::ReconcileStatefulSetLater(const std::string& key) {
  queue_.After(Sample(latency_.controller_recreate, random_),
               [this, key] { ReconcileStatefulSet(key); });
}

void Cluster::ReconcileStatefulSet(const std::string& key) {
  auto it = stateful_sets_.find(key);
  if (it == stateful_sets_.end()) return;
  StatefulSetState& state = it->second;
  const api::StatefulSet& stateful_set = state.stateful_set;
  const std::string& name = stateful_set.metadata.name;
  const std::string& ns = stateful_set.metadata.namespace_;
  const int32_t start = stateful_set.spec.ordinals ? stateful_set.spec.ordinals->start : 0;
  const int32_t end = start + stateful_set.spec.replicas.value_or(1);
  // The set's pods by ordinal.
  std::map<int32_t, std::string> pods;
  for (const auto& [pod_key, record] : pods_.OwnedBy(key)) {
    if (!record->stateful_set) continue;
    const std::string& pod_name = record->pod.metadata.name;
    const std::string ordinal = pod_name.substr(std::min(pod_name.size(), name.size() + 1));
    pods[std::atoi(ordinal.c_str())] = pod_key;
  }
  auto running = [&](int32_t ordinal) {
    return !pods_.at(pods.at(ordinal)).pod.spec.node_name.empty();
  };
  const bool parallel = Parallel(stateful_set);
  bool changed = false;
  // Creation, lowest ordinal first; OrderedReady stops at the first pod not yet Running.
  for (int32_t ordinal = start; ordinal < end; ++ordinal) {
    if (!pods.contains(ordinal)) {
      api::PodTemplateSpec template_spec = stateful_set.spec.template_;
      const std::string pod_name = absl::StrCat(name, "-", ordinal);
      template_spec.metadata.labels[kPodNameLabel] = pod_name;
      PodRecord& record = AddPod(template_spec, ns, "StatefulSet", name, key, state.initial,
                                 !state.initial || state.scaled, pod_name);
      pods[ordinal] = absl::StrCat(record.pod.metadata.namespace_, "/", pod_name);
      changed = true;
      if (!parallel) break;
    } else if (!parallel && !running(ordinal)) {
      break;
    }
  }
  // Removal, highest ordinal first; OrderedReady only while the pods it keeps are all Running.
  std::vector<int32_t> condemned;
  for (const auto& [ordinal, pod_key] : pods) {
    if (ordinal < start || ordinal >= end) condemned.push_back(ordinal);
  }
  std::sort(condemned.rbegin(), condemned.rend());
  for (int32_t ordinal : condemned) {
    if (!parallel) {
      const bool others_running = std::all_of(pods.begin(), pods.end(), [&](const auto& entry) {
        return entry.first == ordinal || running(entry.first);
      });
      if (!others_running) break;
    }
    DeletePod(pods.at(ordinal));
    pods.erase(ordinal);
    changed = true;
  }
  if (changed) RequestSchedulingPass();
}

}  // namespace karpenter::sim
