#include "src/migrate/aws_inputs.h"

#include <limits>

#include "fmt/format.h"
#include "src/migrate/aws_json_reader.h"

namespace karpenter::migrate {
namespace {

constexpr int64_t kMaxCount = std::numeric_limits<int32_t>::max();

EksNodegroup ReadNodegroup(AwsFieldReader& reader, const nlohmann::json& group) {
  EksNodegroup out;
  out.name = reader.String(group, "nodegroupName", "nodegroup.nodegroupName", true);
  out.cluster = reader.String(group, "clusterName", "nodegroup.clusterName");
  out.ami_type = reader.String(group, "amiType", "nodegroup.amiType");
  out.release_version = reader.String(group, "releaseVersion", "nodegroup.releaseVersion");
  out.capacity_type = reader.String(group, "capacityType", "nodegroup.capacityType");
  if (!out.capacity_type.empty() && out.capacity_type != "ON_DEMAND" &&
      out.capacity_type != "SPOT" && out.capacity_type != "CAPACITY_BLOCK") {
    reader.Error(
        "nodegroup.capacityType",
        fmt::format("\"{}\": must be ON_DEMAND, SPOT or CAPACITY_BLOCK", out.capacity_type));
  }
  out.instance_types = reader.Strings(group, "instanceTypes", "nodegroup.instanceTypes");
  if (auto it = group.find("scalingConfig"); it != group.end() && it->is_object()) {
    out.min_size = reader.Count(*it, "minSize", "nodegroup.scalingConfig.minSize", kMaxGroupSize);
    out.max_size = reader.Count(*it, "maxSize", "nodegroup.scalingConfig.maxSize", kMaxGroupSize);
    out.desired_size =
        reader.Count(*it, "desiredSize", "nodegroup.scalingConfig.desiredSize", kMaxGroupSize);
    if (out.max_size < out.min_size) {
      reader.Error("nodegroup.scalingConfig.maxSize",
                   fmt::format("must be at least minSize ({})", out.min_size));
    }
  } else if (it != group.end()) {
    reader.Error("nodegroup.scalingConfig", "must be an object");
  }
  out.labels = reader.StringMap(group, "labels", "nodegroup.labels");
  const std::vector<const nlohmann::json*> taints =
      reader.Objects(group, "taints", "nodegroup.taints");
  for (size_t i = 0; i < taints.size(); ++i) {
    const std::string at = fmt::format("nodegroup.taints[{}]", i);
    EksTaint taint{reader.String(*taints[i], "key", at + ".key", true),
                   reader.String(*taints[i], "value", at + ".value"),
                   reader.String(*taints[i], "effect", at + ".effect", true)};
    if (!taint.effect.empty() && taint.effect != "NO_SCHEDULE" && taint.effect != "NO_EXECUTE" &&
        taint.effect != "PREFER_NO_SCHEDULE") {
      reader.Error(at + ".effect", fmt::format("\"{}\": must be NO_SCHEDULE, NO_EXECUTE or "
                                               "PREFER_NO_SCHEDULE",
                                               taint.effect));
    }
    out.taints.push_back(std::move(taint));
  }
  out.subnets = reader.Strings(group, "subnets", "nodegroup.subnets");
  out.node_role = reader.String(group, "nodeRole", "nodegroup.nodeRole");
  out.disk_size_gib = reader.Count(group, "diskSize", "nodegroup.diskSize", 16384);
  if (auto it = group.find("launchTemplate"); it != group.end() && it->is_object()) {
    out.launch_template = reader.String(*it, "name", "nodegroup.launchTemplate.name");
    out.launch_template_id = reader.String(*it, "id", "nodegroup.launchTemplate.id");
    if (out.launch_template.empty()) out.launch_template = out.launch_template_id;
    out.launch_template_version = reader.String(*it, "version", "nodegroup.launchTemplate.version");
  }
  if (auto it = group.find("resources"); it != group.end() && it->is_object()) {
    const std::vector<const nlohmann::json*> asgs =
        reader.Objects(*it, "autoScalingGroups", "nodegroup.resources.autoScalingGroups");
    for (size_t i = 0; i < asgs.size(); ++i) {
      std::string name = reader.String(
          *asgs[i], "name", fmt::format("nodegroup.resources.autoScalingGroups[{}].name", i));
      if (!name.empty()) out.asg_names.push_back(std::move(name));
    }
  }
  return out;
}

}  // namespace

absl::StatusOr<EksNodegroup> ParseEksNodegroup(std::string_view text, std::string_view source) {
  KP_ASSIGN_OR_RETURN(nlohmann::json root, ParseAwsJson(text, source));
  auto group = root.is_object() ? root.find("nodegroup") : root.end();
  if (!root.is_object() || group == root.end() || !group->is_object()) {
    return absl::InvalidArgumentError(fmt::format(
        "{}: nodegroup: required: must be the output of aws eks describe-nodegroup", source));
  }
  AwsFieldReader reader{std::string(source)};
  EksNodegroup out = ReadNodegroup(reader, *group);
  KP_RETURN_IF_ERROR(reader.Result());
  return out;
}

absl::StatusOr<EksNodegroup> LoadEksNodegroupFile(const std::string& path) {
  KP_ASSIGN_OR_RETURN(std::string text, ReadAwsInputFile(path));
  return ParseEksNodegroup(text, path);
}

absl::StatusOr<std::vector<Subnet>> ParseSubnets(std::string_view text, std::string_view source) {
  KP_ASSIGN_OR_RETURN(nlohmann::json root, ParseAwsJson(text, source));
  if (!root.is_object() || !root.contains("Subnets")) {
    return absl::InvalidArgumentError(fmt::format(
        "{}: Subnets: required: must be the output of aws ec2 describe-subnets", source));
  }
  AwsFieldReader reader{std::string(source)};
  std::vector<Subnet> subnets;
  const std::vector<const nlohmann::json*> items = reader.Objects(root, "Subnets", "Subnets");
  for (size_t i = 0; i < items.size(); ++i) {
    const std::string at = fmt::format("Subnets[{}]", i);
    Subnet subnet;
    subnet.id = reader.String(*items[i], "SubnetId", at + ".SubnetId", true);
    subnet.zone = reader.String(*items[i], "AvailabilityZone", at + ".AvailabilityZone", true);
    subnet.vpc = reader.String(*items[i], "VpcId", at + ".VpcId");
    subnet.available_ips = reader.Count(*items[i], "AvailableIpAddressCount",
                                        at + ".AvailableIpAddressCount", kMaxCount);
    const std::vector<const nlohmann::json*> tags = reader.Objects(*items[i], "Tags", at + ".Tags");
    for (size_t t = 0; t < tags.size(); ++t) {
      const std::string tag_at = fmt::format("{}.Tags[{}]", at, t);
      std::string key = reader.String(*tags[t], "Key", tag_at + ".Key", true);
      subnet.tags[key] = reader.String(*tags[t], "Value", tag_at + ".Value");
    }
    subnets.push_back(std::move(subnet));
  }
  KP_RETURN_IF_ERROR(reader.Result());
  return subnets;
}

absl::StatusOr<std::vector<Subnet>> LoadSubnetsFile(const std::string& path) {
  KP_ASSIGN_OR_RETURN(std::string text, ReadAwsInputFile(path));
  return ParseSubnets(text, path);
}

}  // namespace karpenter::migrate
