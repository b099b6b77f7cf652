// `karpenter plan`: what provisioning would do for a cluster snapshot. Solves the snapshot's
// scheduler input, predicts what each new NodeClaim launches as, and reports it in the
// docs/contracts.md JSON shape or as a table for people.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "karpenter/common/status.h"
#include "src/api/json_writer.h"
#include "src/provisioning/drain_report.h"
#include "src/provisioning/launch.h"
#include "src/provisioning/plan_assumptions.h"
#include "src/provisioning/snapshot_input.h"
#include "src/provisioning/types.h"
#include "src/state/snapshot.h"

namespace karpenter::provisioning {

struct PlannedNodeClaim {
  NewNodeClaim claim;
  LaunchPrediction launch;
};

struct PlannedExistingNode {
  std::string name;
  std::vector<std::string> pods;  // newly placed, "namespace/name"
};

struct PlanSummary {
  size_t pending_pods = 0;    // every pod the plan had to place, ignored ones included
  size_t scheduled_pods = 0;  // placed on a new NodeClaim or an existing node
  size_t new_node_claims = 0;
  double price_per_hour = 0;  // sum of the launches' prices
  int64_t solve_millis = 0;
};

struct PlanResult {
  std::vector<PlannedNodeClaim> node_claims;        // creation order
  std::vector<PlannedExistingNode> existing_nodes;  // by name
  std::vector<UnschedulablePod> unschedulable;      // by pod
  std::vector<std::string> warnings;                // sorted
  PlanSummary summary;
  // What the host assumed (region, zones, prices, policies); set by `karpenter plan`.
  std::optional<PlanAssumptions> assumptions;
  // With `karpenter plan --drain`: the drained nodes, their pods and the cost delta.
  std::optional<DrainReport> drain;
};

// Milliseconds on some monotonic clock; the host supplies it so the engine never reads time.
using MillisClock = std::function<int64_t()>;

// Solves `input` and predicts the launches. `clock`, when set, times the solve (solveMillis);
// without it solveMillis is 0, which makes the result reproducible byte for byte.
PlanResult PlanFromInput(const SnapshotSchedulerInput& input, const MillisClock& clock = nullptr);

// BuildSchedulerInput then PlanFromInput.
absl::StatusOr<PlanResult> Plan(const state::ClusterSnapshot& snapshot, const PlanOptions& options,
                                const MillisClock& clock = nullptr);

// The docs/contracts.md document, keys in contract order, maps sorted, one line, no trailing
// newline.
std::string EncodePlanJson(const PlanResult& plan);
// The document's fields without the enclosing braces, for hosts that extend it (`--disruption`).
void WritePlanFields(api::JsonWriter& json, const PlanResult& plan);
// One `nodeClaims` entry; disruption replacements use the same shape.
void WriteNodeClaimJson(api::JsonWriter& json, const PlannedNodeClaim& planned);

// A table for people: per NodeClaim its pool, launch, price and pods (at most
// `max_pods_listed` names each), then pods placed on existing nodes, unschedulable pods with
// their reasons, a summary line and the assumptions. Warnings are not repeated here: the host
// prints them once, to stderr.
std::string RenderPlanText(const PlanResult& plan, size_t max_pods_listed = 5);

}  // namespace karpenter::provisioning
