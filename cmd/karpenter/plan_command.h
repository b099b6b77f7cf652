// `karpenter plan -f FILE [-f FILE...] [-o json|text] [--disruption]`: what Karpenter would launch
// for a cluster snapshot, with the embedded AWS catalog standing in for EC2, and with
// `--disruption` what it would consolidate, drift, expire or leave alone (docs/contracts.md).
// Inputs are validated exactly as `karpenter validate` does first; any invalid object fails the
// command before anything is planned. Exit codes: 0 when a plan was made (even with unschedulable
// pods), 1 for bad input or flags, 2 with --fail-on-unschedulable when some pod cannot be placed
// (the whole plan is printed first).
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "src/api/time.h"

namespace karpenter::cli {

struct PlanCommandOptions {
  std::vector<std::string> files;
  // -R: directories named by -f are read with their subdirectories.
  bool recursive = false;
  std::string output = "text";  // json | yaml | text | wide
  std::string preference_policy = "Respect";
  std::string min_values_policy = "Strict";
  // RFC 3339 evaluation time; empty means now.
  std::string now;
  // Report solveMillis as 0 so that runs compare byte for byte.
  bool deterministic = false;
  // Also print what the disruption controller would do now (commands and blocked nodes).
  bool disruption = false;
  // Upstream's --feature-gates, e.g. "SpotToSpotConsolidation=true".
  std::string feature_gates;
  // "upstream" or "extended" (disruption::ConsolidationSearch): extended adds the opt-in grouped
  // consolidation search of src/disruption/extended_consolidation.h.
  std::string consolidation_search = "upstream";
  // "upstream" or "cost" (provisioning::PackingPolicy) for the plan's provisioning solve: cost
  // fills the capacity each new NodeClaim already pays for first (not upstream behaviour).
  // Disruption simulations keep upstream's packing.
  std::string packing = "upstream";
  // "upstream" or "creation" (provisioning::ClaimTieOrder) for the plan's provisioning solve:
  // which of the NodeClaims holding as many pods a pod tries first. Disruption simulations keep
  // upstream's.
  std::string claim_ties = "upstream";
  // "TYPE:ZONE=USD" entries pinning spot prices, which otherwise come from the documented
  // discount model (docs/catalog.md): what CreateFleet would pick if spot were priced so.
  std::vector<std::string> spot_prices;
  // The AWS region; empty: the one the input names (node labels, subnet zones), else us-east-1.
  std::string region;
  // Label selectors (kubectl -l syntax) of nodes to drain before planning (plan_drain.h).
  std::vector<std::string> drain;
  // "pod/NS/NAME" or "node/NAME": print that object's explanation instead of the plan.
  std::string explain;
  // "fake400" or a catalog JSON file planned with instead of the embedded AWS catalog
  // (plan_catalog.h); empty: the embedded catalog.
  std::string catalog;
  // Exit 2 when some pod cannot be placed, for CI.
  bool fail_on_unschedulable = false;
  // "embedded" (the compiled-in catalog) or "aws": node class statuses, instance types and prices
  // read from the account the AWS SDK chain names (plan_aws.h).
  std::string cloud = "embedded";
};

// The host's clocks, injected so tests and the deterministic mode need no real time.
struct PlanClocks {
  std::function<int64_t()> monotonic_millis;
  std::function<api::Time()> now;
};

void AddPlanCommand(CLI::App& app, PlanCommandOptions& options, int& exit_code);

// Returns the process exit code; writes the plan to `out`, problems and warnings to `err`.
int RunPlan(const PlanCommandOptions& options, const PlanClocks& clocks, std::ostream& out,
            std::ostream& err);

}  // namespace karpenter::cli
