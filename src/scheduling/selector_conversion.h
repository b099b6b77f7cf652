// Conversions between the API's selector types (src/api/selector.h) and scheduling
// Requirements: node-selector requirements, label maps, and a pod's nodeSelector plus node
// affinity. Kept apart from the algebra so its headers stay free of the API's object types.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "karpenter/common/status.h"
#include "src/api/nodeclaim.h"
#include "src/api/pod.h"
#include "src/api/selector.h"
#include "src/scheduling/requirement.h"
#include "src/scheduling/requirements.h"

namespace karpenter::scheduling {

// One selector requirement (key normalised; see Requirement::Create for the operator rules).
// `min_values` carries a NodePool requirement's minValues. InvalidArgument for an unknown
// operator or a Gt/Lt/Gte/Lte without exactly one integer.
absl::StatusOr<Requirement> FromNodeSelectorRequirement(
    const api::NodeSelectorRequirement& requirement,
    Requirement::MinValues min_values = std::nullopt);

// A NodePool's or NodeClaim's requirement, with its minValues.
absl::StatusOr<Requirement> FromRequirementWithMinValues(
    const api::NodeSelectorRequirementWithMinValues& requirement);

// The conjunction of a term's matchExpressions (repeated keys intersect).
absl::StatusOr<Requirements> FromNodeSelectorRequirements(
    std::span<const api::NodeSelectorRequirement> requirements);

// `key In [value]` for each label (upstream NewLabelRequirements): a node's labels, a
// nodeSelector, a NodePool template's labels. Beta keys fold into stable ones, so a node
// labelled with both spellings yields one requirement.
Requirements FromLabels(const std::map<std::string, std::string>& labels);

// Which parts of a pod's node affinity become requirements.
struct PodRequirementOptions {
  // Also require the heaviest preferred term (the first of equal weights), as the scheduler
  // does before relaxing preferences (NewPodRequirements). False gives the strict requirements
  // (NewStrictPodRequirements).
  bool include_preferred = true;
  // Which required nodeSelectorTerm to use. Terms are ORed; the scheduler takes the first and
  // relaxes by dropping it, so callers normally leave this at 0.
  size_t required_term = 0;
};

// A pod's node requirements: its nodeSelector, intersected with the chosen required node
// affinity term and (optionally) its heaviest preferred term. matchFields are not requirements
// (pods using them are rejected before scheduling). InvalidArgument for a malformed expression
// or a `required_term` past the last term.
absl::StatusOr<Requirements> FromPodSelectors(
    const std::map<std::string, std::string>& node_selector,
    const api::Box<api::Affinity>& affinity, const PodRequirementOptions& options = {});

// The same from a pod's spec (nodeSelector and affinity).
absl::StatusOr<Requirements> FromPodSpec(const api::PodSpec& spec,
                                         const PodRequirementOptions& options = {});

// Back to API form: one NodeSelectorRequirement, or two (Gte and Lte) when both bounds are set.
// Bounds print as Gte/Lte; a bounded NotIn keeps only its bounds, as upstream. minValues is not
// part of the API type: read it from `requirement.min_values()`.
std::vector<api::NodeSelectorRequirement> ToNodeSelectorRequirements(
    const Requirement& requirement);
// Every requirement, in key order.
std::vector<api::NodeSelectorRequirement> ToNodeSelectorRequirements(
    const Requirements& requirements);

}  // namespace karpenter::scheduling
