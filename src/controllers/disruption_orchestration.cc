// The orchestration half of DisruptionController (upstream queue.go): marking candidates,
// creating replacements, deleting candidates once the replacements are ready, rolling back.
#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "src/api/karpenter_labels.h"
#include "src/api/nodeclaim.h"
#include "src/controllers/disrupted_mark.h"
#include "src/controllers/disrupted_metrics.h"
#include "src/controllers/disruption_controller.h"
#include "src/controllers/nodeclaim_lifecycle.h"
#include "src/controllers/object_fields.h"
#include "src/controllers/provisioner.h"
#include "src/disruption/node_state.h"
#include "src/state/pod_predicates.h"

namespace karpenter::controllers {
namespace {

std::string LowerReason(disruption::Reason reason) {
  return absl::AsciiStrToLower(std::string(disruption::ReasonName(reason)));
}

ObjectReference NodeClaimReference(const api::NodeClaim& claim) {
  return ObjectReference{"NodeClaim", "", claim.metadata.name, claim.metadata.uid};
}

}  // namespace

absl::Status DisruptionController::Execute(const disruption::Command& command,
                                           const state::ClusterSnapshot& snapshot) {
  Running running{.method = command.method, .reason = command.reason};
  for (const std::string& node : command.candidates) {
    const api::Node* stored = snapshot.FindNode(node);
    std::optional<api::NodeClaim> claim =
        stored == nullptr ? std::nullopt
                          : seams_.reader.NodeClaimByProviderId(stored->spec.provider_id);
    if (!claim) return absl::NotFoundError(absl::StrCat("candidate ", node, " has no NodeClaim"));
    running.claims[node] = claim->metadata.name;
    running.provider_ids[node] = stored->spec.provider_id;
  }
  // Candidates are cordoned before their replacements launch, so no new pod lands on them.
  const std::string reason(disruption::ReasonName(command.reason));
  std::vector<std::string> marked;
  absl::Status unmarked;
  for (const std::string& node : command.candidates) {
    absl::Status status = MarkDisrupted(node, reason);
    if (status.ok()) {
      marked.push_back(node);
    } else {
      unmarked.Update(status);
    }
  }
  const disruption::Command* started = &command;
  disruption::Command narrowed;
  if (!unmarked.ok()) {
    // As upstream's queue: replacements are for every candidate's pods, so a command that
    // launches some starts only whole; one that only deletes goes on with the candidates it
    // could mark.
    if (!command.replacements.empty() || marked.empty()) {
      // Best effort: a taint left behind is removed by the next poll (RemoveOutdatedTaints).
      for (const std::string& node : command.candidates) MarkDisrupted(node, "").IgnoreError();
      return unmarked;
    }
    narrowed = command;
    narrowed.candidates = marked;
    std::erase_if(running.claims, [&](const auto& entry) {
      return std::find(marked.begin(), marked.end(), entry.first) == marked.end();
    });
    std::erase_if(running.provider_ids,
                  [&](const auto& entry) { return !running.claims.contains(entry.first); });
    started = &narrowed;
  }
  std::vector<disruption::QueueAction> actions;
  const uint64_t id = queue_.Start(*started, seams_.clock.Now(), actions);
  running_[id] = std::move(running);
  for (const disruption::QueueAction& action : actions) {
    if (action.kind != disruption::QueueAction::Kind::kLaunchReplacement) continue;
    const provisioning::PlannedNodeClaim& planned = command.replacements[action.replacement];
    const api::NodePool* pool = snapshot.FindNodePool(planned.claim.node_pool);
    absl::StatusOr<api::Object> created =
        pool == nullptr ? absl::StatusOr<api::Object>(absl::NotFoundError(
                              absl::StrCat("NodePool ", planned.claim.node_pool, " is gone")))
                        : seams_.writer.Create(ToNodeClaim(planned.claim, *pool));
    if (!created.ok()) {
      // Without its replacement the command would strand the candidates' pods.
      Apply(queue_.ReplacementFailed(id));
      return created.status();
    }
    const std::string name = KeyOf(*created).name;
    queue_.ReplacementCreated(id, action.replacement, name);
    running_[id].replacements.push_back(name);
    seams_.metrics.Add(
        "karpenter_nodeclaims_created_total",
        {{"reason", LowerReason(command.reason)},
         {"nodepool", planned.claim.node_pool},
         {"min_values_relaxed", planned.claim.min_values_relaxed ? "true" : "false"}},
        1);
  }
  // Marked only now that the replacements exist: marked earlier, a provisioning pass could
  // launch for the candidates' pods as well (upstream's order).
  if (seams_.marks != nullptr) {
    std::vector<std::string> provider_ids;
    for (const auto& [node, provider_id] : running_[id].provider_ids) {
      provider_ids.push_back(provider_id);
    }
    seams_.marks->Mark(provider_ids, running_[id].replacements);
  }
  CountDecision(*started);
  LogStarted(id, *started);
  ++commands_started_;
  ReconcileQueue();
  return absl::OkStatus();
}

void DisruptionController::LogStarted(uint64_t id, const disruption::Command& command) const {
  if (seams_.logger == nullptr) return;
  const Running& running = running_.at(id);
  std::vector<std::string> disrupted;
  for (const std::string& node : command.candidates) {
    disrupted.push_back(absl::StrCat(node, "/", running.claims.at(node)));
  }
  seams_.logger->Info("disrupting node(s)",
                      {{"command-id", absl::StrCat(id)},
                       {"reason", LowerReason(command.reason)},
                       {"decision", command.replacements.empty() ? "delete" : "replace"},
                       {"disrupted-node-count", absl::StrCat(command.candidates.size())},
                       {"replacement-node-count", absl::StrCat(command.replacements.size())},
                       {"pod-count", absl::StrCat(command.destinations.size())},
                       {"disrupted-nodes", absl::StrJoin(disrupted, ",")},
                       {"replacement-nodes", absl::StrJoin(running.replacements, ",")}});
}

void DisruptionController::CountDecision(const disruption::Command& command) {
  seams_.metrics.Add(
      "karpenter_voluntary_disruption_decisions_total",
      {{"decision", command.replacements.empty() ? "delete" : "replace"},
       {"reason", LowerReason(command.reason)},
       {"consolidation_type", std::string(disruption::ConsolidationTypeOf(command.method))}},
      1);
}

void DisruptionController::ScheduleQueue() {
  if (queue_scheduled_ || (queue_.size() == 0 && pending_deletes_.empty())) return;
  queue_scheduled_ = true;
  seams_.clock.After(kDisruptionQueueMillis, [this] {
    queue_scheduled_ = false;
    ReconcileQueue();
  });
}

void DisruptionController::ReconcileQueue() {
  Apply(queue_.Reconcile(seams_.clock.Now(),
                         [this](const std::string& name) { return StateOf(name); }));
  std::vector<PendingDelete> left;
  for (PendingDelete& candidate : pending_deletes_) {
    if (!DeleteCandidate(candidate).ok()) left.push_back(std::move(candidate));
  }
  pending_deletes_ = std::move(left);
  ScheduleQueue();
}

bool DisruptionController::IsInitialized(const std::string& node_claim) const {
  std::optional<api::Object> object = seams_.reader.Get(ObjectKey{"NodeClaim", "", node_claim});
  const auto* claim = object ? std::get_if<api::NodeClaim>(&*object) : nullptr;
  return claim != nullptr &&
         disruption::TrueCondition(*claim, api::kConditionTypeInitialized) != nullptr;
}

disruption::ReplacementState DisruptionController::StateOf(const std::string& node_claim) {
  std::optional<api::Object> object = seams_.reader.Get(ObjectKey{"NodeClaim", "", node_claim});
  const auto* claim = object ? std::get_if<api::NodeClaim>(&*object) : nullptr;
  // A claim created a moment ago may not have reached the informer yet: only one that was seen
  // and is gone failed (an insufficient-capacity launch, or registration that timed out).
  if (claim == nullptr) {
    return seen_replacements_.contains(node_claim) ? disruption::ReplacementState::kGone
                                                   : disruption::ReplacementState::kLaunching;
  }
  seen_replacements_.insert(node_claim);
  std::string reason;
  for (const auto& [id, running] : running_) {
    const auto& names = running.replacements;
    if (std::find(names.begin(), names.end(), node_claim) != names.end()) {
      reason = disruption::ReasonName(running.reason);
    }
  }
  seams_.recorder.Publish(Event{NodeClaimReference(*claim), EventType::kNormal,
                                "DisruptionLaunching",
                                absl::StrCat("Launching NodeClaim: ", reason)});
  if (disruption::TrueCondition(*claim, api::kConditionTypeInitialized) != nullptr) {
    return disruption::ReplacementState::kInitialized;
  }
  seams_.recorder.Publish(Event{NodeClaimReference(*claim), EventType::kNormal,
                                "DisruptionWaitingReadiness",
                                "Waiting on readiness to continue disruption"});
  return disruption::ReplacementState::kLaunching;
}

void DisruptionController::Apply(const std::vector<disruption::QueueAction>& actions) {
  std::map<uint64_t, bool> finished;  // command id -> candidates deleted (or rolled back)
  for (const disruption::QueueAction& action : actions) {
    Running& running = running_[action.command_id];
    switch (action.kind) {
      case disruption::QueueAction::Kind::kTaintCandidate:
      case disruption::QueueAction::Kind::kLaunchReplacement:
        break;  // Execute does these, in its order
      case disruption::QueueAction::Kind::kDeleteCandidate:
        finished[action.command_id] = true;
        marked_for_deletion_.insert(action.node);
        pending_deletes_.push_back(PendingDelete{.node = action.node,
                                                 .claim = running.claims[action.node],
                                                 .method = running.method,
                                                 .reason = running.reason});
        break;
      case disruption::QueueAction::Kind::kUntaintCandidate:
        finished[action.command_id] = false;
        if (seams_.marks != nullptr) seams_.marks->Unmark({running.provider_ids[action.node]});
        // A failure here is retried by the next poll, which clears taints no command holds.
        (void)MarkDisrupted(action.node, "");
        break;
    }
  }
  for (const auto& [id, deleted] : finished) {
    const Running& running = running_[id];
    if (deleted) {
      ++commands_finished_;
    } else {
      ++commands_rolled_back_;
      const auto failed =
          std::count_if(running.replacements.begin(), running.replacements.end(),
                        [this](const std::string& name) { return !IsInitialized(name); });
      seams_.metrics.Add(
          "karpenter_voluntary_disruption_queue_failures_total",
          {{"decision", running.replacements.empty() ? "delete" : "replace"},
           {"reason", LowerReason(running.reason)},
           {"consolidation_type", std::string(disruption::ConsolidationTypeOf(running.method))}},
          static_cast<double>(failed));
    }
    for (const std::string& name : running.replacements) seen_replacements_.erase(name);
    running_.erase(id);
  }
}

absl::Status DisruptionController::DeleteCandidate(const PendingDelete& candidate) {
  std::optional<api::Object> object =
      seams_.reader.Get(ObjectKey{"NodeClaim", "", candidate.claim});
  const auto* claim = object ? std::get_if<api::NodeClaim>(&*object) : nullptr;
  if (claim == nullptr) return absl::OkStatus();  // gone already
  absl::Status deleted = seams_.writer.Delete(ObjectKey{"NodeClaim", "", candidate.claim},
                                              DeleteOptions{.uid = claim->metadata.uid});
  if (absl::IsNotFound(deleted)) return absl::OkStatus();
  if (!deleted.ok()) return deleted;
  const std::string reason(disruption::ReasonName(candidate.reason));
  std::optional<api::Object> node = seams_.reader.Get(ObjectKey{"Node", "", candidate.node});
  if (const auto* typed = node ? std::get_if<api::Node>(&*node) : nullptr; typed != nullptr) {
    seams_.recorder.Publish(Event{ObjectReference{"Node", "", candidate.node, typed->metadata.uid},
                                  EventType::kNormal, "DisruptionTerminating",
                                  absl::StrCat("Disrupting Node: ", reason)});
  }
  seams_.recorder.Publish(Event{NodeClaimReference(*claim), EventType::kNormal,
                                "DisruptionTerminating",
                                absl::StrCat("Disrupting NodeClaim: ", reason)});
  // Drift flows through the queue too; only consolidation reports its policy.
  std::string policy;
  if (!disruption::ConsolidationTypeOf(candidate.method).empty()) {
    std::optional<api::Object> pool = seams_.reader.Get(
        ObjectKey{"NodePool", "", LabelOf(claim->metadata.labels, api::kNodePoolLabelKey)});
    policy = ConsolidationPolicyLabel(pool ? std::get_if<api::NodePool>(&*pool) : nullptr);
  }
  size_t pods = 0;
  for (const api::Pod& pod : seams_.reader.PodsOnNode(candidate.node)) {
    pods += state::IsReschedulable(pod) ? 1 : 0;
  }
  CountDisrupted(DisruptedLabels(*claim, LowerReason(candidate.reason), policy), pods,
                 seams_.metrics);
  return absl::OkStatus();
}

absl::Status DisruptionController::MarkDisrupted(const std::string& node_name,
                                                 const std::string& reason) {
  return MarkNodeDisrupted(seams_.reader, seams_.writer, seams_.clock, node_name, reason);
}

absl::Status DisruptionController::RemoveOutdatedTaints() {
  absl::Status failed;
  const std::vector<api::Object> nodes = seams_.reader.List("Node");
  std::set<std::string> present;
  for (const api::Object& object : nodes) present.insert(KeyOf(object).name);
  std::erase_if(marked_for_deletion_,
                [&present](const std::string& node) { return !present.contains(node); });
  for (const api::Object& object : nodes) {
    const auto& node = std::get<api::Node>(object);
    if (!disruption::HasDisruptedTaint(node) || node.metadata.deletion_timestamp) continue;
    if (queue_.Contains(node.metadata.name) || Deleting(node.metadata.name)) continue;
    // Termination taints the nodes it drains: a NodeClaim being deleted keeps its taint.
    if (!node.spec.provider_id.empty()) {
      std::optional<api::NodeClaim> claim =
          seams_.reader.NodeClaimByProviderId(node.spec.provider_id);
      if (claim && claim->metadata.deletion_timestamp) continue;
    }
    if (absl::Status cleared = MarkDisrupted(node.metadata.name, ""); !cleared.ok()) {
      failed.Update(cleared);
    }
  }
  return failed;
}

}  // namespace karpenter::controllers
