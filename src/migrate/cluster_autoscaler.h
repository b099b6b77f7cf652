// What a migration reads from Cluster Autoscaler's own objects: the flags of its Deployment
// (`kubectl get deploy -n kube-system cluster-autoscaler -o yaml`) and the priorities of the
// priority expander's ConfigMap (`cluster-autoscaler-priority-expander`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "karpenter/common/status.h"
#include "src/api/duration.h"
#include "src/migrate/kube_documents.h"

namespace karpenter::migrate {

inline constexpr char kPriorityExpanderConfigMap[] = "cluster-autoscaler-priority-expander";

// One entry of the ConfigMap's `data.priorities`: ASG names matching any pattern get `priority`.
struct PriorityRule {
  int64_t priority = 0;
  std::vector<std::string> patterns;  // Go regular expressions, searched (not anchored)
};

// A `--nodes=MIN:MAX:NAME` flag: an Auto Scaling group Cluster Autoscaler scales within these
// bounds (its static configuration, used without or beside auto-discovery).
struct StaticNodeGroup {
  int64_t min_size = 0;
  int64_t max_size = 0;
  std::string name;  // the Auto Scaling group's name
  std::string flag;  // as written, for notes: "--nodes=1:10:eks-general-2ac6"
};

// The settings that matter to a migration, with Cluster Autoscaler's defaults where a flag is
// absent; `set_flags` lists the flags the Deployment sets (by name, without dashes).
struct ClusterAutoscalerConfig {
  bool deployment_found = false;
  std::string deployment_namespace;
  std::string deployment_name;
  std::vector<std::string> set_flags;
  std::vector<std::string> expanders = {"random"};
  bool balance_similar_node_groups = false;
  bool scale_down_enabled = true;
  double scale_down_utilization_threshold = 0.5;
  api::Duration scale_down_unneeded_time = api::Duration::FromMinutes(10);
  api::Duration scale_down_delay_after_add = api::Duration::FromMinutes(10);
  bool skip_nodes_with_local_storage = true;
  bool skip_nodes_with_system_pods = true;
  api::Duration max_node_provision_time = api::Duration::FromMinutes(15);
  int64_t expendable_pods_priority_cutoff = -10;
  std::vector<StaticNodeGroup> static_node_groups;  // every --nodes, in order
  // Each `--node-group-auto-discovery=asg:tag=K[=V],...`: its tags as written ("K" or "K=V").
  std::vector<std::vector<std::string>> auto_discovery_tags;

  bool priorities_found = false;
  std::vector<PriorityRule> priorities;  // highest priority first

  bool IsSet(std::string_view flag) const;
};

// Whether `document` is one this reader takes: a Deployment with a cluster-autoscaler container,
// or the priority expander's ConfigMap.
bool IsClusterAutoscalerDocument(const KubeDocument& document);

// Reads every such document into `config`; InvalidArgument with every bad flag or priority,
// each as "SOURCE: Kind/ns/name: field.path: why". Other documents are skipped.
absl::Status ReadClusterAutoscaler(const std::vector<KubeDocument>& documents,
                                   ClusterAutoscalerConfig& config);

// The highest priority whose patterns match one of `names`, or nullopt.
std::optional<int64_t> PriorityOf(const ClusterAutoscalerConfig& config,
                                  const std::vector<std::string>& names);

}  // namespace karpenter::migrate
