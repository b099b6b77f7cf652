#include "src/provisioning/node_claim_finalizer.h"

#include <algorithm>
#include <functional>
#include <set>
#include <string_view>
#include <utility>

#include "fmt/format.h"
#include "src/api/karpenter_labels.h"
#include "src/provisioning/resources.h"

namespace karpenter::provisioning {
namespace {

// Key-wise minimum over the lists (a key missing from one list counts as zero there).
api::ResourceList MinOverhead(const CandidateList& candidates) {
  if (candidates.empty()) return {};
  api::ResourceList out = candidates.front()->daemon_overhead;
  for (const TypeCandidate* candidate : candidates) {
    for (auto it = out.begin(); it != out.end();) {
      auto other = candidate->daemon_overhead.find(it->first);
      if (other == candidate->daemon_overhead.end() || other->second.IsZero()) {
        it = out.erase(it);
        continue;
      }
      if (other->second < it->second) it->second = other->second;
      ++it;
    }
  }
  return out;
}

std::optional<scheduling::Requirement> Copy(const scheduling::Requirement* requirement) {
  if (requirement == nullptr) return std::nullopt;
  return *requirement;
}

void Combine(size_t& hash, size_t value) {
  hash ^= value + 0x9e3779b97f4a7c15ULL + (hash << 6) + (hash >> 2);
}

// Equal requirements hash equally: the hash reads only what operator== compares.
void CombineRequirement(size_t& hash, const scheduling::Requirement* requirement) {
  if (requirement == nullptr) {
    Combine(hash, 0);
    return;
  }
  Combine(hash, requirement->is_complement() ? 2 : 1);
  for (const std::string& value : requirement->Values()) {
    Combine(hash, std::hash<std::string_view>()(value));
  }
}

bool SameRequirement(const std::optional<scheduling::Requirement>& stored,
                     const scheduling::Requirement* requirement) {
  if (!stored || requirement == nullptr) return !stored && requirement == nullptr;
  return *stored == *requirement;
}

}  // namespace

NodeClaimFinalizer::Selection NodeClaimFinalizer::Compute(const InFlightNodeClaim& claim) const {
  const scheduling::Requirements& requirements = claim.requirements();
  Selection selection;
  selection.candidates = claim.candidates();
  selection.zone = Copy(requirements.Find(api::kLabelTopologyZone));
  selection.capacity_type = Copy(requirements.Find(api::kCapacityTypeLabelKey));
  selection.reservation_id = Copy(requirements.Find(api::kLabelCapacityReservationID));

  const OfferingFilter allowed(requirements);
  std::vector<std::pair<double, const TypeCandidate*>> priced;
  priced.reserve(claim.candidates().size());
  for (const TypeCandidate* candidate : claim.candidates()) {
    priced.emplace_back(allowed.CheapestPrice(*candidate->type), candidate);
  }
  std::stable_sort(priced.begin(), priced.end(), [](const auto& a, const auto& b) {
    if (a.first != b.first) return a.first < b.first;
    return a.second->type->name < b.second->type->name;
  });
  const size_t kept = std::min(priced.size(), max_instance_types_);
  std::vector<std::string> names;
  std::vector<const InstanceTypeView*> options;
  selection.kept.reserve(kept);
  names.reserve(kept);
  options.reserve(kept);
  std::set<std::string> capacity_types;
  std::set<std::string> zones;
  for (size_t i = 0; i < kept; ++i) {
    const TypeCandidate* candidate = priced[i].second;
    selection.kept.push_back(candidate);
    names.push_back(candidate->type->name);
    options.push_back(candidate->type);
    for (const OfferingView& offering : candidate->type->offerings) {
      if (offering.available && allowed.Allows(offering)) {
        capacity_types.insert(offering.capacity_type);
        zones.insert(offering.zone);
      }
    }
  }
  selection.capacity_types.assign(capacity_types.begin(), capacity_types.end());
  selection.zones.assign(zones.begin(), zones.end());
  selection.instance_type_requirement =
      scheduling::Requirement::In(api::kLabelInstanceTypeStable, names);
  selection.capacity_type_requirement =
      scheduling::Requirement::In(api::kCapacityTypeLabelKey, selection.capacity_types);
  selection.names = std::move(names);
  selection.options = std::move(options);
  selection.min_overhead = MinOverhead(selection.kept);
  return selection;
}

const NodeClaimFinalizer::Selection& NodeClaimFinalizer::SelectionFor(
    const InFlightNodeClaim& claim) {
  const scheduling::Requirement* zone = claim.requirements().Find(api::kLabelTopologyZone);
  const scheduling::Requirement* capacity_type =
      claim.requirements().Find(api::kCapacityTypeLabelKey);
  const scheduling::Requirement* reservation_id =
      claim.requirements().Find(api::kLabelCapacityReservationID);
  size_t hash = claim.candidates().size();
  for (const TypeCandidate* candidate : claim.candidates()) {
    Combine(hash, std::hash<const TypeCandidate*>()(candidate));
  }
  CombineRequirement(hash, zone);
  CombineRequirement(hash, capacity_type);
  CombineRequirement(hash, reservation_id);
  std::vector<size_t>& same_hash = index_[hash];
  for (size_t index : same_hash) {
    const Selection& selection = selections_[index];
    if (selection.candidates == claim.candidates() && SameRequirement(selection.zone, zone) &&
        SameRequirement(selection.capacity_type, capacity_type) &&
        SameRequirement(selection.reservation_id, reservation_id)) {
      return selection;
    }
  }
  same_hash.push_back(selections_.size());
  selections_.push_back(Compute(claim));
  return selections_.back();
}

absl::StatusOr<NewNodeClaim> NodeClaimFinalizer::Finalize(const InFlightNodeClaim& claim) {
  const scheduling::Requirements& requirements = claim.requirements();
  const Selection& selection = SelectionFor(claim);
  if (min_values_policy_ == MinValuesPolicy::kStrict) {
    const std::string unmet = UnmetMinValuesKey(selection.kept, requirements);
    if (!unmet.empty()) {
      return absl::FailedPreconditionError(fmt::format(
          "minValues requirement is not met for {} after keeping the cheapest {} instance types",
          unmet, max_instance_types_));
    }
  }

  NewNodeClaim out;
  out.node_pool = claim.node_claim_template().node_pool;
  out.instance_types = selection.names;
  out.instance_type_options = selection.options;
  out.capacity_types = selection.capacity_types;
  out.zones = selection.zones;
  out.requirements = requirements;
  out.requirements.Add(selection.instance_type_requirement);
  out.requirements.Add(selection.capacity_type_requirement);
  out.pods.reserve(claim.pods().size());
  for (const api::Pod* pod : claim.pods()) {
    out.pods.push_back(pod->metadata.namespace_ + "/" + pod->metadata.name);
  }
  // Well-known keys are the cloud provider's to set and restricted ones are refused on nodes.
  out.labels = requirements.Labels([](std::string_view key) {
    return api::IsWellKnownLabel(key) || api::IsRestrictedLabel(key) || key == api::kLabelHostname;
  });
  for (const auto& [key, value] : claim.node_claim_template().labels) out.labels[key] = value;
  out.requests = Merge(claim.pod_requests(), selection.min_overhead);
  out.min_values_relaxed = claim.min_values_relaxed();
  return out;
}

}  // namespace karpenter::provisioning
