// A solve's decisions in a form two schedulers can be compared on (docs/differential.md): per new
// NodeClaim its pods, cheapest instance type and that type's price, zones and capacity types;
// the pods placed on existing nodes; the unschedulable pods. Written by `karpenter bench
// scheduling --pods-file`, read back by the differential test against upstream's decisions.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "karpenter/common/status.h"
#include "src/provisioning/types.h"

namespace karpenter::bench {

struct ClaimDecision {
  std::string node_pool;
  std::vector<std::string> pods;            // "namespace/name", in placement order.
  std::string instance_type;                // The cheapest compatible type.
  double price = 0;                         // NodeClaimPrice.
  std::vector<std::string> zones;           // Sorted.
  std::vector<std::string> capacity_types;  // Sorted.
  bool operator==(const ClaimDecision&) const = default;
};

struct Decisions {
  std::vector<ClaimDecision> node_claims;                          // Creation order.
  std::map<std::string, std::vector<std::string>> existing_nodes;  // Node -> pods placed.
  std::map<std::string, std::string> unschedulable;                // Pod -> reason.
};

Decisions DecisionsOf(const provisioning::SchedulerResult& result);

// One JSON object, keys in the order above, no trailing newline.
std::string EncodeDecisions(const Decisions& decisions);
// InvalidArgument naming the field path on malformed input. A null list or map reads as empty,
// as Go's encoder writes them.
absl::StatusOr<Decisions> ParseDecisions(std::string_view json);

// Where `actual` differs from `expected`, one line each; empty when they agree. Claims are
// matched as a partition (each claim's pods taken as a set, claims in any order), prices within
// 1e-9 relative; unschedulable pods are compared as a set, since reason texts are each
// scheduler's own.
std::vector<std::string> DiffDecisions(const Decisions& expected, const Decisions& actual);

}  // namespace karpenter::bench
