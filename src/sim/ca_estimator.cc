#include "src/sim/ca_estimator.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "fmt/format.h"
#include "src/api/pod_resources.h"
#include "src/provisioning/scheduler.h"

namespace karpenter::sim {
namespace {

double Cores(const api::ResourceList& list) {
  auto it = list.find("cpu");
  return it == list.end() ? 0 : static_cast<double>(it->second.MilliValue()) / 1000.0;
}

double Bytes(const api::ResourceList& list) {
  auto it = list.find("memory");
  return it == list.end() ? 0 : static_cast<double>(it->second.Value());
}

// Indexes of the options scoring best (lower is better), compared with a relative tolerance.
std::vector<size_t> Best(const std::vector<size_t>& candidates, const std::vector<double>& scores) {
  double best = INFINITY;
  for (size_t i : candidates) best = std::min(best, scores[i]);
  std::vector<size_t> out;
  for (size_t i : candidates) {
    if (scores[i] <= best + 1e-9 * std::max(1.0, std::fabs(best))) out.push_back(i);
  }
  return out;
}

}  // namespace

Estimate EstimateNodes(const provisioning::ExistingNodeView& node, int max_nodes,
                       const std::vector<api::Pod>& pods,
                       const std::vector<api::Pod>& daemonset_pods) {
  Estimate estimate;
  if (max_nodes <= 0 || pods.empty()) return estimate;
  provisioning::SchedulerInput input;
  input.daemonset_pods = daemonset_pods;
  input.pending_pods = pods;
  for (int i = 0; i < max_nodes; ++i) {
    provisioning::ExistingNodeView copy = node;
    // Zero-padded so name order is creation order: first fit fills copy 0 first.
    copy.name = fmt::format("{}-template-{:05d}", node.name, i);
    copy.labels["kubernetes.io/hostname"] = copy.name;
    input.existing_nodes.push_back(std::move(copy));
  }
  provisioning::SchedulerResult result = provisioning::Solve(input);
  std::set<std::string> placed;
  for (const auto& [name, node_pods] : result.existing_node_pods) {
    if (node_pods.empty()) continue;
    ++estimate.nodes;
    placed.insert(node_pods.begin(), node_pods.end());
  }
  for (const api::Pod& pod : pods) {
    if (!placed.contains(provisioning::PodKey(pod))) continue;
    const api::ResourceList requests = api::PodRequests(pod);
    estimate.cpu_requested += Cores(requests);
    estimate.memory_requested += Bytes(requests);
  }
  estimate.pods.assign(placed.begin(), placed.end());
  return estimate;
}

size_t ChooseExpansion(Expander expander, const std::vector<ExpansionOption>& options,
                       Random& random) {
  std::vector<size_t> candidates;
  for (size_t i = 0; i < options.size(); ++i) candidates.push_back(i);
  std::vector<double> primary(options.size());
  std::vector<double> secondary(options.size(), 0);
  for (size_t i = 0; i < options.size(); ++i) {
    const ExpansionOption& option = options[i];
    const double nodes = option.estimate.nodes;
    switch (expander) {
      case Expander::kLeastWaste: {
        const double cpu = nodes * option.node_cpu;
        const double memory = nodes * option.node_memory;
        primary[i] = cpu > 0 ? (cpu - option.estimate.cpu_requested) / cpu : 1;
        secondary[i] = memory > 0 ? (memory - option.estimate.memory_requested) / memory : 1;
        break;
      }
      case Expander::kMostPods:
        primary[i] = -static_cast<double>(option.estimate.pods.size());
        break;
      case Expander::kPriority:
        primary[i] = -option.priority;
        break;
      case Expander::kRandom:
        primary[i] = 0;
        break;
    }
  }
  candidates = Best(candidates, primary);
  candidates = Best(candidates, secondary);
  return candidates[random.Below(candidates.size())];
}

}  // namespace karpenter::sim
