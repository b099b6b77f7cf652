#include "src/migrate/autoscaler_mapping.h"

#include <algorithm>
#include <optional>
#include <set>

#include "fmt/format.h"

namespace karpenter::migrate {
namespace {

std::string ExpanderLoss(const std::string& expander) {
  if (expander == "random") {
    return "Karpenter does not pick at random: it launches the cheapest types that fit the "
           "pending pods; nothing to carry";
  }
  if (expander == "most-pods" || expander == "least-waste" || expander == "least-nodes") {
    return fmt::format(
        "no {} setting: Karpenter bin-packs the pending pods onto the cheapest "
        "types that fit them, over all NodePools that allow them",
        expander);
  }
  if (expander == "price") {
    return "Karpenter already chooses by price (on-demand: lowest price; spot: "
           "price-capacity-optimized): nothing to set";
  }
  if (expander == "grpc") return "an external gRPC expander has no Karpenter equivalent";
  return "";
}

void ExpanderLosses(const ClusterAutoscalerConfig& config, std::vector<LossyMapping>& lossy) {
  for (size_t i = 0; i < config.expanders.size(); ++i) {
    const std::string& expander = config.expanders[i];
    if (expander == "priority" && i == 0) continue;
    std::string reason = ExpanderLoss(expander);
    if (i > 0) {
      reason = fmt::format("breaks ties of the expanders before it; {}",
                           expander == "priority" ? "only a first priority expander becomes "
                                                    "NodePool weights"
                                                  : reason);
    }
    lossy.push_back({kAutoscalerGroup, "--expander=" + expander, reason});
  }
}

void FlagLosses(const ClusterAutoscalerConfig& config, std::vector<LossyMapping>& lossy) {
  auto loss = [&](std::string flag, std::string reason) {
    lossy.push_back({kAutoscalerGroup, std::move(flag), std::move(reason)});
  };
  if (config.balance_similar_node_groups) {
    loss("--balance-similar-node-groups",
         "Karpenter has no node groups to balance: spread replicas over zones with "
         "topologySpreadConstraints on the workloads instead");
  }
  if (config.IsSet("scale-down-delay-after-add")) {
    loss("--scale-down-delay-after-add",
         fmt::format("Karpenter has no cluster-wide pause ({}) after a scale-up: consolidateAfter "
                     "counts per node from its last pod change",
                     config.scale_down_delay_after_add.String()));
  }
  if (config.skip_nodes_with_local_storage) {
    loss("--skip-nodes-with-local-storage",
         "Karpenter evicts pods with emptyDir or hostPath volumes when it consolidates: annotate "
         "those that must stay with karpenter.sh/do-not-disrupt: \"true\" (see the local-storage "
         "check)");
  }
  if (config.skip_nodes_with_system_pods) {
    loss("--skip-nodes-with-system-pods",
         "Karpenter consolidates nodes running kube-system pods: keep them on the static group or "
         "annotate them karpenter.sh/do-not-disrupt: \"true\"");
  }
  if (config.IsSet("max-node-provision-time") &&
      config.max_node_provision_time != api::Duration::FromMinutes(15)) {
    loss("--max-node-provision-time",
         fmt::format("Karpenter deletes a NodeClaim whose node has not registered within 15m, a "
                     "fixed time: {} is not carried",
                     config.max_node_provision_time.String()));
  }
  if (config.IsSet("expendable-pods-priority-cutoff")) {
    loss("--expendable-pods-priority-cutoff",
         fmt::format("Karpenter launches nodes for every pending pod whatever its priority: pods "
                     "below {} now get capacity too",
                     config.expendable_pods_priority_cutoff));
  }
}

}  // namespace

std::string KarpenterDurationText(api::Duration duration) {
  int64_t seconds = duration.Nanos() / api::Duration::kSecond;
  if (duration.Nanos() % api::Duration::kSecond != 0) ++seconds;
  std::string text;
  if (seconds >= 3600) text += fmt::format("{}h", seconds / 3600);
  if (seconds % 3600 >= 60) text += fmt::format("{}m", seconds % 3600 / 60);
  if (seconds % 60 != 0 || text.empty()) text += fmt::format("{}s", seconds % 60);
  return text;
}

DisruptionSettings DisruptionFromAutoscaler(const ClusterAutoscalerConfig& config,
                                            std::vector<LossyMapping>& lossy) {
  DisruptionSettings settings;
  if (!config.deployment_found) return settings;
  ExpanderLosses(config, lossy);
  if (!config.scale_down_enabled) {
    settings.consolidate_after = "Never";
    lossy.push_back({kAutoscalerGroup, "--scale-down-enabled=false",
                     "consolidateAfter: Never stops consolidation, but expireAfter (720h) and "
                     "drift still replace nodes"});
  } else if (config.IsSet("scale-down-unneeded-time")) {
    settings.consolidate_after = KarpenterDurationText(config.scale_down_unneeded_time);
  }
  if (config.IsSet("scale-down-utilization-threshold")) {
    if (config.scale_down_utilization_threshold == 0) {
      settings.consolidation_policy = "WhenEmpty";
    } else {
      lossy.push_back(
          {kAutoscalerGroup, "--scale-down-utilization-threshold",
           fmt::format("Karpenter has no utilization threshold ({}): WhenEmptyOrUnderutilized "
                       "consolidates a node whenever its pods fit elsewhere for less",
                       config.scale_down_utilization_threshold)});
    }
  }
  FlagLosses(config, lossy);
  return settings;
}

std::map<std::string, int> WeightsFromPriorities(const ClusterAutoscalerConfig& config,
                                                 const std::vector<GroupIdentity>& groups,
                                                 std::vector<LossyMapping>& lossy) {
  const bool priority_expander =
      config.deployment_found && !config.expanders.empty() && config.expanders[0] == "priority";
  if (!priority_expander) {
    if (config.priorities_found) {
      lossy.push_back({kAutoscalerGroup, kPriorityExpanderConfigMap,
                       config.deployment_found
                           ? "read, but --expander does not start with priority: no weights"
                           : "read, but without the Deployment the expander is unknown: no "
                             "weights (give the cluster-autoscaler Deployment too)"});
    }
    return {};
  }
  if (!config.priorities_found) {
    lossy.push_back({kAutoscalerGroup, "--expander=priority",
                     fmt::format("the {} ConfigMap is not given: NodePools get no weights",
                                 kPriorityExpanderConfigMap)});
    return {};
  }
  std::map<std::string, int64_t> priorities;
  for (const GroupIdentity& group : groups) {
    std::vector<std::string> names = group.asg_names;
    if (names.empty()) names.push_back(group.group);
    std::optional<int64_t> priority = PriorityOf(config, names);
    if (!priority) {
      lossy.push_back({group.group, "priority",
                       fmt::format("no pattern of {} matches {}: no weight, so the NodePool "
                                   "ranks below every weighted one",
                                   kPriorityExpanderConfigMap, fmt::join(names, ", "))});
      continue;
    }
    priorities[group.group] = *priority;
  }
  std::set<int64_t> distinct;
  for (const auto& [group, priority] : priorities) distinct.insert(priority);
  const bool in_range = distinct.empty() || (*distinct.begin() >= 1 && *distinct.rbegin() <= 100);
  std::map<std::string, int> weights;
  for (const auto& [group, priority] : priorities) {
    if (in_range) {
      weights[group] = static_cast<int>(priority);
      continue;
    }
    const int64_t rank = std::distance(distinct.begin(), distinct.find(priority));
    const int64_t count = static_cast<int64_t>(distinct.size());
    weights[group] = count == 1 ? 100 : static_cast<int>(1 + rank * 99 / (count - 1));
    lossy.push_back({group, "priority",
                     fmt::format("priority {} is outside a NodePool's 1..100: weight {} keeps "
                                 "its order among the groups",
                                 priority, weights[group])});
  }
  return weights;
}

}  // namespace karpenter::migrate
