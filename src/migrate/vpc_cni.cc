#include "src/migrate/vpc_cni.h"

#include <algorithm>
#include <charconv>

#include "fmt/format.h"
#include "src/migrate/aws_json_reader.h"

namespace karpenter::migrate {
namespace {

int64_t CeilDiv(int64_t a, int64_t b) { return b <= 0 ? 0 : (a + b - 1) / b; }

std::optional<int64_t> Target(AwsFieldReader& reader, const std::string& value,
                              const std::string& path, const std::string& name) {
  int64_t parsed = 0;
  auto [ptr, ec] = std::from_chars(value.data(), value.data() + value.size(), parsed);
  if (ec != std::errc() || ptr != value.data() + value.size() || parsed < 0) {
    reader.Error(path, fmt::format("{}=\"{}\": must be a whole number", name, value));
    return std::nullopt;
  }
  return parsed;
}

void ReadEnv(AwsFieldReader& reader, const nlohmann::json& container, const std::string& at,
             VpcCniSettings& settings) {
  const std::vector<const nlohmann::json*> env = reader.Objects(container, "env", at + ".env");
  for (size_t i = 0; i < env.size(); ++i) {
    const std::string entry_at = fmt::format("{}.env[{}]", at, i);
    const std::string name = reader.String(*env[i], "name", entry_at + ".name");
    const std::string value = reader.String(*env[i], "value", entry_at + ".value");
    const std::string value_at = entry_at + ".value";
    if (name == "ENABLE_PREFIX_DELEGATION") {
      if (value != "true" && value != "false") {
        reader.Error(value_at, fmt::format("{}=\"{}\": must be true or false", name, value));
      }
      settings.prefix_delegation = value == "true";
      continue;
    }
    std::optional<int64_t>* target = nullptr;
    if (name == "WARM_IP_TARGET") target = &settings.warm_ip_target;
    if (name == "MINIMUM_IP_TARGET") target = &settings.minimum_ip_target;
    if (name == "WARM_PREFIX_TARGET") target = &settings.warm_prefix_target;
    if (name == "WARM_ENI_TARGET") {
      settings.warm_eni_target = Target(reader, value, value_at, name).value_or(1);
    } else if (target != nullptr && !value.empty()) {
      *target = Target(reader, value, value_at, name);
    }
  }
}

}  // namespace

bool IsAwsNodeDaemonSet(const KubeDocument& document) {
  return document.kind == "DaemonSet" && document.name == "aws-node" &&
         ContainersOf(document) != nullptr;
}

absl::Status ReadVpcCni(const std::vector<KubeDocument>& documents, VpcCniSettings& settings) {
  for (const KubeDocument& document : documents) {
    if (!IsAwsNodeDaemonSet(document)) continue;
    const nlohmann::json& containers = *ContainersOf(document);
    AwsFieldReader reader(document.where);
    for (size_t c = 0; c < containers.size(); ++c) {
      if (!containers[c].is_object() || containers[c].value("name", "") != "aws-node") continue;
      settings.found = true;
      ReadEnv(reader, containers[c], fmt::format("spec.template.spec.containers[{}]", c), settings);
    }
    return reader.Result();
  }
  return absl::OkStatus();
}

int64_t NodeAddresses(int64_t pods, const cloudprovider::InstanceTypeInfo& type,
                      const VpcCniSettings& settings) {
  const int64_t slots_per_eni = std::max<int64_t>(type.ipv4_per_eni - 1, 1);  // minus primary
  const int64_t enis = std::max<int64_t>(type.enis, 1);
  const bool by_ip = settings.warm_ip_target.has_value() || settings.minimum_ip_target.has_value();
  int64_t secondary = 0;  // addresses the node holds beyond its ENIs' primaries
  int64_t used_enis = 1;
  if (settings.prefix_delegation) {
    int64_t prefixes = CeilDiv(pods, kAddressesPerPrefix);
    if (by_ip) {
      prefixes = CeilDiv(std::max(pods + settings.warm_ip_target.value_or(0),
                                  settings.minimum_ip_target.value_or(0)),
                         kAddressesPerPrefix);
    } else {
      prefixes += settings.warm_prefix_target.value_or(1);
    }
    prefixes = std::min(prefixes, enis * slots_per_eni);
    used_enis = std::max<int64_t>(CeilDiv(prefixes, slots_per_eni), 1);
    secondary = prefixes * kAddressesPerPrefix;
  } else if (by_ip) {
    secondary = std::min(std::max(pods + settings.warm_ip_target.value_or(0),
                                  settings.minimum_ip_target.value_or(0)),
                         enis * slots_per_eni);
    used_enis = std::max<int64_t>(CeilDiv(secondary, slots_per_eni), 1);
  } else {
    used_enis = std::min(
        std::max<int64_t>(CeilDiv(pods, slots_per_eni), 1) + settings.warm_eni_target, enis);
    secondary = used_enis * slots_per_eni;
  }
  return used_enis + secondary;
}

}  // namespace karpenter::migrate
