#include "src/provisioning/launch.h"

#include <algorithm>
#include <limits>

#include "src/api/karpenter_labels.h"
#include "src/api/resource_names.h"

namespace karpenter::provisioning {
namespace {

bool IsExotic(const InstanceTypeView& type) {
  if (const scheduling::Requirement* size = type.requirements.Find(api::kLabelInstanceSize)) {
    for (const std::string& value : size->Values()) {
      if (!size->is_complement() && value.find("metal") != std::string::npos) return true;
    }
  }
  for (std::string_view resource :
       {api::kResourceNvidiaGpu, api::kResourceAmdGpu, api::kResourceAwsNeuron,
        api::kResourceAwsNeuronCore, api::kResourceHabanaGaudi}) {
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

}  // namespace

absl::StatusOr<NewNodeClaim> FinalizeNodeClaim(const InFlightNodeClaim& claim,
                                               const SchedulerOptions& options,
                                               size_t max_instance_types) {
  return NodeClaimFinalizer(options, max_instance_types).Finalize(claim);
}

absl::StatusOr<LaunchPrediction> PredictLaunch(const NewNodeClaim& claim) {
  std::vector<LaunchOption> options;
  for (const InstanceTypeView* type : claim.instance_type_options) {
    LaunchOption option{type, {}};
    for (const OfferingView& offering : type->offerings) {
      if (offering.available && OfferingCompatible(offering, claim.requirements)) {
        option.offerings.push_back(&offering);
      }
    }
    if (!option.offerings.empty()) options.push_back(std::move(option));
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
  const scheduling::Requirement* capacity_type =
      claim.requirements.Find(api::kCapacityTypeLabelKey);
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

  for (std::string_view chosen :
       {api::kCapacityTypeReserved, api::kCapacityTypeSpot, api::kCapacityTypeOnDemand}) {
    const LaunchOption* best_option = nullptr;
    const OfferingView* best = nullptr;
    for (const LaunchOption& option : options) {
      for (const OfferingView* offering : option.offerings) {
        if (offering->capacity_type != chosen) continue;
        // Options are in price-then-name order, so ties keep the earlier type, then the
        // alphabetically first zone.
        if (best == nullptr || offering->price < best->price ||
            (offering->price == best->price && best_option == &option &&
             offering->zone < best->zone)) {
          best_option = &option;
          best = offering;
        }
      }
    }
    if (best != nullptr) {
      return LaunchPrediction{best_option->type->name, best->zone, best->capacity_type,
                              best->price};
    }
  }
  return absl::NotFoundError("no instance type has an available offering the NodeClaim allows");
}

}  // namespace karpenter::provisioning
