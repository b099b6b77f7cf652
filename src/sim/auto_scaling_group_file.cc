#include "src/sim/auto_scaling_group_file.h"

#include <yaml-cpp/yaml.h>

#include "absl/strings/str_join.h"
#include "fmt/format.h"
#include "src/api/input_file.h"
#include "src/api/utf8.h"
#include "src/api/yaml_document_scan.h"
#include "src/api/yaml_hang_guard.h"
#include "src/sim/scenario_reader.h"

namespace karpenter::sim {
namespace {

// A launch template specification: an id or a name, and a version the API accepts.
LaunchTemplateSpec ReadLaunchTemplateSpec(ScenarioReader& reader, const YAML::Node& node,
                                          const std::string& path) {
  LaunchTemplateSpec spec;
  if (!node.IsMap()) {
    reader.Error(path, "must be an object");
    return spec;
  }
  if (node["LaunchTemplateId"].IsDefined()) {
    spec.id = reader.String(node["LaunchTemplateId"], path + ".LaunchTemplateId");
  }
  if (node["LaunchTemplateName"].IsDefined()) {
    spec.name = reader.String(node["LaunchTemplateName"], path + ".LaunchTemplateName");
  }
  if (spec.id.empty() && spec.name.empty()) {
    reader.Error(path + ".LaunchTemplateId",
                 "required: the template's LaunchTemplateId or "
                 "LaunchTemplateName");
  }
  if (!node["Version"].IsDefined()) return spec;
  spec.version = reader.String(node["Version"], path + ".Version");
  const bool number = !spec.version.empty() && spec.version.size() <= 18 &&
                      spec.version.find_first_not_of("0123456789") == std::string::npos &&
                      spec.version != "0";
  if (!number && spec.version != "$Latest" && spec.version != "$Default") {
    reader.Error(
        path + ".Version",
        fmt::format("\"{}\": must be a version number, $Latest or $Default", spec.version));
  }
  return spec;
}

void ReadMixedInstancesPolicy(ScenarioReader& reader, const YAML::Node& policy,
                              const std::string& path, AutoScalingGroupRecord& group) {
  if (!policy.IsDefined() || policy.IsNull()) return;
  if (!policy.IsMap()) {
    reader.Error(path, "must be an object");
    return;
  }
  // A key the policy lacks is an invalid node, which throws when asked its type.
  const YAML::Node launch_template = policy["LaunchTemplate"];
  if (launch_template.IsDefined() && launch_template.IsMap()) {
    if (launch_template["LaunchTemplateSpecification"].IsDefined()) {
      group.launch_template =
          ReadLaunchTemplateSpec(reader, launch_template["LaunchTemplateSpecification"],
                                 path + ".LaunchTemplate.LaunchTemplateSpecification");
    }
    const std::string at = path + ".LaunchTemplate.Overrides";
    const std::vector<YAML::Node> overrides = reader.Items(launch_template["Overrides"], at);
    for (size_t i = 0; i < overrides.size(); ++i) {
      const std::string item = fmt::format("{}[{}]", at, i);
      if (!overrides[i].IsMap()) {
        reader.Error(item, "must be an object");
        continue;
      }
      InstanceOverride entry;
      entry.instance_type = reader.String(overrides[i]["InstanceType"], item + ".InstanceType");
      if (overrides[i]["WeightedCapacity"].IsDefined()) {
        entry.weighted_capacity =
            reader.String(overrides[i]["WeightedCapacity"], item + ".WeightedCapacity");
      }
      group.overrides.push_back(std::move(entry));
    }
  }
  const YAML::Node distribution = policy["InstancesDistribution"];
  if (!distribution.IsDefined() || !distribution.IsMap()) return;
  const std::string at = path + ".InstancesDistribution";
  if (distribution["OnDemandBaseCapacity"].IsDefined()) {
    group.on_demand_base = reader.Count(distribution["OnDemandBaseCapacity"],
                                        at + ".OnDemandBaseCapacity", kMaxNodeGroupSize);
  }
  if (distribution["OnDemandPercentageAboveBaseCapacity"].IsDefined()) {
    group.on_demand_percentage = reader.Count(distribution["OnDemandPercentageAboveBaseCapacity"],
                                              at + ".OnDemandPercentageAboveBaseCapacity", 100);
  }
}

AutoScalingGroupRecord ReadGroup(ScenarioReader& reader, const YAML::Node& node,
                                 const std::string& path) {
  AutoScalingGroupRecord group;
  if (!node.IsMap()) {
    reader.Error(path, "must be an object");
    return group;
  }
  group.name = reader.String(node["AutoScalingGroupName"], path + ".AutoScalingGroupName");
  group.min_size = reader.Count(node["MinSize"], path + ".MinSize", kMaxNodeGroupSize);
  group.max_size = reader.Count(node["MaxSize"], path + ".MaxSize", kMaxNodeGroupSize);
  if (group.max_size < group.min_size) {
    reader.Error(path + ".MaxSize", fmt::format("must be at least MinSize ({})", group.min_size));
  }
  const std::vector<YAML::Node> instances = reader.Items(node["Instances"], path + ".Instances");
  for (size_t i = 0; i < instances.size(); ++i) {
    const std::string at = fmt::format("{}.Instances[{}]", path, i);
    if (!instances[i].IsMap()) {
      reader.Error(at, "must be an object");
      continue;
    }
    group.instance_ids.push_back(reader.String(instances[i]["InstanceId"], at + ".InstanceId"));
  }
  if (node["LaunchTemplate"].IsDefined() && !node["LaunchTemplate"].IsNull()) {
    group.launch_template =
        ReadLaunchTemplateSpec(reader, node["LaunchTemplate"], path + ".LaunchTemplate");
  }
  ReadMixedInstancesPolicy(reader, node["MixedInstancesPolicy"], path + ".MixedInstancesPolicy",
                           group);
  const std::vector<YAML::Node> tags = reader.Items(node["Tags"], path + ".Tags");
  for (size_t i = 0; i < tags.size(); ++i) {
    const std::string at = fmt::format("{}.Tags[{}]", path, i);
    if (!tags[i].IsMap()) {
      reader.Error(at, "must be an object");
      continue;
    }
    const std::string key = reader.String(tags[i]["Key"], at + ".Key");
    if (key == kAutoDiscoveryTag) group.autoscaled = true;
    if (key == kEksNodeGroupTag) group.node_group = reader.String(tags[i]["Value"], at + ".Value");
  }
  return group;
}

}  // namespace

absl::StatusOr<std::vector<AutoScalingGroupRecord>> ParseAutoScalingGroups(
    std::string_view text, std::string_view source) {
  // yaml-cpp hangs or exhausts memory on some invalid input: refused before it sees it.
  for (absl::Status guard : {api::CheckUtf8(text), api::CheckNoTopLevelFlowEntry(text),
                             api::CheckYamlDocumentsAdvance(text)}) {
    if (!guard.ok())
      return absl::InvalidArgumentError(
          fmt::format("{}: {}", source, std::string(guard.message())));
  }
  ScenarioReader reader{std::string(source)};
  std::vector<AutoScalingGroupRecord> groups;
  // yaml-cpp reports problems by throwing; they are turned into a Status here.
  try {
    const YAML::Node root = YAML::Load(std::string(text));
    if (!root.IsMap()) {
      return absl::InvalidArgumentError(fmt::format(
          "{}: must be the output of aws autoscaling describe-auto-scaling-groups", source));
    }
    const std::vector<YAML::Node> items =
        reader.Items(root["AutoScalingGroups"], "AutoScalingGroups");
    for (size_t i = 0; i < items.size(); ++i) {
      groups.push_back(ReadGroup(reader, items[i], fmt::format("AutoScalingGroups[{}]", i)));
    }
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(fmt::format("{}: line {}, column {}: {}", source,
                                                  e.mark.line + 1, e.mark.column + 1, e.msg));
  }
  if (!reader.errors().empty()) {
    return absl::InvalidArgumentError(absl::StrJoin(reader.errors(), "\n"));
  }
  return groups;
}

absl::StatusOr<std::vector<AutoScalingGroupRecord>> LoadAutoScalingGroupsFile(
    const std::string& path) {
  absl::StatusOr<std::string> text = api::ReadInputFile(path);
  if (!text.ok()) {
    return absl::InvalidArgumentError(
        fmt::format("{}: cannot read the file: {}", path, std::string(text.status().message())));
  }
  return ParseAutoScalingGroups(*text, path);
}

}  // namespace karpenter::sim
