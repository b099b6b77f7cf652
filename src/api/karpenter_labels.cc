#include "src/api/karpenter_labels.h"

#include <algorithm>
#include <array>

#include "src/api/labels.h"

namespace karpenter::api {
namespace {

constexpr std::array<std::string_view, 2> kRestrictedLabelDomains = {kKarpenterGroup, kAwsGroup};
constexpr std::array<std::string_view, 1> kRestrictedLabels = {kLabelHostname};

// Core well-known labels plus the AWS provider's additions, kept sorted for binary search.
constexpr std::array<std::string_view, 37> kWellKnownLabels = [] {
  std::array<std::string_view, 37> labels = {
      kCapacityTypeLabelKey,
      kLabelCapacityReservationID,
      kLabelCapacityReservationInterruptible,
      kLabelCapacityReservationType,
      kLabelInstanceAcceleratorCount,
      kLabelInstanceAcceleratorManufacturer,
      kLabelInstanceAcceleratorName,
      kLabelInstanceCapabilityFlex,
      kLabelInstanceCategory,
      kLabelInstanceCPU,
      kLabelInstanceCPUManufacturer,
      kLabelInstanceCPUSustainedClockSpeedMhz,
      kLabelInstanceEBSBandwidth,
      kLabelInstanceEncryptionInTransitSupported,
      kLabelInstanceFamily,
      kLabelInstanceGeneration,
      kLabelInstanceGPUCount,
      kLabelInstanceGPUManufacturer,
      kLabelInstanceGPUMemory,
      kLabelInstanceGPUName,
      kLabelInstanceHypervisor,
      kLabelInstanceLocalNVME,
      kLabelInstanceMemory,
      kLabelInstanceNetworkBandwidth,
      kLabelInstanceSize,
      kLabelInstanceTenancy,
      kLabelNitroSandbox,
      kLabelPlacementGroupID,
      kLabelPlacementGroupPartition,
      kNodePoolLabelKey,
      kLabelArchStable,
      kLabelOSStable,
      kLabelInstanceTypeStable,
      kLabelWindowsBuild,
      kLabelTopologyZoneID,
      kLabelTopologyRegion,
      kLabelTopologyZone,
  };
  std::sort(labels.begin(), labels.end());
  return labels;
}();

constexpr std::array<std::string_view, 29> kCrdAllowedAwsLabels = {
    kLabelInstanceTenancy,
    kLabelCapacityReservationType,
    kLabelCapacityReservationID,
    kLabelCapacityReservationInterruptible,
    kLabelNodeClass,
    kLabelInstanceEncryptionInTransitSupported,
    kLabelNitroSandbox,
    kLabelInstanceCategory,
    kLabelInstanceHypervisor,
    kLabelInstanceFamily,
    kLabelInstanceGeneration,
    kLabelInstanceLocalNVME,
    kLabelInstanceSize,
    kLabelInstanceCPU,
    kLabelInstanceCPUManufacturer,
    kLabelInstanceCPUSustainedClockSpeedMhz,
    kLabelInstanceMemory,
    kLabelInstanceEBSBandwidth,
    kLabelInstanceNetworkBandwidth,
    kLabelInstanceGPUName,
    kLabelInstanceGPUManufacturer,
    kLabelInstanceGPUCount,
    kLabelInstanceGPUMemory,
    kLabelInstanceAcceleratorName,
    kLabelInstanceAcceleratorManufacturer,
    kLabelInstanceAcceleratorCount,
    kLabelInstanceCapabilityFlex,
    kLabelPlacementGroupID,
    kLabelPlacementGroupPartition,
};

constexpr std::array<std::string_view, 3> kCapacityTypeValues = {
    kCapacityTypeOnDemand, kCapacityTypeSpot, kCapacityTypeReserved};
constexpr std::array<std::string_view, 2> kTenancyValues = {kTenancyDedicated, kTenancyDefault};

struct Alias {
  std::string_view from;
  std::string_view to;
};
constexpr std::array<Alias, 5> kNormalizedLabels = {{
    {kLabelFailureDomainBetaZone, kLabelTopologyZone},
    {kLabelArchBeta, kLabelArchStable},
    {kLabelOSBeta, kLabelOSStable},
    {kLabelInstanceTypeBeta, kLabelInstanceTypeStable},
    {kLabelFailureDomainBetaRegion, kLabelTopologyRegion},
}};

// The CEL rules take the text before the first '/' (the whole key when there is none) and test it
// with endsWith, so any prefix ending in the group name is caught, not just the group's subdomains.
std::string_view CelDomain(std::string_view key) { return key.substr(0, key.find('/')); }

bool Contains(std::span<const std::string_view> list, std::string_view key) {
  return std::find(list.begin(), list.end(), key) != list.end();
}

}  // namespace

std::span<const std::string_view> RestrictedLabelDomains() { return kRestrictedLabelDomains; }
std::span<const std::string_view> RestrictedLabels() { return kRestrictedLabels; }

std::span<const std::string_view> WellKnownLabels() { return kWellKnownLabels; }

bool IsWellKnownLabel(std::string_view key) {
  return std::binary_search(kWellKnownLabels.begin(), kWellKnownLabels.end(), key);
}

std::span<const std::string_view> CrdAllowedAwsLabels() { return kCrdAllowedAwsLabels; }

bool IsRestrictedLabel(std::string_view key) {
  if (IsWellKnownLabel(key)) return false;
  std::string_view domain = LabelDomain(key);
  for (std::string_view restricted : kRestrictedLabelDomains) {
    if (domain == restricted) return true;
    if (domain.size() > restricted.size() && domain.ends_with(restricted) &&
        domain[domain.size() - restricted.size() - 1] == '.') {
      return true;
    }
  }
  return Contains(kRestrictedLabels, key);
}

std::string RestrictedLabelMessage(std::string_view key) {
  std::string domains;
  for (std::string_view domain : kRestrictedLabelDomains) {
    if (!domains.empty()) domains += ", ";
    domains += domain;
  }
  return "using label " + std::string(key) +
         " is not allowed as it might interfere with the internal provisioning logic; specify a "
         "well known label, or a custom label that does not use a restricted domain (" +
         domains + ")";
}

std::vector<std::string_view> CrdLabelKeyViolations(std::string_view key, LabelKeyScope scope) {
  std::vector<std::string_view> violations;
  std::string_view domain = CelDomain(key);
  if (key != kCapacityTypeLabelKey && key != kNodePoolLabelKey &&
      domain.ends_with(kKarpenterGroup)) {
    violations.push_back("label domain \"karpenter.sh\" is restricted");
  }
  if (scope == LabelKeyScope::kNodePool && key == kNodePoolLabelKey) {
    violations.push_back("label \"karpenter.sh/nodepool\" is restricted");
  }
  if (key == kLabelHostname) {
    violations.push_back("label \"kubernetes.io/hostname\" is restricted");
  }
  if (!Contains(kCrdAllowedAwsLabels, key) && domain.ends_with(kAwsGroup)) {
    violations.push_back("label domain \"karpenter.k8s.aws\" is restricted");
  }
  return violations;
}

std::string_view NormalizeLabelKey(std::string_view key) {
  for (const Alias& alias : kNormalizedLabels) {
    if (alias.from == key) return alias.to;
  }
  return key;
}

std::span<const std::string_view> WellKnownValuesFor(std::string_view key) {
  if (key == kCapacityTypeLabelKey) return kCapacityTypeValues;
  if (key == kLabelInstanceTenancy) return kTenancyValues;
  return {};
}

}  // namespace karpenter::api
