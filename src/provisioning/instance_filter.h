// Narrowing a NodeClaim's candidate instance types (upstream nodeclaim.go
// filterInstanceTypesByRequirements): a type survives when its requirements intersect the
// claim's, the claim's requests plus the type's daemonset overhead fit its allocatable, and it
// has an available offering in an allowed zone and capacity type. When none survive, the
// failure reason says which of the three criteria (alone or in pairs) ruled every type out.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "src/api/resource_list.h"
#include "src/provisioning/types.h"
#include "src/scheduling/requirements.h"

namespace karpenter::provisioning {

// A pod's, claim's or type's cpu, memory and pod slots in milli-units, rounded away from zero:
// enough to rule placements out cheaply before the exact check with quantities.
struct ResourceFootprint {
  int64_t cpu = 0;
  int64_t memory = 0;
  int64_t pods = 0;
};
inline constexpr ResourceFootprint kUnboundedFootprint = {INT64_MAX, INT64_MAX, INT64_MAX};
ResourceFootprint FootprintOf(const api::ResourceList& list);
// The footprint when it is exact: the list asks only cpu, memory and pods, each a whole number
// of milli-units. Then integer comparisons decide fitting exactly.
std::optional<ResourceFootprint> ExactFootprintOf(const api::ResourceList& list);

// An upper bound of `allocatable − overhead − used` from rounded figures (rounding loses at most
// one milli-unit per figure, hence two of slack); INT64_MAX when a figure saturated.
int64_t RoomUpperBound(int64_t allocatable, int64_t overhead, int64_t used);

// A type a NodeClaim may still become, with the overhead of the daemonsets that would run on it.
struct TypeCandidate {
  const InstanceTypeView* type = nullptr;
  api::ResourceList daemon_overhead;
  // An upper bound of what pods may use on it (allocatable − daemon overhead): a pod asking
  // more certainly does not fit. Unbounded unless made with MakeTypeCandidate.
  ResourceFootprint room = kUnboundedFootprint;
  // allocatable − daemon overhead exactly, when the overhead's footprint is exact and the
  // allocatable's cpu, memory and pods are whole milli-units (MakeTypeCandidate sets it).
  std::optional<ResourceFootprint> exact_room;
};
TypeCandidate MakeTypeCandidate(const InstanceTypeView& type, api::ResourceList daemon_overhead);

// Whether a candidate's allocatable holds `requests` plus its daemonset overhead, for many
// candidates against the same requests: their footprint is read once. `requests` must outlive
// the checker.
class FitChecker {
 public:
  explicit FitChecker(const api::ResourceList& requests);
  bool Fits(const TypeCandidate& candidate) const {
    if (exact_need_ && candidate.exact_room) return Within(*exact_need_, *candidate.exact_room);
    return Within(need_, candidate.room) && FitsWithOverhead(candidate);
  }

 private:
  static bool Within(const ResourceFootprint& need, const ResourceFootprint& room) {
    return need.cpu <= room.cpu && need.memory <= room.memory && need.pods <= room.pods;
  }
  bool FitsWithOverhead(const TypeCandidate& candidate) const;

  const api::ResourceList* requests_;
  ResourceFootprint need_;
  std::optional<ResourceFootprint> exact_need_;
};

// Claims narrow their candidates without copying them: the pointers are into the template.
using CandidateList = std::vector<const TypeCandidate*>;
CandidateList AllCandidates(const std::vector<TypeCandidate>& candidates);

// The zone, capacity-type and capacity-reservation requirements of a claim, looked up once to
// test many offerings. `requirements` must outlive the filter.
class OfferingFilter {
 public:
  explicit OfferingFilter(const scheduling::Requirements& requirements);
  // Whether the offering's zone and capacity type are allowed, and its capacity-reservation
  // labels (absent on offerings that are not reserved) satisfy the claim's requirements on them.
  bool Allows(const OfferingView& offering) const;
  // Whether the type has an available offering that is allowed.
  bool AnyAvailable(const InstanceTypeView& type) const;
  // The cheapest available allowed offering's price, or +infinity when there is none.
  double CheapestPrice(const InstanceTypeView& type) const;

 private:
  bool AllowsReservation(const OfferingView& offering) const;

  const scheduling::Requirement* zone_;
  const scheduling::Requirement* capacity_type_;
  const scheduling::Requirement* reservation_id_;
  const scheduling::Requirement* reservation_type_;
  const scheduling::Requirement* reservation_interruptible_;
};

// Whether the offering's zone and capacity type are allowed by `requirements`.
bool OfferingCompatible(const OfferingView& offering, const scheduling::Requirements& requirements);
bool HasCompatibleOffering(const InstanceTypeView& type,
                           const scheduling::Requirements& requirements);
// The cheapest available compatible offering's price, or +infinity when there is none.
double CheapestOfferingPrice(const InstanceTypeView& type,
                             const scheduling::Requirements& requirements);

struct FilterResult {
  CandidateList remaining;
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

// `requests` are the pods' requests; each type adds its own daemonset overhead. With `explain`
// false, each type's checks stop at the first that fails and the criterion flags are
// meaningless: for callers that only want `remaining` (then ask again to explain a failure).
FilterResult FilterInstanceTypes(std::span<const TypeCandidate* const> candidates,
                                 const scheduling::Requirements& requirements,
                                 const api::ResourceList& requests, bool explain = true);

// FilterInstanceTypes(candidates, requirements, requests, false).remaining for candidates that
// all passed it against wider requirements, of which `requirements` differ only on the keys of
// `changed` (the new requirements on those keys): only those keys, and the offerings when the
// zone or capacity type changed, can rule a type out.
CandidateList NarrowCandidates(std::span<const TypeCandidate* const> candidates,
                               const scheduling::Requirements& requirements,
                               std::span<const scheduling::Requirement* const> changed,
                               const api::ResourceList& requests);

// The candidates whose allocatable holds `requests` plus their daemonset overhead: the part of
// FilterInstanceTypes that depends on resources alone.
CandidateList KeepFitting(std::span<const TypeCandidate* const> candidates,
                          const api::ResourceList& requests);

// For each key of `requirements` with minValues, the distinct values the types offer for it.
std::map<std::string, std::set<std::string>> MinValuesDomains(
    std::span<const TypeCandidate* const> candidates, const scheduling::Requirements& requirements);
// The first key whose minValues the types cannot reach, or "" when all are met.
std::string UnmetMinValuesKey(std::span<const TypeCandidate* const> candidates,
                              const scheduling::Requirements& requirements);
// Lowers every unmet minValues to what the types reach (MIN_VALUES_POLICY=BestEffort); true when
// something was lowered.
bool RelaxMinValues(std::span<const TypeCandidate* const> candidates,
                    scheduling::Requirements& requirements);

}  // namespace karpenter::provisioning
