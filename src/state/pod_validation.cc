// Upstream: pkg/controllers/provisioning/provisioner.go (Validate and its helpers),
// pkg/controllers/provisioning/scheduling/volumetopology.go (ValidatePersistentVolumeClaims).
#include "src/state/pod_validation.h"

#include <charconv>
#include <set>

#include "absl/strings/str_join.h"
#include "fmt/format.h"
#include "src/api/field_errors.h"
#include "src/api/karpenter_labels.h"
#include "src/api/nodeclaim.h"
#include "src/api/nodeclaim_validation.h"

namespace karpenter::state {
namespace {

constexpr std::string_view kRequiredTermsPath =
    "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";

std::optional<int64_t> ParseBound(const std::vector<std::string>& values) {
  if (values.size() != 1) return std::nullopt;
  int64_t value = 0;
  const std::string& text = values[0];
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// The values Karpenter's requirement for one key allows, as it intersects requirements on the
// same key: a finite set, or everything except a set, optionally within integer bounds.
struct AllowedValues {
  bool complement = true;  // everything except `values`
  std::set<std::string> values;
  std::optional<int64_t> greater_than;
  std::optional<int64_t> less_than;

  bool WithinBounds(const std::string& value) const {
    if (!greater_than && !less_than) return true;
    std::optional<int64_t> number = ParseBound({value});
    return number && (!greater_than || *number > *greater_than) &&
           (!less_than || *number < *less_than);
  }

  void Intersect(const AllowedValues& other) {
    if (other.greater_than)
      greater_than = std::max(greater_than.value_or(*other.greater_than), *other.greater_than);
    if (other.less_than)
      less_than = std::min(less_than.value_or(*other.less_than), *other.less_than);
    std::set<std::string> result;
    if (!complement && !other.complement) {
      for (const std::string& v : values) {
        if (other.values.contains(v)) result.insert(v);
      }
    } else if (!complement || !other.complement) {
      const AllowedValues& finite = complement ? other : *this;
      const AllowedValues& excluded = complement ? *this : other;
      for (const std::string& v : finite.values) {
        if (!excluded.values.contains(v)) result.insert(v);
      }
      complement = false;
    } else {
      result = values;
      result.insert(other.values.begin(), other.values.end());
    }
    values = std::move(result);
    if (!complement) std::erase_if(values, [&](const std::string& v) { return !WithinBounds(v); });
  }

  bool AllowsNothing() const {
    if (!complement) return values.empty();
    return greater_than && less_than && *greater_than + 1 >= *less_than;
  }
};

AllowedValues FromRequirement(const api::NodeSelectorRequirement& requirement) {
  const std::string& op = requirement.operator_;
  AllowedValues allowed;
  if (op == api::kNodeSelectorOpIn || op == api::kNodeSelectorOpNotIn) {
    allowed.complement = op == api::kNodeSelectorOpNotIn;
    allowed.values.insert(requirement.values.begin(), requirement.values.end());
  } else if (op == api::kNodeSelectorOpDoesNotExist) {
    allowed.complement = false;
  } else if (std::optional<int64_t> bound = ParseBound(requirement.values)) {
    // Malformed bounds are reported by NodeSelectionProblems; here they constrain nothing.
    if (op == api::kNodeSelectorOpGt) allowed.greater_than = *bound;
    if (op == api::kNodeSelectorOpGte) allowed.greater_than = *bound - 1;
    if (op == api::kNodeSelectorOpLt) allowed.less_than = *bound;
    if (op == api::kNodeSelectorOpLte) allowed.less_than = *bound + 1;
  }
  return allowed;
}

const api::NodeAffinity* NodeAffinityOf(const api::Pod& pod) {
  if (!pod.spec.affinity.has_value() || !pod.spec.affinity->node_affinity.has_value()) {
    return nullptr;
  }
  return &*pod.spec.affinity->node_affinity;
}

// The expressions Karpenter starts a pod's requirements from: its heaviest preferred term (the
// first among equals) and its first required term.
std::vector<const api::NodeSelectorRequirement*> PodAffinityExpressions(const api::Pod& pod) {
  std::vector<const api::NodeSelectorRequirement*> expressions;
  const api::NodeAffinity* affinity = NodeAffinityOf(pod);
  if (affinity == nullptr) return expressions;
  const auto& preferred = affinity->preferred_during_scheduling_ignored_during_execution;
  const api::PreferredSchedulingTerm* heaviest = nullptr;
  for (const api::PreferredSchedulingTerm& term : preferred) {
    if (heaviest == nullptr || term.weight > heaviest->weight) heaviest = &term;
  }
  if (heaviest != nullptr) {
    for (const auto& expression : heaviest->preference.match_expressions) {
      expressions.push_back(&expression);
    }
  }
  const auto& required = affinity->required_during_scheduling_ignored_during_execution;
  if (required.has_value() && !required->node_selector_terms.empty()) {
    for (const auto& expression : required->node_selector_terms.front().match_expressions) {
      expressions.push_back(&expression);
    }
  }
  return expressions;
}

void AppendRequirementProblems(const api::NodeSelectorRequirement& requirement,
                               std::string_view path, std::vector<std::string>& problems) {
  api::FieldErrors errors;
  api::ValidateRequirementRuntime(
      api::NodeSelectorRequirementWithMinValues{
          .key = requirement.key, .operator_ = requirement.operator_, .values = requirement.values},
      path, &errors);
  for (const api::FieldError& error : errors.errors()) problems.push_back(error.ToString());
}

std::string ClaimRef(const api::PersistentVolumeClaim& claim) {
  return fmt::format("persistentvolumeclaim \"{}/{}\"", claim.metadata.namespace_,
                     claim.metadata.name);
}

// Problems of a claim that names its volume (kube-scheduler treats it as an Immediate binding).
std::optional<std::string> BoundClaimProblem(const ClusterSnapshot& snapshot,
                                             const api::PersistentVolumeClaim& claim) {
  const std::string& volume_name = claim.spec.volume_name;
  const api::PersistentVolume* volume = snapshot.FindPersistentVolume(volume_name);
  if (volume == nullptr) {
    return fmt::format("{} is bound to persistentvolume \"{}\", which does not exist",
                       ClaimRef(claim), volume_name);
  }
  if (volume->metadata.deletion_timestamp.has_value()) {
    return fmt::format("persistentvolume \"{}\" of {} is being deleted", volume_name,
                       ClaimRef(claim));
  }
  if (!claim.metadata.annotations.contains(std::string(kBindCompletedAnnotationKey))) {
    return fmt::format(
        "{} names persistentvolume \"{}\" but is considered unbound without "
        "annotation {}",
        ClaimRef(claim), volume_name, kBindCompletedAnnotationKey);
  }
  return std::nullopt;
}

std::optional<std::string> UnboundClaimProblem(const ClusterSnapshot& snapshot,
                                               const api::PersistentVolumeClaim& claim) {
  const std::string storage_class_name = claim.spec.storage_class_name.value_or("");
  if (storage_class_name.empty()) {
    return fmt::format("unbound {} must define a storage class", ClaimRef(claim));
  }
  const api::StorageClass* storage_class = snapshot.FindStorageClass(storage_class_name);
  if (storage_class == nullptr) {
    return fmt::format("storageclass \"{}\" of {} not found", storage_class_name, ClaimRef(claim));
  }
  if (storage_class->volume_binding_mode.value_or(api::kVolumeBindingImmediate) ==
      api::kVolumeBindingImmediate) {
    return fmt::format(
        "unbound {} uses storageclass \"{}\" with Immediate volume binding and "
        "must be bound first",
        ClaimRef(claim), storage_class_name);
  }
  return std::nullopt;
}

std::optional<std::string> ClaimProblem(const ClusterSnapshot& snapshot,
                                        const api::PersistentVolumeClaim& claim) {
  if (claim.metadata.deletion_timestamp.has_value()) {
    return fmt::format("{} is being deleted", ClaimRef(claim));
  }
  if (claim.status.phase == "Lost") {
    return fmt::format("{} is bound to a persistentvolume that no longer exists", ClaimRef(claim));
  }
  if (!claim.spec.volume_name.empty()) return BoundClaimProblem(snapshot, claim);
  return UnboundClaimProblem(snapshot, claim);
}

}  // namespace

bool RequiresNoNodePool(const api::Pod& pod) {
  const std::string key(api::kNodePoolLabelKey);
  std::optional<AllowedValues> allowed;
  auto add = [&](const AllowedValues& values) {
    if (!allowed.has_value()) {
      allowed = values;
      return;
    }
    allowed->Intersect(values);
  };
  if (auto it = pod.spec.node_selector.find(key); it != pod.spec.node_selector.end()) {
    add(AllowedValues{.complement = false, .values = {it->second}});
  }
  for (const api::NodeSelectorRequirement* expression : PodAffinityExpressions(pod)) {
    if (api::NormalizeLabelKey(expression->key) == key) add(FromRequirement(*expression));
  }
  return allowed.has_value() && allowed->AllowsNothing();
}

std::vector<std::string> NodeSelectionProblems(const api::Pod& pod) {
  std::vector<std::string> problems;
  for (const auto& [key, value] : pod.spec.node_selector) {
    api::FieldErrors errors;
    api::ValidateRequirementRuntime(
        api::NodeSelectorRequirementWithMinValues{
            .key = key, .operator_ = std::string(api::kNodeSelectorOpIn), .values = {value}},
        "", &errors);
    // The requirement is synthetic, so report the selector entry rather than its fields.
    for (const api::FieldError& error : errors.errors()) {
      problems.push_back(api::KeyPath("spec.nodeSelector", key) + ": " + error.message);
    }
  }
  const api::NodeAffinity* affinity = NodeAffinityOf(pod);
  if (affinity == nullptr ||
      !affinity->required_during_scheduling_ignored_during_execution.has_value()) {
    return problems;
  }
  const auto& terms =
      affinity->required_during_scheduling_ignored_during_execution->node_selector_terms;
  for (size_t i = 0; i < terms.size(); ++i) {
    const std::string term_path = api::IndexPath(kRequiredTermsPath, i);
    if (!terms[i].match_fields.empty()) {
      problems.push_back(api::ChildPath(term_path, "matchFields") +
                         ": node selector term with matchFields is not supported");
    }
    const std::string expressions_path = api::ChildPath(term_path, "matchExpressions");
    for (size_t j = 0; j < terms[i].match_expressions.size(); ++j) {
      AppendRequirementProblems(terms[i].match_expressions[j], api::IndexPath(expressions_path, j),
                                problems);
    }
  }
  return problems;
}

std::optional<std::string> VolumeClaimProblem(const ClusterSnapshot& snapshot,
                                              const api::Pod& pod) {
  for (const api::Volume& volume : pod.spec.volumes) {
    std::string claim_name;
    if (volume.persistent_volume_claim.has_value()) {
      claim_name = volume.persistent_volume_claim->claim_name;
    } else if (volume.ephemeral.has_value()) {
      claim_name = pod.metadata.name + "-" + volume.name;
    } else {
      continue;
    }
    const api::PersistentVolumeClaim* claim =
        snapshot.FindPersistentVolumeClaim(pod.metadata.namespace_, claim_name);
    if (claim == nullptr) {
      return fmt::format("persistentvolumeclaim \"{}/{}\" of volume \"{}\" not found",
                         pod.metadata.namespace_, claim_name, volume.name);
    }
    if (std::optional<std::string> problem = ClaimProblem(snapshot, *claim)) return problem;
  }
  return std::nullopt;
}

std::optional<IgnoreReason> ValidateForProvisioning(const ClusterSnapshot& snapshot,
                                                    const api::Pod& pod) {
  std::vector<std::string> problems;
  const bool silent = RequiresNoNodePool(pod);
  if (silent) problems.emplace_back(kNodePoolDoesNotExistMessage);
  for (std::string& problem : NodeSelectionProblems(pod)) problems.push_back(std::move(problem));
  if (std::optional<std::string> problem = VolumeClaimProblem(snapshot, pod)) {
    problems.push_back(std::move(*problem));
  }
  if (problems.empty()) return std::nullopt;
  return IgnoreReason{.message = absl::StrJoin(problems, "; "), .silent = silent};
}

}  // namespace karpenter::state
