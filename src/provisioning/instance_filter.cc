#include "src/provisioning/instance_filter.h"

#include <climits>
#include <limits>

#include "src/api/karpenter_labels.h"
#include "src/provisioning/resources.h"

namespace karpenter::provisioning {

namespace {

int64_t MilliOf(const api::ResourceList& list, const char* name) {
  auto it = list.find(name);
  return it == list.end() ? 0 : it->second.MilliValue();
}

// Fits(Merge(requests, overhead), available) without building the merged list.
bool RequestsAndOverheadFit(const api::ResourceList& requests, const api::ResourceList& overhead,
                            const api::ResourceList& available) {
  const api::Quantity zero;
  auto available_of = [&](const std::string& name) -> const api::Quantity& {
    auto it = available.find(name);
    return it == available.end() ? zero : it->second;
  };
  for (const auto& [name, quantity] : requests) {
    auto extra = overhead.find(name);
    if (extra == overhead.end()) {
      if (quantity > available_of(name)) return false;
      continue;
    }
    api::Quantity total = quantity;
    total.Add(extra->second);
    if (total > available_of(name)) return false;
  }
  for (const auto& [name, quantity] : overhead) {
    if (!requests.contains(name) && quantity > available_of(name)) return false;
  }
  return true;
}

std::optional<int64_t> ExactMilliOf(const api::ResourceList& list, const char* name) {
  auto it = list.find(name);
  if (it == list.end()) return 0;
  const int64_t milli = it->second.MilliValue();
  if (milli == INT64_MAX || milli == INT64_MIN) return std::nullopt;  // Saturated.
  if (api::Quantity::FromMilli(milli, api::Quantity::Format::kDecimalSI) != it->second) {
    return std::nullopt;
  }
  return milli;
}

}  // namespace

FitChecker::FitChecker(const api::ResourceList& requests)
    : requests_(&requests), need_(FootprintOf(requests)), exact_need_(ExactFootprintOf(requests)) {}

bool FitChecker::FitsWithOverhead(const TypeCandidate& candidate) const {
  return RequestsAndOverheadFit(*requests_, candidate.daemon_overhead, candidate.type->allocatable);
}

ResourceFootprint FootprintOf(const api::ResourceList& list) {
  return {MilliOf(list, "cpu"), MilliOf(list, "memory"), MilliOf(list, kResourcePods)};
}

std::optional<ResourceFootprint> ExactFootprintOf(const api::ResourceList& list) {
  for (const auto& [name, quantity] : list) {
    if (name != "cpu" && name != "memory" && name != kResourcePods) return std::nullopt;
  }
  const std::optional<int64_t> cpu = ExactMilliOf(list, "cpu");
  const std::optional<int64_t> memory = ExactMilliOf(list, "memory");
  const std::optional<int64_t> pods = ExactMilliOf(list, kResourcePods);
  if (!cpu || !memory || !pods) return std::nullopt;
  return ResourceFootprint{*cpu, *memory, *pods};
}

int64_t RoomUpperBound(int64_t allocatable, int64_t overhead, int64_t used) {
  if (allocatable == INT64_MAX || overhead == INT64_MAX || used == INT64_MAX) return INT64_MAX;
  int64_t room = 0;
  if (__builtin_sub_overflow(allocatable, overhead, &room) ||
      __builtin_sub_overflow(room, used, &room) || __builtin_add_overflow(room, 2, &room)) {
    return INT64_MAX;
  }
  return room;
}

TypeCandidate MakeTypeCandidate(const InstanceTypeView& type, api::ResourceList daemon_overhead) {
  const ResourceFootprint allocatable = FootprintOf(type.allocatable);
  const ResourceFootprint overhead = FootprintOf(daemon_overhead);
  const std::optional<ResourceFootprint> exact_overhead = ExactFootprintOf(daemon_overhead);
  TypeCandidate candidate{&type, std::move(daemon_overhead), {}, std::nullopt};
  candidate.room = {RoomUpperBound(allocatable.cpu, overhead.cpu, 0),
                    RoomUpperBound(allocatable.memory, overhead.memory, 0),
                    RoomUpperBound(allocatable.pods, overhead.pods, 0)};
  const std::optional<int64_t> cpu = ExactMilliOf(type.allocatable, "cpu");
  const std::optional<int64_t> memory = ExactMilliOf(type.allocatable, "memory");
  const std::optional<int64_t> pods = ExactMilliOf(type.allocatable, kResourcePods);
  ResourceFootprint exact;
  if (exact_overhead && cpu && memory && pods &&
      !__builtin_sub_overflow(*cpu, exact_overhead->cpu, &exact.cpu) &&
      !__builtin_sub_overflow(*memory, exact_overhead->memory, &exact.memory) &&
      !__builtin_sub_overflow(*pods, exact_overhead->pods, &exact.pods)) {
    candidate.exact_room = exact;
  }
  return candidate;
}

CandidateList AllCandidates(const std::vector<TypeCandidate>& candidates) {
  CandidateList out;
  out.reserve(candidates.size());
  for (const TypeCandidate& candidate : candidates) out.push_back(&candidate);
  return out;
}

OfferingFilter::OfferingFilter(const scheduling::Requirements& requirements)
    : zone_(requirements.Find(api::kLabelTopologyZone)),
      capacity_type_(requirements.Find(api::kCapacityTypeLabelKey)),
      reservation_id_(requirements.Find(api::kLabelCapacityReservationID)),
      reservation_type_(requirements.Find(api::kLabelCapacityReservationType)),
      reservation_interruptible_(requirements.Find(api::kLabelCapacityReservationInterruptible)) {}

namespace {

// A label the offering has (`value`) or lacks (nullopt) against the claim's requirement on it.
bool LabelAllowed(const scheduling::Requirement* requirement,
                  const std::optional<std::string_view>& value) {
  if (requirement == nullptr) return true;
  if (value) return requirement->Has(*value);
  const scheduling::NodeSelectorOperator op = requirement->Operator();
  return op == scheduling::NodeSelectorOperator::kNotIn ||
         op == scheduling::NodeSelectorOperator::kDoesNotExist;
}

}  // namespace

bool OfferingFilter::AllowsReservation(const OfferingView& offering) const {
  if (offering.reserved()) {
    return LabelAllowed(reservation_id_, offering.reservation_id) &&
           LabelAllowed(reservation_type_, offering.reservation_type) &&
           LabelAllowed(reservation_interruptible_,
                        offering.reservation_interruptible ? "true" : "false");
  }
  return LabelAllowed(reservation_id_, std::nullopt) &&
         LabelAllowed(reservation_type_, std::nullopt) &&
         LabelAllowed(reservation_interruptible_, std::nullopt);
}

bool OfferingFilter::Allows(const OfferingView& offering) const {
  if (zone_ != nullptr && !zone_->Has(offering.zone)) return false;
  if (capacity_type_ != nullptr && !capacity_type_->Has(offering.capacity_type)) return false;
  // Most claims say nothing about reservations.
  if (reservation_id_ == nullptr && reservation_type_ == nullptr &&
      reservation_interruptible_ == nullptr) {
    return true;
  }
  return AllowsReservation(offering);
}

bool OfferingFilter::AnyAvailable(const InstanceTypeView& type) const {
  for (const OfferingView& offering : type.offerings) {
    if (offering.available && Allows(offering)) return true;
  }
  return false;
}

bool OfferingCompatible(const OfferingView& offering,
                        const scheduling::Requirements& requirements) {
  return OfferingFilter(requirements).Allows(offering);
}

bool HasCompatibleOffering(const InstanceTypeView& type,
                           const scheduling::Requirements& requirements) {
  return OfferingFilter(requirements).AnyAvailable(type);
}

double OfferingFilter::CheapestPrice(const InstanceTypeView& type) const {
  double best = std::numeric_limits<double>::infinity();
  for (const OfferingView& offering : type.offerings) {
    if (offering.available && Allows(offering) && offering.price < best) best = offering.price;
  }
  return best;
}

double CheapestOfferingPrice(const InstanceTypeView& type,
                             const scheduling::Requirements& requirements) {
  return OfferingFilter(requirements).CheapestPrice(type);
}

std::string FilterResult::FailureReason() const {
  if (!remaining.empty()) return "";
  if (!requirements_met && !fits && !has_offering) {
    return "no instance type met the scheduling requirements or had enough resources or had a "
           "required offering";
  }
  if (!requirements_met && !fits) {
    return "no instance type met the scheduling requirements or had enough resources";
  }
  if (!requirements_met && !has_offering) {
    return "no instance type met the scheduling requirements or had a required offering";
  }
  if (!fits && !has_offering)
    return "no instance type had enough resources or had a required offering";
  if (!requirements_met) return "no instance type met all requirements";
  if (!fits) {
    std::string message = "no instance type has enough resources";
    auto cpu = requests.find("cpu");
    // A request of a million CPUs is almost always "m" typed as "M".
    if (cpu != requests.end() && cpu->second.MilliValue() >= int64_t{1000000000}) {
      message += " (CPU request >= 1 Million, m vs M typo?)";
    }
    return message;
  }
  if (!has_offering) return "no instance type has the required offering";
  if (requirements_and_fits) {
    return "no instance type which met the scheduling requirements and had enough resources, had "
           "a required offering";
  }
  if (fits_and_offering) {
    return "no instance type which had enough resources and the required offering met the "
           "scheduling requirements";
  }
  if (requirements_and_offering) {
    return "no instance type which met the scheduling requirements and the required offering had "
           "the required resources";
  }
  return "no instance type met the requirements/resources/offering tuple";
}

FilterResult FilterInstanceTypes(std::span<const TypeCandidate* const> candidates,
                                 const scheduling::Requirements& requirements,
                                 const api::ResourceList& requests, bool explain) {
  FilterResult result;
  result.requests = requests;
  const OfferingFilter offerings(requirements);
  const FitChecker fit(requests);
  if (!explain) {
    // Cheapest checks first; a type is dropped at the first that fails.
    for (const TypeCandidate* candidate : candidates) {
      const InstanceTypeView& type = *candidate->type;
      if (fit.Fits(*candidate) && offerings.AnyAvailable(type) &&
          type.requirements.HasIntersection(requirements)) {
        result.remaining.push_back(candidate);
      }
    }
    return result;
  }
  // No short-circuit: evaluating all three criteria for every type gives the precise reason.
  for (const TypeCandidate* candidate : candidates) {
    const InstanceTypeView& type = *candidate->type;
    const bool compatible = type.requirements.HasIntersection(requirements);
    const bool fits = fit.Fits(*candidate);
    const bool offering = offerings.AnyAvailable(type);
    result.requirements_met |= compatible;
    result.fits |= fits;
    result.has_offering |= offering;
    result.requirements_and_fits |= compatible && fits && !offering;
    result.requirements_and_offering |= compatible && offering && !fits;
    result.fits_and_offering |= fits && offering && !compatible;
    if (compatible && fits && offering) result.remaining.push_back(candidate);
  }
  return result;
}

CandidateList NarrowCandidates(std::span<const TypeCandidate* const> candidates,
                               const scheduling::Requirements& requirements,
                               std::span<const scheduling::Requirement* const> changed,
                               const api::ResourceList& requests) {
  const OfferingFilter offerings(requirements);
  bool offerings_changed = false;
  for (const scheduling::Requirement* requirement : changed) {
    offerings_changed |= requirement->key() == api::kLabelTopologyZone ||
                         requirement->key() == api::kCapacityTypeLabelKey ||
                         requirement->key() == api::kLabelCapacityReservationID ||
                         requirement->key() == api::kLabelCapacityReservationType ||
                         requirement->key() == api::kLabelCapacityReservationInterruptible;
  }
  const FitChecker fit(requests);
  CandidateList out;
  for (const TypeCandidate* candidate : candidates) {
    const InstanceTypeView& type = *candidate->type;
    if (!fit.Fits(*candidate)) continue;
    if (offerings_changed && !offerings.AnyAvailable(type)) continue;
    bool compatible = true;
    for (const scheduling::Requirement* requirement : changed) {
      if (!type.requirements.HasIntersection(*requirement)) {
        compatible = false;
        break;
      }
    }
    if (compatible) out.push_back(candidate);
  }
  return out;
}

CandidateList KeepFitting(std::span<const TypeCandidate* const> candidates,
                          const api::ResourceList& requests) {
  const FitChecker fit(requests);
  CandidateList out;
  out.reserve(candidates.size());
  for (const TypeCandidate* candidate : candidates) {
    if (fit.Fits(*candidate)) out.push_back(candidate);
  }
  return out;
}

std::map<std::string, std::set<std::string>> MinValuesDomains(
    std::span<const TypeCandidate* const> candidates,
    const scheduling::Requirements& requirements) {
  std::map<std::string, std::set<std::string>> domains;
  for (const scheduling::Requirement& requirement : requirements) {
    if (!requirement.min_values()) continue;
    std::set<std::string>& values = domains[std::string(requirement.key())];
    for (const TypeCandidate* candidate : candidates) {
      const scheduling::Requirement* offered =
          candidate->type->requirements.Find(requirement.key());
      if (offered == nullptr || offered->is_complement()) continue;
      // Only values the claim still allows count towards its minimum.
      for (const std::string& value : offered->Values()) {
        if (requirement.Has(value)) values.insert(value);
      }
    }
  }
  return domains;
}

std::string UnmetMinValuesKey(std::span<const TypeCandidate* const> candidates,
                              const scheduling::Requirements& requirements) {
  const auto domains = MinValuesDomains(candidates, requirements);
  for (const scheduling::Requirement& requirement : requirements) {
    if (!requirement.min_values()) continue;
    const auto& values = domains.at(std::string(requirement.key()));
    if (static_cast<int64_t>(values.size()) < *requirement.min_values()) {
      return std::string(requirement.key());
    }
  }
  return "";
}

bool RelaxMinValues(std::span<const TypeCandidate* const> candidates,
                    scheduling::Requirements& requirements) {
  const auto domains = MinValuesDomains(candidates, requirements);
  bool relaxed = false;
  scheduling::Requirements out;
  for (scheduling::Requirement requirement : requirements) {
    if (requirement.min_values()) {
      const auto reached = static_cast<int32_t>(domains.at(std::string(requirement.key())).size());
      if (reached < *requirement.min_values()) {
        requirement.set_min_values(reached);
        relaxed = true;
      }
    }
    out.Add(std::move(requirement));
  }
  if (relaxed) requirements = std::move(out);
  return relaxed;
}

}  // namespace karpenter::provisioning
