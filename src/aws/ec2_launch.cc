// Ec2Client's writes: launch templates, CreateFleet, tags and termination.
#include <cmath>
#include <cstdint>
#include <map>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "karpenter/common/status.h"
#include "src/aws/crypto.h"
#include "src/aws/ec2_client.h"
#include "src/aws/errors.h"

namespace karpenter::aws {
namespace {

// `prefix.Tag.N.Key` / `.Value` for every tag, in key order.
void SetTags(QueryRequest& request, const std::string& prefix, const Tags& tags) {
  int n = 0;
  for (const auto& [key, value] : tags) {
    ++n;
    request.Set(absl::StrCat(prefix, ".Tag.", n, ".Key"), key);
    request.Set(absl::StrCat(prefix, ".Tag.", n, ".Value"), value);
  }
}

// `prefix.N.ResourceType` plus the tags, one specification per resource type.
void SetTagSpecifications(QueryRequest& request, const std::string& prefix,
                          const std::vector<std::string>& resource_types, const Tags& tags) {
  if (tags.empty()) return;
  for (size_t i = 0; i < resource_types.size(); ++i) {
    const std::string spec = absl::StrCat(prefix, ".", i + 1);
    request.Set(absl::StrCat(spec, ".ResourceType"), resource_types[i]);
    SetTags(request, spec, tags);
  }
}

void SetBlockDevices(QueryRequest& request, const std::vector<BlockDevice>& devices) {
  for (size_t i = 0; i < devices.size(); ++i) {
    const BlockDevice& device = devices[i];
    const std::string prefix = absl::StrCat("LaunchTemplateData.BlockDeviceMapping.", i + 1);
    request.Set(absl::StrCat(prefix, ".DeviceName"), device.device_name);
    const std::string ebs = absl::StrCat(prefix, ".Ebs");
    request.Set(absl::StrCat(ebs, ".VolumeSize"), std::to_string(device.volume_size_gib));
    request.Set(absl::StrCat(ebs, ".VolumeType"), device.volume_type);
    request.Set(absl::StrCat(ebs, ".Encrypted"), "true");
    request.Set(absl::StrCat(ebs, ".DeleteOnTermination"),
                device.delete_on_termination ? "true" : "false");
    if (device.iops > 0) request.Set(absl::StrCat(ebs, ".Iops"), std::to_string(device.iops));
    if (device.throughput > 0) {
      request.Set(absl::StrCat(ebs, ".Throughput"), std::to_string(device.throughput));
    }
    if (!device.kms_key_id.empty()) request.Set(absl::StrCat(ebs, ".KmsKeyId"), device.kms_key_id);
  }
}

Tags ReadTagList(const XmlNode& list) {
  Tags out;
  for (const XmlNode& item : list.Children("item")) {
    out[item.ChildText("key")] = item.ChildText("value");
  }
  return out;
}

LaunchTemplate ReadLaunchTemplate(const XmlNode& node) {
  LaunchTemplate out{.id = node.ChildText("launchTemplateId"),
                     .name = node.ChildText("launchTemplateName"),
                     .tags = ReadTagList(node.Child("tagSet"))};
  (void)absl::SimpleAtoi(node.ChildText("latestVersionNumber"), &out.latest_version);
  return out;
}

FleetOverride ReadOverride(const XmlNode& item) {
  const XmlNode node = item.Path({"launchTemplateAndOverrides", "overrides"});
  FleetOverride out{.instance_type = node.ChildText("instanceType"),
                    .subnet_id = node.ChildText("subnetId"),
                    .zone = node.ChildText("availabilityZone"),
                    .image_id = node.ChildText("imageId")};
  (void)absl::SimpleAtod(node.ChildText("priority"), &out.priority);
  return out;
}

}  // namespace

// The CreateLaunchTemplate request of `spec` (also sent as a dry run).
QueryRequest Ec2Client::LaunchTemplateRequest(const LaunchTemplateSpec& spec) {
  QueryRequest request("CreateLaunchTemplate", kApiVersion);
  request.Set("LaunchTemplateName", spec.name).Set("LaunchTemplateData.ImageId", spec.image_id);
  if (!spec.user_data.empty()) {
    request.Set("LaunchTemplateData.UserData", Base64Encode(spec.user_data));
  }
  request.SetList("LaunchTemplateData.SecurityGroupId", spec.security_group_ids);
  if (!spec.instance_profile_name.empty()) {
    request.Set("LaunchTemplateData.IamInstanceProfile.Name", spec.instance_profile_name);
  }
  request.Set("LaunchTemplateData.MetadataOptions.HttpTokens", "required")
      .Set("LaunchTemplateData.MetadataOptions.HttpEndpoint", "enabled")
      .Set("LaunchTemplateData.MetadataOptions.HttpPutResponseHopLimit",
           std::to_string(spec.metadata_hop_limit))
      .Set("LaunchTemplateData.MetadataOptions.HttpProtocolIpv6",
           spec.metadata_ipv6 ? "enabled" : "disabled");
  SetBlockDevices(request, spec.block_devices);
  if (!spec.capacity_reservation_id.empty()) {
    request
        .Set("LaunchTemplateData.CapacityReservationSpecification.CapacityReservationPreference",
             "capacity-reservations-only")
        .Set(
            "LaunchTemplateData.CapacityReservationSpecification.CapacityReservationTarget."
            "CapacityReservationId",
            spec.capacity_reservation_id);
  } else if (!spec.capacity_reservation_preference.empty()) {
    request.Set("LaunchTemplateData.CapacityReservationSpecification.CapacityReservationPreference",
                spec.capacity_reservation_preference);
  }
  if (!spec.market_type.empty()) {
    request.Set("LaunchTemplateData.InstanceMarketOptions.MarketType", spec.market_type);
  }
  SetTagSpecifications(request, "LaunchTemplateData.TagSpecification", {"instance", "volume"},
                       spec.tags);
  SetTagSpecifications(request, "TagSpecification", {"launch-template"}, spec.tags);
  return request;
}

absl::StatusOr<LaunchTemplate> Ec2Client::CreateLaunchTemplate(const LaunchTemplateSpec& spec) {
  KP_ASSIGN_OR_RETURN(const XmlDocument doc, client_.CallQuery(LaunchTemplateRequest(spec)));
  LaunchTemplate out = ReadLaunchTemplate(doc.Root().Child("launchTemplate"));
  if (out.id.empty()) return absl::InternalError("CreateLaunchTemplate: answer has no id");
  return out;
}

absl::StatusOr<std::vector<LaunchTemplate>> Ec2Client::DescribeLaunchTemplates(
    const std::vector<std::string>& names, const std::vector<Filter>& filters) {
  QueryRequest request("DescribeLaunchTemplates", kApiVersion);
  request.SetList("LaunchTemplateName", names).SetFilters(filters);
  std::vector<LaunchTemplate> out;
  KP_RETURN_IF_ERROR(Paginate(request, [&](const XmlNode& root) {
    for (const XmlNode& item : root.Child("launchTemplates").Children("item")) {
      out.push_back(ReadLaunchTemplate(item));
    }
    return absl::OkStatus();
  }));
  return out;
}

absl::Status Ec2Client::DeleteLaunchTemplate(const std::string& name) {
  QueryRequest request("DeleteLaunchTemplate", kApiVersion);
  request.Set("LaunchTemplateName", name);
  return client_.CallQuery(request).status();
}

absl::StatusOr<QueryRequest> Ec2Client::FleetRequestOf(const FleetRequest& fleet) {
  if (fleet.overrides.empty() || fleet.overrides.size() > kMaxFleetOverrides) {
    return absl::InvalidArgumentError(absl::StrCat("CreateFleet: ", fleet.overrides.size(),
                                                   " overrides (want 1 to ", kMaxFleetOverrides,
                                                   ")"));
  }
  std::string token = fleet.client_token;
  if (token.empty()) {
    // Two 53-bit draws: plenty to keep concurrent launches apart.
    token = absl::StrFormat("kp-%014x%014x", static_cast<uint64_t>(random_.Uniform01() * 0x1p53),
                            static_cast<uint64_t>(random_.Uniform01() * 0x1p53));
  }
  QueryRequest request("CreateFleet", kApiVersion);
  request.Set("Type", "instant").Set("ClientToken", token);
  // One LaunchTemplateConfigs entry per template, numbered in the order overrides first name them.
  struct Config {
    int index;
    int overrides = 0;
  };
  std::map<std::string, Config> configs;
  for (const FleetOverride& o : fleet.overrides) {
    const std::string& name =
        o.launch_template_name.empty() ? fleet.launch_template_name : o.launch_template_name;
    if (name.empty()) {
      return absl::InvalidArgumentError("CreateFleet: an override without a launch template");
    }
    auto [it, added] = configs.try_emplace(name, Config{static_cast<int>(configs.size()) + 1});
    const std::string config = absl::StrCat("LaunchTemplateConfigs.", it->second.index);
    if (added) {
      request.Set(absl::StrCat(config, ".LaunchTemplateSpecification.LaunchTemplateName"), name)
          .Set(absl::StrCat(config, ".LaunchTemplateSpecification.Version"), "$Latest");
    }
    const std::string prefix = absl::StrCat(config, ".Overrides.", ++it->second.overrides);
    request.Set(absl::StrCat(prefix, ".InstanceType"), o.instance_type);
    if (!o.subnet_id.empty()) request.Set(absl::StrCat(prefix, ".SubnetId"), o.subnet_id);
    if (!o.zone.empty()) request.Set(absl::StrCat(prefix, ".AvailabilityZone"), o.zone);
    if (!o.image_id.empty()) request.Set(absl::StrCat(prefix, ".ImageId"), o.image_id);
    if (o.priority > 0) request.Set(absl::StrCat(prefix, ".Priority"), absl::StrCat(o.priority));
  }
  const char* capacity = fleet.spot                        ? "spot"
                         : fleet.capacity_block            ? "capacity-block"
                         : fleet.interruptible_reservation ? "reserved-capacity"
                                                           : "on-demand";
  request.Set("TargetCapacitySpecification.TotalTargetCapacity", std::to_string(fleet.count))
      .Set("TargetCapacitySpecification.DefaultTargetCapacityType", capacity);
  if (fleet.spot) {
    request.Set("SpotOptions.AllocationStrategy", "price-capacity-optimized");
  } else if (fleet.interruptible_reservation) {
    request.Set("ReservedCapacityOptions.ReservationType.1", "interruptible-capacity-reservation");
  } else if (!fleet.capacity_block) {
    request.Set("OnDemandOptions.AllocationStrategy", "lowest-price");
  }
  SetTagSpecifications(request, "TagSpecification", {"instance", "volume", "fleet"}, fleet.tags);
  return request;
}

absl::StatusOr<FleetResult> Ec2Client::CreateFleet(const FleetRequest& fleet) {
  KP_ASSIGN_OR_RETURN(const QueryRequest request, FleetRequestOf(fleet));
  KP_ASSIGN_OR_RETURN(const XmlDocument doc, client_.CallQuery(request));
  const XmlNode root = doc.Root();
  FleetResult out{.fleet_id = root.ChildText("fleetId")};
  for (const XmlNode& item : root.Child("errorSet").Children("item")) {
    out.errors.push_back({.failed_override = ReadOverride(item),
                          .code = item.ChildText("errorCode"),
                          .message = item.ChildText("errorMessage")});
  }
  for (const XmlNode& item : root.Child("fleetInstanceSet").Children("item")) {
    const FleetOverride o = ReadOverride(item);
    for (const XmlNode& id : item.Child("instanceIds").Children("item")) {
      out.instances.push_back({.id = id.Text(),
                               .instance_type = item.ChildText("instanceType"),
                               .subnet_id = o.subnet_id,
                               .zone = o.zone,
                               .spot = item.ChildText("lifecycle") == "spot"});
    }
  }
  return out;
}

absl::Status Ec2Client::CreateTags(const std::vector<std::string>& resource_ids, const Tags& tags) {
  QueryRequest request("CreateTags", kApiVersion);
  request.SetList("ResourceId", resource_ids);
  int n = 0;
  for (const auto& [key, value] : tags) {
    ++n;
    request.Set(absl::StrCat("Tag.", n, ".Key"), key).Set(absl::StrCat("Tag.", n, ".Value"), value);
  }
  return client_.CallQuery(request).status();
}

absl::StatusOr<std::map<std::string, std::string>> Ec2Client::TerminateInstances(
    const std::vector<std::string>& instance_ids) {
  QueryRequest request("TerminateInstances", kApiVersion);
  request.SetList("InstanceId", instance_ids);
  KP_ASSIGN_OR_RETURN(const XmlDocument doc, client_.CallQuery(request));
  std::map<std::string, std::string> out;
  for (const XmlNode& item : doc.Root().Child("instancesSet").Children("item")) {
    out[item.ChildText("instanceId")] = item.Path({"currentState", "name"}).Text();
  }
  return out;
}

namespace {

// EC2's answer to a request sent with DryRun=true: DryRunOperation ("Request would have
// succeeded") is the success; anything else, UnauthorizedOperation first, is returned.
absl::Status DryRunAnswer(const absl::StatusOr<XmlDocument>& answer) {
  if (answer.ok()) return absl::OkStatus();
  if (AwsErrorCode(answer.status()) == "DryRunOperation") return absl::OkStatus();
  return answer.status();
}

}  // namespace

absl::Status Ec2Client::DryRunCreateLaunchTemplate(const LaunchTemplateSpec& spec) {
  QueryRequest request = LaunchTemplateRequest(spec);
  request.Set("DryRun", "true");
  return DryRunAnswer(client_.CallQuery(request));
}

absl::Status Ec2Client::DryRunCreateFleet(const FleetRequest& fleet) {
  KP_ASSIGN_OR_RETURN(QueryRequest request, FleetRequestOf(fleet));
  request.Set("DryRun", "true");
  return DryRunAnswer(client_.CallQuery(request));
}

absl::Status Ec2Client::DryRunRunInstances(const RunInstancesDryRun& run) {
  QueryRequest request("RunInstances", kApiVersion);
  request.Set("DryRun", "true")
      .Set("MinCount", "1")
      .Set("MaxCount", "1")
      .Set("ImageId", run.image_id)
      .Set("InstanceType", run.instance_type)
      .Set("MetadataOptions.HttpTokens", "required")
      .Set("MetadataOptions.HttpEndpoint", "enabled")
      .Set("MetadataOptions.HttpPutResponseHopLimit", std::to_string(run.metadata_hop_limit))
      .Set("MetadataOptions.HttpProtocolIpv6", run.metadata_ipv6 ? "enabled" : "disabled")
      .Set("NetworkInterface.1.DeviceIndex", "0")
      .Set("NetworkInterface.1.SubnetId", run.subnet_id)
      .SetList("NetworkInterface.1.SecurityGroupId", run.security_group_ids);
  if (!run.instance_profile_name.empty()) {
    request.Set("IamInstanceProfile.Name", run.instance_profile_name);
  }
  SetTagSpecifications(request, "TagSpecification", {"instance", "volume", "network-interface"},
                       run.tags);
  return DryRunAnswer(client_.CallQuery(request));
}

}  // namespace karpenter::aws
