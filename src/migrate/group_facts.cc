#include "src/migrate/group_facts.h"

#include <algorithm>
#include <set>

#include "fmt/format.h"

namespace karpenter::migrate {
namespace {

// The --nodes flag naming the group's Auto Scaling group (or the group itself), if any.
const StaticNodeGroup* StaticNodeGroupOf(const GroupFacts& facts,
                                         const ClusterAutoscalerConfig& config) {
  for (const StaticNodeGroup& flag : config.static_node_groups) {
    const bool names_asg =
        flag.name == facts.observed->name ||
        (facts.asg != nullptr && facts.asg->name == flag.name) ||
        (facts.eks != nullptr && std::find(facts.eks->asg_names.begin(), facts.eks->asg_names.end(),
                                           flag.name) != facts.eks->asg_names.end());
    if (names_asg) return &flag;
  }
  return nullptr;
}

}  // namespace

std::vector<GroupFacts> MatchGroupFacts(const ClusterSnapshot& snapshot,
                                        const MigrationInputs& inputs) {
  std::vector<GroupFacts> groups;
  for (const ObservedGroup& observed : snapshot.groups) {
    GroupFacts facts{&observed};
    for (const EksNodegroup& eks : inputs.nodegroups) {
      if (eks.name == observed.name) facts.eks = &eks;
    }
    for (const AsgBounds& asg : inputs.asgs) {
      if (asg.node_group == observed.name || asg.name == observed.name) facts.asg = &asg;
    }
    facts.flag = StaticNodeGroupOf(facts, inputs.autoscaler);
    groups.push_back(facts);
  }
  return groups;
}

std::vector<std::string> AsgNamesOf(const GroupFacts& facts) {
  std::set<std::string> names;
  if (facts.eks != nullptr) names.insert(facts.eks->asg_names.begin(), facts.eks->asg_names.end());
  if (facts.asg != nullptr) names.insert(facts.asg->name);
  return std::vector<std::string>(names.begin(), names.end());
}

std::optional<TemplateRef> TemplateRefOf(const GroupFacts& facts) {
  if (facts.eks != nullptr) {
    if (facts.eks->launch_template.empty()) return std::nullopt;
    return TemplateRef{facts.eks->launch_template, facts.eks->launch_template_id,
                       facts.eks->launch_template_version, "launch template"};
  }
  // A managed group's Auto Scaling group (tagged with it) launches from EKS' copy of its template.
  if (facts.asg == nullptr || !facts.asg->node_group.empty()) return std::nullopt;
  const AsgBounds& asg = *facts.asg;
  if (asg.launch_template_id.empty() && asg.launch_template_name.empty()) return std::nullopt;
  return TemplateRef{asg.launch_template_name, asg.launch_template_id, asg.launch_template_version,
                     fmt::format("Auto Scaling group {}'s launch template", asg.name)};
}

}  // namespace karpenter::migrate
