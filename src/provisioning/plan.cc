#include "src/provisioning/plan.h"

#include <algorithm>
#include <utility>

#include "src/provisioning/scheduler.h"

namespace karpenter::provisioning {
namespace {

// Pods of a claim nothing can launch join the unschedulable ones.
void AddLaunches(std::vector<NewNodeClaim> claims, PlanResult& plan,
                 std::map<std::string, std::string>& unschedulable) {
  LaunchPredictor predictor;
  for (NewNodeClaim& claim : claims) {
    const absl::StatusOr<LaunchPrediction>& launch = predictor.Predict(claim);
    if (!launch.ok()) {
      for (const std::string& pod : claim.pods) {
        unschedulable[pod] = std::string(launch.status().message());
      }
      continue;
    }
    plan.summary.scheduled_pods += claim.pods.size();
    plan.summary.price_per_hour += launch->price;
    plan.node_claims.push_back({std::move(claim), *launch});
  }
  plan.summary.new_node_claims = plan.node_claims.size();
}

}  // namespace

PlanResult PlanFromInput(const SnapshotSchedulerInput& input, const MillisClock& clock) {
  PlanResult plan;
  const int64_t start = clock ? clock() : 0;
  SchedulerResult solved = Solve(input.input);
  plan.summary.solve_millis = clock ? clock() - start : 0;

  std::map<std::string, std::string> unschedulable = std::move(solved.unschedulable);
  AddLaunches(std::move(solved.new_node_claims), plan, unschedulable);
  for (auto& [name, pods] : solved.existing_node_pods) {
    if (pods.empty()) continue;
    plan.summary.scheduled_pods += pods.size();
    plan.existing_nodes.push_back({name, std::move(pods)});
  }
  for (auto& [pod, reason] : unschedulable) {
    for (const std::string& pool : input.not_ready_node_pools) reason += "; " + pool;
    plan.unschedulable.push_back({pod, std::move(reason)});
  }
  for (const UnschedulablePod& ignored : input.ignored_pods) {
    plan.unschedulable.push_back(ignored);
  }
  std::stable_sort(
      plan.unschedulable.begin(), plan.unschedulable.end(),
      [](const UnschedulablePod& a, const UnschedulablePod& b) { return a.pod < b.pod; });
  plan.warnings = input.warnings;
  plan.summary.pending_pods = input.input.pending_pods.size() + input.ignored_pods.size();
  return plan;
}

absl::StatusOr<PlanResult> Plan(const state::ClusterSnapshot& snapshot, const PlanOptions& options,
                                const MillisClock& clock) {
  CatalogCache catalogs(options.spot_prices, options.region);
  KP_ASSIGN_OR_RETURN(SnapshotSchedulerInput input,
                      BuildSchedulerInput(snapshot, options, catalogs));
  return PlanFromInput(input, clock);
}

}  // namespace karpenter::provisioning
