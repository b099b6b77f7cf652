// Upstream: pkg/controllers/disruption/consolidation.go, multinodeconsolidation.go,
// singlenodeconsolidation.go (kubernetes-sigs/karpenter).
// Consolidation (D7–D9): may these candidates go, deleted outright or replaced by one strictly
// cheaper NodeClaim? Multi-node consolidation binary-searches the longest cost-ordered prefix
// that still consolidates; single-node consolidation takes the first candidate that does.
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "src/disruption/balanced.h"
#include "src/disruption/candidates.h"
#include "src/disruption/command.h"
#include "src/disruption/simulation.h"

namespace karpenter::disruption {

// Spot-to-spot replacement of a single node needs at least this many cheaper types (D8).
inline constexpr size_t kMinInstanceTypesForSpotToSpot = 15;
// Multi-node consolidation considers at most this many candidates (D9).
inline constexpr size_t kMaxMultiNodeCandidates = 100;

struct ConsolidationOptions {
  bool spot_to_spot = false;  // feature gate SpotToSpotConsolidation
  api::Time now;
  // Pool totals for the Balanced policy (balanced.h); null: every move is approved.
  const std::map<std::string, PoolTotals>* balanced_totals = nullptr;
  // Reject without a solve the moves that could only be rejected (see ComputeConsolidation).
  // Turning it off must change no decision, only some rejections' wording: tests compare both.
  bool reject_unsolved = true;
};

struct ConsolidationDecision {
  std::optional<Command> command;  // method/reason left for the caller to set
  std::string rejection;           // why not, for people, when there is no command
};

// Simulates removing `candidates` and decides delete (no new NodeClaim), replace (exactly one,
// whose instance types are cut to those whose worst-case launch price is below the candidates'
// total, OD→spot pinned, spot→spot behind the gate), or nothing. When the candidates are spot,
// the gate is off and any replacement would allow spot or cost too much (Simulator's checks),
// only a deletion can pass: the move is then rejected without a solve when one of their pods has
// no room on another initialized node, and otherwise the solve stops at the first moved pod that
// needs a new NodeClaim or an uninitialized node.
ConsolidationDecision ComputeConsolidation(const Simulator& simulator,
                                           std::span<const Candidate* const> candidates,
                                           const ConsolidationOptions& options);

// One multi-node move as MultiNodeConsolidation judges it: ComputeConsolidation, then a
// replacement of a type being removed must beat the cheapest candidate of that type
// (filterOutSameInstanceType), and Balanced pools must approve. nullopt when it does not hold.
std::optional<Command> ConsolidateMultiNode(const Simulator& simulator,
                                            std::span<const Candidate* const> candidates,
                                            const ConsolidationOptions& options);

// `candidates` already sorted and budget-filtered. Binary search over prefix lengths 2..n
// (n capped at `max_candidates`); replacements must also beat the cheapest candidate of a type
// they would relaunch (filterOutSameInstanceType), and Balanced pools must approve the move.
// nullopt when no prefix consolidates.
std::optional<Command> MultiNodeConsolidation(const Simulator& simulator,
                                              std::span<const Candidate* const> candidates,
                                              const ConsolidationOptions& options,
                                              size_t max_candidates = kMaxMultiNodeCandidates);

// Interleaves `candidates` (sorted) round-robin by NodePool, pools by name, as upstream does
// for fairness between pools.
std::vector<const Candidate*> InterleaveByNodePool(std::span<const Candidate* const> candidates);

}  // namespace karpenter::disruption
