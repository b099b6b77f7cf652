// Upstream: kubernetes-sigs/karpenter pkg/controllers/disruption (controller.go, queue.go,
// validation.go). Voluntary disruption in a live cluster, around the engine `plan --disruption`
// uses (src/disruption):
//   - a singleton poll every 10 s, once the cluster view is synced: taints left by a command
//     that no longer runs (a restart) are removed first; the engine then decides on the cluster
//     as it stands, and the winning method's commands start. Emptiness and consolidation wait
//     15 s and are re-validated on a fresh view (upstream's poll blocks meanwhile); Drift starts
//     at once. After a command the next poll follows at once. Expiration is not executed here:
//     NodeClaimExpiration deletes expired claims.
//   - starting a command: its candidates' Nodes get karpenter.sh/disrupted:NoSchedule and
//     their NodeClaims the DisruptionReason condition (a command with replacements starts only
//     if all are marked; one that only deletes goes on with those that are), then the
//     replacement NodeClaims are created (the lifecycle controller launches them), then the
//     candidates are marked for deletion (DeletionMarks: the provisioner plans their pods onto
//     the replacements);
//   - the orchestration queue, every second while a command is queued: once every replacement
//     is Initialized the candidates' NodeClaims are deleted (termination drains them); a
//     replacement that disappears, or the retry timeout, rolls the command back (untaint).
// Methods that found nothing are skipped until the cluster changes or 5 minutes pass
// (upstream's consolidated marks).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "karpenter/clock.h"
#include "karpenter/cloud_provider.h"
#include "karpenter/event_recorder.h"
#include "karpenter/kube_cluster.h"
#include "karpenter/logger.h"
#include "karpenter/metrics.h"
#include "src/controllers/deletion_marks.h"
#include "src/controllers/reconciler.h"
#include "src/disruption/command.h"
#include "src/disruption/disruption.h"
#include "src/disruption/queue.h"
#include "src/provisioning/node_class_catalog.h"
#include "src/provisioning/snapshot_input.h"

namespace karpenter::controllers {

// How often the disruption controller looks for work when the last poll found none.
inline constexpr int64_t kDisruptionPollMillis = 10 * 1000;
// How often the orchestration queue checks the replacements of queued commands.
inline constexpr int64_t kDisruptionQueueMillis = 1000;
// A cluster unchanged this long counts as changed (upstream re-checks consolidated methods).
inline constexpr int64_t kConsolidationStateRefreshMillis = 5 * 60 * 1000;

struct DisruptionSeams {
  Clock& clock;
  ClusterReader& reader;
  ClusterWriter& writer;
  EventRecorder& recorder;
  Metrics& metrics;
  // Upstream's "disrupting node(s)" line for every command started; optional.
  Logger* logger = nullptr;
  // Where each NodePool's instance types come from on every poll, as upstream's replacement
  // simulations ask CloudProvider.GetInstanceTypes (live offerings and prices, ICE-marked
  // offerings unavailable). Null: the embedded catalog, as `karpenter plan --disruption` uses.
  CloudProvider* cloud = nullptr;
  // Where a started command marks its candidates once their replacements exist (upstream's
  // MarkForDeletion), shared with the provisioner; null: nothing is marked.
  DeletionMarks* marks = nullptr;
};

struct DisruptionControllerOptions {
  disruption::DisruptionOptions engine;
  cloudprovider::SpotPriceModel spot_prices = cloudprovider::DefaultSpotPriceModel();
};

class DisruptionController {
 public:
  DisruptionController(DisruptionSeams seams, DisruptionControllerOptions options);

  // Watches the kinds whose changes unconsolidate the cluster, and starts the poll.
  void Start();
  // One poll (the singleton's reconcile).
  absl::StatusOr<ReconcileResult> Reconcile();
  // One pass of the orchestration queue over its commands.
  void ReconcileQueue();

  size_t queued_commands() const { return queue_.size(); }
  uint64_t commands_started() const { return commands_started_; }
  uint64_t commands_finished() const { return commands_finished_; }
  uint64_t commands_rolled_back() const { return commands_rolled_back_; }
  uint64_t validations_failed() const { return validations_failed_; }

 private:
  struct Planning {
    state::ClusterSnapshot snapshot;
    provisioning::SnapshotSchedulerInput input;
  };
  // What a started command needs later: its method and reason, and each candidate's NodeClaim.
  struct Running {
    disruption::Method method = disruption::Method::kEmptiness;
    disruption::Reason reason = disruption::Reason::kEmpty;
    std::map<std::string, std::string> claims;        // candidate node -> its NodeClaim
    std::map<std::string, std::string> provider_ids;  // candidate node -> its provider ID
    std::vector<std::string> replacements;            // NodeClaim names, as created
  };
  // A candidate whose replacements are ready: its NodeClaim is deleted, retried until it is.
  struct PendingDelete {
    std::string node;
    std::string claim;
    disruption::Method method = disruption::Method::kEmptiness;
    disruption::Reason reason = disruption::Reason::kEmpty;
  };

  absl::StatusOr<std::unique_ptr<Planning>> Plan();
  // The instant the cluster last changed, refreshed after kConsolidationStateRefreshMillis.
  int64_t ConsolidationState();
  std::vector<disruption::Method> MarkedAt(int64_t state) const;
  // Removes karpenter.sh/disrupted and DisruptionReason from nodes no queued command holds and
  // that are not being deleted.
  absl::Status RemoveOutdatedTaints();
  absl::StatusOr<ReconcileResult> Validate();
  // Starts `command` (its replacements must still point into a live scheduler input).
  absl::Status Execute(const disruption::Command& command, const state::ClusterSnapshot& snapshot);
  void Apply(const std::vector<disruption::QueueAction>& actions);
  disruption::ReplacementState StateOf(const std::string& node_claim);
  bool IsInitialized(const std::string& node_claim) const;
  void ScheduleQueue();
  // MarkNodeDisrupted through this controller's seams.
  absl::Status MarkDisrupted(const std::string& node, const std::string& reason);
  // Deletes the NodeClaim; termination drains the node.
  absl::Status DeleteCandidate(const PendingDelete& candidate);
  void CountDecision(const disruption::Command& command);
  // Upstream's "disrupting node(s)" line for the command `id` just started.
  void LogStarted(uint64_t id, const disruption::Command& command) const;
  // A candidate of a finished command whose NodeClaim deletion was asked for (the informer
  // may not show its deletionTimestamp yet): its taint stays.
  bool Deleting(const std::string& node) const { return marked_for_deletion_.contains(node); }

  DisruptionSeams seams_;
  DisruptionControllerOptions options_;
  provisioning::CatalogCache catalogs_;
  SingletonLoop loop_;
  disruption::OrchestrationQueue queue_;
  std::map<uint64_t, Running> running_;
  std::vector<PendingDelete> pending_deletes_;
  std::set<std::string> marked_for_deletion_;  // node names; pruned once the Node is gone
  std::set<std::string> seen_replacements_;    // NodeClaim names the informer has shown
  bool queue_scheduled_ = false;
  // Graceful commands computed by the last poll, re-validated by the next.
  std::vector<disruption::Command> awaiting_validation_;
  int64_t unconsolidated_at_ = 0;
  std::map<disruption::Method, int64_t> consolidated_at_;
  uint64_t commands_started_ = 0;
  uint64_t commands_finished_ = 0;
  uint64_t commands_rolled_back_ = 0;
  uint64_t validations_failed_ = 0;
};

}  // namespace karpenter::controllers
