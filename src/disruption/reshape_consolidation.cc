#include "src/disruption/reshape_consolidation.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "fmt/format.h"
#include "src/api/karpenter_labels.h"
#include "src/api/pod_resources.h"
#include "src/provisioning/instance_filter.h"
#include "src/provisioning/launch.h"
#include "src/provisioning/template_claim.h"

namespace karpenter::disruption {
namespace {

// Groups of this many candidates are re-shaped into at least two and at most this many nodes.
constexpr size_t kMinGroup = 2;
constexpr size_t kMaxGroup = 3;
// Strictly cheaper, beyond rounding: three m5.xlarge ($0.192) and an m5.2xlarge ($0.384) plus an
// m5.xlarge differ by 1e-16 in doubles.
constexpr double kMinSavingsPerHour = 1e-6;
// Options kept per group: the best mixes of one group differ little, and the search should try
// several groups.
constexpr size_t kOptionsPerGroup = 2;

// Requests of pods, or what a type offers them: millicores, bytes and a pod count.
struct Size {
  int64_t milli_cpu = 0;
  int64_t memory = 0;
  int64_t pods = 0;

  Size& operator+=(const Size& other) {
    milli_cpu += other.milli_cpu;
    memory += other.memory;
    pods += other.pods;
    return *this;
  }
  bool FitsIn(const Size& capacity) const {
    return milli_cpu <= capacity.milli_cpu && memory <= capacity.memory && pods <= capacity.pods;
  }
};

int64_t Amount(const api::ResourceList& list, const char* name, bool milli) {
  auto it = list.find(name);
  if (it == list.end()) return 0;
  return milli ? it->second.MilliValue() : it->second.Value();
}

Size DemandOf(const Candidate& candidate) {
  Size demand;
  for (const api::Pod* pod : candidate.reschedulable_pods) {
    const api::ResourceList requests = api::PodRequests(*pod);
    demand += {Amount(requests, "cpu", true), Amount(requests, "memory", false), 1};
  }
  return demand;
}

// A type the pool may launch on demand, at its cheapest such offering.
struct PricedType {
  const provisioning::InstanceTypeView* type;
  double price;
  Size allocatable;
};

// The types the pool's template claim allows, priced on demand.
std::vector<PricedType> OnDemandTypes(const provisioning::NewNodeClaim& claim) {
  scheduling::Requirements requirements = claim.requirements;
  requirements.Add(scheduling::Requirement::In(api::kCapacityTypeLabelKey,
                                               {std::string(api::kCapacityTypeOnDemand)}));
  std::vector<PricedType> out;
  for (const provisioning::InstanceTypeView* allowed : claim.instance_type_options) {
    const provisioning::InstanceTypeView& type = *allowed;
    const double price = provisioning::CheapestOfferingPrice(type, requirements);
    if (!std::isfinite(price)) continue;
    const Size allocatable{Amount(type.allocatable, "cpu", true),
                           Amount(type.allocatable, "memory", false),
                           Amount(type.allocatable, "pods", false)};
    out.push_back({&type, price, allocatable});
  }
  std::sort(out.begin(), out.end(), [](const PricedType& a, const PricedType& b) {
    return a.price != b.price ? a.price < b.price : a.type->name < b.type->name;
  });
  // A type no cheaper than an earlier one that offers as much (m5.metal after m5.24xlarge) only
  // repeats mixes.
  std::vector<PricedType> kept;
  for (const PricedType& type : out) {
    if (std::none_of(kept.begin(), kept.end(), [&](const PricedType& earlier) {
          return type.allocatable.FitsIn(earlier.allocatable);
        })) {
      kept.push_back(type);
    }
  }
  return kept;
}

// One move the search may check: `group` into `types`, promising `saving`.
struct Option {
  double saving = 0;
  std::vector<const Candidate*> group;
  std::vector<const PricedType*> types;
};

// Whether `types` cover `demand` and none of them could be left out (a smaller mix would do).
bool CoversMinimally(const std::vector<const PricedType*>& types, const Size& demand) {
  Size total;
  for (const PricedType* type : types) total += type->allocatable;
  if (!demand.FitsIn(total)) return false;
  for (const PricedType* left_out : types) {
    Size rest;
    for (const PricedType* type : types) {
      if (type != left_out) rest += type->allocatable;
    }
    if (demand.FitsIn(rest)) return false;
  }
  return true;
}

// Every multiset of `size` types (indices non-decreasing from `from`) cheaper than `budget`
// that covers `demand` minimally, appended to `out` for `group`.
struct MixSearch {
  const std::vector<PricedType>& types;
  Size largest;  // per resource, the most any one type offers
  size_t size;
  Size demand;
  const std::vector<const Candidate*>& group;
  std::vector<Option>& out;
};

// Every multiset of `search.size` types (indices non-decreasing from `from`) cheaper than
// `budget` that covers the demand minimally, appended to `out`; `held` is what `mix` offers.
void AddMixes(const MixSearch& search, size_t from, double budget, const Size& held,
              std::vector<const PricedType*>& mix) {
  if (mix.size() == search.size) {
    if (budget > kMinSavingsPerHour && CoversMinimally(mix, search.demand)) {
      search.out.push_back({budget, search.group, mix});
    }
    return;
  }
  // Even the largest types in every slot left cannot hold the demand.
  const auto slots = static_cast<int64_t>(search.size - mix.size());
  const Size most{held.milli_cpu + slots * search.largest.milli_cpu,
                  held.memory + slots * search.largest.memory,
                  held.pods + slots * search.largest.pods};
  if (!search.demand.FitsIn(most)) return;
  for (size_t i = from; i < search.types.size(); ++i) {
    const PricedType& type = search.types[i];
    // Sorted by price: the slots left cost at least this type each.
    if (!(type.price * static_cast<double>(slots) < budget)) break;
    mix.push_back(&type);
    Size more = held;
    more += type.allocatable;
    AddMixes(search, i, budget - type.price, more, mix);
    mix.pop_back();
  }
}

// Keeps the `keep` options of `group` (appended from `first` on) promising the most.
void KeepBestOptions(std::vector<Option>& out, size_t first, size_t keep) {
  auto begin = out.begin() + static_cast<std::ptrdiff_t>(first);
  std::stable_sort(begin, out.end(),
                   [](const Option& a, const Option& b) { return a.saving > b.saving; });
  if (static_cast<size_t>(out.end() - begin) > keep)
    out.erase(begin + static_cast<std::ptrdiff_t>(keep), out.end());
}

// The options for every group of kMinGroup..kMaxGroup of `pool_candidates`.
void AddOptions(std::span<const Candidate* const> pool_candidates,
                const std::vector<PricedType>& types, std::vector<Option>& out) {
  const size_t n = pool_candidates.size();
  std::vector<Size> demands;
  for (const Candidate* candidate : pool_candidates) demands.push_back(DemandOf(*candidate));
  Size largest;
  for (const PricedType& type : types) {
    largest.milli_cpu = std::max(largest.milli_cpu, type.allocatable.milli_cpu);
    largest.memory = std::max(largest.memory, type.allocatable.memory);
    largest.pods = std::max(largest.pods, type.allocatable.pods);
  }
  // Groups as bit masks over at most kReshapeCandidates candidates, in mask order.
  for (uint32_t mask = 1; mask < (1u << n); ++mask) {
    const size_t size = static_cast<size_t>(__builtin_popcount(mask));
    if (size < kMinGroup || size > kMaxGroup) continue;
    std::vector<const Candidate*> group;
    Size demand;
    double price = 0;
    for (size_t i = 0; i < n; ++i) {
      if ((mask & (1u << i)) == 0) continue;
      group.push_back(pool_candidates[i]);
      demand += demands[i];
      price += pool_candidates[i]->price;
    }
    // AddMixes records what is left of the group's price: the saving.
    const size_t first = out.size();
    for (size_t nodes = kMinGroup; nodes <= size; ++nodes) {
      std::vector<const PricedType*> mix;
      AddMixes({types, largest, nodes, demand, group, out}, 0, price, {}, mix);
    }
    KeepBestOptions(out, first, kOptionsPerGroup);
  }
}

// A NodePool a re-shape may launch into: its template claim (TemplateNodeClaim, computed once per
// search: it filters every instance type) and the types it allows on demand.
struct PoolPlan {
  const provisioning::NodePoolInstanceTypes* pool;
  provisioning::NewNodeClaim template_claim;
  std::vector<PricedType> types;  // the options point into it: filled once, never resized after
};

// The option's replacement NodeClaims, in `types` order, from the pool's template pinned to each
// type on demand in the zone of its cheapest offering.
std::optional<std::vector<provisioning::PlannedNodeClaim>> PlanReplacements(const PoolPlan& plan,
                                                                            const Option& option) {
  std::vector<provisioning::PlannedNodeClaim> planned;
  for (const PricedType* priced : option.types) {
    provisioning::NewNodeClaim claim = plan.template_claim;
    const auto& options = claim.instance_type_options;
    if (std::find(options.begin(), options.end(), priced->type) == options.end()) {
      return std::nullopt;
    }
    claim.requirements.Add(
        scheduling::Requirement::In(api::kLabelInstanceTypeStable, {priced->type->name}));
    claim.requirements.Add(scheduling::Requirement::In(api::kCapacityTypeLabelKey,
                                                       {std::string(api::kCapacityTypeOnDemand)}));
    claim.instance_type_options.Mutable().assign({priced->type});
    claim.instance_types = std::vector<std::string>{priced->type->name};
    claim.capacity_types = {std::string(api::kCapacityTypeOnDemand)};
    std::set<std::string> zones;
    for (const provisioning::OfferingView& offering : priced->type->offerings) {
      if (offering.available && provisioning::OfferingCompatible(offering, claim.requirements)) {
        zones.insert(offering.zone);
      }
    }
    claim.zones.assign(zones.begin(), zones.end());
    absl::StatusOr<provisioning::LaunchPrediction> launch = provisioning::PredictLaunch(claim);
    if (!launch.ok()) return std::nullopt;
    claim.requirements.Add(scheduling::Requirement::In(api::kLabelTopologyZone, {launch->zone}));
    claim.zones = {launch->zone};
    planned.push_back({std::move(claim), *std::move(launch)});
  }
  return planned;
}

double MemoryPerCpu(const PricedType& type) {
  return type.allocatable.milli_cpu > 0 ? static_cast<double>(type.allocatable.memory) /
                                              static_cast<double>(type.allocatable.milli_cpu)
                                        : 0;
}

// Whether the option holds: every pod lands, the replacements' launch prices beat the
// candidates', Balanced pools approve. The command when it does.
std::optional<Command> CheckOption(const Simulator& simulator,
                                   const provisioning::SchedulerInput& input, const PoolPlan& plan,
                                   const Option& option, const ConsolidationOptions& options) {
  std::optional<std::vector<provisioning::PlannedNodeClaim>> replacements =
      PlanReplacements(plan, option);
  if (!replacements) return std::nullopt;
  SimulationResult result =
      SimulateReshape(simulator, input, option.group, *replacements, options.now);
  if (!result.AllCandidatePodsScheduled()) {
    return std::nullopt;
  }
  Command command;
  std::vector<std::string> types;
  for (const Candidate* candidate : option.group) {
    command.candidates.push_back(candidate->name());
    command.candidate_price_per_hour += candidate->price;
  }
  command.savings_per_hour = command.candidate_price_per_hour;
  for (const provisioning::PlannedNodeClaim& planned : *replacements) {
    command.savings_per_hour -= planned.launch.price;
    types.push_back(planned.launch.instance_type);
  }
  if (!(command.savings_per_hour > kMinSavingsPerHour)) return std::nullopt;
  command.replacements = *std::move(replacements);
  command.destinations = std::move(result.destinations);
  command.detail = fmt::format("extended search: nodepool {}, re-shape {} nodes into {}",
                               plan.pool->node_pool.metadata.name, option.group.size(),
                               absl::StrJoin(types, " + "));
  if (options.balanced_totals != nullptr &&
      !ApproveBalanced(command, option.group, *options.balanced_totals)) {
    return std::nullopt;
  }
  return command;
}

}  // namespace

absl::StatusOr<std::vector<provisioning::ExistingNodeView>> ReplacementNodes(
    const provisioning::SchedulerInput& input,
    std::span<const provisioning::PlannedNodeClaim> replacements) {
  std::vector<provisioning::ExistingNodeView> nodes;
  for (size_t i = 0; i < replacements.size(); ++i) {
    const provisioning::PlannedNodeClaim& planned = replacements[i];
    auto pool = std::find_if(input.node_pools.begin(), input.node_pools.end(), [&](const auto& p) {
      return p.node_pool.metadata.name == planned.claim.node_pool;
    });
    if (pool == input.node_pools.end()) {
      return absl::NotFoundError(absl::StrCat("nodepool ", planned.claim.node_pool, " is gone"));
    }
    auto type = std::find_if(pool->instance_types.begin(), pool->instance_types.end(),
                             [&](const provisioning::InstanceTypeView& t) {
                               return t.name == planned.launch.instance_type;
                             });
    if (type == pool->instance_types.end()) {
      return absl::NotFoundError(
          absl::StrCat("instance type ", planned.launch.instance_type, " is no longer offered"));
    }
    provisioning::ExistingNodeView node;
    // Not a valid Kubernetes name (it has spaces), so it cannot collide with a real node, and it
    // is the destination a pod placed on it is reported with.
    node.name = absl::StrCat("new nodeclaim ", i + 1);
    node.labels = type->requirements.Labels();
    for (auto& [key, value] : planned.claim.requirements.Labels()) node.labels[key] = value;
    for (const auto& [key, value] : planned.claim.labels) node.labels[key] = value;
    node.labels[std::string(api::kNodePoolLabelKey)] = planned.claim.node_pool;
    node.labels[std::string(api::kLabelInstanceTypeStable)] = planned.launch.instance_type;
    node.labels[std::string(api::kLabelTopologyZone)] = planned.launch.zone;
    node.labels[std::string(api::kCapacityTypeLabelKey)] = planned.launch.capacity_type;
    node.labels[std::string(api::kLabelHostname)] = node.name;
    node.labels[std::string(api::kNodeRegisteredLabelKey)] = "true";
    node.labels[std::string(api::kNodeInitializedLabelKey)] = "true";
    node.taints = pool->node_pool.spec.template_.spec.taints;
    node.allocatable = type->allocatable;
    node.capacity = type->capacity;
    node.managed = true;
    node.initialized = true;
    nodes.push_back(std::move(node));
  }
  return nodes;
}

SimulationResult SimulateReshape(const Simulator& simulator,
                                 const provisioning::SchedulerInput& input,
                                 std::span<const Candidate* const> candidates,
                                 std::span<const provisioning::PlannedNodeClaim> replacements,
                                 api::Time now) {
  absl::StatusOr<std::vector<provisioning::ExistingNodeView>> nodes =
      ReplacementNodes(input, replacements);
  if (!nodes.ok()) {
    SimulationResult result;
    result.failures.push_back(std::string(nodes.status().message()));
    return result;
  }
  SimulationResult result =
      simulator.SimulateWith(candidates, *nodes, {.consolidation = true, .now = now});
  if (!result.new_node_claims.empty()) {
    result.failures.push_back(
        fmt::format("the moved pods need {} more nodeclaims", result.new_node_claims.size()));
    result.new_node_claims.clear();
  }
  return result;
}

std::optional<Command> ReshapeConsolidation(const Simulator& simulator,
                                            const provisioning::SchedulerInput& input,
                                            std::span<const Candidate* const> candidates,
                                            const ConsolidationOptions& options) {
  std::map<std::string, std::vector<const Candidate*>> by_pool;
  for (const Candidate* candidate : candidates) {
    if (candidate->capacity_type != api::kCapacityTypeOnDemand) continue;
    if (candidate->reschedulable_pods.empty()) continue;
    by_pool[candidate->node_pool->metadata.name].push_back(candidate);
  }
  std::vector<Option> all;
  std::map<std::string, PoolPlan> plans;  // node-based: the options point into its entries
  for (auto& entry : by_pool) {
    std::vector<const Candidate*>& members = entry.second;
    if (members.size() < kMinGroup) continue;
    auto pool = std::find_if(input.node_pools.begin(), input.node_pools.end(), [&](const auto& p) {
      return p.node_pool.metadata.name == entry.first;
    });
    if (pool == input.node_pools.end()) continue;
    absl::StatusOr<provisioning::NewNodeClaim> template_claim =
        provisioning::TemplateNodeClaim(*pool, input.options);
    if (!template_claim.ok()) continue;
    std::stable_sort(members.begin(), members.end(), [](const Candidate* a, const Candidate* b) {
      return a->price != b->price ? a->price > b->price : a->name() < b->name();
    });
    if (members.size() > kReshapeCandidates) members.resize(kReshapeCandidates);
    PoolPlan& plan = plans[entry.first] = {&*pool, *std::move(template_claim), {}};
    plan.types = OnDemandTypes(plan.template_claim);
    AddOptions(members, plan.types, all);
  }
  // Most promised saving first; ties keep generation order (pools by name, groups by mask).
  std::stable_sort(all.begin(), all.end(),
                   [](const Option& a, const Option& b) { return a.saving > b.saving; });
  size_t tried = 0;
  for (Option& option : all) {
    if (tried == kMaxReshapeSimulations) break;
    ++tried;
    // First fit fills the first replacement first: the one poorest in memory per CPU, so the
    // pods that fit it go there and the rest find the richer ones.
    std::stable_sort(option.types.begin(), option.types.end(),
                     [](const PricedType* a, const PricedType* b) {
                       return MemoryPerCpu(*a) < MemoryPerCpu(*b);
                     });
    const std::string& pool = option.group.front()->node_pool->metadata.name;
    std::optional<Command> command = CheckOption(simulator, input, plans.at(pool), option, options);
    if (command) return command;
  }
  return std::nullopt;
}

}  // namespace karpenter::disruption
