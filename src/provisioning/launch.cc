#include "src/provisioning/launch.h"

#include <algorithm>
#include <limits>
#include <set>

#include "fmt/format.h"
#include "src/api/karpenter_labels.h"
#include "src/api/resource_names.h"
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
  const scheduling::Requirements& requirements = claim.requirements();
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
  CandidateList kept;
  for (size_t i = 0; i < priced.size() && i < max_instance_types; ++i) {
    kept.push_back(priced[i].second);
  }
  if (options.min_values_policy == MinValuesPolicy::kStrict) {
    const std::string unmet = UnmetMinValuesKey(kept, requirements);
    if (!unmet.empty()) {
      return absl::FailedPreconditionError(fmt::format(
          "minValues requirement is not met for {} after keeping the cheapest {} instance types",
          unmet, max_instance_types));
    }
  }

  NewNodeClaim out;
  out.node_pool = claim.node_claim_template().node_pool;
  std::set<std::string> capacity_types;
  std::set<std::string> zones;
  for (const TypeCandidate* candidate : kept) {
    out.instance_types.push_back(candidate->type->name);
    out.instance_type_options.push_back(candidate->type);
    for (const OfferingView& offering : candidate->type->offerings) {
      if (offering.available && allowed.Allows(offering)) {
        capacity_types.insert(offering.capacity_type);
        zones.insert(offering.zone);
      }
    }
  }
  out.capacity_types.assign(capacity_types.begin(), capacity_types.end());
  out.zones.assign(zones.begin(), zones.end());
  out.requirements = requirements;
  out.requirements.Add(
      scheduling::Requirement::In(api::kLabelInstanceTypeStable, out.instance_types));
  out.requirements.Add(scheduling::Requirement::In(api::kCapacityTypeLabelKey, out.capacity_types));
  for (const api::Pod* pod : claim.pods()) {
    out.pods.push_back(pod->metadata.namespace_ + "/" + pod->metadata.name);
  }
  // Well-known keys are the cloud provider's to set and restricted ones are refused on nodes.
  out.labels = requirements.Labels([](std::string_view key) {
    return api::IsWellKnownLabel(key) || api::IsRestrictedLabel(key) || key == api::kLabelHostname;
  });
  for (const auto& [key, value] : claim.node_claim_template().labels) out.labels[key] = value;
  out.requests = Merge(claim.pod_requests(), MinOverhead(kept));
  out.min_values_relaxed = claim.min_values_relaxed();
  return out;
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
