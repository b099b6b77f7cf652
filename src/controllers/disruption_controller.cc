#include "src/controllers/disruption_controller.h"

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "src/api/karpenter_labels.h"
#include "src/controllers/cloud_instance_types.h"
#include "src/controllers/cluster_snapshot.h"
#include "src/controllers/disruption_gauges.h"
#include "src/controllers/provisioner.h"
#include "src/disruption/validation.h"

namespace karpenter::controllers {
namespace {

// The validation wait on the controllers' clock.
int64_t ValidationDelayMillis() {
  return disruption::kCommandValidationDelay.Nanos() / api::Duration::kMillisecond;
}

ReconcileResult After(int64_t millis) { return ReconcileResult{millis, false}; }

}  // namespace

DisruptionController::DisruptionController(DisruptionSeams seams,
                                           DisruptionControllerOptions options)
    : seams_(seams),
      options_(std::move(options)),
      catalogs_(options_.spot_prices),
      loop_("disruption", seams.clock, [this] { return Reconcile(); }) {}

void DisruptionController::Start() {
  unconsolidated_at_ = seams_.clock.NowMillis();
  // Upstream marks the cluster unconsolidated when pods, nodes, NodeClaims or NodePools change:
  // a method that found nothing may find something then.
  for (const char* kind : {"Pod", "Node", "NodeClaim", "NodePool"}) {
    seams_.reader.Watch(
        kind, [this](const ObjectKey&) { unconsolidated_at_ = seams_.clock.NowMillis(); });
  }
  loop_.Start();
}

int64_t DisruptionController::ConsolidationState() {
  const int64_t now = seams_.clock.NowMillis();
  if (now - unconsolidated_at_ >= kConsolidationStateRefreshMillis) unconsolidated_at_ = now;
  return unconsolidated_at_;
}

std::vector<disruption::Method> DisruptionController::MarkedAt(int64_t state) const {
  std::vector<disruption::Method> marked;
  for (const auto& [method, at] : consolidated_at_) {
    if (at == state) marked.push_back(method);
  }
  return marked;
}

absl::StatusOr<std::unique_ptr<DisruptionController::Planning>> DisruptionController::Plan() {
  absl::StatusOr<state::ClusterSnapshot> snapshot = SnapshotOf(seams_.reader);
  if (!snapshot.ok()) return snapshot.status();
  // The input points into the snapshot: both live on the heap, together.
  auto planning = std::make_unique<Planning>();
  planning->snapshot = *std::move(snapshot);
  provisioning::PlanOptions plan_options;
  plan_options.scheduler = options_.engine.scheduler;
  plan_options.now = seams_.clock.Now();
  plan_options.spot_prices = options_.spot_prices;
  // Pods of nodes earlier commands started on need room too (upstream's simulations count
  // MarkedForDeletion nodes' pods as pending).
  if (seams_.marks != nullptr) plan_options.marked_for_deletion = seams_.marks->provider_ids();
  plan_options.host_supplies_node_pool_types = seams_.cloud != nullptr;
  // The pending pods a simulation must also place are the provisioner's (upstream's
  // SimulateScheduling asks it for them).
  plan_options.pending = kPendingPods;
  absl::StatusOr<provisioning::SnapshotSchedulerInput> input =
      provisioning::BuildSchedulerInput(planning->snapshot, plan_options, catalogs_);
  if (!input.ok()) return input.status();
  UseCloudInstanceTypes(seams_.cloud, seams_.logger, "disruption", planning->snapshot, *input);
  planning->input = *std::move(input);
  return planning;
}

absl::StatusOr<ReconcileResult> DisruptionController::Reconcile() {
  // Decisions on a partial view of the cluster, or while a NodeClaim is still launching, could
  // disrupt nodes whose pods fit nowhere or are already on their way elsewhere.
  if (!ClusterStateSynced(seams_.reader)) return After(1000);
  if (!awaiting_validation_.empty()) return Validate();
  if (absl::Status removed = RemoveOutdatedTaints(); !removed.ok()) {
    if (absl::IsAborted(removed)) return ReconcileResult{std::nullopt, true};
    return removed;
  }
  absl::StatusOr<std::unique_ptr<Planning>> planning = Plan();
  if (!planning.ok()) return planning.status();
  const int64_t state = ConsolidationState();
  disruption::DisruptionOptions options = options_.engine;
  options.consolidated = MarkedAt(state);
  options.now = [this] { return seams_.clock.Now(); };
  disruption::DisruptionResult result = disruption::ComputeDisruption(
      (*planning)->snapshot, (*planning)->input, seams_.clock.Now(), options);
  for (const auto& [method, seconds] : result.evaluation_seconds) {
    seams_.metrics.Observe(
        "karpenter_voluntary_disruption_decision_evaluation_duration_seconds",
        {{"reason", EligibilityReason(method)},
         {"consolidation_type", std::string(disruption::ConsolidationTypeOf(method))}},
        seconds);
  }
  for (disruption::Method method : result.now_consolidated) consolidated_at_[method] = state;
  SetDisruptionGauges(result, seams_.metrics);
  std::vector<disruption::Command> commands;
  for (disruption::Command& command : result.commands) {
    // NodeClaimExpiration deletes expired claims; the engine only reports them.
    if (command.method != disruption::Method::kExpiration) commands.push_back(std::move(command));
  }
  if (commands.empty()) return After(kDisruptionPollMillis);
  if (disruption::IsRevalidated(commands.front().method)) {
    awaiting_validation_ = std::move(commands);
    return After(ValidationDelayMillis());
  }
  absl::Status failed;
  for (const disruption::Command& command : commands) {
    if (absl::Status started = Execute(command, (*planning)->snapshot); !started.ok()) {
      failed.Update(started);
    }
  }
  if (!failed.ok()) return failed;
  return After(0);
}

absl::StatusOr<ReconcileResult> DisruptionController::Validate() {
  std::vector<disruption::Command> commands = std::move(awaiting_validation_);
  awaiting_validation_.clear();
  absl::StatusOr<std::unique_ptr<Planning>> planning = Plan();
  if (!planning.ok()) return planning.status();
  absl::Status failed;
  for (const disruption::Command& command : commands) {
    disruption::ValidationResult validation = disruption::ValidateCommand(
        (*planning)->snapshot, (*planning)->input, command, seams_.clock.Now());
    if (!validation.command) {
      ++validations_failed_;
      seams_.metrics.Add(
          "karpenter_voluntary_disruption_failed_validations_total",
          {{"consolidation_type", std::string(disruption::ConsolidationTypeOf(command.method))}},
          1);
      continue;
    }
    // The validated replacements point into this poll's input: they are created now.
    if (absl::Status started = Execute(*validation.command, (*planning)->snapshot); !started.ok()) {
      failed.Update(started);
    }
  }
  if (!failed.ok()) return failed;
  return After(0);
}

}  // namespace karpenter::controllers
