// Upstream: pkg/controllers/nodeclaim/disruption/drift.go
#include "src/disruption/drift.h"

#include "src/api/karpenter_labels.h"
#include "src/disruption/aws_drift.h"
#include "src/disruption/node_state.h"
#include "src/provisioning/instance_filter.h"
#include "src/scheduling/requirements.h"
#include "src/scheduling/selector_conversion.h"

namespace karpenter::disruption {
namespace {

const std::string* Annotation(const api::ObjectMeta& meta, std::string_view key) {
  auto it = meta.annotations.find(std::string(key));
  return it == meta.annotations.end() ? nullptr : &it->second;
}

// Both objects carry the hash and the same hash version, and the hashes differ.
bool HashDrifted(const api::ObjectMeta& owner, const api::ObjectMeta& node_claim,
                 std::string_view hash_key, std::string_view version_key) {
  const std::string* owner_hash = Annotation(owner, hash_key);
  const std::string* owner_version = Annotation(owner, version_key);
  const std::string* claim_hash = Annotation(node_claim, hash_key);
  const std::string* claim_version = Annotation(node_claim, version_key);
  if (!owner_hash || !owner_version || !claim_hash || !claim_version) return false;
  if (*owner_version != *claim_version) return false;
  return *owner_hash != *claim_hash;
}

bool RequirementsDrifted(const Candidate& candidate) {
  scheduling::Requirements labels = scheduling::FromLabels(candidate.node_claim->metadata.labels);
  // Real NodeClaims carry every label of their instance type; hand-written snapshots often carry
  // only a few, so the catalog fills in the single-valued ones that are missing.
  if (candidate.instance_type != nullptr) {
    for (const scheduling::Requirement& requirement : candidate.instance_type->requirements) {
      if (labels.Has(requirement.key()) || requirement.is_complement() ||
          requirement.Values().size() != 1) {
        continue;
      }
      labels.Add(requirement);
    }
  }
  scheduling::Requirements pool;
  for (const api::NodeSelectorRequirementWithMinValues& in :
       candidate.node_pool->spec.template_.spec.requirements) {
    absl::StatusOr<scheduling::Requirement> requirement =
        scheduling::FromNodeSelectorRequirement({in.key, in.operator_, in.values});
    if (!requirement.ok()) return false;  // an invalid pool is reported by validation instead
    pool.Add(*std::move(requirement));
  }
  return !labels.IsCompatible(pool);
}

// Upstream instanceTypeNotFound: the pool no longer offers the type, or none of its offerings,
// available or not, matches the NodeClaim's zone and capacity type. A reserved NodeClaim may
// have been demoted to on-demand without its label catching up, so on-demand matches it too; its
// reservation labels are not compared (a reservation gone is CapacityReservationDrift, the
// provider's check).
bool InstanceTypeNotFound(const Candidate& candidate) {
  if (candidate.instance_type == nullptr) return true;
  scheduling::Requirements labels = scheduling::FromLabels(candidate.node_claim->metadata.labels);
  const scheduling::Requirement* capacity_type = labels.Find(api::kCapacityTypeLabelKey);
  if (capacity_type != nullptr && capacity_type->Has(api::kCapacityTypeReserved)) {
    labels.Remove(api::kCapacityTypeLabelKey);
    labels.Add(scheduling::Requirement::In(
        api::kCapacityTypeLabelKey, {api::kCapacityTypeReserved, api::kCapacityTypeOnDemand}));
    // Upstream's cloudprovider.ReservedCapacityLabels: the ID and type, not interruptible.
    labels.Remove(api::kLabelCapacityReservationID);
    labels.Remove(api::kLabelCapacityReservationType);
  }
  for (const provisioning::OfferingView& offering : candidate.instance_type->offerings) {
    if (provisioning::OfferingCompatible(offering, labels)) return false;
  }
  return true;
}

}  // namespace

Drift DetectDrift(const state::ClusterSnapshot& snapshot, const Candidate& candidate,
                  api::Time now) {
  const api::NodeClaim& claim = *candidate.node_claim;
  if (const api::Condition* drifted = TrueCondition(claim, api::kConditionTypeDrifted)) {
    return {drifted->reason.empty() ? "Drifted" : drifted->reason,
            drifted->last_transition_time.value_or(now)};
  }
  if (HashDrifted(candidate.node_pool->metadata, claim.metadata, api::kNodePoolHashAnnotationKey,
                  api::kNodePoolHashVersionAnnotationKey)) {
    return {"NodePoolDrifted", now};
  }
  if (RequirementsDrifted(candidate)) return {"RequirementsDrifted", now};
  const bool old_enough = claim.metadata.creation_timestamp &&
                          now - *claim.metadata.creation_timestamp > kInstanceTypeNotFoundAge;
  if (old_enough && InstanceTypeNotFound(candidate)) return {"InstanceTypeNotFound", now};
  // Upstream resolves the class through the pool's nodeClassRef; a class that no longer exists
  // leaves drift undetermined.
  const std::optional<api::NodeClassReference>& ref =
      candidate.node_pool->spec.template_.spec.node_class_ref;
  const api::EC2NodeClass* node_class = ref ? snapshot.FindEC2NodeClass(ref->name) : nullptr;
  if (node_class != nullptr) {
    std::string reason = DetectNodeClassDrift(*node_class, claim, candidate.instance_type);
    if (!reason.empty()) return {std::move(reason), now};
  }
  return {};
}

}  // namespace karpenter::disruption
