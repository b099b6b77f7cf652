// Cluster Autoscaler's settings carried to NodePools where upstream Karpenter has an equivalent
// (priorities → weights, scale-down → consolidation) and listed as lossy, with why, where not.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "src/migrate/cluster_autoscaler.h"
#include "src/migrate/migration_plan.h"

namespace karpenter::migrate {

// What lossy mappings of Cluster Autoscaler's own settings are filed under.
inline constexpr char kAutoscalerGroup[] = "cluster-autoscaler";

struct DisruptionSettings {
  std::string consolidation_policy = "WhenEmptyOrUnderutilized";
  std::string consolidate_after = "1m";  // the article's
};

// The disruption block of every NodePool: the article's unless the Deployment's flags say
// otherwise, and a lossy mapping for each flag without an equivalent.
DisruptionSettings DisruptionFromAutoscaler(const ClusterAutoscalerConfig& config,
                                            std::vector<LossyMapping>& lossy);

// A group as Cluster Autoscaler knows it: the priority expander matches ASG names.
struct GroupIdentity {
  std::string group;
  std::vector<std::string> asg_names;  // empty when no input names them
};

// NodePool weights (1..100, in the order of the priorities) by group, under the priority
// expander; empty under any other. Groups no pattern matches get none.
std::map<std::string, int> WeightsFromPriorities(const ClusterAutoscalerConfig& config,
                                                 const std::vector<GroupIdentity>& groups,
                                                 std::vector<LossyMapping>& lossy);

// A duration as Karpenter's CRD pattern takes it ("1h30m", "45s"), rounded up to a second.
std::string KarpenterDurationText(api::Duration duration);

}  // namespace karpenter::migrate
