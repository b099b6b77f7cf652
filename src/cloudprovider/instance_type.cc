// Upstream: pkg/providers/instancetype/types.go (computeCapacity, pods, kubeReservedResources,
// evictionThreshold), pkg/providers/amifamily (feature flags, default block devices)
#include "src/cloudprovider/instance_type.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "fmt/core.h"
#include "karpenter/common/status.h"
#include "src/api/karpenter_labels.h"
#include "src/api/resource_names.h"

namespace karpenter::cloudprovider {
namespace {

using api::Quantity;
using api::ResourceList;

constexpr int64_t kMiB = int64_t{1} << 20;
constexpr int64_t kWindowsDefaultPods = 110;

// How an AMI family changes resource accounting (upstream's amifamily FeatureFlags).
struct FamilyTraits {
  bool eni_limited_pod_density;     // default pods from ENIs rather than 110
  bool pods_per_core;               // honours kubelet podsPerCore
  bool eni_limited_memory_reserve;  // kube-reserved memory from ENI-limited pods, not maxPods
  std::string_view default_volume;  // default size of the volume backing ephemeral storage
};

FamilyTraits Traits(AmiFamily family) {
  switch (family) {
    case AmiFamily::kBottlerocket:
      return {.eni_limited_pod_density = true,
              .pods_per_core = false,
              .eni_limited_memory_reserve = false,
              .default_volume = "20Gi"};  // the /dev/xvdb data volume
    case AmiFamily::kWindows2019:
    case AmiFamily::kWindows2022:
    case AmiFamily::kWindows2025:
      return {.eni_limited_pod_density = false,
              .pods_per_core = true,
              .eni_limited_memory_reserve = false,
              .default_volume = "50Gi"};
    default:
      return {.eni_limited_pod_density = true,
              .pods_per_core = true,
              .eni_limited_memory_reserve = true,
              .default_volume = "20Gi"};
  }
}

Quantity Mebibytes(int64_t mib) {
  return Quantity::FromInt(mib * kMiB, Quantity::Format::kBinarySI);
}
Quantity Count(int64_t n) { return Quantity::FromInt(n, Quantity::Format::kDecimalSI); }

// Memory the OS sees: Graviton keeps 64 MiB for CMA, then VM_MEMORY_OVERHEAD_PERCENT (rounded up
// to a whole MiB) goes to the hypervisor.
Quantity MemoryCapacity(const InstanceTypeInfo& info, double overhead_percent) {
  int64_t mib = info.memory_mib;
  if (!info.architectures.empty() && info.architectures.front() == "arm64") mib -= 64;
  double overhead = std::ceil(static_cast<double>(mib * kMiB) * overhead_percent / 1024 / 1024);
  return Mebibytes(mib - static_cast<int64_t>(overhead));
}

absl::StatusOr<Quantity> EphemeralStorage(const InstanceTypeInfo& info,
                                          const ResolveOptions& options) {
  if (options.instance_store_raid0 && info.local_storage_gb) {
    return Quantity::Parse(absl::StrCat(*info.local_storage_gb, "G"));
  }
  if (options.ephemeral_volume_size) return *options.ephemeral_volume_size;
  return Quantity::Parse(Traits(options.ami_family).default_volume);
}

absl::StatusOr<ResourceList> ParseResourceMap(const std::map<std::string, std::string>& values,
                                              std::string_view field) {
  ResourceList parsed;
  for (const auto& [name, text] : values) {
    absl::StatusOr<Quantity> quantity = Quantity::Parse(text);
    if (!quantity.ok()) {
      return absl::InvalidArgumentError(
          fmt::format("kubelet.{}[{}]: {}", field, name, std::string(quantity.status().message())));
    }
    parsed[name] = *std::move(quantity);
  }
  return parsed;
}

// An evictionHard value: a quantity, or a percentage of `capacity` ("100%" disables the signal).
absl::StatusOr<Quantity> EvictionSignal(const Quantity& capacity, std::string_view value,
                                        std::string_view signal) {
  if (!value.ends_with('%')) {
    absl::StatusOr<Quantity> quantity = Quantity::Parse(value);
    if (!quantity.ok()) {
      return absl::InvalidArgumentError(fmt::format("kubelet.evictionHard[{}]: {}", signal,
                                                    std::string(quantity.status().message())));
    }
    return quantity;
  }
  double p = 0;
  if (!absl::SimpleAtod(std::string(value.substr(0, value.size() - 1)), &p)) {
    return absl::InvalidArgumentError(
        fmt::format("kubelet.evictionHard[{}]: {} is not a percentage", signal, value));
  }
  if (p == 100) p = 0;
  double amount = std::ceil(capacity.AsApproximateFloat64() / 100 * p);
  return Count(static_cast<int64_t>(amount));
}

absl::StatusOr<ResourceList> EvictionThreshold(const Quantity& memory, const Quantity& storage,
                                               const KubeletOverrides& kubelet) {
  ResourceList threshold;
  threshold[std::string(api::kResourceMemory)] = Mebibytes(100);
  threshold[std::string(api::kResourceEphemeralStorage)] =
      Count(static_cast<int64_t>(std::ceil(static_cast<double>(storage.Value()) / 100 * 10)));
  // Only hard thresholds reduce allocatable; soft ones are warnings.
  for (const auto& [signal, value] : kubelet.eviction_hard) {
    if (signal == "memory.available") {
      KP_ASSIGN_OR_RETURN(threshold[std::string(api::kResourceMemory)],
                          EvictionSignal(memory, value, signal));
    } else if (signal == "nodefs.available") {
      KP_ASSIGN_OR_RETURN(threshold[std::string(api::kResourceEphemeralStorage)],
                          EvictionSignal(storage, value, signal));
    }
  }
  return threshold;
}

absl::StatusOr<ResourceList> KubeReserved(const InstanceTypeInfo& info,
                                          const ResolveOptions& options) {
  int64_t pods = Traits(options.ami_family).eni_limited_memory_reserve
                     ? EniLimitedPods(info, /*reserved_enis=*/0)
                     : MaxPods(info, options);
  ResourceList reserved;
  reserved[std::string(api::kResourceCpu)] =
      Quantity::FromMilli(KubeReservedCpuMillis(info.vcpus * 1000), Quantity::Format::kDecimalSI);
  reserved[std::string(api::kResourceMemory)] = Mebibytes(11 * pods + 255);
  KP_ASSIGN_OR_RETURN(reserved[std::string(api::kResourceEphemeralStorage)],
                      Quantity::Parse("1Gi"));
  KP_ASSIGN_OR_RETURN(ResourceList overrides,
                      ParseResourceMap(options.kubelet.kube_reserved, "kubeReserved"));
  for (auto& [name, quantity] : overrides) reserved[name] = std::move(quantity);
  return reserved;
}

void AddIfPositive(ResourceList& list, std::string_view name, int64_t count) {
  if (count > 0) list[std::string(name)] = Count(count);
}

int64_t GpusMadeBy(const InstanceTypeInfo& info, std::string_view manufacturer) {
  int64_t count = 0;
  for (const GpuInfo& gpu : info.gpus) {
    if (gpu.manufacturer == manufacturer) count += gpu.count;
  }
  return count;
}

void AddExtendedResources(const InstanceTypeInfo& info, AmiFamily family, ResourceList& capacity) {
  AddIfPositive(capacity, api::kResourceNvidiaGpu, GpusMadeBy(info, "NVIDIA"));
  AddIfPositive(capacity, api::kResourceAmdGpu, GpusMadeBy(info, "AMD"));
  AddIfPositive(capacity, api::kResourceHabanaGaudi, GpusMadeBy(info, "Habana"));
  int64_t neuron_devices = 0;
  for (const NeuronDeviceInfo& device : info.neuron_devices) neuron_devices += device.count;
  AddIfPositive(capacity, api::kResourceAwsNeuron, neuron_devices);
  if (!info.neuron_devices.empty()) {
    // Upstream counts cores of the first device model only; types have a single model.
    const NeuronDeviceInfo& device = info.neuron_devices.front();
    AddIfPositive(capacity, api::kResourceAwsNeuronCore, device.count * device.cores_per_device);
  }
  AddIfPositive(capacity, api::kResourceEfa, info.efa_interfaces);
  // On Windows the VPC resource controller hands out secondary IPv4 addresses as a resource.
  if (IsWindows(family))
    AddIfPositive(capacity, api::kResourcePrivateIpv4Address, info.ipv4_per_eni - 1);
}

}  // namespace

absl::StatusOr<AmiFamily> ParseAmiFamily(std::string_view name) {
  static constexpr std::pair<std::string_view, AmiFamily> kFamilies[] = {
      {"AL2", AmiFamily::kAL2},
      {"AL2023", AmiFamily::kAL2023},
      {"Bottlerocket", AmiFamily::kBottlerocket},
      {"Custom", AmiFamily::kCustom},
      {"Windows2019", AmiFamily::kWindows2019},
      {"Windows2022", AmiFamily::kWindows2022},
      {"Windows2025", AmiFamily::kWindows2025}};
  for (const auto& [spelling, family] : kFamilies) {
    if (name == spelling) return family;
  }
  return absl::InvalidArgumentError(fmt::format("unknown AMI family \"{}\"", name));
}

bool IsWindows(AmiFamily family) {
  return family == AmiFamily::kWindows2019 || family == AmiFamily::kWindows2022 ||
         family == AmiFamily::kWindows2025;
}

std::string_view WindowsBuild(AmiFamily family) {
  switch (family) {
    case AmiFamily::kWindows2019:
      return "10.0.17763";
    case AmiFamily::kWindows2022:
      return "10.0.20348";
    case AmiFamily::kWindows2025:
      return "10.0.26100";
    default:
      return "";
  }
}

bool SupportsAmiFamily(const InstanceTypeInfo& info, AmiFamily family) {
  if (IsWindows(family)) {
    // Windows AMIs exist for amd64 only; the first architecture Kubernetes knows decides.
    for (const std::string& arch : info.architectures) {
      if (arch == "x86_64") return true;
      if (arch == "arm64") return false;
    }
    return false;
  }
  // There is no AL2023 image for first-generation Graviton (a1).
  return !(family == AmiFamily::kAL2023 && absl::StartsWith(info.name, "a1."));
}

int64_t EniLimitedPods(const InstanceTypeInfo& info, int reserved_enis) {
  int64_t usable = std::max<int64_t>(info.enis - reserved_enis, 0);
  if (usable == 0) return 0;
  return usable * (info.ipv4_per_eni - 1) + 2;
}

int64_t MaxPods(const InstanceTypeInfo& info, const ResolveOptions& options) {
  FamilyTraits traits = Traits(options.ami_family);
  int64_t count = kWindowsDefaultPods;
  if (options.kubelet.max_pods) {
    count = *options.kubelet.max_pods;
  } else if (traits.eni_limited_pod_density) {
    count = EniLimitedPods(info, options.reserved_enis);
  }
  int64_t pods_per_core = options.kubelet.pods_per_core.value_or(0);
  if (pods_per_core > 0 && traits.pods_per_core) {
    count = std::min(pods_per_core * info.vcpus, count);
  }
  return count;
}

int64_t KubeReservedCpuMillis(int64_t cpu_millis) {
  struct Tier {
    int64_t start;
    int64_t end;
    double share;
  };
  static constexpr Tier kTiers[] = {
      {0, 1000, 0.06}, {1000, 2000, 0.01}, {2000, 4000, 0.005}, {4000, int64_t{1} << 31, 0.0025}};
  int64_t reserved = 0;
  for (const Tier& tier : kTiers) {
    if (cpu_millis < tier.start) break;
    double span = static_cast<double>(std::min(cpu_millis, tier.end) - tier.start);
    reserved += static_cast<int64_t>(span * tier.share);
  }
  return reserved;
}

ResourceList InstanceTypeOverhead::Total() const {
  ResourceList total;
  for (const ResourceList* list : {&kube_reserved, &system_reserved, &eviction_threshold}) {
    for (const auto& [name, quantity] : *list) total[name].Add(quantity);
  }
  return total;
}

ResourceList InstanceType::Allocatable() const {
  ResourceList total = overhead.Total();
  ResourceList allocatable = capacity;
  for (auto& [resource, quantity] : allocatable) {
    if (auto reserved = total.find(resource); reserved != total.end()) {
      quantity.Sub(reserved->second);
    }
  }
  return allocatable;
}

bool IsExotic(const InstanceType& type) {
  if (auto size = type.labels.find(std::string(api::kLabelInstanceSize));
      size != type.labels.end() && size->second.find("metal") != std::string::npos) {
    return true;
  }
  for (std::string_view resource : api::kExoticResources) {
    auto it = type.capacity.find(std::string(resource));
    if (it != type.capacity.end() && !it->second.IsZero()) return true;
  }
  return false;
}

absl::StatusOr<InstanceType> NewInstanceType(const InstanceTypeInfo& info,
                                             const ResolveOptions& options) {
  InstanceType type{.name = info.name, .labels = InstanceTypeLabels(info, options)};
  Quantity memory = MemoryCapacity(info, options.vm_memory_overhead_percent);
  KP_ASSIGN_OR_RETURN(Quantity storage, EphemeralStorage(info, options));
  type.capacity[std::string(api::kResourceCpu)] = Count(info.vcpus);
  type.capacity[std::string(api::kResourceMemory)] = memory;
  type.capacity[std::string(api::kResourceEphemeralStorage)] = storage;
  type.capacity[std::string(api::kResourcePods)] = Count(MaxPods(info, options));
  AddExtendedResources(info, options.ami_family, type.capacity);

  KP_ASSIGN_OR_RETURN(type.overhead.kube_reserved, KubeReserved(info, options));
  KP_ASSIGN_OR_RETURN(type.overhead.system_reserved,
                      ParseResourceMap(options.kubelet.system_reserved, "systemReserved"));
  KP_ASSIGN_OR_RETURN(type.overhead.eviction_threshold,
                      EvictionThreshold(memory, storage, options.kubelet));
  return type;
}

}  // namespace karpenter::cloudprovider
