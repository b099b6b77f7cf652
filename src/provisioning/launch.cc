#include "src/provisioning/launch.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <string_view>
#include <tuple>

#include "fmt/format.h"
#include "src/api/karpenter_labels.h"
#include "src/api/resource_names.h"
#include "src/provisioning/instance_filter.h"

namespace karpenter::provisioning {
namespace {

bool IsExotic(const InstanceTypeView& type) {
  if (const scheduling::Requirement* size = type.requirements.Find(api::kLabelInstanceSize)) {
    for (const std::string& value : size->Values()) {
      if (!size->is_complement() && value.find("metal") != std::string::npos) return true;
    }
  }
  for (std::string_view resource : api::kExoticResources) {
    auto it = type.allocatable.find(std::string(resource));
    if (it != type.allocatable.end() && !it->second.IsZero()) return true;
  }
  return false;
}

struct LaunchOption {
  const InstanceTypeView* type;
  std::vector<const OfferingView*> offerings;  // Available, compatible, not filtered out.
  double cheapest = std::numeric_limits<double>::infinity();
};

// Upstream CapacityReservationTypeFilter: one CreateFleet call takes one market, so a reserved
// launch keeps only the reservations of one kind (default, capacity-block, interruptible
// default): the kind with the cheapest offering, ties going to that order. Types without such an
// offering are dropped and the kept ones keep only those offerings.
void KeepOneReservationKind(std::vector<LaunchOption>& options) {
  auto priority = [](const OfferingView& offering) {
    if (offering.reservation_type == "capacity-block")
      return offering.reservation_interruptible ? 3 : 1;
    return offering.reservation_interruptible ? 2 : 0;
  };
  const OfferingView* best = nullptr;
  for (const LaunchOption& option : options) {
    for (const OfferingView* offering : option.offerings) {
      if (!offering->reserved()) continue;
      if (best == nullptr || offering->price < best->price ||
          (offering->price == best->price && priority(*offering) < priority(*best))) {
        best = offering;
      }
    }
  }
  if (best == nullptr) return;
  const int kind = priority(*best);
  std::vector<LaunchOption> kept;
  for (LaunchOption& option : options) {
    std::erase_if(option.offerings, [&](const OfferingView* offering) {
      return !offering->reserved() || priority(*offering) != kind;
    });
    if (!option.offerings.empty()) kept.push_back(std::move(option));
  }
  options = std::move(kept);
}

// Upstream ReservedOfferingFilter: CreateFleet takes one offering per (type, zone) pool, so each
// type keeps, per zone, the reservation with the most instances left (the first on ties).
// Types without a reserved offering are dropped, unless that would drop every type.
void KeepLargestReservationPerZone(std::vector<LaunchOption>& options) {
  std::vector<LaunchOption> kept;
  for (const LaunchOption& option : options) {
    std::map<std::string_view, const OfferingView*> by_zone;
    for (const OfferingView* offering : option.offerings) {
      if (!offering->reserved()) continue;
      auto [it, inserted] = by_zone.try_emplace(offering->zone, offering);
      if (!inserted && offering->reservation_capacity > it->second->reservation_capacity) {
        it->second = offering;
      }
    }
    if (by_zone.empty()) continue;
    LaunchOption reserved{option.type, {}};
    for (const auto& [zone, offering] : by_zone) reserved.offerings.push_back(offering);
    kept.push_back(std::move(reserved));
  }
  if (!kept.empty()) options = std::move(kept);
}

absl::Status NothingToLaunch() {
  return absl::NotFoundError("no instance type has an available offering the NodeClaim allows");
}

}  // namespace

std::map<std::string, std::string> LaunchLabels(const LaunchPrediction& launch) {
  if (launch.reservation_id.empty()) return {};
  return {{std::string(api::kLabelCapacityReservationID), launch.reservation_id},
          {std::string(api::kLabelCapacityReservationType), launch.reservation_type},
          {std::string(api::kLabelCapacityReservationInterruptible),
           launch.reservation_interruptible ? "true" : "false"}};
}

absl::StatusOr<NewNodeClaim> FinalizeNodeClaim(const InFlightNodeClaim& claim,
                                               const SchedulerOptions& options,
                                               size_t max_instance_types) {
  return NodeClaimFinalizer(options, max_instance_types).Finalize(claim);
}

absl::Status CheckLaunchable(const NewNodeClaim& claim) {
  const OfferingFilter allowed(claim.requirements);
  for (const InstanceTypeView* type : claim.instance_type_options) {
    if (allowed.AnyAvailable(*type)) return absl::OkStatus();
  }
  return NothingToLaunch();
}

namespace {

// The types a launch picks from, as upstream's provider narrows them: offerings available (and
// `usable`), allowed by the claim, through the reservation, exotic-type and spot-price filters;
// types cheapest first (then by name), at most kMaxLaunchInstanceTypes.
std::vector<LaunchOption> LaunchOptions(const NewNodeClaim& claim,
                                        const OfferingPredicate& usable) {
  // Looked up once per claim, not per offering: a plan of 20,000 one-pod claims over 600 types
  // spent most of its time finding the same five requirements again.
  const OfferingFilter allowed(claim.requirements);
  std::vector<LaunchOption> options;
  for (const InstanceTypeView* type : claim.instance_type_options) {
    LaunchOption option{type, {}};
    for (const OfferingView& offering : type->offerings) {
      if (offering.available && allowed.Allows(offering) && (!usable || usable(*type, offering))) {
        option.offerings.push_back(&offering);
      }
    }
    if (!option.offerings.empty()) options.push_back(std::move(option));
  }
  const scheduling::Requirement* capacity_type =
      claim.requirements.Find(api::kCapacityTypeLabelKey);
  if (capacity_type == nullptr || capacity_type->Has(api::kCapacityTypeReserved)) {
    // Upstream's CapacityBlockFilter (one capacity block per CreateFleet, the cheapest) needs
    // no step here: the launch takes the cheapest reserved offering first.
    KeepOneReservationKind(options);
    KeepLargestReservationPerZone(options);
  }
  // Metal, GPU and accelerator types only when nothing else fits (or minValues needs them all).
  if (!claim.requirements.HasMinValues()) {
    std::vector<LaunchOption> plain;
    for (const LaunchOption& option : options) {
      if (!IsExotic(*option.type)) plain.push_back(option);
    }
    if (!plain.empty()) options = std::move(plain);
  }
  // With both spot and on-demand allowed, a spot offering dearer than the cheapest on-demand one
  // is never worth taking.
  const bool spot_and_on_demand =
      capacity_type == nullptr || (capacity_type->Has(api::kCapacityTypeSpot) &&
                                   capacity_type->Has(api::kCapacityTypeOnDemand));
  if (spot_and_on_demand) {
    double cheapest_on_demand = std::numeric_limits<double>::infinity();
    for (const LaunchOption& option : options) {
      for (const OfferingView* offering : option.offerings) {
        if (offering->capacity_type == api::kCapacityTypeOnDemand) {
          cheapest_on_demand = std::min(cheapest_on_demand, offering->price);
        }
      }
    }
    for (LaunchOption& option : options) {
      std::erase_if(option.offerings, [&](const OfferingView* offering) {
        return offering->capacity_type == api::kCapacityTypeSpot &&
               offering->price > cheapest_on_demand;
      });
    }
    std::erase_if(options, [](const LaunchOption& option) { return option.offerings.empty(); });
  }
  for (LaunchOption& option : options) {
    for (const OfferingView* offering : option.offerings) {
      option.cheapest = std::min(option.cheapest, offering->price);
    }
  }
  std::stable_sort(options.begin(), options.end(), [](const auto& a, const auto& b) {
    if (a.cheapest != b.cheapest) return a.cheapest < b.cheapest;
    return a.type->name < b.type->name;
  });
  if (options.size() > kMaxLaunchInstanceTypes) options.resize(kMaxLaunchInstanceTypes);
  return options;
}

// One fleet asks for one capacity type: reserved, else spot, else on demand, the first some
// option offers.
std::optional<std::string_view> FleetCapacityType(const std::vector<LaunchOption>& options) {
  for (std::string_view chosen :
       {api::kCapacityTypeReserved, api::kCapacityTypeSpot, api::kCapacityTypeOnDemand}) {
    for (const LaunchOption& option : options) {
      for (const OfferingView* offering : option.offerings) {
        if (offering->capacity_type == chosen) return chosen;
      }
    }
  }
  return std::nullopt;
}

LaunchPrediction ToPrediction(const LaunchOption& option, const OfferingView& offering) {
  return LaunchPrediction{.instance_type = option.type->name,
                          .zone = offering.zone,
                          .capacity_type = offering.capacity_type,
                          .price = offering.price,
                          .reservation_id = offering.reservation_id,
                          .reservation_type = offering.reservation_type,
                          .reservation_interruptible = offering.reservation_interruptible,
                          .allocatable = option.type->allocatable};
}

}  // namespace

absl::StatusOr<LaunchPrediction> PredictLaunch(const NewNodeClaim& claim) {
  const std::vector<LaunchOption> options = LaunchOptions(claim, {});
  const std::optional<std::string_view> chosen = FleetCapacityType(options);
  if (!chosen) return NothingToLaunch();
  // The fleet's first choice (PlanFleet's front), found without ordering the rest: options are
  // in price-then-name order, so ties keep the earlier type, then the alphabetically first zone.
  const LaunchOption* best_option = nullptr;
  const OfferingView* best = nullptr;
  for (const LaunchOption& option : options) {
    for (const OfferingView* offering : option.offerings) {
      if (offering->capacity_type != *chosen) continue;
      if (best == nullptr || offering->price < best->price ||
          (offering->price == best->price && best_option == &option &&
           offering->zone < best->zone)) {
        best_option = &option;
        best = offering;
      }
    }
  }
  return ToPrediction(*best_option, *best);
}

absl::StatusOr<std::vector<LaunchPrediction>> PlanFleet(const NewNodeClaim& claim,
                                                        const OfferingPredicate& usable) {
  const std::vector<LaunchOption> options = LaunchOptions(claim, usable);
  const std::optional<std::string_view> chosen = FleetCapacityType(options);
  if (!chosen) return NothingToLaunch();
  struct Entry {
    double price;
    size_t option;
    const OfferingView* offering;
  };
  std::vector<Entry> entries;
  for (size_t i = 0; i < options.size(); ++i) {
    for (const OfferingView* offering : options[i].offerings) {
      if (offering->capacity_type == *chosen) entries.push_back({offering->price, i, offering});
    }
  }
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return std::tie(a.price, a.option, a.offering->zone) <
           std::tie(b.price, b.option, b.offering->zone);
  });
  std::vector<LaunchPrediction> fleet;
  fleet.reserve(entries.size());
  for (const Entry& entry : entries) {
    fleet.push_back(ToPrediction(options[entry.option], *entry.offering));
  }
  return fleet;
}

