#include "src/bench/lower_bound.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <utility>

#include "ClpSimplex.hpp"
#include "CoinPackedMatrix.hpp"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "karpenter/common/status.h"
#include "src/api/karpenter_labels.h"
#include "src/api/pod_resources.h"
#include "src/api/selector_match.h"

namespace karpenter::bench {
namespace {

constexpr double kMilli = 1000.0;
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr double kRelativeTolerance = 1e-9;

double Milli(const api::ResourceList& list, const char* name) {
  auto it = list.find(name);
  return it == list.end() ? 0 : static_cast<double>(it->second.MilliValue());
}

double Value(const api::ResourceList& list, const char* name) {
  auto it = list.find(name);
  return it == list.end() ? 0 : it->second.AsApproximateFloat64();
}

// Rounds an LP optimum down so round-off inside the solver never overstates the bound.
double RoundDown(double objective) {
  return std::max(0.0, objective - kRelativeTolerance * std::max(1.0, std::abs(objective)));
}

// Canonical text of a selector plus namespace scope, so equal anti-affinity terms group.
std::string TermKey(const std::set<std::string>& scope, const api::LabelSelector& selector) {
  std::string key;
  for (const std::string& ns : scope) absl::StrAppend(&key, ns, ",");
  key += "|";
  for (const auto& [k, v] : selector.match_labels) absl::StrAppend(&key, k, "=", v, ";");
  key += "|";
  for (const api::LabelSelectorRequirement& r : selector.match_expressions) {
    absl::StrAppend(&key, r.key, " ", r.operator_, " ");
    for (const std::string& v : r.values) absl::StrAppend(&key, v, ",");
    key += ";";
  }
  return key;
}

// The LP of lower_bound.h, with the node-floor row when `floor` is set.
absl::StatusOr<FluidSolution> SolveLp(const FluidDemand& demand,
                                      std::span<const FluidNodeType> types,
                                      const FluidNodeFloor* floor) {
  // Rows in units near 1 (cores, GiB, pods, nodes) keep the simplex well scaled.
  const std::array<double, 4> need = {demand.cpu_milli / kMilli, demand.memory_bytes / kGiB,
                                      demand.pods, floor != nullptr ? floor->nodes : 0};
  if (std::all_of(need.begin(), need.end(), [](double d) { return d <= 0; })) {
    return FluidSolution{};
  }
  if (floor != nullptr && floor->eligible.size() != types.size()) {
    return absl::InvalidArgumentError("the node floor needs one eligibility flag per type");
  }
  for (const FluidNodeType& t : types) {
    if (t.price < 0 || t.cpu_milli < 0 || t.memory_bytes < 0 || t.pods < 0) {
      return absl::InvalidArgumentError("node type with a negative price or capacity");
    }
  }
  const int rows = floor != nullptr ? 4 : 3;
  const int columns = static_cast<int>(types.size());
  std::vector<int> row_index;
  std::vector<int> column_index;
  std::vector<double> elements;
  for (int c = 0; c < columns; ++c) {
    const FluidNodeType& t = types[static_cast<size_t>(c)];
    const bool eligible = floor != nullptr && floor->eligible[static_cast<size_t>(c)];
    const std::array<double, 4> cap = {t.cpu_milli / kMilli, t.memory_bytes / kGiB, t.pods,
                                       eligible ? 1.0 : 0.0};
    for (int r = 0; r < rows; ++r) {
      if (cap[static_cast<size_t>(r)] <= 0) continue;
      row_index.push_back(r);
      column_index.push_back(c);
      elements.push_back(cap[static_cast<size_t>(r)]);
    }
  }
  std::vector<double> cost(types.size());
  for (size_t c = 0; c < types.size(); ++c) cost[c] = types[c].price;
  const std::vector<double> column_lower(types.size(), 0.0);
  const std::vector<double> column_upper(types.size(), COIN_DBL_MAX);
  const std::array<double, 4> row_upper = {COIN_DBL_MAX, COIN_DBL_MAX, COIN_DBL_MAX, COIN_DBL_MAX};

  // CLP reports failures through its status, but CoinUtils may throw CoinError on bad input.
  try {
    const CoinPackedMatrix matrix(/*colordered=*/true, row_index.data(), column_index.data(),
                                  elements.data(), static_cast<CoinBigIndex>(elements.size()));
    ClpSimplex model;
    model.setLogLevel(0);
    model.messageHandler()->setLogLevel(0);
    // The matrix may have fewer stored rows/columns than the problem when a trailing row or
    // column is empty; size it explicitly.
    CoinPackedMatrix sized(matrix);
    sized.setDimensions(rows, columns);
    model.loadProblem(sized, column_lower.data(), column_upper.data(), cost.data(), need.data(),
                      row_upper.data());
    model.setOptimizationDirection(1);
    model.dual();
    if (model.isProvenPrimalInfeasible()) {
      return absl::FailedPreconditionError("no mix of node types covers the demand");
    }
    if (!model.isProvenOptimal()) {
      return absl::InternalError(absl::StrCat("CLP stopped with status ", model.status()));
    }
    // Row duals are $/h per core, per GiB and per pod; report them per millicore and per byte.
    const double* duals = model.dualRowSolution();
    return FluidSolution{.bound = RoundDown(model.objectiveValue()),
                         .price_per_cpu_milli = std::max(0.0, duals[0]) / kMilli,
                         .price_per_memory_byte = std::max(0.0, duals[1]) / kGiB,
                         .price_per_pod = std::max(0.0, duals[2])};
  } catch (...) {
    return absl::InternalError("CLP raised an exception");
  }
}

// Whether a node of `type` can hold a pod asking `pod` (one pod's DemandOf).
bool Holds(const FluidNodeType& type, const FluidDemand& pod) {
  return pod.cpu_milli <= type.cpu_milli && pod.memory_bytes <= type.memory_bytes &&
         pod.pods <= type.pods;
}

}  // namespace

FluidDemand DemandOf(std::span<const api::Pod> pods) {
  FluidDemand demand;
  for (const api::Pod& pod : pods) {
    const FluidDemand requests = ResourcesOf(api::PodRequests(pod));
    demand.cpu_milli += requests.cpu_milli;
    demand.memory_bytes += requests.memory_bytes;
    demand.pods += 1;
  }
  return demand;
}

FluidDemand ResourcesOf(const api::ResourceList& list) {
  return {Milli(list, "cpu"), Value(list, "memory"), Value(list, "pods")};
}

std::vector<FluidNodeType> NodeTypesOf(std::span<const FakeInstanceType> types) {
  std::vector<FluidNodeType> out;
  out.reserve(types.size());
  for (const FakeInstanceType& type : types) {
    if (std::none_of(type.offerings.begin(), type.offerings.end(),
                     [](const FakeOffering& o) { return o.available; })) {
      continue;
    }
    const FluidDemand allocatable = ResourcesOf(type.allocatable);
    out.push_back(
        {type.CheapestPrice(), allocatable.cpu_milli, allocatable.memory_bytes, allocatable.pods});
  }
  return out;
}

absl::StatusOr<double> FluidLowerBound(const FluidDemand& demand,
                                       std::span<const FluidNodeType> types) {
  KP_ASSIGN_OR_RETURN(const FluidSolution solution, SolveFluid(demand, types));
  return solution.bound;
}

absl::StatusOr<FluidSolution> SolveFluid(const FluidDemand& demand,
                                         std::span<const FluidNodeType> types) {
  return SolveLp(demand, types, nullptr);
}

absl::StatusOr<double> FluidLowerBoundWithFloor(const FluidDemand& demand,
                                                std::span<const FluidNodeType> types,
                                                const FluidNodeFloor& floor) {
  KP_ASSIGN_OR_RETURN(const FluidSolution solution, SolveLp(demand, types, &floor));
  return solution.bound;
}

absl::StatusOr<double> FluidLowerBound(std::span<const api::Pod> pods,
                                       std::span<const FakeInstanceType> types) {
  const std::vector<FluidNodeType> node_types = NodeTypesOf(types);
  return FluidLowerBound(DemandOf(pods), node_types);
}

std::vector<const api::Pod*> LargestAntiAffinityClique(std::span<const api::Pod> pods) {
  // For each distinct (scope, selector) term: the carriers it applies to.
  std::map<std::string, std::vector<const api::Pod*>> cliques;
  for (const api::Pod& pod : pods) {
    if (!pod.spec.affinity || !pod.spec.affinity->pod_anti_affinity) continue;
    // One pod can carry the same term twice; count it once per term.
    std::set<std::string> seen;
    for (const api::PodAffinityTerm& term :
         pod.spec.affinity->pod_anti_affinity
             ->required_during_scheduling_ignored_during_execution) {
      if (term.topology_key != api::kLabelHostname || !term.label_selector ||
          term.namespace_selector || !term.match_label_keys.empty() ||
          !term.mismatch_label_keys.empty()) {
        continue;
      }
      std::set<std::string> scope(term.namespaces.begin(), term.namespaces.end());
      if (scope.empty()) scope.insert(pod.metadata.namespace_);
      // A carrier outside its own term's scope or selector is not forced apart from the others.
      if (!scope.contains(pod.metadata.namespace_) ||
          !api::Matches(*term.label_selector, pod.metadata.labels)) {
        continue;
      }
      std::string key = TermKey(scope, *term.label_selector);
      if (seen.insert(key).second) cliques[key].push_back(&pod);
    }
  }
  std::vector<const api::Pod*> largest;
  for (auto& [key, clique] : cliques) {
    if (clique.size() > largest.size()) largest = std::move(clique);
  }
  return largest;
}

int64_t AntiAffinityNodeFloor(std::span<const api::Pod> pods) {
  if (pods.empty()) return 0;
  return std::max<int64_t>(1, static_cast<int64_t>(LargestAntiAffinityClique(pods).size()));
}

absl::StatusOr<double> FluidLowerBoundWithFloor(std::span<const api::Pod> pods,
                                                std::span<const FakeInstanceType> types) {
  const std::vector<FluidNodeType> node_types = NodeTypesOf(types);
  const std::vector<const api::Pod*> clique = LargestAntiAffinityClique(pods);
  std::vector<FluidDemand> clique_demands;
  clique_demands.reserve(clique.size());
  for (const api::Pod* pod : clique)
    clique_demands.push_back(DemandOf(std::span<const api::Pod>(pod, 1)));
  FluidNodeFloor floor{.nodes = static_cast<double>(clique.size())};
  floor.eligible.reserve(node_types.size());
  for (const FluidNodeType& type : node_types) {
    floor.eligible.push_back(
        std::any_of(clique_demands.begin(), clique_demands.end(),
                    [&type](const FluidDemand& pod) { return Holds(type, pod); }));
  }
  return FluidLowerBoundWithFloor(DemandOf(pods), node_types, floor);
}

}  // namespace karpenter::bench
