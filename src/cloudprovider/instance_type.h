// Instance types as the scheduler sees them: the labels a node of the type carries, its capacity,
// the overhead the kubelet keeps back, and where and at what price it can be launched. Built from
// the raw EC2 facts (instance_type_info.h) with upstream Karpenter's AWS formulas.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "src/api/quantity.h"
#include "src/api/resource_list.h"
#include "src/cloudprovider/instance_type_info.h"

namespace karpenter::cloudprovider {

// One (zone, capacity type) in which the type can be launched; reserved offerings are one per
// capacity reservation.
struct Offering {
  std::string zone;
  std::string capacity_type;  // "on-demand", "spot" or "reserved"
  double price = 0;           // USD per hour
  // The zone offers the type, the catalog knows a price, and the AMI family can run it.
  bool available = false;
  // Reserved offerings only: the capacity reservation (karpenter.k8s.aws/capacity-reservation-*
  // labels) and how many more instances it takes.
  std::string reservation_id;
  std::string reservation_type;  // default | capacity-block
  bool reservation_interruptible = false;
  int64_t reservation_capacity = 0;

  friend bool operator==(const Offering&, const Offering&) = default;
};

// What the kubelet reserves on a node: subtracted from capacity to get allocatable.
struct InstanceTypeOverhead {
  api::ResourceList kube_reserved;
  api::ResourceList system_reserved;
  api::ResourceList eviction_threshold;

  // The three lists summed per resource.
  api::ResourceList Total() const;

  friend bool operator==(const InstanceTypeOverhead&, const InstanceTypeOverhead&) = default;
};

struct InstanceType {
  std::string name;
  // Every label Karpenter derives from the type alone (kubernetes.io/arch, kubernetes.io/os,
  // node.kubernetes.io/instance-type, topology.kubernetes.io/region, karpenter.k8s.aws/instance-*).
  // Zone and capacity type are per offering.
  std::map<std::string, std::string> labels;
  // cpu, memory, ephemeral-storage, pods and the extended resources the type has (zero-valued
  // extended resources are left out).
  api::ResourceList capacity;
  InstanceTypeOverhead overhead;
  std::vector<Offering> offerings;

  // capacity − overhead.Total(), per capacity resource (not clamped, as upstream).
  api::ResourceList Allocatable() const;

  friend bool operator==(const InstanceType&, const InstanceType&) = default;
};

// A metal type, or one with an accelerator (api::kExoticResources): upstream's AWS provider
// launches these only when no other type is left.
bool IsExotic(const InstanceType& type);

// EC2NodeClass `amiFamily` (or the family an `alias` implies).
enum class AmiFamily {
  kAL2,
  kAL2023,
  kBottlerocket,
  kCustom,
  kWindows2019,
  kWindows2022,
  kWindows2025
};

// "AL2", "AL2023", "Bottlerocket", "Custom", "Windows2019", "Windows2022", "Windows2025".
absl::StatusOr<AmiFamily> ParseAmiFamily(std::string_view name);
bool IsWindows(AmiFamily family);
// The node.kubernetes.io/windows-build of a Windows family's nodes; "" for the others.
std::string_view WindowsBuild(AmiFamily family);

// The fields of the EC2NodeClass `kubelet` block that change capacity or overhead.
struct KubeletOverrides {
  std::optional<int32_t> max_pods;
  std::optional<int32_t> pods_per_core;
  std::map<std::string, std::string> kube_reserved;    // resource -> quantity
  std::map<std::string, std::string> system_reserved;  // resource -> quantity
  std::map<std::string, std::string> eviction_hard;    // signal -> quantity or "N%"
};

struct ResolveOptions {
  AmiFamily ami_family = AmiFamily::kAL2023;
  KubeletOverrides kubelet;
  // VM_MEMORY_OVERHEAD_PERCENT: share of memory the hypervisor and firmware keep.
  double vm_memory_overhead_percent = 0.075;
  // RESERVED_ENIS: ENIs kept out of pod networking.
  int reserved_enis = 0;
  // Size of the block device backing ephemeral storage (the root volume's volumeSize in
  // blockDeviceMappings); nullopt = the family's default volume (20Gi, Windows 50Gi).
  std::optional<api::Quantity> ephemeral_volume_size;
  // instanceStorePolicy: RAID0 — ephemeral storage is the instance store when the type has one.
  bool instance_store_raid0 = false;
  // Value of topology.kubernetes.io/region; no label when empty.
  std::string region;
};

// Labels, capacity and overhead of `info` under `options`; `offerings` is left empty (Catalog
// fills it). Fails only on kubelet overrides that do not parse.
absl::StatusOr<InstanceType> NewInstanceType(const InstanceTypeInfo& info,
                                             const ResolveOptions& options);

// The labels of a node of this type, apart from zone and capacity type.
std::map<std::string, std::string> InstanceTypeLabels(const InstanceTypeInfo& info,
                                                      const ResolveOptions& options);

// Whether the AMI family can run the type at all (Windows needs amd64; AL2023 has no a1 image).
bool SupportsAmiFamily(const InstanceTypeInfo& info, AmiFamily family);

// ENIs × (IPv4 per ENI − 1) + 2 over the default card's ENIs minus `reserved_enis`; 0 when no
// ENI is left. The VPC CNI's max-pods formula.
int64_t EniLimitedPods(const InstanceTypeInfo& info, int reserved_enis);

// Pods the kubelet will run: maxPods, else the family's default (ENI-limited, or 110 on Windows),
// then capped by podsPerCore × vCPUs where the family honours podsPerCore.
int64_t MaxPods(const InstanceTypeInfo& info, const ResolveOptions& options);

// Default kube-reserved CPU: 6% of the first core, 1% of the second, 0.5% of cores 3–4 and 0.25%
// of the rest, each tier truncated to whole millicores.
int64_t KubeReservedCpuMillis(int64_t cpu_millis);

}  // namespace karpenter::cloudprovider
