// Well-known label, annotation, taint and finalizer keys of Karpenter (core + AWS provider), and
// the label-key rules both admission and the scheduler apply: which keys a NodePool may set or
// require (restricted domains, the CRD's AWS allow-list), which keys are "well known" (may be left
// undefined by a NodePool), and the beta-label aliases pods may still use.
//
// Two rule sets exist upstream and they disagree at the edges, so both are exposed:
//  - the CRD's CEL rules (admission): `CrdLabelKeyViolations`;
//  - the runtime rule of the nodepool validation controller and the provisioner:
//    `IsRestrictedLabel` / `RestrictedLabelMessage`.
// E.g. `karpenter.k8s.aws/ec2nodeclass` passes the CRD allow-list but is restricted at runtime, and
// `xkarpenter.sh/a` is restricted by the CRD's suffix test but not by the runtime domain test.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace karpenter::api {

// One of the keys below as a std::string built once: object metadata maps are keyed by
// std::string, and a lookup with a temporary longer than the small-string buffer allocates, which
// per-pod and per-node passes over a large cluster do tens of thousands of times a poll.
template <const std::string_view& kKey>
const std::string& KeyString() {
  static const std::string key(kKey);
  return key;
}

// API groups.
inline constexpr std::string_view kKarpenterGroup = "karpenter.sh";
inline constexpr std::string_view kKarpenterCompatibilityGroup = "compatibility.karpenter.sh";
inline constexpr std::string_view kAwsGroup = "karpenter.k8s.aws";
inline constexpr std::string_view kAwsCompatibilityGroup = "compatibility.karpenter.k8s.aws";

// Karpenter labels.
inline constexpr std::string_view kNodePoolLabelKey = "karpenter.sh/nodepool";
inline constexpr std::string_view kNodeInitializedLabelKey = "karpenter.sh/initialized";
inline constexpr std::string_view kNodeRegisteredLabelKey = "karpenter.sh/registered";
inline constexpr std::string_view kNodeDoNotSyncTaintsLabelKey = "karpenter.sh/do-not-sync-taints";
inline constexpr std::string_view kCapacityTypeLabelKey = "karpenter.sh/capacity-type";

inline constexpr std::string_view kCapacityTypeSpot = "spot";
inline constexpr std::string_view kCapacityTypeOnDemand = "on-demand";
inline constexpr std::string_view kCapacityTypeReserved = "reserved";
inline constexpr std::string_view kArchitectureAmd64 = "amd64";
inline constexpr std::string_view kArchitectureArm64 = "arm64";

// Upstream Kubernetes node labels.
inline constexpr std::string_view kLabelHostname = "kubernetes.io/hostname";
inline constexpr std::string_view kLabelTopologyZone = "topology.kubernetes.io/zone";
inline constexpr std::string_view kLabelTopologyRegion = "topology.kubernetes.io/region";
inline constexpr std::string_view kLabelInstanceTypeStable = "node.kubernetes.io/instance-type";
inline constexpr std::string_view kLabelArchStable = "kubernetes.io/arch";
inline constexpr std::string_view kLabelOSStable = "kubernetes.io/os";
inline constexpr std::string_view kLabelWindowsBuild = "node.kubernetes.io/windows-build";
inline constexpr std::string_view kLabelExcludeFromExternalLoadBalancers =
    "node.kubernetes.io/exclude-from-external-load-balancers";
// Deprecated aliases, normalised to the stable keys above (see NormalizeLabelKey).
inline constexpr std::string_view kLabelFailureDomainBetaZone =
    "failure-domain.beta.kubernetes.io/zone";
inline constexpr std::string_view kLabelFailureDomainBetaRegion =
    "failure-domain.beta.kubernetes.io/region";
inline constexpr std::string_view kLabelInstanceTypeBeta = "beta.kubernetes.io/instance-type";
inline constexpr std::string_view kLabelArchBeta = "beta.kubernetes.io/arch";
inline constexpr std::string_view kLabelOSBeta = "beta.kubernetes.io/os";

