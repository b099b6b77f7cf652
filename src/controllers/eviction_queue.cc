#include "src/controllers/eviction_queue.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "src/api/nodeclaim.h"
#include "src/state/pod_predicates.h"

namespace karpenter::controllers {
namespace {

// Upstream's eviction queue backoff: 100 ms doubling to 10 s per pod.
constexpr RateLimits kEvictionRateLimits{100, 10 * 1000, 100, 1000};

std::string PodKey(const api::Pod& pod) {
  return absl::StrCat(pod.metadata.namespace_, "/", pod.metadata.name);
}

ReconcileResult Done() { return ReconcileResult{}; }
ReconcileResult Retry() { return ReconcileResult{std::nullopt, true}; }

}  // namespace

bool NeedsForceDelete(const api::Pod& pod, const std::optional<api::Time>& deadline,
                      api::Time now) {
  if (!deadline) return false;
  if (pod.metadata.deletion_timestamp) return *pod.metadata.deletion_timestamp > *deadline;
  if (!pod.spec.termination_grace_period_seconds) return false;
  const api::Time delete_by =
      *deadline - api::Duration::FromSeconds(*pod.spec.termination_grace_period_seconds);
  return now > delete_by;
}

EvictionQueue::EvictionQueue(Clock& clock, ClusterReader& reader, ClusterWriter& writer,
                             EventRecorder& recorder, Metrics& metrics)
    : clock_(clock),
      reader_(reader),
      writer_(writer),
      recorder_(recorder),
      metrics_(metrics),
      controller_(
          "eviction-queue", clock, [this](const std::string& key) { return Reconcile(key); },
          kEvictionRateLimits) {}

void EvictionQueue::Add(const std::optional<api::Time>& deadline,
                        const std::vector<api::Pod>& pods) {
  for (const api::Pod& pod : pods) {
    const std::string key = PodKey(pod);
    auto [it, added] = items_.try_emplace(key, Item{pod.metadata.uid, deadline});
    if (!added) {
      if (it->second.uid != pod.metadata.uid) {
        it->second = Item{pod.metadata.uid, deadline};
      } else if (deadline && (!it->second.deadline || *deadline < *it->second.deadline)) {
        it->second.deadline = deadline;  // a deadline can tighten, never loosen
      }
    }
    controller_.Enqueue(key);
  }
}

bool EvictionQueue::Has(const api::Pod& pod) const {
  auto it = items_.find(PodKey(pod));
  return it != items_.end() && it->second.uid == pod.metadata.uid;
}

absl::StatusOr<ReconcileResult> EvictionQueue::Reconcile(const std::string& key) {
  auto item = items_.find(key);
  if (item == items_.end()) return Done();
  const size_t slash = key.find('/');
  std::optional<api::Object> object =
      reader_.Get(ObjectKey{"Pod", key.substr(0, slash), key.substr(slash + 1)});
  const auto* pod = object ? std::get_if<api::Pod>(&*object) : nullptr;
  if (pod == nullptr) {
    items_.erase(item);
    return Done();
  }
  // A new pod of the same name is not the one queued.
  if (pod->metadata.uid != item->second.uid) return Done();
  if (NeedsForceDelete(*pod, item->second.deadline, clock_.Now())) {
    return ForceDelete(*pod, item->second);
  }
  if (!state::IsActive(*pod)) {
    items_.erase(item);
    return Done();
  }
  // Protected by do-not-disrupt (or otherwise not evictable): wait, under the backoff, for the
  // annotation to clear or the deadline to force it.
  if (!state::IsEvictable(*pod, clock_.Now())) return Retry();
  return Evict(*pod);
}

absl::StatusOr<ReconcileResult> EvictionQueue::ForceDelete(const api::Pod& pod, const Item& item) {
  // At least 1 s: a grace period of 0 would remove the pod from etcd before its containers
  // stop, and two copies of it could run.
  const int64_t grace =
      std::max<int64_t>((*item.deadline - clock_.Now()).Nanos() / api::Duration::kSecond, 1);
  recorder_.Publish(Event{
      ObjectReference{"Pod", pod.metadata.namespace_, pod.metadata.name, pod.metadata.uid},
      EventType::kNormal, "Disrupted",
      absl::StrCat("Deleting the pod to accommodate the terminationTime ", item.deadline->Rfc3339(),
                   " of the node. The pod was granted ", grace, " seconds of grace-period of its ",
                   pod.spec.termination_grace_period_seconds.value_or(0),
                   " terminationGracePeriodSeconds. This bypasses the PDB of the pod and the "
                   "do-not-disrupt annotation.")});
  absl::Status deleted =
      writer_.Delete(ObjectKey{"Pod", pod.metadata.namespace_, pod.metadata.name},
                     DeleteOptions{.uid = pod.metadata.uid, .grace_period_seconds = grace});
  if (!deleted.ok() && !absl::IsNotFound(deleted)) {
    return absl::Status(deleted.code(), absl::StrCat("force-deleting pod, ", deleted.message()));
  }
  if (deleted.ok()) {
    metrics_.Add("karpenter_pods_drained_total", {{"reason", EvictionReason(pod)}}, 1);
  }
  items_.erase(PodKey(pod));
  return Done();
}

absl::StatusOr<ReconcileResult> EvictionQueue::Evict(const api::Pod& pod) {
  const ObjectKey key{"Pod", pod.metadata.namespace_, pod.metadata.name};
  absl::StatusOr<EvictionResult> result = writer_.Evict(key, pod.metadata.uid);
  if (!result.ok()) {
    if (std::string(result.status().message()) == kMultiplePdbsMessage) {
      metrics_.Add("karpenter_pods_eviction_requests_total", {{"code", "500"}}, 1);
      FailedDraining(pod, "eviction does not support multiple PDBs");
      return Retry();
    }
    return result.status();
  }
  switch (*result) {
    case EvictionResult::kEvicted: {
      metrics_.Add("karpenter_pods_eviction_requests_total", {{"code", "200"}}, 1);
      const std::string reason = EvictionReason(pod);
      recorder_.Publish(Event{
          ObjectReference{"Pod", pod.metadata.namespace_, pod.metadata.name, pod.metadata.uid},
          EventType::kNormal, "Evicted", absl::StrCat("Evicted pod: ", reason)});
      metrics_.Add("karpenter_pods_drained_total", {{"reason", reason}}, 1);
      items_.erase(PodKey(pod));
      return Done();
    }
    case EvictionResult::kNotFound:
    case EvictionResult::kConflict:
      // Gone, or another pod by that name now: nothing left to evict.
      metrics_.Add("karpenter_pods_eviction_requests_total",
                   {{"code", *result == EvictionResult::kNotFound ? "404" : "409"}}, 1);
      items_.erase(PodKey(pod));
      return Done();
    case EvictionResult::kTooManyRequests:
      metrics_.Add("karpenter_pods_eviction_requests_total", {{"code", "429"}}, 1);
      FailedDraining(pod, "evicting pod violates a PDB");
      return Retry();
  }
  return Done();
}

void EvictionQueue::FailedDraining(const api::Pod& pod, std::string_view why) {
  recorder_.Publish(Event{
      ObjectReference{"Node", "", pod.spec.node_name, ""}, EventType::kWarning, "FailedDraining",
      absl::StrCat("Failed to drain node, ", std::string(why), " (Pod=", PodKey(pod), ")")});
}

std::string EvictionQueue::EvictionReason(const api::Pod& pod) const {
  std::optional<api::Object> object = reader_.Get(ObjectKey{"Node", "", pod.spec.node_name});
  const auto* node = object ? std::get_if<api::Node>(&*object) : nullptr;
  if (node == nullptr || node->spec.provider_id.empty()) return "";
  std::optional<api::NodeClaim> claim = reader_.NodeClaimByProviderId(node->spec.provider_id);
  if (!claim) return "";
  for (const api::Condition& condition : claim->status.conditions) {
    if (condition.type == api::kConditionTypeDisruptionReason && condition.status == "True") {
      return condition.reason;
    }
  }
  return "Forceful Termination";
}

}  // namespace karpenter::controllers
