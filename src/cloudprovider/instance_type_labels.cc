// Upstream: pkg/providers/instancetype/types.go (computeRequirements)
#include <cmath>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "src/api/karpenter_labels.h"
#include "src/cloudprovider/instance_type.h"
#include "src/cloudprovider/instance_type_name.h"

namespace karpenter::cloudprovider {
namespace {

// Upstream's lowerKabobCase: "Gaudi HL-205" -> "gaudi-hl-205".
std::string LowerKebab(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = c == ' ' ? '-' : absl::ascii_tolower(static_cast<unsigned char>(c));
  return out;
}

std::string Bool(bool value) { return value ? "true" : "false"; }

// The Kubernetes architecture of the first EC2 architecture Kubernetes knows.
std::string KubeArch(const InstanceTypeInfo& info) {
  for (const std::string& arch : info.architectures) {
    if (arch == "x86_64") return "amd64";
    if (arch == "arm64") return "arm64";
  }
  return "";
}

using Labels = std::map<std::string, std::string>;

void AddNameLabels(const InstanceTypeInfo& info, Labels& labels) {
  std::optional<InstanceTypeName> name = ParseInstanceTypeName(info.name);
  if (!name) return;
  if (!name->category.empty()) {
    labels[std::string(api::kLabelInstanceCategory)] = name->category;
    labels[std::string(api::kLabelInstanceGeneration)] = name->generation;
  }
  labels[std::string(api::kLabelInstanceFamily)] = name->family;
  labels[std::string(api::kLabelInstanceSize)] = name->size;
  labels[std::string(api::kLabelInstanceCapabilityFlex)] =
      Bool(absl::StrContains(name->family, "-flex"));
}

// GPU labels exist only when the type has a single GPU model; accelerator labels come from
// Neuron devices, else from inference accelerators of a type without Neuron devices.
void AddDeviceLabels(const InstanceTypeInfo& info, Labels& labels) {
  if (info.gpus.size() == 1) {
    const GpuInfo& gpu = info.gpus.front();
    labels[std::string(api::kLabelInstanceGPUName)] = LowerKebab(gpu.name);
    labels[std::string(api::kLabelInstanceGPUManufacturer)] = LowerKebab(gpu.manufacturer);
    labels[std::string(api::kLabelInstanceGPUCount)] = absl::StrCat(gpu.count);
    labels[std::string(api::kLabelInstanceGPUMemory)] = absl::StrCat(gpu.memory_mib);
  }
  if (info.neuron_devices.empty() && info.inference_accelerators.size() == 1) {
    const InferenceAcceleratorInfo& accelerator = info.inference_accelerators.front();
    labels[std::string(api::kLabelInstanceAcceleratorName)] = LowerKebab(accelerator.name);
    labels[std::string(api::kLabelInstanceAcceleratorManufacturer)] =
        LowerKebab(accelerator.manufacturer);
    labels[std::string(api::kLabelInstanceAcceleratorCount)] = absl::StrCat(accelerator.count);
  }
  if (info.neuron_devices.size() == 1) {
    const NeuronDeviceInfo& device = info.neuron_devices.front();
    labels[std::string(api::kLabelInstanceAcceleratorName)] = LowerKebab(device.name);
    labels[std::string(api::kLabelInstanceAcceleratorManufacturer)] = "aws";
    labels[std::string(api::kLabelInstanceAcceleratorCount)] = absl::StrCat(device.count);
  }
}

}  // namespace

std::map<std::string, std::string> InstanceTypeLabels(const InstanceTypeInfo& info,
                                                      const ResolveOptions& options) {
  Labels labels;
  labels[std::string(api::kLabelInstanceTypeStable)] = info.name;
  labels[std::string(api::kLabelArchStable)] = KubeArch(info);
  labels[std::string(api::kLabelOSStable)] = IsWindows(options.ami_family) ? "windows" : "linux";
  if (std::string_view build = WindowsBuild(options.ami_family); !build.empty()) {
    labels[std::string(api::kLabelWindowsBuild)] = std::string(build);
  }
  if (!options.region.empty()) labels[std::string(api::kLabelTopologyRegion)] = options.region;
  labels[std::string(api::kLabelInstanceCPU)] = absl::StrCat(info.vcpus);
  if (!info.cpu_manufacturer.empty()) {
    labels[std::string(api::kLabelInstanceCPUManufacturer)] = LowerKebab(info.cpu_manufacturer);
  }
  // Upstream writes 0 when EC2 gives no clock speed.
  labels[std::string(api::kLabelInstanceCPUSustainedClockSpeedMhz)] =
      absl::StrCat(std::llround(info.clock_ghz.value_or(0) * 1000));
  labels[std::string(api::kLabelInstanceMemory)] = absl::StrCat(info.memory_mib);
  labels[std::string(api::kLabelInstanceHypervisor)] = info.hypervisor;
  labels[std::string(api::kLabelInstanceEncryptionInTransitSupported)] =
      Bool(info.encryption_in_transit);
  labels[std::string(api::kLabelNitroSandbox)] = Bool(info.nitro_enclaves);
  AddNameLabels(info, labels);
  if (info.local_storage_gb && info.local_storage_nvme) {
    labels[std::string(api::kLabelInstanceLocalNVME)] = absl::StrCat(*info.local_storage_gb);
  }
  if (info.network_mbps) {
    labels[std::string(api::kLabelInstanceNetworkBandwidth)] = absl::StrCat(*info.network_mbps);
  }
  if (info.ebs_mbps)
    labels[std::string(api::kLabelInstanceEBSBandwidth)] = absl::StrCat(*info.ebs_mbps);
  AddDeviceLabels(info, labels);
  return labels;
}

}  // namespace karpenter::cloudprovider
