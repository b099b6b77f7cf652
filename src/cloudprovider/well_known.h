// Label keys, resource names and capacity-type values that upstream Karpenter's AWS provider puts
// on instance types (sigs.k8s.io/karpenter pkg/apis/v1, aws pkg/apis/v1/labels.go).
#pragma once

#include <string_view>

namespace karpenter::cloudprovider {

// Well-known Kubernetes labels.
inline constexpr std::string_view kLabelArch = "kubernetes.io/arch";
inline constexpr std::string_view kLabelOs = "kubernetes.io/os";
inline constexpr std::string_view kLabelInstanceType = "node.kubernetes.io/instance-type";
inline constexpr std::string_view kLabelWindowsBuild = "node.kubernetes.io/windows-build";
inline constexpr std::string_view kLabelTopologyZone = "topology.kubernetes.io/zone";
inline constexpr std::string_view kLabelTopologyRegion = "topology.kubernetes.io/region";
inline constexpr std::string_view kLabelCapacityType = "karpenter.sh/capacity-type";

// karpenter.k8s.aws labels derived from the instance type.
inline constexpr std::string_view kLabelInstanceCategory = "karpenter.k8s.aws/instance-category";
inline constexpr std::string_view kLabelInstanceFamily = "karpenter.k8s.aws/instance-family";
inline constexpr std::string_view kLabelInstanceGeneration =
    "karpenter.k8s.aws/instance-generation";
inline constexpr std::string_view kLabelInstanceSize = "karpenter.k8s.aws/instance-size";
inline constexpr std::string_view kLabelInstanceCpu = "karpenter.k8s.aws/instance-cpu";
inline constexpr std::string_view kLabelInstanceCpuManufacturer =
    "karpenter.k8s.aws/instance-cpu-manufacturer";
inline constexpr std::string_view kLabelInstanceCpuSustainedClockSpeedMhz =
    "karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz";
inline constexpr std::string_view kLabelInstanceMemory = "karpenter.k8s.aws/instance-memory";
inline constexpr std::string_view kLabelInstanceHypervisor =
    "karpenter.k8s.aws/instance-hypervisor";
inline constexpr std::string_view kLabelInstanceNetworkBandwidth =
    "karpenter.k8s.aws/instance-network-bandwidth";
inline constexpr std::string_view kLabelInstanceEbsBandwidth =
    "karpenter.k8s.aws/instance-ebs-bandwidth";
inline constexpr std::string_view kLabelInstanceLocalNvme = "karpenter.k8s.aws/instance-local-nvme";
inline constexpr std::string_view kLabelInstanceEncryptionInTransitSupported =
    "karpenter.k8s.aws/instance-encryption-in-transit-supported";
inline constexpr std::string_view kLabelInstanceCapabilityFlex =
    "karpenter.k8s.aws/instance-capability-flex";
inline constexpr std::string_view kLabelNitroSandbox = "karpenter.k8s.aws/nitro-sandbox";
inline constexpr std::string_view kLabelInstanceGpuName = "karpenter.k8s.aws/instance-gpu-name";
inline constexpr std::string_view kLabelInstanceGpuManufacturer =
    "karpenter.k8s.aws/instance-gpu-manufacturer";
inline constexpr std::string_view kLabelInstanceGpuCount = "karpenter.k8s.aws/instance-gpu-count";
inline constexpr std::string_view kLabelInstanceGpuMemory = "karpenter.k8s.aws/instance-gpu-memory";
inline constexpr std::string_view kLabelInstanceAcceleratorName =
    "karpenter.k8s.aws/instance-accelerator-name";
inline constexpr std::string_view kLabelInstanceAcceleratorManufacturer =
    "karpenter.k8s.aws/instance-accelerator-manufacturer";
inline constexpr std::string_view kLabelInstanceAcceleratorCount =
    "karpenter.k8s.aws/instance-accelerator-count";

// Resource names.
inline constexpr std::string_view kResourceCpu = "cpu";
inline constexpr std::string_view kResourceMemory = "memory";
inline constexpr std::string_view kResourceEphemeralStorage = "ephemeral-storage";
inline constexpr std::string_view kResourcePods = "pods";
inline constexpr std::string_view kResourceNvidiaGpu = "nvidia.com/gpu";
inline constexpr std::string_view kResourceAmdGpu = "amd.com/gpu";
inline constexpr std::string_view kResourceAwsNeuron = "aws.amazon.com/neuron";
inline constexpr std::string_view kResourceAwsNeuronCore = "aws.amazon.com/neuroncore";
inline constexpr std::string_view kResourceHabanaGaudi = "habana.ai/gaudi";
inline constexpr std::string_view kResourceEfa = "vpc.amazonaws.com/efa";
inline constexpr std::string_view kResourcePrivateIpv4Address =
    "vpc.amazonaws.com/PrivateIPv4Address";

// Values of karpenter.sh/capacity-type the catalog offers.
inline constexpr std::string_view kCapacityTypeOnDemand = "on-demand";
inline constexpr std::string_view kCapacityTypeSpot = "spot";

}  // namespace karpenter::cloudprovider
