#include "src/migrate/launch_templates.h"

#include <algorithm>
#include <set>

#include "fmt/format.h"
#include "src/migrate/aws_json_reader.h"

namespace karpenter::migrate {
namespace {

using Json = nlohmann::ordered_json;

// EBS's largest volume (io2 Block Express and gp3 alike) is 64 TiB.
constexpr int64_t kMaxVolumeGib = 65536;
constexpr int64_t kMaxIops = 256000;
constexpr int64_t kMaxThroughput = 2000;

std::optional<bool> Bool(AwsFieldReader& reader, const nlohmann::json& parent, const char* key,
                         const std::string& path) {
  auto it = parent.find(key);
  if (it == parent.end() || it->is_null()) return std::nullopt;
  if (!it->is_boolean()) {
    reader.Error(path, "must be true or false");
    return std::nullopt;
  }
  return it->get<bool>();
}

void OneOf(AwsFieldReader& reader, const std::string& value, std::set<std::string> allowed,
           const std::string& path) {
  if (value.empty() || allowed.contains(value)) return;
  reader.Error(path, fmt::format("\"{}\": must be one of {}", value, fmt::join(allowed, ", ")));
}

Json ReadEbs(AwsFieldReader& reader, const nlohmann::json& ebs, const std::string& at) {
  Json out = Json::object();
  if (int64_t size = reader.Count(ebs, "VolumeSize", at + ".VolumeSize", kMaxVolumeGib); size > 0) {
    out["volumeSize"] = fmt::format("{}Gi", size);
  }
  const std::string type = reader.String(ebs, "VolumeType", at + ".VolumeType");
  OneOf(reader, type, {"standard", "io1", "io2", "gp2", "gp3", "sc1", "st1"}, at + ".VolumeType");
  if (!type.empty()) out["volumeType"] = type;
  if (int64_t iops = reader.Count(ebs, "Iops", at + ".Iops", kMaxIops); iops > 0) {
    out["iops"] = iops;
  }
  if (int64_t mbps = reader.Count(ebs, "Throughput", at + ".Throughput", kMaxThroughput);
      mbps > 0) {
    out["throughput"] = mbps;
  }
  if (auto encrypted = Bool(reader, ebs, "Encrypted", at + ".Encrypted")) {
    out["encrypted"] = *encrypted;
  }
  if (auto remove = Bool(reader, ebs, "DeleteOnTermination", at + ".DeleteOnTermination")) {
    out["deleteOnTermination"] = *remove;
  }
  if (std::string key = reader.String(ebs, "KmsKeyId", at + ".KmsKeyId"); !key.empty()) {
    out["kmsKeyID"] = key;
  }
  if (std::string id = reader.String(ebs, "SnapshotId", at + ".SnapshotId"); !id.empty()) {
    out["snapshotID"] = id;
  }
  return out;
}

Json ReadMetadata(AwsFieldReader& reader, const nlohmann::json& options, const std::string& at,
                  bool& tags) {
  Json out = Json::object();
  const std::string endpoint = reader.String(options, "HttpEndpoint", at + ".HttpEndpoint");
  OneOf(reader, endpoint, {"enabled", "disabled"}, at + ".HttpEndpoint");
  if (!endpoint.empty()) out["httpEndpoint"] = endpoint;
  const std::string ipv6 = reader.String(options, "HttpProtocolIpv6", at + ".HttpProtocolIpv6");
  OneOf(reader, ipv6, {"enabled", "disabled"}, at + ".HttpProtocolIpv6");
  if (!ipv6.empty()) out["httpProtocolIPv6"] = ipv6;
  if (int64_t hops =
          reader.Count(options, "HttpPutResponseHopLimit", at + ".HttpPutResponseHopLimit", 64);
      hops > 0) {
    out["httpPutResponseHopLimit"] = hops;
  }
  const std::string tokens = reader.String(options, "HttpTokens", at + ".HttpTokens");
  OneOf(reader, tokens, {"required", "optional"}, at + ".HttpTokens");
  if (!tokens.empty()) out["httpTokens"] = tokens;
  const std::string metadata_tags =
      reader.String(options, "InstanceMetadataTags", at + ".InstanceMetadataTags");
  OneOf(reader, metadata_tags, {"enabled", "disabled"}, at + ".InstanceMetadataTags");
  tags = metadata_tags == "enabled";
  return out;
}

void ReadData(AwsFieldReader& reader, const nlohmann::json& data, const std::string& at,
              LaunchTemplateVersion& out) {
  out.image_id = reader.String(data, "ImageId", at + ".ImageId");
  const std::vector<const nlohmann::json*> devices =
      reader.Objects(data, "BlockDeviceMappings", at + ".BlockDeviceMappings");
  for (size_t i = 0; i < devices.size(); ++i) {
    const std::string device_at = fmt::format("{}.BlockDeviceMappings[{}]", at, i);
    const std::string name = reader.String(*devices[i], "DeviceName", device_at + ".DeviceName",
                                           /*required=*/true);
    auto ebs = devices[i]->find("Ebs");
    if (ebs == devices[i]->end() || !ebs->is_object()) continue;  // instance store: not EBS
    out.block_device_mappings.push_back(
        {{"deviceName", name}, {"ebs", ReadEbs(reader, *ebs, device_at + ".Ebs")}});
  }
  if (auto options = data.find("MetadataOptions"); options != data.end()) {
    if (!options->is_object()) {
      reader.Error(at + ".MetadataOptions", "must be an object");
    } else {
      out.metadata_options =
          ReadMetadata(reader, *options, at + ".MetadataOptions", out.instance_metadata_tags);
    }
  }
  std::set<std::string> groups;
  for (std::string& id : reader.Strings(data, "SecurityGroupIds", at + ".SecurityGroupIds")) {
    groups.insert(std::move(id));
  }
  const std::vector<const nlohmann::json*> interfaces =
      reader.Objects(data, "NetworkInterfaces", at + ".NetworkInterfaces");
  for (size_t i = 0; i < interfaces.size(); ++i) {
    for (std::string& id : reader.Strings(*interfaces[i], "Groups",
                                          fmt::format("{}.NetworkInterfaces[{}].Groups", at, i))) {
      groups.insert(std::move(id));
    }
  }
  out.security_groups.assign(groups.begin(), groups.end());
  out.has_user_data = !reader.String(data, "UserData", at + ".UserData").empty();
}

}  // namespace

absl::StatusOr<std::vector<LaunchTemplateVersion>> ParseLaunchTemplateVersions(
    std::string_view text, std::string_view source) {
  KP_ASSIGN_OR_RETURN(nlohmann::json root, ParseAwsJson(text, source));
  if (!root.is_object() || !root.contains("LaunchTemplateVersions")) {
    return absl::InvalidArgumentError(
        fmt::format("{}: LaunchTemplateVersions: required: must be the output of aws ec2 "
                    "describe-launch-template-versions",
                    source));
  }
  AwsFieldReader reader{std::string(source)};
  std::vector<LaunchTemplateVersion> versions;
  const std::vector<const nlohmann::json*> items =
      reader.Objects(root, "LaunchTemplateVersions", "LaunchTemplateVersions");
  for (size_t i = 0; i < items.size(); ++i) {
    const std::string at = fmt::format("LaunchTemplateVersions[{}]", i);
    LaunchTemplateVersion version;
    version.id = reader.String(*items[i], "LaunchTemplateId", at + ".LaunchTemplateId", true);
    version.name = reader.String(*items[i], "LaunchTemplateName", at + ".LaunchTemplateName");
    version.version =
        reader.Count(*items[i], "VersionNumber", at + ".VersionNumber", int64_t{1} << 31);
    version.default_version =
        Bool(reader, *items[i], "DefaultVersion", at + ".DefaultVersion").value_or(false);
    auto data = items[i]->find("LaunchTemplateData");
    if (data != items[i]->end() && data->is_object()) {
      ReadData(reader, *data, at + ".LaunchTemplateData", version);
    } else if (data != items[i]->end()) {
      reader.Error(at + ".LaunchTemplateData", "must be an object");
    }
    versions.push_back(std::move(version));
  }
  KP_RETURN_IF_ERROR(reader.Result());
  return versions;
}

absl::StatusOr<std::vector<LaunchTemplateVersion>> LoadLaunchTemplateVersionsFile(
    const std::string& path) {
  KP_ASSIGN_OR_RETURN(std::string text, ReadAwsInputFile(path));
  return ParseLaunchTemplateVersions(text, path);
}

const LaunchTemplateVersion* FindLaunchTemplate(const std::vector<LaunchTemplateVersion>& versions,
                                                const std::string& ref,
                                                const std::string& version) {
  const LaunchTemplateVersion* found = nullptr;
  for (const LaunchTemplateVersion& candidate : versions) {
    if (ref.empty() || (candidate.id != ref && candidate.name != ref)) continue;
    if (version == "$Latest") {
      if (found == nullptr || candidate.version > found->version) found = &candidate;
      continue;
    }
    const bool wanted = version.empty() || version == "$Default"
                            ? candidate.default_version
                            : std::to_string(candidate.version) == version;
    if (wanted) return &candidate;
  }
  return found;
}

}  // namespace karpenter::migrate
