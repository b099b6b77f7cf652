// `karpenter migrate --report FILE.html`: the cluster replayed in the twin twice, as it runs today
// under Cluster Autoscaler (its node groups as they are, with the flags of its Deployment) and
// after the migration under Karpenter (the NodePools and EC2NodeClasses the plan generated, and
// the runbook's Phase 4: each migrated group cordoned and drained in order), on one page. The
// glue between `src/migrate` (the plan) and `src/sim` (the twin) lives here so that neither
// library depends on the other.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "karpenter/common/status.h"
#include "src/cloudprovider/catalog.h"
#include "src/migrate/migration_plan.h"
#include "src/sim/auto_scaling_group_file.h"
#include "src/sim/scenario.h"

namespace karpenter::cli {

// The Karpenter run applies the plan's manifests at t=0 (Phases 1-3 are done before the drain);
// the first migrated group is drained at kFirstDrainSeconds and each next one kDrainSpacingSeconds
// later, the runbook's one-group-at-a-time; the run lasts at least an hour and
// kSettleSeconds past the last drain.
inline constexpr double kFirstDrainSeconds = 300;
inline constexpr double kDrainSpacingSeconds = 600;
inline constexpr double kSettleSeconds = 1800;
inline constexpr double kMinReportSeconds = 3600;

struct MigrationTwin {
  sim::Scenario scenario;
  // How the twin models this cluster where it differs from the inputs, for the page's readers.
  std::vector<std::string> notes;
};

// The scenario of both runs. `asgs` are the --asgs records as read (empty without the file).
// InvalidArgument, naming the snapshot's objects, when the twin cannot start from the snapshot.
absl::StatusOr<MigrationTwin> BuildMigrationTwin(
    const migrate::MigrationInputs& inputs, const migrate::MigrationPlan& plan,
    const std::vector<sim::AutoScalingGroupRecord>& asgs);

// Runs both and renders the page; the same inputs and seed give the same bytes.
absl::StatusOr<std::string> RenderMigrationReport(
    const migrate::MigrationInputs& inputs, const migrate::MigrationPlan& plan,
    const std::vector<sim::AutoScalingGroupRecord>& asgs, uint64_t seed);

}  // namespace karpenter::cli
