// Label selectors and node-selection terms (metav1.LabelSelector, v1.NodeSelector) and the
// affinity types built from them. Matching logic lives in selector_match.h.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace karpenter::api {

struct LabelSelectorRequirement {
  std::string key;
  std::string operator_;  // In | NotIn | Exists | DoesNotExist
  std::vector<std::string> values;
  bool operator==(const LabelSelectorRequirement&) const = default;
  template <class V>
  void Fields(V& v) {
    v("key", key);
    v("operator", operator_);
    v("values", values);
  }
};

struct LabelSelector {
  std::map<std::string, std::string> match_labels;
  std::vector<LabelSelectorRequirement> match_expressions;
  bool operator==(const LabelSelector&) const = default;
  template <class V>
  void Fields(V& v) {
    v("matchLabels", match_labels);
    v("matchExpressions", match_expressions);
  }
};

// v1.NodeSelectorRequirement; Karpenter's requirement adds `minValues` (see nodepool.h).
struct NodeSelectorRequirement {
  std::string key;
  std::string operator_;  // In | NotIn | Exists | DoesNotExist | Gt | Lt (| Gte | Lte in Karpenter)
  std::vector<std::string> values;
  bool operator==(const NodeSelectorRequirement&) const = default;
  template <class V>
  void Fields(V& v) {
    v("key", key);
    v("operator", operator_);
    v("values", values);
  }
};

struct NodeSelectorTerm {
  std::vector<NodeSelectorRequirement> match_expressions;
  std::vector<NodeSelectorRequirement> match_fields;
  bool operator==(const NodeSelectorTerm&) const = default;
  template <class V>
  void Fields(V& v) {
    v("matchExpressions", match_expressions);
    v("matchFields", match_fields);
  }
};

struct NodeSelector {
  std::vector<NodeSelectorTerm> node_selector_terms;
  bool operator==(const NodeSelector&) const = default;
  template <class V>
  void Fields(V& v) {
    v("nodeSelectorTerms", node_selector_terms);
  }
};

struct PreferredSchedulingTerm {
  int32_t weight = 0;
  NodeSelectorTerm preference;
  bool operator==(const PreferredSchedulingTerm&) const = default;
  template <class V>
  void Fields(V& v) {
    v("weight", weight);
    v("preference", preference);
  }
};

struct NodeAffinity {
  std::optional<NodeSelector> required_during_scheduling_ignored_during_execution;
  std::vector<PreferredSchedulingTerm> preferred_during_scheduling_ignored_during_execution;
  bool operator==(const NodeAffinity&) const = default;
  template <class V>
  void Fields(V& v) {
    v("requiredDuringSchedulingIgnoredDuringExecution",
      required_during_scheduling_ignored_during_execution);
    v("preferredDuringSchedulingIgnoredDuringExecution",
      preferred_during_scheduling_ignored_during_execution);
  }
};

struct PodAffinityTerm {
  std::optional<LabelSelector> label_selector;
  std::vector<std::string> namespaces;
  std::string topology_key;
  std::optional<LabelSelector> namespace_selector;
  std::vector<std::string> match_label_keys;
  std::vector<std::string> mismatch_label_keys;
  bool operator==(const PodAffinityTerm&) const = default;
  template <class V>
  void Fields(V& v) {
    v("labelSelector", label_selector);
    v("namespaces", namespaces);
    v("topologyKey", topology_key);
    v("namespaceSelector", namespace_selector);
    v("matchLabelKeys", match_label_keys);
    v("mismatchLabelKeys", mismatch_label_keys);
  }
};

struct WeightedPodAffinityTerm {
  int32_t weight = 0;
  PodAffinityTerm pod_affinity_term;
  bool operator==(const WeightedPodAffinityTerm&) const = default;
  template <class V>
  void Fields(V& v) {
    v("weight", weight);
    v("podAffinityTerm", pod_affinity_term);
  }
};

// Used for both podAffinity and podAntiAffinity (same shape).
struct PodAffinity {
  std::vector<PodAffinityTerm> required_during_scheduling_ignored_during_execution;
  std::vector<WeightedPodAffinityTerm> preferred_during_scheduling_ignored_during_execution;
  bool operator==(const PodAffinity&) const = default;
  template <class V>
  void Fields(V& v) {
    v("requiredDuringSchedulingIgnoredDuringExecution",
      required_during_scheduling_ignored_during_execution);
    v("preferredDuringSchedulingIgnoredDuringExecution",
      preferred_during_scheduling_ignored_during_execution);
  }
};

struct Affinity {
  std::optional<NodeAffinity> node_affinity;
  std::optional<PodAffinity> pod_affinity;
  std::optional<PodAffinity> pod_anti_affinity;
  bool operator==(const Affinity&) const = default;
  template <class V>
  void Fields(V& v) {
    v("nodeAffinity", node_affinity);
    v("podAffinity", pod_affinity);
    v("podAntiAffinity", pod_anti_affinity);
  }
};

}  // namespace karpenter::api
