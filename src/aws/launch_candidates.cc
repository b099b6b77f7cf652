#include "src/aws/launch_candidates.h"

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "src/api/karpenter_labels.h"
#include "src/api/selector_match.h"

namespace karpenter::aws {
namespace {

// One fleet launches into one kind of reservation: default, capacity block or interruptible.
// Upstream's ranking among kinds with the same cheapest price.
int ReservationKindRank(const cloudprovider::Offering& offering) {
  if (offering.reservation_type == "capacity-block") return 1;
  return offering.reservation_interruptible ? 2 : 0;
}

bool SameReservationKind(const cloudprovider::Offering& a, const cloudprovider::Offering& b) {
  return a.reservation_type == b.reservation_type &&
         a.reservation_interruptible == b.reservation_interruptible;
}

bool IsReserved(const Candidate& c) {
  return c.offering->capacity_type == api::kCapacityTypeReserved;
}

// A reserved launch, as upstream's reservation filters leave it: only reserved offerings, of the
// kind of reservation with the cheapest offering; of a capacity block only the cheapest one, and
// of the other kinds per type and zone the reservation with the most instances left.
// `candidates` are cheapest first and hold a reserved one.
void NarrowReservations(std::vector<Candidate>& candidates) {
  std::erase_if(candidates, [](const Candidate& c) { return !IsReserved(c); });
  const cloudprovider::Offering* kind = candidates.front().offering;
  for (const Candidate& c : candidates) {
    if (c.offering->price != kind->price) break;
    if (ReservationKindRank(*c.offering) < ReservationKindRank(*kind)) kind = c.offering;
  }
  std::erase_if(candidates,
                [&](const Candidate& c) { return !SameReservationKind(*c.offering, *kind); });
  if (kind->reservation_type == "capacity-block") {
    candidates.resize(1);
    return;
  }
  std::map<std::string, const cloudprovider::Offering*> best;
  for (const Candidate& c : candidates) {
    const cloudprovider::Offering*& slot = best[absl::StrCat(c.type->name, "/", c.offering->zone)];
    if (slot == nullptr || c.offering->reservation_capacity > slot->reservation_capacity) {
      slot = c.offering;
    }
  }
  std::erase_if(candidates, [&](const Candidate& c) {
    return best.at(absl::StrCat(c.type->name, "/", c.offering->zone)) != c.offering;
  });
}

bool HasMinValues(const api::NodeClaim& node_claim) {
  return std::any_of(node_claim.spec.requirements.begin(), node_claim.spec.requirements.end(),
                     [](const auto& requirement) { return requirement.min_values.has_value(); });
}

// Whether every capacity-type requirement of the claim admits `capacity_type` (no requirement on
// the key admits all of them).
bool AllowsCapacityType(const api::NodeClaim& node_claim, std::string_view capacity_type) {
  const api::LabelMap labels = {
      {std::string(api::kCapacityTypeLabelKey), std::string(capacity_type)}};
  for (const api::NodeSelectorRequirementWithMinValues& requirement :
       node_claim.spec.requirements) {
    if (requirement.key != api::kCapacityTypeLabelKey) continue;
    if (!api::Matches({requirement.key, requirement.operator_, requirement.values}, labels)) {
      return false;
    }
  }
  return true;
}

// Upstream's exotic-instance filter: metal and accelerator types go unless nothing else is left.
void DropExoticTypes(std::vector<Candidate>& candidates) {
  const bool plain_left = std::any_of(candidates.begin(), candidates.end(), [](const Candidate& c) {
    return !cloudprovider::IsExotic(*c.type);
  });
  if (plain_left) {
    std::erase_if(candidates, [](const Candidate& c) { return cloudprovider::IsExotic(*c.type); });
  }
}

// Upstream's spot-offering filter: with both on offer, a spot offering dearer than the cheapest
// on-demand one is never worth asking for.
void DropSpotDearerThanOnDemand(std::vector<Candidate>& candidates) {
  double cheapest_on_demand = std::numeric_limits<double>::infinity();
  bool spot = false;
  for (const Candidate& c : candidates) {
    if (c.offering->capacity_type == api::kCapacityTypeOnDemand) {
      cheapest_on_demand = std::min(cheapest_on_demand, c.offering->price);
    }
    spot = spot || c.offering->capacity_type == api::kCapacityTypeSpot;
  }
  if (!spot || cheapest_on_demand == std::numeric_limits<double>::infinity()) return;
  std::erase_if(candidates, [&](const Candidate& c) {
    return c.offering->capacity_type == api::kCapacityTypeSpot &&
           c.offering->price > cheapest_on_demand;
  });
}

}  // namespace

std::string_view ChooseLaunchCandidates(const api::NodeClaim& node_claim,
                                        std::vector<Candidate>& candidates) {
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
    return std::tie(a.offering->price, a.type->name, a.offering->zone) <
           std::tie(b.offering->price, b.type->name, b.offering->zone);
  });
  if (std::any_of(candidates.begin(), candidates.end(), IsReserved)) {
    NarrowReservations(candidates);
  }
  if (!HasMinValues(node_claim)) {
    DropExoticTypes(candidates);
    if (AllowsCapacityType(node_claim, api::kCapacityTypeSpot) &&
        AllowsCapacityType(node_claim, api::kCapacityTypeOnDemand)) {
      DropSpotDearerThanOnDemand(candidates);
    }
  }
  auto offered = [&](std::string_view capacity) {
    return std::any_of(candidates.begin(), candidates.end(),
                       [&](const Candidate& c) { return c.offering->capacity_type == capacity; });
  };
  const std::string_view capacity = offered(api::kCapacityTypeReserved) ? api::kCapacityTypeReserved
                                    : offered(api::kCapacityTypeSpot)   ? api::kCapacityTypeSpot
                                                                      : api::kCapacityTypeOnDemand;
  std::erase_if(candidates,
                [&](const Candidate& c) { return c.offering->capacity_type != capacity; });
  return capacity;
}

}  // namespace karpenter::aws
