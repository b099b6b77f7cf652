// NodeClaim (`nodeclaims.karpenter.sh/v1`, cluster-scoped): one requested node, created by the
// provisioner from a NodePool template and tracked through launch, registration, initialization
// and termination. Also home of the pieces the NodePool template shares with it: requirements with
// minValues and the NodeClass reference. Validation lives in nodeclaim_validation.h.
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
#include "src/api/selector_match.h"
#include "src/api/taint.h"
#include "src/api/time.h"

namespace karpenter::api {

using ResourceList = std::map<std::string, Quantity>;

// Requirement operators: the selector spellings (Karpenter adds Gte/Lte), named for NodeClaims.
inline constexpr std::string_view kNodeSelectorOpIn = kSelectorOpIn;
inline constexpr std::string_view kNodeSelectorOpNotIn = kSelectorOpNotIn;
inline constexpr std::string_view kNodeSelectorOpExists = kSelectorOpExists;
inline constexpr std::string_view kNodeSelectorOpDoesNotExist = kSelectorOpDoesNotExist;
inline constexpr std::string_view kNodeSelectorOpGt = kSelectorOpGt;
inline constexpr std::string_view kNodeSelectorOpLt = kSelectorOpLt;
inline constexpr std::string_view kNodeSelectorOpGte = kSelectorOpGte;
inline constexpr std::string_view kNodeSelectorOpLte = kSelectorOpLte;

// NodeClaim status condition types. Ready = Launched ∧ Registered ∧ Initialized.
inline constexpr std::string_view kConditionTypeLaunched = "Launched";
inline constexpr std::string_view kConditionTypeRegistered = "Registered";
inline constexpr std::string_view kConditionTypeInitialized = "Initialized";
inline constexpr std::string_view kConditionTypeConsolidatable = "Consolidatable";
inline constexpr std::string_view kConditionTypeDrifted = "Drifted";
inline constexpr std::string_view kConditionTypeDrained = "Drained";
inline constexpr std::string_view kConditionTypeVolumesDetached = "VolumesDetached";
inline constexpr std::string_view kConditionTypeInstanceTerminating = "InstanceTerminating";
inline constexpr std::string_view kConditionTypeConsistentStateFound = "ConsistentStateFound";
inline constexpr std::string_view kConditionTypeDisruptionReason = "DisruptionReason";
inline constexpr std::string_view kConditionTypeReady = "Ready";

// Default node lifetime for both kinds (`expireAfter`).
inline constexpr std::string_view kDefaultExpireAfter = "720h";

// A node-selector requirement plus the alpha `minValues`: the minimum number of distinct values
// the launch must stay flexible across (e.g. at least 3 instance types).
struct NodeSelectorRequirementWithMinValues {
  std::string key;
  std::string operator_;  // In | NotIn | Exists | DoesNotExist | Gt | Lt | Gte | Lte
  std::vector<std::string> values;
  std::optional<int64_t> min_values;  // 1..50 when set
  bool operator==(const NodeSelectorRequirementWithMinValues&) const = default;
  template <class V>
  void Fields(V& v) {
    v("key", key);
    v("operator", operator_);
    v("values", values);
    v("minValues", min_values);
  }
};

// Points at the provider's node class (for AWS: group karpenter.k8s.aws, kind EC2NodeClass).
struct NodeClassReference {
  std::string kind;
  std::string name;
  std::string group;
  bool operator==(const NodeClassReference&) const = default;
  template <class V>
  void Fields(V& v) {
    v("kind", kind);
    v("name", name);
    v("group", group);
  }
};

struct NodeClaimResourceRequirements {
  ResourceList requests;
  bool operator==(const NodeClaimResourceRequirements&) const = default;
  template <class V>
  void Fields(V& v) {
    v("requests", requests);
  }
};

struct NodeClaimSpec {
  std::vector<Taint> taints;
  std::vector<Taint> startup_taints;  // ignored by scheduling; node not Initialized until removed
  std::vector<NodeSelectorRequirementWithMinValues> requirements;
  NodeClaimResourceRequirements resources;
  std::optional<NodeClassReference> node_class_ref;         // required
  std::optional<WrittenDuration> termination_grace_period;  // unset = wait for drain forever
  std::optional<NillableDuration> expire_after;             // defaulted to 720h; "Never" disables
  bool operator==(const NodeClaimSpec&) const = default;
  template <class V>
  void Fields(V& v) {
    v("taints", taints);
    v("startupTaints", startup_taints);
    v("requirements", requirements);
    v("resources", resources);
    v("nodeClassRef", node_class_ref);
    v("terminationGracePeriod", termination_grace_period);
    v("expireAfter", expire_after);
  }
};

struct NodeClaimStatus {
  std::string node_name;
  std::string provider_id;
  std::string image_id;
  ResourceList capacity;
  ResourceList allocatable;
  std::vector<Condition> conditions;
  std::optional<Time> last_pod_event_time;
  bool operator==(const NodeClaimStatus&) const = default;
  template <class V>
  void Fields(V& v) {
    v("nodeName", node_name);
    v("providerID", provider_id);
    v("imageID", image_id);
    v("capacity", capacity);
    v("allocatable", allocatable);
    v("conditions", conditions);
    v("lastPodEventTime", last_pod_event_time);
  }
};

struct NodeClaim {
  std::string api_version = "karpenter.sh/v1";
  std::string kind = "NodeClaim";
  ObjectMeta metadata;
  NodeClaimSpec spec;
  NodeClaimStatus status;
  bool operator==(const NodeClaim&) const = default;
  template <class V>
  void Fields(V& v) {
    v("apiVersion", api_version);
    v("kind", kind);
    v("metadata", metadata);
    v("spec", spec);
    v("status", status);
  }
};

// expireAfter's default, "720h" (30 days), printed back as written.
NillableDuration DefaultExpireAfter();

// The CRD's defaults: expireAfter "720h" when absent ("Never" is kept). Idempotent.
void ApplyDefaults(NodeClaim& node_claim);

}  // namespace karpenter::api
