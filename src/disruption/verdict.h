// Why each disruption method does or does not act on one node now: the engine's own answer,
// recorded while it decides (DisruptionOptions::record_verdicts), for `plan --explain node/NAME`
// and the plan's structured notes. Recording changes no decision.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/api/time.h"
#include "src/disruption/budgets.h"
#include "src/disruption/command.h"

namespace karpenter::disruption {

enum class VerdictCode {
  kActs,                   // a command of this method takes the node now
  kNotCandidate,           // not a disruption candidate at all (see BlockedNode)
  kPodBlocked,             // a pod forbids graceful disruption (do-not-disrupt, PDB)
  kStaticPool,             // static pools are left to StaticDrift
  kNotStaticPool,          // StaticDrift only touches static pools
  kConsolidationDisabled,  // consolidateAfter: Never
  kNotEmpty,               // Emptiness: pods would have to move
  kWhenEmptyPolicy,        // consolidationPolicy WhenEmpty and the node is not empty
  kLeftToEmptiness,        // consolidation skips empty nodes
  kConsolidateAfter,       // the pool's consolidateAfter has not elapsed yet
  kIneligible,             // another consolidation precondition fails (labels, instance type)
  kConsolidated,           // the method found nothing last time and nothing changed since
  kBudget,                 // the pool's budget for the reason has no disruption left
  kNotDrifted,
  kNoReplacement,  // drifted, but its pods cannot be rescheduled
  kNoExpiry,       // expireAfter Never (or unset)
  kNotExpired,
  kBalancedThreshold,  // the Balanced policy's score stays under its threshold
  kNoMove,             // consolidation found no delete or cheaper replacement for the node
  kNotEvaluated,       // the pass ended (another command won) before the method reached it
};

// "acts", "not-candidate", "pod-blocked", ... (stable: JSON consumers match on it).
std::string_view VerdictCodeName(VerdictCode code);

struct BudgetCount {
  std::string node_pool;
  Reason reason = Reason::kEmpty;
  PoolBudget budget;  // as the method saw it when it decided
};

struct BalancedCheck {
  double score = 0;
  double threshold = 0;
};

struct MethodVerdict {
  std::string node;
  Method method = Method::kEmptiness;
  VerdictCode code = VerdictCode::kNotEvaluated;
  std::string message;
  // Until the method may act: consolidateAfter left, or time to expiry.
  std::optional<api::Duration> time_left;
  std::optional<BudgetCount> budget;
  // Set on kPodBlocked and kNotCandidate verdicts: the node or one of its pods carries
  // karpenter.sh/do-not-disrupt, and (kPodBlocked) the PDBs at 0 disruptions and the pods that
  // block, "namespace/name".
  bool do_not_disrupt = false;
  std::vector<std::string> blocking_pdbs;
  std::vector<std::string> blocking_pods;
  std::optional<BalancedCheck> balanced;  // for Balanced pools, the score the method computed
  // The replacement the method would launch; empty with `acts` for a delete. For kNoMove the
  // message says why no cheaper replacement exists.
  std::vector<provisioning::LaunchPrediction> replacements;

  bool acts() const { return code == VerdictCode::kActs; }
};

// The order the engine runs its methods in (Expiration first): verdicts are sorted by node, then
// by this rank.
int MethodRank(Method method);

}  // namespace karpenter::disruption
