// What the disruption engine decides: commands (which nodes go, what replaces them, what it
// saves) in the shape `karpenter plan --disruption` prints (docs/contracts.md).
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "src/disruption/budgets.h"
#include "src/provisioning/plan.h"

namespace karpenter::disruption {

enum class Method {
  kEmptiness,
  kStaticDrift,
  kDrift,
  kMultiNodeConsolidation,
  kSingleNodeConsolidation,
  kExpiration,
};

// "Emptiness", "Drift", "MultiNodeConsolidation", ...
std::string_view MethodName(Method method);
// Upstream's consolidation type of a method, as its metrics label it: "empty", "multi",
// "single", or "" for drift and expiration.
std::string_view ConsolidationTypeOf(Method method);

struct Command {
  Method method = Method::kEmptiness;
  Reason reason = Reason::kEmpty;
  std::vector<std::string> candidates;  // node names, in the order the method chose them
  std::vector<provisioning::PlannedNodeClaim> replacements;
  // Every moved pod ("namespace/name") -> the existing node or "new nodeclaim N" it lands on.
  std::map<std::string, std::string> destinations;
  double candidate_price_per_hour = 0;  // Σ of the candidates' offering prices
  // Σ candidate prices − Σ replacement launch prices (negative for a drift onto dearer nodes).
  double savings_per_hour = 0;
  // Why the method chose these nodes, for people ("RequirementsDrifted", "expired at ...").
  std::string detail;
};

}  // namespace karpenter::disruption
