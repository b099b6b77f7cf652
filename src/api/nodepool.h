// NodePool (`nodepools.karpenter.sh/v1`, cluster-scoped): the template NodeClaims are launched
// from, plus the pool's disruption policy, limits, weight and (alpha) static replica count.
// Every field of the v1.14 CRD schema is modelled; presence is kept (std::optional) wherever a
// default or a rule depends on it. Validation lives in nodepool_validation.h.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/api/duration.h"
#include "src/api/meta.h"
#include "src/api/nodeclaim.h"
#include "src/api/taint.h"

namespace karpenter::api {

inline constexpr std::string_view kConsolidationPolicyWhenEmpty = "WhenEmpty";
inline constexpr std::string_view kConsolidationPolicyWhenEmptyOrUnderutilized =
    "WhenEmptyOrUnderutilized";
inline constexpr std::string_view kConsolidationPolicyBalanced = "Balanced";

// Reasons a budget can be scoped to.
inline constexpr std::string_view kDisruptionReasonUnderutilized = "Underutilized";
inline constexpr std::string_view kDisruptionReasonEmpty = "Empty";
inline constexpr std::string_view kDisruptionReasonDrifted = "Drifted";

// NodePool status condition types. Ready = ValidationSucceeded ∧ NodeClassReady.
inline constexpr std::string_view kConditionTypeValidationSucceeded = "ValidationSucceeded";
inline constexpr std::string_view kConditionTypeNodeClassReady = "NodeClassReady";
inline constexpr std::string_view kConditionTypeNodeRegistrationHealthy = "NodeRegistrationHealthy";

// Bumped upstream whenever a change to the template would alter every pool's hash.
inline constexpr std::string_view kNodePoolHashVersion = "v3";

inline constexpr std::string_view kDefaultBudgetNodes = "10%";
inline constexpr std::string_view kDefaultConsolidateAfter = "0s";

// Caps how many of the pool's nodes may be disrupted at once, optionally only inside a cron
// window (`schedule` + `duration`, both or neither) and only for some reasons.
struct Budget {
  std::vector<std::string> reasons;  // subset of Underutilized|Empty|Drifted; empty = all reasons
  // "N" or "P%"; defaulted to "10%" when omitted. Written as "" it is present and refused, as the
  // CRD's pattern refuses it.
  std::optional<std::string> nodes;
  std::optional<std::string> schedule;      // 5-field cron or @-macro, always UTC
  std::optional<WrittenDuration> duration;  // hours/minutes only
  bool operator==(const Budget&) const = default;
  template <class V>
  void Fields(V& v) {
    v("reasons", reasons);
    v("nodes", nodes);
    v("schedule", schedule);
    v("duration", duration);
  }
};

struct Disruption {
  // Required inside a present `disruption` block by the v1.14 CRD; "Never" disables consolidation.
  std::optional<NillableDuration> consolidate_after;
  std::string consolidation_policy;  // defaulted to WhenEmptyOrUnderutilized
  // Absent -> defaulted to [{nodes: "10%"}]. An explicit empty list is kept and means "no budget",
  // i.e. unlimited disruptions, exactly as upstream.
  std::optional<std::vector<Budget>> budgets;
  bool operator==(const Disruption&) const = default;
  template <class V>
  void Fields(V& v) {
    v("consolidateAfter", consolidate_after);
    v("consolidationPolicy", consolidation_policy);
    v("budgets", budgets);
  }
};

// The template's metadata: only labels and annotations, copied onto NodeClaims and Nodes.
struct NodeClaimTemplateMeta {
  std::map<std::string, std::string> labels;
  std::map<std::string, std::string> annotations;
  bool operator==(const NodeClaimTemplateMeta&) const = default;
  template <class V>
  void Fields(V& v) {
    v("labels", labels);
    v("annotations", annotations);
  }
};

// NodeClaimSpec without resource requests (users cannot set those on a pool).
struct NodeClaimTemplateSpec {
  std::vector<Taint> taints;
  std::vector<Taint> startup_taints;
  std::vector<NodeSelectorRequirementWithMinValues> requirements;
  std::optional<NodeClassReference> node_class_ref;  // required
  std::optional<WrittenDuration> termination_grace_period;
  std::optional<NillableDuration> expire_after;  // defaulted to 720h; "Never" disables
  bool operator==(const NodeClaimTemplateSpec&) const = default;
  template <class V>
  void Fields(V& v) {
    v("taints", taints);
    v("startupTaints", startup_taints);
    v("requirements", requirements);
    v("nodeClassRef", node_class_ref);
    v("terminationGracePeriod", termination_grace_period);
    v("expireAfter", expire_after);
  }
};

struct NodeClaimTemplate {
  NodeClaimTemplateMeta metadata;
  NodeClaimTemplateSpec spec;
  bool operator==(const NodeClaimTemplate&) const = default;
  template <class V>
  void Fields(V& v) {
    v("metadata", metadata);
    v("spec", spec);
  }
};

struct NodePoolSpec {
  NodeClaimTemplate template_;
  // Absent -> defaulted to {consolidateAfter: 0s} (and then its own defaults), so after
  // ApplyDefaults it is always engaged.
  std::optional<Disruption> disruption;
  ResourceList limits;
  std::optional<int32_t> weight;    // 1..100; unset ranks as 0
  std::optional<int64_t> replicas;  // alpha static pool when set
  bool operator==(const NodePoolSpec&) const = default;
  template <class V>
  void Fields(V& v) {
    v("template", template_);
    v("disruption", disruption);
    v("limits", limits);
    v("weight", weight);
    v("replicas", replicas);
  }
};

struct NodePoolStatus {
  ResourceList resources;
  int64_t nodes = 0;
  int64_t node_class_observed_generation = 0;
  std::vector<Condition> conditions;
  bool operator==(const NodePoolStatus&) const = default;
  template <class V>
  void Fields(V& v) {
    v("resources", resources);
    v("nodes", nodes);
    v("nodeClassObservedGeneration", node_class_observed_generation);
    v("conditions", conditions);
  }
};

struct NodePool {
  std::string api_version = "karpenter.sh/v1";
  std::string kind = "NodePool";
  ObjectMeta metadata;
  NodePoolSpec spec;
  NodePoolStatus status;
  bool operator==(const NodePool&) const = default;
  template <class V>
  void Fields(V& v) {
    v("apiVersion", api_version);
    v("kind", kind);
    v("metadata", metadata);
    v("spec", spec);
    v("status", status);
  }
};

// The v1.14 CRD's defaults, applied the way the API server applies them (idempotent):
//  - spec.disruption absent -> {consolidateAfter: "0s"}; then inside disruption:
//    consolidationPolicy -> WhenEmptyOrUnderutilized, budgets absent -> [{nodes: "10%"}],
//    each budget's nodes -> "10%". A present disruption block without consolidateAfter is NOT
//    defaulted: the v1.14 CRD (as shipped by the AWS provider) requires it there, and validation
//    reports it. (Core after v1.14, #3220, defaults the field itself to "0s".)
//  - spec.template.spec.expireAfter absent -> "720h".
void ApplyDefaults(NodePool& node_pool);

// Converts the pool's template into the NodeClaim it would launch (labels, annotations and the
// template spec; no requests, no generated name).
NodeClaim TemplateToNodeClaim(const NodeClaimTemplate& node_claim_template);

}  // namespace karpenter::api
