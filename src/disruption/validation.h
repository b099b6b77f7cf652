// Upstream: pkg/controllers/disruption/validation.go (kubernetes-sigs/karpenter).
// The 15 s re-validation of graceful commands (D4, D9, behaviour 26): a host that computed a
// command waits `kCommandValidationDelay` on its own clock, takes a fresh snapshot and asks
// whether the command still holds. Emptiness keeps the still-valid subset of its candidates;
// consolidation must find every candidate still valid, budgets still allowing them, and a fresh
// simulation reaching the same decision (delete stays delete; a replacement's instance types
// must all still be options). Drift and Expiration are not re-validated upstream and pass as is.
#pragma once

#include <optional>
#include <string>

#include "src/api/duration.h"
#include "src/api/time.h"
#include "src/disruption/command.h"
#include "src/disruption/disruption.h"
#include "src/provisioning/snapshot_input.h"
#include "src/state/snapshot.h"

namespace karpenter::disruption {

inline const api::Duration kCommandValidationDelay = api::Duration::FromSeconds(15);

// Emptiness and the consolidation methods wait `kCommandValidationDelay` and are re-checked;
// Drift and Expiration are executed at once.
bool IsRevalidated(Method method);

// Why a command was abandoned, as upstream labels its failed-validation metric.
enum class ValidationFailure { kChurn, kBudget, kScheduling };
std::string_view ValidationFailureName(ValidationFailure failure);

struct ValidationResult {
  // The command to execute (Emptiness may have lost candidates), or nullopt when abandoned.
  std::optional<Command> command;
  std::optional<ValidationFailure> failure;
  std::string message;  // why, for people, when abandoned
};

// Re-checks `command` (computed earlier by ComputeDisruption) against `snapshot` taken at `now`,
// with `input` built from that snapshot (used for simulations and put back, as ComputeDisruption
// does).
ValidationResult ValidateCommand(const state::ClusterSnapshot& snapshot,
                                 provisioning::SnapshotSchedulerInput& input,
                                 const Command& command, api::Time now);

}  // namespace karpenter::disruption
