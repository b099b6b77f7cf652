// What the inputs say about one node group of the snapshot, gathered before it is mapped: its
// describe-nodegroup, its Auto Scaling group, Cluster Autoscaler's --nodes for it, and the
// launch template it launches from.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "src/migrate/cluster_snapshot.h"
#include "src/migrate/migration_plan.h"

namespace karpenter::migrate {

// What one group maps to, merged from the Nodes, its describe-nodegroup and its Auto Scaling
// group; the pointers are into the snapshot and the inputs.
struct GroupFacts {
  const ObservedGroup* observed = nullptr;
  const EksNodegroup* eks = nullptr;
  const AsgBounds* asg = nullptr;
  const StaticNodeGroup* flag = nullptr;  // Cluster Autoscaler's --nodes for its ASG
};

// One per group of `snapshot`, in its order.
std::vector<GroupFacts> MatchGroupFacts(const ClusterSnapshot& snapshot,
                                        const MigrationInputs& inputs);

// The ASG names the priority expander's patterns are matched against.
std::vector<std::string> AsgNamesOf(const GroupFacts& facts);

// The launch template a group launches from: a managed group's own `launchTemplate` (EKS
// copies it into the group's Auto Scaling group, so that one is not read), else a self-managed
// Auto Scaling group's; `source` says whose it is in the lossy notes.
struct TemplateRef {
  std::string name;
  std::string id;
  std::string version;
  std::string source;
};

std::optional<TemplateRef> TemplateRefOf(const GroupFacts& facts);

}  // namespace karpenter::migrate
