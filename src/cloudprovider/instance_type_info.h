// The raw EC2 facts about one instance type, as data/catalog/instance-types.json records them
// (a trimmed DescribeInstanceTypes answer plus the zones offering the type), and the parser of
// that file. Everything Karpenter derives (labels, capacity, overhead, offerings) is computed from
// these facts in instance_type.h and catalog.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace karpenter::cloudprovider {

struct GpuInfo {
  std::string name;          // "A10G"
  std::string manufacturer;  // "NVIDIA", "AMD", "Habana"
  int64_t count = 0;
  int64_t memory_mib = 0;  // per GPU

  friend bool operator==(const GpuInfo&, const GpuInfo&) = default;
};

struct NeuronDeviceInfo {
  std::string name;  // "Inferentia", "Inferentia2", "Trainium", "Trainium2"
  int64_t count = 0;
  int64_t cores_per_device = 0;
  int64_t memory_mib = 0;

  friend bool operator==(const NeuronDeviceInfo&, const NeuronDeviceInfo&) = default;
};

struct InferenceAcceleratorInfo {
  std::string name;  // "Qualcomm AI100"
  std::string manufacturer;
  int64_t count = 0;

  friend bool operator==(const InferenceAcceleratorInfo&,
                         const InferenceAcceleratorInfo&) = default;
};

struct InstanceTypeInfo {
  std::string name;  // "m5.large"
  int64_t vcpus = 0;
  int64_t memory_mib = 0;
  std::vector<std::string> architectures;  // EC2 spelling, in EC2's order: "x86_64", "arm64"
  std::string cpu_manufacturer;            // "Intel", "AMD", "AWS"; empty when unknown
  std::optional<double> clock_ghz;         // sustained clock speed
  std::string hypervisor;                  // "nitro", "xen"; empty for bare metal
  bool bare_metal = false;
  int64_t enis = 0;  // ENI limit of the default network card
  int64_t ipv4_per_eni = 0;
  int64_t efa_interfaces = 0;
  bool encryption_in_transit = false;
  bool nitro_enclaves = false;
  std::optional<int64_t> local_storage_gb;  // total instance store
  bool local_storage_nvme = false;
  std::optional<int64_t> network_mbps;  // baseline bandwidth over all network cards
  std::string network_performance;      // "Up to 10 Gigabit"
  std::optional<int64_t> ebs_mbps;      // only for types EBS-optimized by default
  std::vector<GpuInfo> gpus;
  std::vector<NeuronDeviceInfo> neuron_devices;
  std::vector<InferenceAcceleratorInfo> inference_accelerators;
  bool on_demand = false;  // supported usage classes
  bool spot = false;
  std::vector<std::string> zones;  // zones of the region offering the type, sorted

  friend bool operator==(const InstanceTypeInfo&, const InstanceTypeInfo&) = default;
};

// The whole catalog file: the region it describes and its types, sorted by name.
struct CatalogData {
  std::string region;
  std::string source;              // provenance recorded by the generator
  std::vector<std::string> zones;  // every zone of the region that offers some type, sorted
  std::vector<InstanceTypeInfo> instance_types;
};

// Parses the format written by tools/catalog_gen (see docs/catalog.md). Errors name the type and
// field at fault.
absl::StatusOr<CatalogData> ParseCatalogData(std::string_view json);

}  // namespace karpenter::cloudprovider
