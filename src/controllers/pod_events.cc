#include "src/controllers/pod_events.h"

#include <optional>
#include <variant>

#include "absl/strings/str_cat.h"
#include "src/state/pod_predicates.h"

namespace karpenter::controllers {

bool RecordsPodEvent(const api::NodeClaim& claim, api::Time now) {
  return !claim.status.last_pod_event_time ||
         (now - *claim.status.last_pod_event_time).Nanos() >=
             kPodEventDedupeMillis * api::Duration::kMillisecond;
}

PodEvents::PodEvents(PodEventSeams seams)
    : seams_(seams),
      controller_("nodeclaim.podevents", seams.clock,
                  [this](const std::string& pod) { return Reconcile(pod); }) {}

void PodEvents::Start() {
  seams_.reader.Watch("Pod", [this](const ObjectKey& key) {
    if (Counts(key)) controller_.Enqueue(absl::StrCat(key.namespace_, "/", key.name));
  });
}

bool PodEvents::Counts(const ObjectKey& key) {
  std::optional<api::Object> object = seams_.reader.Get(key);
  const auto* pod = object ? std::get_if<api::Pod>(&*object) : nullptr;
  if (pod == nullptr) {
    seen_.erase(key);
    return false;
  }
  const bool bound = !pod->spec.node_name.empty();
  const Seen now{.bound = bound,
                 .terminal = bound && state::IsTerminal(*pod),
                 .terminating = bound && state::IsTerminating(*pod)};
  auto [it, created] = seen_.try_emplace(key, now);
  if (created) return true;
  const Seen before = it->second;
  it->second = now;
  return (!before.bound && now.bound) || (!before.terminal && now.terminal) ||
         (!before.terminating && now.terminating);
}

absl::StatusOr<ReconcileResult> PodEvents::Reconcile(const std::string& pod_key) {
  const size_t slash = pod_key.find('/');
  std::optional<api::Object> object =
      seams_.reader.Get(ObjectKey{"Pod", pod_key.substr(0, slash), pod_key.substr(slash + 1)});
  const auto* pod = object ? std::get_if<api::Pod>(&*object) : nullptr;
  if (pod == nullptr || pod->spec.node_name.empty() || state::IsOwnedByDaemonSet(*pod)) {
    return ReconcileResult{};
  }
  std::optional<api::Object> node = seams_.reader.Get(ObjectKey{"Node", "", pod->spec.node_name});
  const auto* typed = node ? std::get_if<api::Node>(&*node) : nullptr;
  if (typed == nullptr || typed->spec.provider_id.empty()) return ReconcileResult{};
  // Not a Karpenter node: no NodeClaim carries its provider ID.
  std::optional<api::NodeClaim> claim =
      seams_.reader.NodeClaimByProviderId(typed->spec.provider_id);
  if (!claim) return ReconcileResult{};
  const api::Time now = seams_.clock.Now();
  if (!RecordsPodEvent(*claim, now)) return ReconcileResult{};
  claim->status.last_pod_event_time = now;
  absl::StatusOr<api::Object> written = seams_.writer.UpdateStatus(*claim);
  if (!written.ok()) {
    if (absl::IsNotFound(written.status())) return ReconcileResult{};
    if (absl::IsAborted(written.status())) return ReconcileResult{std::nullopt, true};
    return written.status();
  }
  return ReconcileResult{};
}

}  // namespace karpenter::controllers
