// The figures `kp_scheduling_bench` prints for one cold solve of a benchmark workload, and their
// JSON / one-line text forms. Solve figures are optional so the inputs and bounds can be reported
// on their own (they are computed without running the scheduler).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "src/bench/gap_breakdown.h"

namespace karpenter::bench {

// What one cold solve produced, as measured by the caller.
struct SolveOutcome {
  int64_t nodes = 0;           // new NodeClaims
  int64_t pods_scheduled = 0;  // pods placed on them
  int64_t unschedulable = 0;   // pods the solve could not place
  double price_per_hour = 0;   // Σ over NodeClaims of the cheapest instance type's cheapest price
  double seconds = 0;          // wall time of the solve alone
  // DecisionDigest of the result: equal digests mean the same decisions, so a faster scheduler
  // can be checked against an older one at sizes too large to compare by hand.
  std::string decision_digest;
  // One unschedulable pod and why ("" when every pod was placed), to tell a broken run apart.
  std::string sample_unschedulable;
};

struct SchedulingReport {
  std::string workload;  // "diverse", "preferences-respect", "preferences-ignore"
  int64_t pods = 0;
  int64_t instance_types = 0;
  int64_t node_floor = 0;  // AntiAffinityNodeFloor
  double lower_bound_per_hour = 0;
  // FluidLowerBoundWithFloor: the bound with the anti-affinity node floor (≥ the plain one).
  double lower_bound_with_floor_per_hour = 0;
  std::string packing = "upstream";     // provisioning::PackingPolicy of the solve
  std::string claim_ties = "upstream";  // provisioning::ClaimTieOrder of the solve
  double peak_rss_mb = 0;
  std::optional<SolveOutcome> solve;  // nullopt: the solve was not run
  std::optional<GapBreakdown> gap;    // the solve's gap to the plain bound, when asked for
};

// {"workload", "packing", "claimTies", "pods", "instanceTypes", "nodes", "nodeFloor",
// "unschedulable",
//  "seconds", "podsPerSecond", "pricePerHour", "lowerBoundPerHour", "costRatio",
//  "lowerBoundWithFloorPerHour", "costRatioWithFloor", "decisionDigest", "peakRssMB"}, plus "gap"
//  (the
// GapBreakdown's sums) when there is one; the solve fields are null without a solve.
// podsPerSecond is pods ÷ seconds (null when seconds is 0); costRatio is pricePerHour ÷
// lowerBoundPerHour (null when the bound is 0 or some pod was left unschedulable, since the bound
// prices every pod), costRatioWithFloor the same against the floor bound.
std::string ReportJson(const SchedulingReport& report);
// The same figures on one human-readable line.
std::string ReportText(const SchedulingReport& report);

}  // namespace karpenter::bench