// AWS provider labels.
inline constexpr std::string_view kLabelTopologyZoneID = "topology.k8s.aws/zone-id";
inline constexpr std::string_view kLabelNodeClass = "karpenter.k8s.aws/ec2nodeclass";
inline constexpr std::string_view kLabelInstanceTenancy = "karpenter.k8s.aws/instance-tenancy";
inline constexpr std::string_view kLabelCapacityReservationID =
    "karpenter.k8s.aws/capacity-reservation-id";
inline constexpr std::string_view kLabelCapacityReservationType =
    "karpenter.k8s.aws/capacity-reservation-type";
inline constexpr std::string_view kLabelCapacityReservationInterruptible =
    "karpenter.k8s.aws/capacity-reservation-interruptible";
inline constexpr std::string_view kLabelInstanceHypervisor =
    "karpenter.k8s.aws/instance-hypervisor";
inline constexpr std::string_view kLabelInstanceEncryptionInTransitSupported =
    "karpenter.k8s.aws/instance-encryption-in-transit-supported";
inline constexpr std::string_view kLabelNitroSandbox = "karpenter.k8s.aws/nitro-sandbox";
inline constexpr std::string_view kLabelInstanceCategory = "karpenter.k8s.aws/instance-category";
inline constexpr std::string_view kLabelInstanceCapabilityFlex =
    "karpenter.k8s.aws/instance-capability-flex";
inline constexpr std::string_view kLabelInstanceFamily = "karpenter.k8s.aws/instance-family";
inline constexpr std::string_view kLabelInstanceGeneration =
    "karpenter.k8s.aws/instance-generation";
inline constexpr std::string_view kLabelInstanceSize = "karpenter.k8s.aws/instance-size";
inline constexpr std::string_view kLabelInstanceLocalNVME = "karpenter.k8s.aws/instance-local-nvme";
inline constexpr std::string_view kLabelInstanceCPU = "karpenter.k8s.aws/instance-cpu";
inline constexpr std::string_view kLabelInstanceCPUManufacturer =
    "karpenter.k8s.aws/instance-cpu-manufacturer";
inline constexpr std::string_view kLabelInstanceCPUSustainedClockSpeedMhz =
    "karpenter.k8s.aws/instance-cpu-sustained-clock-speed-mhz";
inline constexpr std::string_view kLabelInstanceMemory = "karpenter.k8s.aws/instance-memory";
inline constexpr std::string_view kLabelInstanceEBSBandwidth =
    "karpenter.k8s.aws/instance-ebs-bandwidth";
inline constexpr std::string_view kLabelInstanceNetworkBandwidth =
    "karpenter.k8s.aws/instance-network-bandwidth";
inline constexpr std::string_view kLabelInstanceGPUName = "karpenter.k8s.aws/instance-gpu-name";
inline constexpr std::string_view kLabelInstanceGPUManufacturer =
    "karpenter.k8s.aws/instance-gpu-manufacturer";
inline constexpr std::string_view kLabelInstanceGPUCount = "karpenter.k8s.aws/instance-gpu-count";
inline constexpr std::string_view kLabelInstanceGPUMemory = "karpenter.k8s.aws/instance-gpu-memory";
inline constexpr std::string_view kLabelInstanceAcceleratorName =
    "karpenter.k8s.aws/instance-accelerator-name";
inline constexpr std::string_view kLabelInstanceAcceleratorManufacturer =
    "karpenter.k8s.aws/instance-accelerator-manufacturer";
inline constexpr std::string_view kLabelInstanceAcceleratorCount =
    "karpenter.k8s.aws/instance-accelerator-count";
inline constexpr std::string_view kLabelPlacementGroupID = "karpenter.k8s.aws/placement-group-id";
inline constexpr std::string_view kLabelPlacementGroupPartition =
    "karpenter.k8s.aws/placement-group-partition";

inline constexpr std::string_view kTenancyDefault = "default";
inline constexpr std::string_view kTenancyDedicated = "dedicated";

// Annotations.
inline constexpr std::string_view kDoNotDisruptAnnotationKey = "karpenter.sh/do-not-disrupt";
inline constexpr std::string_view kProviderCompatibilityAnnotationKey =
    "compatibility.karpenter.sh/provider";
