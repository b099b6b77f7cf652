#include "src/disruption/extended_consolidation.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "fmt/format.h"
#include "src/api/karpenter_labels.h"
#include "src/api/pod_resources.h"
#include "src/disruption/disruption.h"
#include "src/provisioning/instance_filter.h"
#include "src/provisioning/template_claim.h"

namespace karpenter::disruption {
namespace {

// The instance family the candidate's type belongs to, or "" when its type names none.
std::string FamilyOf(const Candidate& candidate) {
  if (candidate.instance_type == nullptr) return "";
  const scheduling::Requirement* family =
      candidate.instance_type->requirements.Find(api::kLabelInstanceFamily);
  if (family == nullptr || family->Values().size() != 1) return "";
  return family->Values().front();
}

struct Group {
  std::string detail;
  std::vector<const Candidate*> candidates;  // in the caller's order, all of one NodePool
};

// Groups of two or more candidates of one NodePool sharing `key_of`, by pool then key, each in
// `candidates`' order; a group equal to one already in `out` (a family of one type) is skipped.
template <class KeyOf>
void AddGroups(std::span<const Candidate* const> candidates, std::string_view what, KeyOf key_of,
               std::vector<Group>& out) {
  std::map<std::pair<std::string, std::string>, std::vector<const Candidate*>> by_key;
  for (const Candidate* candidate : candidates) {
    std::string key = key_of(*candidate);
    if (key.empty()) continue;
    by_key[{candidate->node_pool->metadata.name, std::move(key)}].push_back(candidate);
  }
  for (auto& entry : by_key) {
    // Not a structured binding: clang 14 (the fuzz build) cannot capture one in a lambda.
    const auto& key = entry.first;
    auto& members = entry.second;
    if (members.size() < 2) continue;
    if (std::any_of(out.begin(), out.end(),
                    [&](const Group& g) { return g.candidates == members; })) {
      continue;
    }
    out.push_back({fmt::format("extended search: nodepool {}, candidates of {} {}", key.first, what,
                               key.second),
                   std::move(members)});
  }
}

// Requests of the pods a move would reschedule: millicores, bytes and a count.
struct Demand {
  int64_t milli_cpu = 0;
  int64_t memory = 0;
  int64_t pods = 0;
};

Demand AllocatableOf(const provisioning::InstanceTypeView& type) {
  auto value = [&](const char* name, bool milli) -> int64_t {
    auto it = type.allocatable.find(name);
    if (it == type.allocatable.end()) return 0;
    return milli ? it->second.MilliValue() : it->second.Value();
  };
  return {value("cpu", true), value("memory", false), value("pods", false)};
}

bool Fits(const Demand& demand, const Demand& capacity) {
  return demand.milli_cpu <= capacity.milli_cpu && demand.memory <= capacity.memory &&
         demand.pods <= capacity.pods;
}

// Prefix lengths worth simulating besides the binary search's: for each type the pool may
// launch, the longest prefix whose pods' summed requests fit the type's allocatable, kept when
// the type's cheapest offering undercuts that prefix's price. The binary search assumes that a
// prefix consolidates whenever a longer one does, which node sizes break: five m5.xlarge at 70 %
// fit one m5.4xlarge ($0.768 < $0.96) while no prefix of two to four saves anything, so the
// search stops short. Ordered by the saving they promise, most first.
std::vector<size_t> FillingPrefixLengths(std::span<const Candidate* const> group,
                                         std::span<const provisioning::InstanceTypeView> types) {
  std::vector<Demand> demand(group.size() + 1);
  std::vector<double> price(group.size() + 1, 0);
  for (size_t i = 0; i < group.size(); ++i) {
    demand[i + 1] = demand[i];
    price[i + 1] = price[i] + group[i]->price;
    for (const api::Pod* pod : group[i]->reschedulable_pods) {
      const api::ResourceList requests = api::PodRequests(*pod);
      if (auto it = requests.find("cpu"); it != requests.end()) {
        demand[i + 1].milli_cpu += it->second.MilliValue();
      }
      if (auto it = requests.find("memory"); it != requests.end()) {
        demand[i + 1].memory += it->second.Value();
      }
      ++demand[i + 1].pods;
    }
  }
  absl::StatusOr<scheduling::Requirements> requirements =
      provisioning::TemplateRequirements(*group.front()->node_pool);
  std::map<size_t, double> saving_by_length;
  for (const provisioning::InstanceTypeView& type : types) {
    const Demand capacity = AllocatableOf(type);
    size_t length = 0;
    while (length < group.size() && Fits(demand[length + 1], capacity)) ++length;
    if (length < 2) continue;
    const double type_price = requirements.ok()
                                  ? provisioning::CheapestOfferingPrice(type, *requirements)
                                  : provisioning::CheapestOfferingPrice(type, {});
    if (!(type_price < price[length])) continue;
    double& saving = saving_by_length[length];
    saving = std::max(saving, price[length] - type_price);
  }
  std::vector<std::pair<double, size_t>> ranked;
  for (const auto& [length, saving] : saving_by_length) ranked.push_back({saving, length});
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first > b.first : a.second > b.second;
  });
  std::vector<size_t> lengths;
  for (const auto& [saving, length] : ranked) lengths.push_back(length);
  return lengths;
}

// The better of two commands: more savings, the first on ties.
void KeepBest(std::optional<Command> command, std::optional<Command>& best) {
  if (!command || (best && command->savings_per_hour <= best->savings_per_hour)) return;
  best = std::move(command);
}

}  // namespace

std::optional<ConsolidationSearch> ParseConsolidationSearch(std::string_view text) {
  if (text == "upstream") return ConsolidationSearch::kUpstream;
  if (text == "extended") return ConsolidationSearch::kExtended;
  return std::nullopt;
}

std::optional<Command> GroupedMultiNodeConsolidation(const Simulator& simulator,
                                                     std::span<const Candidate* const> candidates,
                                                     const PoolTypes& pool_types,
                                                     const ConsolidationOptions& options,
                                                     size_t max_candidates) {
  std::vector<Group> groups;
  AddGroups(
      candidates, "instance type", [](const Candidate& c) { return c.instance_type_name; }, groups);
  AddGroups(candidates, "instance family", FamilyOf, groups);
  std::optional<Command> best;
  for (const Group& group : groups) {
    std::optional<Command> group_best =
        MultiNodeConsolidation(simulator, group.candidates, options, max_candidates);
    const std::span<const Candidate* const> capped =
        std::span(group.candidates).first(std::min(group.candidates.size(), max_candidates));
    auto types = pool_types.find(capped.front()->node_pool->metadata.name);
    if (types != pool_types.end()) {
      for (size_t length : FillingPrefixLengths(capped, types->second)) {
        KeepBest(ConsolidateMultiNode(simulator, capped.first(length), options), group_best);
      }
    }
    if (group_best) group_best->detail = group.detail;
    KeepBest(std::move(group_best), best);
  }
  return best;
}

}  // namespace karpenter::disruption