namespace {

// The whole set, unlike Requirement::ToString, which prints five values: claims allowing six
// zones that differ in the sixth must not share a key. Values are length-prefixed, so no value's
// characters can fake a boundary.
void AppendRequirement(std::string& key, const scheduling::Requirement& requirement) {
  fmt::format_to(std::back_inserter(key), "{}{}", requirement.is_complement() ? '!' : '=',
                 requirement.Values().size());
  for (const std::string& value : requirement.Values()) {
    fmt::format_to(std::back_inserter(key), ",{}:{}", value.size(), value);
  }
  if (requirement.gte()) fmt::format_to(std::back_inserter(key), ">{}", *requirement.gte());
  if (requirement.lte()) fmt::format_to(std::back_inserter(key), "<{}", *requirement.lte());
}

}  // namespace

std::string LaunchPredictionKey(const NewNodeClaim& claim) {
  std::string key =
      fmt::format("{}/{}/{}", static_cast<const void*>(claim.instance_type_options.data()),
                  claim.instance_type_options.size(), claim.requirements.HasMinValues());
  // The keys OfferingFilter and PredictLaunch look up.
  for (std::string_view label :
       {api::kLabelTopologyZone, api::kCapacityTypeLabelKey, api::kLabelCapacityReservationID,
        api::kLabelCapacityReservationType, api::kLabelCapacityReservationInterruptible}) {
    key += '|';
    if (const scheduling::Requirement* requirement = claim.requirements.Find(label)) {
      AppendRequirement(key, *requirement);
    }
  }
  return key;
}

const absl::StatusOr<LaunchPrediction>& LaunchPredictor::Predict(const NewNodeClaim& claim) {
  std::string key = LaunchPredictionKey(claim);
  auto it = predictions_.find(key);
  if (it == predictions_.end()) {
    it = predictions_.emplace(std::move(key), PredictLaunch(claim)).first;
  }
  return it->second;
}

}  // namespace karpenter::provisioning
