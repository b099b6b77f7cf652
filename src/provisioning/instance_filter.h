// Narrowing a NodeClaim's candidate instance types (upstream nodeclaim.go
// filterInstanceTypesByRequirements): a type survives when its requirements intersect the
// claim's, the claim's requests plus the type's daemonset overhead fit its allocatable, and it
// has an available offering in an allowed zone and capacity type. When none survive, the
// failure reason says which of the three criteria (alone or in pairs) ruled every type out.
#pragma once

#include <map>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "src/api/resource_list.h"
#include "src/provisioning/types.h"
#include "src/scheduling/requirements.h"

namespace karpenter::provisioning {

// A type a NodeClaim may still become, with the overhead of the daemonsets that would run on it.
struct TypeCandidate {
  const InstanceTypeView* type = nullptr;
  api::ResourceList daemon_overhead;
};

// Whether the offering's zone and capacity type are allowed by `requirements`.
bool OfferingCompatible(const OfferingView& offering, const scheduling::Requirements& requirements);
bool HasCompatibleOffering(const InstanceTypeView& type,
                           const scheduling::Requirements& requirements);
// The cheapest available compatible offering's price, or +infinity when there is none.
double CheapestOfferingPrice(const InstanceTypeView& type,
                             const scheduling::Requirements& requirements);

struct FilterResult {
  std::vector<TypeCandidate> remaining;
  // Whether some type met that criterion on its own ...
  bool requirements_met = false;
  bool fits = false;
  bool has_offering = false;
  // ... and whether some type met exactly that pair but not the third.
  bool requirements_and_fits = false;
  bool requirements_and_offering = false;
  bool fits_and_offering = false;
  api::ResourceList requests;

  // Upstream's wording, e.g. "no instance type has enough resources"; "" when types remain.
  std::string FailureReason() const;
};

// `requests` are the pods' requests; each type adds its own daemonset overhead.
FilterResult FilterInstanceTypes(std::span<const TypeCandidate> candidates,
                                 const scheduling::Requirements& requirements,
                                 const api::ResourceList& requests);

// For each key of `requirements` with minValues, the distinct values the types offer for it.
std::map<std::string, std::set<std::string>> MinValuesDomains(
    std::span<const TypeCandidate> candidates, const scheduling::Requirements& requirements);
// The first key whose minValues the types cannot reach, or "" when all are met.
std::string UnmetMinValuesKey(std::span<const TypeCandidate> candidates,
                              const scheduling::Requirements& requirements);
// Lowers every unmet minValues to what the types reach (MIN_VALUES_POLICY=BestEffort); true when
// something was lowered.
bool RelaxMinValues(std::span<const TypeCandidate> candidates,
                    scheduling::Requirements& requirements);

}  // namespace karpenter::provisioning
