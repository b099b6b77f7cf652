// Finalisation of a solve's NodeClaims (upstream NodeClaim FinalizeScheduling and the
// scheduler's results): the cheapest `max_instance_types` types, their capacity types and zones,
// and the requirements narrowed to them.
//
// A large solve opens thousands of claims that end with one of a handful of candidate lists (the
// types every pod of the claim fits, in one zone or another). What finalisation derives from a
// candidate list and the claim's zone and capacity-type requirements is computed once per
// distinct combination and shared: the ordering, the name and option lists, and the
// instance-type requirement's value list. The output is exactly what a fresh computation gives.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "karpenter/common/status.h"
#include "src/api/resource_list.h"
#include "src/provisioning/instance_filter.h"
#include "src/provisioning/nodeclaim.h"
#include "src/provisioning/types.h"
#include "src/scheduling/requirement.h"

namespace karpenter::provisioning {

class NodeClaimFinalizer {
 public:
  NodeClaimFinalizer(const SchedulerOptions& options, size_t max_instance_types)
      : min_values_policy_(options.min_values_policy), max_instance_types_(max_instance_types) {}

  // The claim as output. FailedPrecondition when, under MIN_VALUES_POLICY=Strict, keeping only
  // the cheapest types breaks a minValues requirement.
  absl::StatusOr<NewNodeClaim> Finalize(const InFlightNodeClaim& claim);

  // How many distinct (candidates, zone, capacity type) combinations were computed.
  size_t distinct_selections() const { return selections_.size(); }

 private:
  // Everything finalisation derives from the candidates and the offering requirements.
  struct Selection {
    // The key.
    CandidateList candidates;
    std::optional<scheduling::Requirement> zone;
    std::optional<scheduling::Requirement> capacity_type;
    std::optional<scheduling::Requirement> reservation_id;  // Reserved claims (P17).
    // Derived.
    CandidateList kept;  // Cheapest first.
    SharedVector<std::string> names;
    SharedVector<const InstanceTypeView*> options;
    std::vector<std::string> capacity_types;  // Sorted.
    std::vector<std::string> zones;           // Sorted.
    scheduling::Requirement instance_type_requirement;
    scheduling::Requirement capacity_type_requirement;
    api::ResourceList min_overhead;
  };

  const Selection& SelectionFor(const InFlightNodeClaim& claim);
  Selection Compute(const InFlightNodeClaim& claim) const;

  MinValuesPolicy min_values_policy_;
  size_t max_instance_types_;
  std::vector<Selection> selections_;
  // Hash of a selection's key -> indices into `selections_` with that hash.
  absl::flat_hash_map<size_t, std::vector<size_t>> index_;
};

}  // namespace karpenter::provisioning
