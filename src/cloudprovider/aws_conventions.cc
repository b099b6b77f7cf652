#include "src/cloudprovider/aws_conventions.h"

namespace karpenter::cloudprovider {
namespace {

constexpr std::string_view kScheme = "aws:///";

}  // namespace

std::string AwsProviderId(std::string_view zone, std::string_view instance_id) {
  std::string id(kScheme);
  id.append(zone).append("/").append(instance_id);
  return id;
}

std::string InstanceIdOf(std::string_view provider_id) {
  if (provider_id.substr(0, kScheme.size()) != kScheme) return "";
  const size_t slash = provider_id.rfind('/');
  std::string_view id = provider_id.substr(slash + 1);
  return id.substr(0, 2) == "i-" ? std::string(id) : "";
}

std::vector<RepairPolicy> AwsRepairPolicies() {
  constexpr int64_t kThirtyMinutes = 30 * 60 * 1000;
  return {{"Ready", "False", kThirtyMinutes}, {"Ready", "Unknown", kThirtyMinutes}};
}

}  // namespace karpenter::cloudprovider