inline constexpr std::string_view kNodePoolHashAnnotationKey = "karpenter.sh/nodepool-hash";
inline constexpr std::string_view kNodePoolHashVersionAnnotationKey =
    "karpenter.sh/nodepool-hash-version";
inline constexpr std::string_view kNodeClaimTerminationTimestampAnnotationKey =
    "karpenter.sh/nodeclaim-termination-timestamp";
inline constexpr std::string_view kNodeClaimMinValuesRelaxedAnnotationKey =
    "karpenter.sh/nodeclaim-min-values-relaxed";
inline constexpr std::string_view kDRADriversAnnotationKey = "karpenter.sh/requested-dra-drivers";
inline constexpr std::string_view kPriceOverlayAppliedAnnotationKey =
    "karpenter.sh/price-overlay-applied";
inline constexpr std::string_view kCapacityOverlayAppliedAnnotationKey =
    "karpenter.sh/capacity-overlay-applied";
inline constexpr std::string_view kEC2NodeClassHashAnnotationKey =
    "karpenter.k8s.aws/ec2nodeclass-hash";
inline constexpr std::string_view kEC2NodeClassHashVersionAnnotationKey =
    "karpenter.k8s.aws/ec2nodeclass-hash-version";
inline constexpr std::string_view kInstanceProfileAnnotationKey =
    "karpenter.k8s.aws/instance-profile-name";
inline constexpr std::string_view kInstanceTaggedAnnotationKey = "karpenter.k8s.aws/tagged";
inline constexpr std::string_view kClusterNameTaggedAnnotationKey =
    "compatibility.karpenter.k8s.aws/cluster-name-tagged";
inline constexpr std::string_view kPodDeletionCostAnnotationKey =
    "controller.kubernetes.io/pod-deletion-cost";

// Taints and finalizers.
inline constexpr std::string_view kDisruptedTaintKey = "karpenter.sh/disrupted";
inline constexpr std::string_view kUnregisteredTaintKey = "karpenter.sh/unregistered";
inline constexpr std::string_view kTerminationFinalizer = "karpenter.sh/termination";
inline constexpr std::string_view kAwsTerminationFinalizer = "karpenter.k8s.aws/termination";

// Label domains Karpenter reserves for itself (runtime rule; subdomains are reserved too).
std::span<const std::string_view> RestrictedLabelDomains();
// Keys that may be neither set nor required regardless of domain (runtime rule).
std::span<const std::string_view> RestrictedLabels();
// Labels Karpenter understands and can narrow down (core plus AWS additions), sorted. A NodePool
// may leave them undefined; pods may select on them without the NodePool declaring them.
std::span<const std::string_view> WellKnownLabels();
bool IsWellKnownLabel(std::string_view key);

// The karpenter.k8s.aws keys the CRD's CEL rules allow on NodePool/NodeClaim labels and
// requirement keys, in CRD order.
std::span<const std::string_view> CrdAllowedAwsLabels();

// Runtime rule (labels.go IsRestrictedLabel): well-known keys pass; otherwise a key in a restricted
// domain or one of its subdomains, or a restricted key, is refused.
bool IsRestrictedLabel(std::string_view key);
// Why `key` is refused by IsRestrictedLabel (meaningless for allowed keys).
std::string RestrictedLabelMessage(std::string_view key);

// Which label owner applies the CRD rules: NodeClaim requirements may carry karpenter.sh/nodepool
// (Karpenter itself adds it), NodePool labels and requirements may not.
enum class LabelKeyScope { kNodePool, kNodeClaim };
// The CEL messages of every CRD key rule `key` breaks (empty when it passes them all).
std::vector<std::string_view> CrdLabelKeyViolations(std::string_view key, LabelKeyScope scope);

// Deprecated alias -> stable key ("beta.kubernetes.io/arch" -> "kubernetes.io/arch"); any other key
// is returned unchanged.
std::string_view NormalizeLabelKey(std::string_view key);

// The values a requirement `In` on `key` may usefully name (capacity type, tenancy), or an empty
// span when the key's values are open-ended.
std::span<const std::string_view> WellKnownValuesFor(std::string_view key);

}  // namespace karpenter::api
