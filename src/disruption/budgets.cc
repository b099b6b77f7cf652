// Upstream: pkg/apis/v1/nodepool.go, pkg/controllers/disruption/helpers.go
#include "src/disruption/budgets.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "src/api/cron.h"
#include "src/disruption/node_state.h"

namespace karpenter::disruption {
namespace {

// "N" or "P%" of `num_nodes`, percentages rounded up (intstr.GetScaledValueFromIntOrPercent).
absl::StatusOr<int> BudgetValue(std::string_view nodes, int num_nodes) {
  // "" is refused by validation; here it fails to parse like any other bad value.
  const bool percent = !nodes.empty() && nodes.back() == '%';
  if (percent) nodes.remove_suffix(1);
  int64_t value = 0;
  if (!absl::SimpleAtoi(std::string(nodes), &value) || value < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("budget nodes \"", std::string(nodes), "\" is invalid"));
  }
  if (!percent) return static_cast<int>(std::min<int64_t>(value, kUnlimitedDisruptions));
  return static_cast<int>((value * num_nodes + 99) / 100);
}

bool AppliesTo(const api::Budget& budget, Reason reason) {
  if (budget.reasons.empty()) return true;
  return std::find(budget.reasons.begin(), budget.reasons.end(), ReasonName(reason)) !=
         budget.reasons.end();
}

}  // namespace

std::string_view ReasonName(Reason reason) {
  switch (reason) {
    case Reason::kEmpty:
      return api::kDisruptionReasonEmpty;
    case Reason::kDrifted:
      return api::kDisruptionReasonDrifted;
    case Reason::kUnderutilized:
      return api::kDisruptionReasonUnderutilized;
    case Reason::kExpired:
      return "Expired";
  }
  return "";
}

absl::StatusOr<bool> IsBudgetActive(const api::Budget& budget, api::Time now) {
  if (!budget.schedule) return true;
  KP_ASSIGN_OR_RETURN(api::CronSchedule schedule, api::CronSchedule::Parse(*budget.schedule));
  const api::Duration window = budget.duration ? budget.duration->value : api::Duration();
  // The window opened at the first fire time after now − duration, if that is already past.
  const std::optional<api::Time> next = schedule.NextAfter(now - window);
  // Never firing in five years: upstream gets the zero time, which counts as already fired.
  if (!next) return true;
  return *next <= now;
}

absl::StatusOr<int> AllowedDisruptions(const api::NodePool& pool, api::Time now, int num_nodes,
                                       Reason reason) {
  const std::optional<api::Disruption>& disruption = pool.spec.disruption;
  std::vector<api::Budget> budgets = {api::Budget{.nodes = std::string(api::kDefaultBudgetNodes)}};
  if (disruption && disruption->budgets) budgets = *disruption->budgets;
  int allowed = kUnlimitedDisruptions;
  for (const api::Budget& budget : budgets) {
    if (!AppliesTo(budget, reason)) continue;
    KP_ASSIGN_OR_RETURN(bool active, IsBudgetActive(budget, now));
    if (!active) continue;
    KP_ASSIGN_OR_RETURN(
        int value,
        BudgetValue(budget.nodes.value_or(std::string(api::kDefaultBudgetNodes)), num_nodes));
    allowed = std::min(allowed, value);
  }
  return allowed;
}

bool IsDisrupting(const state::ClusterSnapshot& snapshot, const api::Node& node) {
  const api::NodeClaim* node_claim = snapshot.NodeClaimForNode(node);
  return !IsNodeReady(node) || IsDeleting(node, node_claim) || HasDisruptedTaint(node);
}

std::map<std::string, PoolBudget> BuildBudgetMapping(
    const state::ClusterSnapshot& snapshot, api::Time now, Reason reason,
    const std::set<std::string>& extra_disrupting) {
  std::map<std::string, PoolBudget> budgets;
  for (const api::NodePool& pool : snapshot.node_pools()) budgets[pool.metadata.name];
  for (const api::Node& node : snapshot.nodes()) {
    const api::NodeClaim* node_claim = snapshot.NodeClaimForNode(node);
    if (node_claim == nullptr || !IsInitialized(node, *node_claim)) continue;
    if (TrueCondition(*node_claim, api::kConditionTypeInstanceTerminating)) continue;
    auto it = budgets.find(NodePoolOf(node, node_claim));
    if (it == budgets.end()) continue;
    ++it->second.nodes;
    if (IsDisrupting(snapshot, node) || extra_disrupting.contains(node.metadata.name)) {
      ++it->second.disrupting;
    }
  }
  for (auto& [name, budget] : budgets) {
    const api::NodePool* pool = snapshot.FindNodePool(name);
    absl::StatusOr<int> allowed = AllowedDisruptions(*pool, now, budget.nodes, reason);
    if (!allowed.ok()) {
      budget.problem = std::string(allowed.status().message());
      budget.allowed = 0;
    } else {
      budget.allowed = *allowed;
    }
    budget.remaining = std::max(0, budget.allowed - budget.disrupting);
  }
  return budgets;
}

}  // namespace karpenter::disruption
