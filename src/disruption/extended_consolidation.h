// An opt-in consolidation search beyond upstream's (DisruptionOptions::consolidation_search =
// ConsolidationSearch::kExtended).
//
// Upstream's multi-node consolidation only tries prefixes of the candidates in disruption-cost
// order. In a cluster of mixed families that order interleaves CPU-bound nodes (m5 full in CPU,
// memory idle) with memory-bound ones (c5 full in memory, CPU idle), so every long prefix needs
// one replacement good at both and none is cheaper: `karpenter bench disruption --until-stable
// --breakdown` shows the steady state keeping dozens of small nodes whose overhead (kubelet and
// system reservations, the hypervisor's memory) a single larger node of the same family would not
// pay, e.g. ten c5.xlarge at 94 % of their memory fit one c5.9xlarge, which is $0.17/h cheaper.
//
// The extension runs the same prefix search on subsets upstream never forms: the candidates of
// one instance type, then of one instance family, each group kept in upstream's order, and also
// tries the prefixes that fill one larger node of the pool, which the binary search can step
// over. These moves
// still replace all pods of their candidates by at most one strictly cheaper NodeClaim
// (ComputeConsolidation, the same-instance-type filter, the Balanced policy), within the same
// NodePool budgets and candidate cap, and the command is an ordinary MultiNodeConsolidation
// command, re-validated like any other. When none exists, the search tries re-shapes
// (reshape_consolidation.h): two or three candidates into as many or fewer cheaper NodeClaims. The
// engine runs it only after upstream's multi- and single-node consolidation found nothing, so every
// decision upstream would make is still made the same way; it only acts where upstream would stop.
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>

#include "src/disruption/consolidation.h"
#include "src/provisioning/types.h"

namespace karpenter::disruption {

// The instance types each NodePool may launch, by pool name.
using PoolTypes = std::map<std::string, std::span<const provisioning::InstanceTypeView>>;

// `candidates` sorted and budget-filtered as for MultiNodeConsolidation. Forms every group of two
// or more candidates of one NodePool sharing an instance type, then sharing an instance family
// (groups in that order, each by pool and name, each in `candidates`' order). In each group it
// runs MultiNodeConsolidation's binary search, then simulates the prefixes that would fill one of
// the pool's types (`pool_types`) for less than the prefix costs, which the binary search can
// skip (node sizes make "a prefix consolidates" non-monotone in its length). Every move is judged
// by ConsolidateMultiNode, as upstream's are. Returns the move that saves the most (the earliest
// on ties), its `detail` naming the group; nullopt when no group consolidates.
std::optional<Command> GroupedMultiNodeConsolidation(const Simulator& simulator,
                                                     std::span<const Candidate* const> candidates,
                                                     const PoolTypes& pool_types,
                                                     const ConsolidationOptions& options,
                                                     size_t max_candidates);

}  // namespace karpenter::disruption
