// Names of the node resources the AWS provider reports in instance-type capacity
// (corev1 names plus aws pkg/apis/v1/labels.go). Label keys live in src/api/karpenter_labels.h.
#pragma once

#include <array>
#include <string_view>

namespace karpenter::api {

inline constexpr std::string_view kResourceCpu = "cpu";
inline constexpr std::string_view kResourceMemory = "memory";
inline constexpr std::string_view kResourceEphemeralStorage = "ephemeral-storage";
inline constexpr std::string_view kResourcePods = "pods";
inline constexpr std::string_view kResourceNvidiaGpu = "nvidia.com/gpu";
inline constexpr std::string_view kResourceAmdGpu = "amd.com/gpu";
inline constexpr std::string_view kResourceAwsNeuron = "aws.amazon.com/neuron";
inline constexpr std::string_view kResourceAwsNeuronCore = "aws.amazon.com/neuroncore";
inline constexpr std::string_view kResourceHabanaGaudi = "habana.ai/gaudi";
// The accelerators that make a type exotic: upstream's AWS provider launches such types (and
// metal ones) only when no other type is left to launch.
inline constexpr std::array<std::string_view, 5> kExoticResources = {
    kResourceAwsNeuron, kResourceAwsNeuronCore, kResourceAmdGpu, kResourceNvidiaGpu,
    kResourceHabanaGaudi};
inline constexpr std::string_view kResourceEfa = "vpc.amazonaws.com/efa";
inline constexpr std::string_view kResourcePrivateIpv4Address =
    "vpc.amazonaws.com/PrivateIPv4Address";

}  // namespace karpenter::api
