// EC2NodeClass (`karpenter.k8s.aws/v1`): the AWS launch configuration a NodePool points at
// (subnets, security groups, AMIs, IAM, storage, IMDS, kubelet), modelled field for field on
// the v1.14.1 typed Go struct. Go pointer fields are std::optional so that presence-sensitive
// CRD rules ("exactly one of", defaults) can be checked; plain Go strings/maps/slices stay
// plain, so empty means absent, as it does for the Go client (`omitempty`).
// Validation lives in ec2nodeclass_validation.h.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/api/duration.h"
#include "src/api/meta.h"
#include "src/api/quantity.h"
#include "src/api/selector.h"
#include "src/api/time.h"

namespace karpenter::api {

inline constexpr std::string_view kEC2NodeClassApiVersion = "karpenter.k8s.aws/v1";
inline constexpr std::string_view kEC2NodeClassKind = "EC2NodeClass";

// spec.amiFamily values.
inline constexpr std::string_view kAMIFamilyAL2 = "AL2";
inline constexpr std::string_view kAMIFamilyAL2023 = "AL2023";
inline constexpr std::string_view kAMIFamilyBottlerocket = "Bottlerocket";
inline constexpr std::string_view kAMIFamilyCustom = "Custom";
inline constexpr std::string_view kAMIFamilyWindows2019 = "Windows2019";
inline constexpr std::string_view kAMIFamilyWindows2022 = "Windows2022";
inline constexpr std::string_view kAMIFamilyWindows2025 = "Windows2025";

// Status condition types; Ready is the conjunction of these (CapacityReservationsReady only
// when the ReservedCapacity gate is on).
inline constexpr std::string_view kConditionSubnetsReady = "SubnetsReady";
inline constexpr std::string_view kConditionSecurityGroupsReady = "SecurityGroupsReady";
inline constexpr std::string_view kConditionAMIsReady = "AMIsReady";
inline constexpr std::string_view kConditionInstanceProfileReady = "InstanceProfileReady";
inline constexpr std::string_view kConditionCapacityReservationsReady = "CapacityReservationsReady";
inline constexpr std::string_view kConditionValidationSucceeded = "ValidationSucceeded";
inline constexpr std::string_view kConditionPlacementGroupReady = "PlacementGroupReady";

// Selects subnets by tags (a "*" value means "key exists") or by id; fields are ANDed.
struct SubnetSelectorTerm {
  std::map<std::string, std::string> tags;
  std::string id;
  bool operator==(const SubnetSelectorTerm&) const = default;
  template <class V>
  void Fields(V& v) {
    v("tags", tags);
    v("id", id);
  }
};

// Selects security groups by tags, id, or group name (not the Name tag).
struct SecurityGroupSelectorTerm {
  std::map<std::string, std::string> tags;
  std::string id;
  std::string name;
  bool operator==(const SecurityGroupSelectorTerm&) const = default;
  template <class V>
  void Fields(V& v) {
    v("tags", tags);
    v("id", id);
    v("name", name);
  }
};

struct CapacityReservationSelectorTerm {
  std::map<std::string, std::string> tags;
  std::string id;
  std::string owner_id;
  std::string instance_match_criteria;  // open | targeted
  bool operator==(const CapacityReservationSelectorTerm&) const = default;
  template <class V>
  void Fields(V& v) {
    v("tags", tags);
    v("id", id);
    v("ownerID", owner_id);
    v("instanceMatchCriteria", instance_match_criteria);
  }
};

// Exactly one of name / id.
struct PlacementGroupSelector {
  std::optional<std::string> name;
  std::optional<std::string> id;
  bool operator==(const PlacementGroupSelector&) const = default;
  template <class V>
  void Fields(V& v) {
    v("name", name);
    v("id", id);
  }
};

// `alias` ("family@version", e.g. "al2023@latest") must be the only term; otherwise terms are
// ORed and the fields inside a term ANDed.
struct AMISelectorTerm {
  std::string alias;
  std::map<std::string, std::string> tags;
  std::string id;
  std::string name;
  std::string owner;
  std::string ssm_parameter;
  bool operator==(const AMISelectorTerm&) const = default;
  template <class V>
  void Fields(V& v) {
    v("alias", alias);
    v("tags", tags);
    v("id", id);
    v("name", name);
    v("owner", owner);
    v("ssmParameter", ssm_parameter);
  }
};

// The subset of the upstream KubeletConfiguration Karpenter renders into bootstrap user data.
// The reserved and eviction maps keep their values as text (Go: map[string]string) because
// eviction thresholds may be percentages.
struct KubeletConfiguration {
  std::vector<std::string> cluster_dns;
  std::optional<int32_t> max_pods;
  std::optional<int32_t> pods_per_core;
  std::map<std::string, std::string> system_reserved;
  std::map<std::string, std::string> kube_reserved;
  std::map<std::string, std::string> eviction_hard;
  std::map<std::string, std::string> eviction_soft;
  std::map<std::string, Duration> eviction_soft_grace_period;
  std::optional<int32_t> eviction_max_pod_grace_period;
  std::optional<int32_t> image_gc_high_threshold_percent;
  std::optional<int32_t> image_gc_low_threshold_percent;
  std::optional<bool> cpu_cfs_quota;
  bool operator==(const KubeletConfiguration&) const = default;
  template <class V>
  void Fields(V& v) {
    v("clusterDNS", cluster_dns);
    v("maxPods", max_pods);
    v("podsPerCore", pods_per_core);
    v("systemReserved", system_reserved);
    v("kubeReserved", kube_reserved);
    v("evictionHard", eviction_hard);
    v("evictionSoft", eviction_soft);
    v("evictionSoftGracePeriod", eviction_soft_grace_period);
    v("evictionMaxPodGracePeriod", eviction_max_pod_grace_period);
    v("imageGCHighThresholdPercent", image_gc_high_threshold_percent);
    v("imageGCLowThresholdPercent", image_gc_low_threshold_percent);
    v("cpuCFSQuota", cpu_cfs_quota);
  }
};

// Instance Metadata Service exposure; every field is defaulted by the CRD (see ApplyDefaults).
struct MetadataOptions {
  std::optional<std::string> http_endpoint;            // enabled | disabled
  std::optional<std::string> http_protocol_ipv6;       // enabled | disabled
  std::optional<int64_t> http_put_response_hop_limit;  // 1..64
  std::optional<std::string> http_tokens;              // required | optional
  bool operator==(const MetadataOptions&) const = default;
  template <class V>
  void Fields(V& v) {
    v("httpEndpoint", http_endpoint);
    v("httpProtocolIPv6", http_protocol_ipv6);
    v("httpPutResponseHopLimit", http_put_response_hop_limit);
    v("httpTokens", http_tokens);
  }
};

struct CPUOptions {
  std::optional<std::string> nested_virtualization;  // enabled | disabled
  bool operator==(const CPUOptions&) const = default;
  template <class V>
  void Fields(V& v) {
    v("nestedVirtualization", nested_virtualization);
  }
};

// Idle connection-tracking timeouts (seconds) for the ENIs in the launch template.
struct ConnectionTracking {
  std::optional<int32_t> tcp_established_timeout;  // 60..432000
  std::optional<int32_t> udp_stream_timeout;       // 60..180
  std::optional<int32_t> udp_timeout;              // 30..60
  bool operator==(const ConnectionTracking&) const = default;
  template <class V>
  void Fields(V& v) {
    v("tcpEstablishedTimeout", tcp_established_timeout);
    v("udpStreamTimeout", udp_stream_timeout);
    v("udpTimeout", udp_timeout);
  }
};

// EBS parameters of one block device mapping. volumeSize is a Quantity as in Go; the CRD
// restricts its serialised form to whole Gi/G/Ti/T amounts.
struct BlockDevice {
  std::optional<bool> delete_on_termination;
  std::optional<bool> encrypted;
  std::optional<int64_t> iops;
  std::optional<std::string> kms_key_id;
  std::optional<std::string> snapshot_id;
  std::optional<int64_t> throughput;
  std::optional<int32_t> volume_initialization_rate;  // MiB/s, 100..300, needs snapshotID
  std::optional<Quantity> volume_size;
  std::optional<std::string> volume_type;  // standard | io1 | io2 | gp2 | sc1 | st1 | gp3
  bool operator==(const BlockDevice&) const = default;
  template <class V>
  void Fields(V& v) {
    v("deleteOnTermination", delete_on_termination);
    v("encrypted", encrypted);
    v("iops", iops);
    v("kmsKeyID", kms_key_id);
    v("snapshotID", snapshot_id);
    v("throughput", throughput);
    v("volumeInitializationRate", volume_initialization_rate);
    v("volumeSize", volume_size);
    v("volumeType", volume_type);
  }
};

struct BlockDeviceMapping {
  std::optional<std::string> device_name;
  std::optional<BlockDevice> ebs;
  bool root_volume = false;  // at most one mapping may be the kubelet root volume
  bool operator==(const BlockDeviceMapping&) const = default;
  template <class V>
  void Fields(V& v) {
    v("deviceName", device_name);
    v("ebs", ebs);
    v("rootVolume", root_volume);
  }
};

struct NetworkInterface {
  int32_t network_card_index = 0;
  int32_t device_index = 0;
  std::string interface_type;  // interface | efa-only
  bool operator==(const NetworkInterface&) const = default;
  template <class V>
  void Fields(V& v) {
    v("networkCardIndex", network_card_index);
    v("deviceIndex", device_index);
    v("interfaceType", interface_type);
  }
};

struct EC2NodeClassSpec {
  std::vector<SubnetSelectorTerm> subnet_selector_terms;
  std::vector<SecurityGroupSelectorTerm> security_group_selector_terms;
  std::vector<CapacityReservationSelectorTerm> capacity_reservation_selector_terms;
  std::optional<PlacementGroupSelector> placement_group_selector;
  std::optional<bool> associate_public_ip_address;
  std::optional<int32_t> ip_prefix_count;
  std::vector<AMISelectorTerm> ami_selector_terms;
  // Optional with an alias term (inferred from it); required otherwise.
  std::optional<std::string> ami_family;
  std::optional<std::string> user_data;
  // Exactly one of role / instanceProfile. Go models role as a plain string; it is optional
  // here so that an explicit `role: ""` can be told apart from an absent role, as the API
  // server does.
  std::optional<std::string> role;
  std::optional<std::string> instance_profile;
  std::map<std::string, std::string> tags;
  std::optional<KubeletConfiguration> kubelet;
  std::vector<BlockDeviceMapping> block_device_mappings;
  std::optional<std::string> instance_store_policy;  // RAID0
  std::vector<NetworkInterface> network_interfaces;
  std::optional<bool> detailed_monitoring;
  std::optional<MetadataOptions> metadata_options;
  std::optional<ConnectionTracking> connection_tracking;
  std::optional<std::string> context;  // CreateFleet "Context" pass-through
  std::optional<CPUOptions> cpu_options;
  bool operator==(const EC2NodeClassSpec&) const = default;
  template <class V>
  void Fields(V& v) {
    v("subnetSelectorTerms", subnet_selector_terms);
    v("securityGroupSelectorTerms", security_group_selector_terms);
    v("capacityReservationSelectorTerms", capacity_reservation_selector_terms);
    v("placementGroupSelector", placement_group_selector);
    v("associatePublicIPAddress", associate_public_ip_address);
    v("ipPrefixCount", ip_prefix_count);
    v("amiSelectorTerms", ami_selector_terms);
    v("amiFamily", ami_family);
    v("userData", user_data);
    v("role", role);
    v("instanceProfile", instance_profile);
    v("tags", tags);
    v("kubelet", kubelet);
    v("blockDeviceMappings", block_device_mappings);
    v("instanceStorePolicy", instance_store_policy);
    v("networkInterfaces", network_interfaces);
    v("detailedMonitoring", detailed_monitoring);
    v("metadataOptions", metadata_options);
    v("connectionTracking", connection_tracking);
    v("context", context);
    v("cpuOptions", cpu_options);
  }
};

// Resolved state written by the nodeclass controllers; launches read only this.
struct Subnet {
  std::string id;
  std::string zone;
  std::string zone_id;
  bool operator==(const Subnet&) const = default;
  template <class V>
  void Fields(V& v) {
    v("id", id);
    v("zone", zone);
    v("zoneID", zone_id);
  }
};

struct SecurityGroup {
  std::string id;
  std::string name;
  bool operator==(const SecurityGroup&) const = default;
  template <class V>
  void Fields(V& v) {
    v("id", id);
    v("name", name);
  }
};

struct AMI {
  std::string id;
  bool deprecated = false;
  std::string name;
  // Instance-type requirements (arch, GPU/accelerator presence...) this image is valid for.
  std::vector<NodeSelectorRequirement> requirements;
  bool operator==(const AMI&) const = default;
  template <class V>
  void Fields(V& v) {
    v("id", id);
    v("deprecated", deprecated);
    v("name", name);
    v("requirements", requirements);
  }
};

struct CapacityReservation {
  std::string availability_zone;
  std::optional<Time> end_time;
  std::string id;
  std::string instance_match_criteria;  // open | targeted
  std::string instance_type;
  std::string owner_id;
  std::string reservation_type;  // default | capacity-block; CRD default "default"
  bool interruptible = false;
  std::string state;  // active | expiring; CRD default "active"
  // Not in upstream's CRD: upstream asks EC2 (DescribeCapacityReservations
  // AvailableInstanceCount) on every sync. A snapshot has no EC2 to ask, so the count travels
  // here; absent counts as 0, as upstream's availability cache does for a reservation it has not
  // synced (the reservation then offers nothing). Instances already running in the reservation
  // are not part of it.
  std::optional<int64_t> available_instance_count;
  bool operator==(const CapacityReservation&) const = default;
  template <class V>
  void Fields(V& v) {
    v("availabilityZone", availability_zone);
    v("endTime", end_time);
    v("id", id);
    v("instanceMatchCriteria", instance_match_criteria);
    v("instanceType", instance_type);
    v("ownerID", owner_id);
    v("reservationType", reservation_type);
    v("interruptible", interruptible);
    v("state", state);
    v("availableInstanceCount", available_instance_count);
  }
};

struct EC2NodeClassStatus {
  std::vector<Subnet> subnets;
  std::vector<SecurityGroup> security_groups;
  std::vector<CapacityReservation> capacity_reservations;
  std::vector<AMI> amis;
  std::string instance_profile;
  std::vector<Condition> conditions;
  bool operator==(const EC2NodeClassStatus&) const = default;
  template <class V>
  void Fields(V& v) {
    v("subnets", subnets);
    v("securityGroups", security_groups);
    v("capacityReservations", capacity_reservations);
    v("amis", amis);
    v("instanceProfile", instance_profile);
    v("conditions", conditions);
  }
};

struct EC2NodeClass {
  std::string api_version = std::string(kEC2NodeClassApiVersion);
  std::string kind = std::string(kEC2NodeClassKind);
  ObjectMeta metadata;
  EC2NodeClassSpec spec;
  EC2NodeClassStatus status;
  bool operator==(const EC2NodeClass&) const = default;
  template <class V>
  void Fields(V& v) {
    v("apiVersion", api_version);
    v("kind", kind);
    v("metadata", metadata);
    v("spec", spec);
    v("status", status);
  }
};

// Applies the CRD's schema defaults, as the API server would on admission: a missing
// metadataOptions becomes {httpEndpoint: enabled, httpProtocolIPv6: disabled,
// httpPutResponseHopLimit: 1, httpTokens: required}, a partial one gets each missing field
// defaulted; status capacity reservations default reservationType "default" and state "active".
void ApplyDefaults(EC2NodeClass& node_class);

// The AMI family Karpenter uses: spec.amiFamily if set, else the family named by the alias
// term ("al2023@latest" → "AL2023"), else "Custom" (unreachable for a valid object).
std::string ResolvedAMIFamily(const EC2NodeClassSpec& spec);

}  // namespace karpenter::api
