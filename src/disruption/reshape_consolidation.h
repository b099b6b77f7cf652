// Part of the opt-in extended consolidation search (extended_consolidation.h): re-shaping a pair
// of nodes into two cheaper ones of a different mix.
//
// Every upstream move replaces its candidates by at most one NodeClaim, so once consolidation has
// filled a few large nodes of one family it stops: `karpenter bench disruption --until-stable
// --breakdown` at 100 nodes ends on two m5.24xlarge at 100 % CPU and 58 % memory, which no single
// type holds more cheaply, while one c5.24xlarge (CPU at $0.0425 per vCPU instead of $0.048) and
// one m5.24xlarge hold the same pods for $0.528/h less. A re-shape replaces two or three
// candidates of one NodePool by two or three on-demand NodeClaims of chosen instance types (never
// more nodes than it removes) whose prices sum strictly below the candidates', and only when the
// real scheduler places every moved pod on the remaining nodes and the replacements, which the
// command launches (and waits for) before it drains the candidates. Validation re-runs that same
// placement check (ValidateCommand, for a consolidation command of more than one replacement).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "src/disruption/consolidation.h"
#include "src/provisioning/types.h"

namespace karpenter::disruption {

// Groups of candidates a re-shape examines: among each pool's kReshapeCandidates dearest.
inline constexpr size_t kReshapeCandidates = 8;
// Placement checks (each solves a copy of the cluster's input) one search may run.
inline constexpr size_t kMaxReshapeSimulations = 8;

// Nodes standing for `replacements` (empty, initialized, labelled as their launch) in `input`'s
// terms: each replacement's instance type is looked up again in `input`, so a command computed on
// an older input can be checked on a newer one. NotFound when a pool or type has gone.
absl::StatusOr<std::vector<provisioning::ExistingNodeView>> ReplacementNodes(
    const provisioning::SchedulerInput& input,
    std::span<const provisioning::PlannedNodeClaim> replacements);

// Simulates `candidates` going with `replacements` running: the moved pods' destinations, with
// replacement i written "new nodeclaim i" as elsewhere. Failures when some pod does not land on
// an existing node or a replacement (a new NodeClaim counts as not landing).
SimulationResult SimulateReshape(const Simulator& simulator,
                                 const provisioning::SchedulerInput& input,
                                 std::span<const Candidate* const> candidates,
                                 std::span<const provisioning::PlannedNodeClaim> replacements,
                                 api::Time now);

// `candidates` sorted and budget-filtered as for MultiNodeConsolidation; `input` the simulator's
// input. The re-shape saving the most among those the placement check accepts (at most
// kMaxReshapeSimulations tried, the largest promised savings first), Balanced pools approving;
// nullopt when none holds. Only on-demand candidates, replaced by on-demand NodeClaims.
std::optional<Command> ReshapeConsolidation(const Simulator& simulator,
                                            const provisioning::SchedulerInput& input,
                                            std::span<const Candidate* const> candidates,
                                            const ConsolidationOptions& options);

}  // namespace karpenter::disruption
