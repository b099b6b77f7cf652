// The disruption engine's entry point (upstream pkg/controllers/disruption): given a cluster
// snapshot and an instant, the commands Karpenter's disruption controller would issue now and,
// for every node it leaves alone, why.
//
// Pure and deterministic: no clock (the caller passes `now`), no I/O, the same snapshot always
// yields the same result. Hosts: `karpenter plan --disruption` and the digital twin (src/sim),
// which calls it on every disruption poll of its virtual clock.
//
// Order of work (D1): forceful Expiration first (expired NodeClaims are deleted outside the
// budgeted loop; they then count as disrupting), then the budgeted methods in upstream order,
// Emptiness → StaticDrift → Drift → MultiNodeConsolidation → SingleNodeConsolidation; the first
// method that produces a command wins, as one controller pass does. The Balanced policy scores
// consolidation moves (balanced.h). Static pools (spec.replicas, alpha gate) are touched by
// StaticDrift only (static_drift.h).
//
// A host that executes commands also uses validation.h (the 15 s re-check of graceful commands
// against a fresh snapshot) and queue.h (taint, launch replacements, wait for them to
// initialize, delete candidates, roll back on failure or timeout). Nodes tainted
// karpenter.sh/disrupted by a queued command are treated as already disrupting here.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "karpenter/common/status.h"
#include "src/api/time.h"
#include "src/disruption/budgets.h"
#include "src/disruption/candidates.h"
#include "src/disruption/command.h"
#include "src/disruption/verdict.h"
#include "src/provisioning/snapshot_input.h"
#include "src/provisioning/types.h"
#include "src/state/snapshot.h"

namespace karpenter::disruption {

// Which consolidation moves the engine searches.
enum class ConsolidationSearch {
  kUpstream,  // upstream's: the cost-ordered prefix search, then single nodes (the default)
  // Then, when those found nothing, the same prefix search within groups of candidates of one
  // instance type or family (extended_consolidation.h): a documented departure from upstream.
  kExtended,
};

// "upstream" or "extended"; nullopt for anything else.
std::optional<ConsolidationSearch> ParseConsolidationSearch(std::string_view text);

struct DisruptionOptions {
  provisioning::SchedulerOptions scheduler;
  // Feature gate SpotToSpotConsolidation (default off upstream).
  bool spot_to_spot_consolidation = false;
  // Multi-node consolidation looks at this many cost-ordered candidates at most.
  size_t max_multi_node_candidates = 100;
  ConsolidationSearch consolidation_search = ConsolidationSearch::kUpstream;
  // Emptiness and consolidation methods the host knows to be consolidated: their last run
  // found nothing, unconstrained by budgets, and the cluster's consolidation state has not
  // changed since (upstream IsConsolidated). They are skipped. A one-shot host leaves it empty.
  std::vector<Method> consolidated;
  // When set, each graceful method that runs is timed with it (upstream's
  // voluntary_disruption_decision_evaluation_duration_seconds): a long-running host passes its
  // clock; a one-shot host leaves it empty.
  std::function<api::Time()> now;
  // Fill DisruptionResult::verdicts (an explaining host); off, the pass writes no messages.
  bool record_verdicts = false;
};

struct DisruptionResult {
  // Expiration commands (one per expired node), then the winning method's commands.
  std::vector<Command> commands;
  // Every node that is not a candidate for graceful disruption, with why (D2), by node name.
  std::vector<BlockedNode> blocked;
  // Why methods found nothing to do for otherwise eligible nodes: budgets at 0, consolidation
  // simulations that failed, drift that could not reschedule. Sorted, for people.
  std::vector<std::string> notes;
  // Emptiness and consolidation methods that ran on candidates and found nothing without a
  // budget holding them back: a long-running host records them as consolidated for the
  // present cluster state (upstream markConsolidated) and passes them back in `consolidated`.
  std::vector<Method> now_consolidated;
  // How many candidates each method that ran found eligible (upstream's
  // voluntary_disruption_eligible_nodes, set per method before it decides).
  std::map<Method, size_t> eligible_nodes;
  // Every NodePool budget the methods that ran computed, by pool and reason (upstream's
  // nodepools_allowed_disruptions and nodepools_nodes_consuming_budgets).
  std::map<std::pair<std::string, Reason>, PoolBudget> budgets;
  // With `DisruptionOptions::now`: how long each graceful method that ran took, in seconds.
  std::map<Method, double> evaluation_seconds;
  // With `record_verdicts`: for every node, each method's verdict (acts, or why not now), by
  // node then in the order the methods run. Pod-blocked candidates carry their blockers.
  std::vector<MethodVerdict> verdicts;
};

// Builds the scheduler input from the snapshot and the embedded catalog, then decides.
// Fails only when the catalog cannot be loaded (see provisioning::BuildSchedulerInput).
absl::StatusOr<DisruptionResult> ComputeDisruption(const state::ClusterSnapshot& snapshot,
                                                   api::Time now,
                                                   const DisruptionOptions& options = {});

// The same on a scheduler input the caller already built for `snapshot` (with
// `options.scheduler`), so a host that also provisions does not rebuild it. Replacements'
// `claim.instance_type_options` point into `input`: valid only while it lives (the overload
// above, which owns its input, clears them). Simulations work in `input` and put it back (see
// Simulator): on return it is as the caller passed it.
DisruptionResult ComputeDisruption(const state::ClusterSnapshot& snapshot,
                                   provisioning::SnapshotSchedulerInput& input, api::Time now,
                                   const DisruptionOptions& options = {});

// ComputeDisruption in steps, for a host that wants the consolidation methods apart from the
// rest (the twin runs them on a worker thread while its clock moves on). The constructor runs
// Expiration, Emptiness, StaticDrift and Drift; Consolidate then runs the consolidation methods
// unless one of those budgeted methods found a command; Finish returns what ComputeDisruption
// returns for the same arguments. `snapshot` and `input` must outlive the pass, which uses
// `input` as ComputeDisruption does.
class DisruptionPass {
 public:
  DisruptionPass(const state::ClusterSnapshot& snapshot,
                 provisioning::SnapshotSchedulerInput& input, api::Time now,
                 DisruptionOptions options);
  DisruptionPass(const DisruptionPass&) = delete;
  DisruptionPass& operator=(const DisruptionPass&) = delete;
  ~DisruptionPass();

  // Some method before consolidation (Expiration included) has a command.
  bool FoundCommand() const;
  // The methods marked consolidated so far (by the constructor: Emptiness).
  const std::vector<Method>& NowConsolidated() const;
  // Adds to the options' `consolidated` before Consolidate: a host that ran the constructor
  // before it knew every mark (the twin, while an earlier poll is still deciding) passes the
  // rest here. The constructor reads only Emptiness's mark, so these must not change that.
  void AlsoConsolidated(std::span<const Method> methods);
  // May run on another thread than the constructor. Once `cancelled` (set from any thread) is
  // true it skips what is left (methods not started, single-node moves not simulated), with a
  // partial result, for a caller that no longer wants it.
  void Consolidate(const std::atomic<bool>* cancelled = nullptr);
  DisruptionResult Finish() &&;

 private:
  struct State;
  std::unique_ptr<State> state_;
  bool consolidated_ = false;
};

}  // namespace karpenter::disruption
