#include "src/provisioning/instance_filter.h"

#include <limits>

#include "src/api/karpenter_labels.h"
#include "src/provisioning/resources.h"

namespace karpenter::provisioning {

bool OfferingCompatible(const OfferingView& offering,
                        const scheduling::Requirements& requirements) {
  const scheduling::Requirement* zone = requirements.Find(api::kLabelTopologyZone);
  const scheduling::Requirement* capacity_type = requirements.Find(api::kCapacityTypeLabelKey);
  return (zone == nullptr || zone->Has(offering.zone)) &&
         (capacity_type == nullptr || capacity_type->Has(offering.capacity_type));
}

bool HasCompatibleOffering(const InstanceTypeView& type,
                           const scheduling::Requirements& requirements) {
  for (const OfferingView& offering : type.offerings) {
    if (offering.available && OfferingCompatible(offering, requirements)) return true;
  }
  return false;
}

double CheapestOfferingPrice(const InstanceTypeView& type,
                             const scheduling::Requirements& requirements) {
  double best = std::numeric_limits<double>::infinity();
  for (const OfferingView& offering : type.offerings) {
    if (offering.available && OfferingCompatible(offering, requirements) && offering.price < best) {
      best = offering.price;
    }
  }
  return best;
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

FilterResult FilterInstanceTypes(std::span<const TypeCandidate> candidates,
                                 const scheduling::Requirements& requirements,
                                 const api::ResourceList& requests) {
  FilterResult result;
  result.requests = requests;
  // No short-circuit: evaluating all three criteria for every type gives the precise reason.
  for (const TypeCandidate& candidate : candidates) {
    const InstanceTypeView& type = *candidate.type;
    const bool compatible = type.requirements.HasIntersection(requirements);
    const bool fits = Fits(Merge(requests, candidate.daemon_overhead), type.allocatable);
    const bool offering = HasCompatibleOffering(type, requirements);
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

std::map<std::string, std::set<std::string>> MinValuesDomains(
    std::span<const TypeCandidate> candidates, const scheduling::Requirements& requirements) {
  std::map<std::string, std::set<std::string>> domains;
  for (const scheduling::Requirement& requirement : requirements) {
    if (!requirement.min_values()) continue;
    std::set<std::string>& values = domains[std::string(requirement.key())];
    for (const TypeCandidate& candidate : candidates) {
      const scheduling::Requirement* offered = candidate.type->requirements.Find(requirement.key());
      if (offered == nullptr || offered->is_complement()) continue;
      // Only values the claim still allows count towards its minimum.
      for (const std::string& value : offered->Values()) {
        if (requirement.Has(value)) values.insert(value);
      }
    }
  }
  return domains;
}

std::string UnmetMinValuesKey(std::span<const TypeCandidate> candidates,
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

bool RelaxMinValues(std::span<const TypeCandidate> candidates,
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
