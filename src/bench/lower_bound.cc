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

}  // namespace

FluidDemand DemandOf(std::span<const api::Pod> pods) {
  FluidDemand demand;
  for (const api::Pod& pod : pods) {
    const api::ResourceList requests = api::PodRequests(pod);
    demand.cpu_milli += Milli(requests, "cpu");
    demand.memory_bytes += Value(requests, "memory");
    demand.pods += 1;
  }
  return demand;
}

std::vector<FluidNodeType> NodeTypesOf(std::span<const FakeInstanceType> types) {
  std::vector<FluidNodeType> out;
  out.reserve(types.size());
  for (const FakeInstanceType& type : types) {
    if (std::none_of(type.offerings.begin(), type.offerings.end(),
                     [](const FakeOffering& o) { return o.available; })) {
      continue;
    }
    out.push_back({type.CheapestPrice(), Milli(type.allocatable, "cpu"),
                   Value(type.allocatable, "memory"), Value(type.allocatable, "pods")});
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
  // Rows in units near 1 (cores, GiB, pods) keep the simplex well scaled.
  const std::array<double, 3> need = {demand.cpu_milli / kMilli, demand.memory_bytes / kGiB,
                                      demand.pods};
  if (std::all_of(need.begin(), need.end(), [](double d) { return d <= 0; })) {
    return FluidSolution{};
  }
  for (const FluidNodeType& t : types) {
    if (t.price < 0 || t.cpu_milli < 0 || t.memory_bytes < 0 || t.pods < 0) {
      return absl::InvalidArgumentError("node type with a negative price or capacity");
    }
  }
  const int columns = static_cast<int>(types.size());
  std::vector<int> row_index;
  std::vector<int> column_index;
  std::vector<double> elements;
  for (int c = 0; c < columns; ++c) {
    const FluidNodeType& t = types[static_cast<size_t>(c)];
    const std::array<double, 3> cap = {t.cpu_milli / kMilli, t.memory_bytes / kGiB, t.pods};
    for (int r = 0; r < 3; ++r) {
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
  const std::array<double, 3> row_upper = {COIN_DBL_MAX, COIN_DBL_MAX, COIN_DBL_MAX};

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
    sized.setDimensions(3, columns);
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

absl::StatusOr<double> FluidLowerBound(std::span<const api::Pod> pods,
                                       std::span<const FakeInstanceType> types) {
  const std::vector<FluidNodeType> node_types = NodeTypesOf(types);
  return FluidLowerBound(DemandOf(pods), node_types);
}

int64_t AntiAffinityNodeFloor(std::span<const api::Pod> pods) {
  if (pods.empty()) return 0;
  // For each distinct (scope, selector) term: how many of its carriers it applies to.
  std::map<std::string, int64_t> clique_sizes;
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
      if (seen.insert(key).second) ++clique_sizes[key];
    }
  }
  int64_t floor = 1;
  for (const auto& [key, size] : clique_sizes) floor = std::max(floor, size);
  return floor;
}

}  // namespace karpenter::bench
