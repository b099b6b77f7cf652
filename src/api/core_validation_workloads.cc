// Upstream: pkg/apis/{apps,batch,policy,core}/validation/validation.go (kubernetes/kubernetes)
// Validation of the workload kinds (apps/v1, batch/v1), PodDisruptionBudget (policy/v1) and
// Node, following k8s.io/kubernetes pkg/apis/{apps,batch,policy,core}/validation.
#include <string>
#include <string_view>

#include "src/api/core_validation.h"
#include "src/api/core_validation_internal.h"
#include "src/api/selector_match.h"

namespace karpenter::api {

using validation_internal::ValidateNonNegative;

namespace {

// Restart policy after defaulting: an empty one becomes Always.
std::string_view EffectiveRestartPolicy(const PodSpec& spec) {
  return spec.restart_policy.empty() ? std::string_view(kRestartPolicyAlways)
                                     : std::string_view(spec.restart_policy);
}

// The selector checks shared by Deployment, ReplicaSet and StatefulSet: required, valid and
// not empty; then the template must carry labels the selector matches.
void ValidateWorkloadSelector(const std::optional<LabelSelector>& selector,
                              const PodTemplateSpec& pod_template, std::string_view kind_name,
                              FieldErrors* errors) {
  if (!selector.has_value()) {
    errors->Required("spec.selector");
    return;
  }
  ValidateLabelSelector(*selector, "spec.selector", errors);
  if (selector->match_labels.empty() && selector->match_expressions.empty()) {
    errors->Invalid("spec.selector", "{}",
                    "empty selector is invalid for " + std::string(kind_name));
    return;
  }
  if (!Matches(*selector, pod_template.metadata.labels)) {
    errors->Invalid("spec.template.metadata.labels",
                    validation_internal::RenderLabels(pod_template.metadata.labels),
                    validation_internal::kSelectorMismatchMsg);
  }
}

// Controllers that keep pods running need restartPolicy Always and no deadline.
void ValidateLongRunningTemplate(const PodTemplateSpec& pod_template, std::string_view kind_name,
                                 FieldErrors* errors) {
  const std::string_view restart = EffectiveRestartPolicy(pod_template.spec);
  if (restart != kRestartPolicyAlways) {
    errors->NotSupported("spec.template.spec.restartPolicy", restart, {kRestartPolicyAlways});
  }
  if (pod_template.spec.active_deadline_seconds.has_value()) {
    errors->Forbidden("spec.template.spec.activeDeadlineSeconds",
                      "activeDeadlineSeconds in " + std::string(kind_name) + " is not Supported");
  }
}

void ValidateReplicas(const std::optional<int32_t>& replicas, FieldErrors* errors) {
  if (replicas.has_value()) ValidateNonNegative(*replicas, "spec.replicas", errors);
}

}  // namespace

namespace {

// Deployments and ReplicaSets share their rules; Kubernetes' ReplicaSet validation even
// reuses the Deployment wording for the selector.
template <class Workload>
void ValidateReplicatedWorkload(const Workload& workload, FieldErrors* errors) {
  ValidateObjectMeta(workload.metadata, /*namespaced=*/true, NameRule::kDns1123Subdomain,
                     "metadata", errors);
  ValidateReplicas(workload.spec.replicas, errors);
  ValidateWorkloadSelector(workload.spec.selector, workload.spec.template_, "deployment", errors);
  ValidatePodTemplateSpec(workload.spec.template_, "spec.template", errors);
  ValidateLongRunningTemplate(workload.spec.template_, "ReplicaSet", errors);
}

}  // namespace

void ValidateDeployment(const Deployment& deployment, FieldErrors* errors) {
  ValidateReplicatedWorkload(deployment, errors);
}

void ValidateReplicaSet(const ReplicaSet& replica_set, FieldErrors* errors) {
  ValidateReplicatedWorkload(replica_set, errors);
}

void ValidateStatefulSet(const StatefulSet& stateful_set, FieldErrors* errors) {
  // Its name prefixes the pods' hostnames, so it must be a DNS label.
  ValidateObjectMeta(stateful_set.metadata, /*namespaced=*/true, NameRule::kDns1123Label,
                     "metadata", errors);
  const StatefulSetSpec& spec = stateful_set.spec;
  const std::string& policy = spec.pod_management_policy;
  if (!policy.empty() && policy != kPodManagementOrderedReady && policy != kPodManagementParallel) {
    errors->Invalid("spec.podManagementPolicy", Quote(policy),
                    "must be 'OrderedReady' or 'Parallel'");
  }
  ValidateReplicas(spec.replicas, errors);
  if (spec.ordinals.has_value()) {
    ValidateNonNegative(spec.ordinals->start, "spec.ordinals.start", errors);
  }
  ValidateWorkloadSelector(spec.selector, spec.template_, "statefulset", errors);
  // Kubernetes checks only the template's labels and annotations here (its pods are validated
  // when created); the engine creates those pods itself, so the whole template is checked.
  ValidatePodTemplateSpec(spec.template_, "spec.template", errors);
  ValidateLongRunningTemplate(spec.template_, "StatefulSet", errors);
  for (size_t i = 0; i < spec.volume_claim_templates.size(); ++i) {
    const std::string claim_path = IndexPath("spec.volumeClaimTemplates", i);
    const PersistentVolumeClaim& claim = spec.volume_claim_templates[i];
    ValidateLabels(claim.metadata.labels, ChildPath(claim_path, "metadata.labels"), errors);
    ValidatePersistentVolumeClaimSpec(claim.spec, ChildPath(claim_path, "spec"), errors);
  }
}

void ValidateDaemonSet(const DaemonSet& daemon_set, FieldErrors* errors) {
  ValidateObjectMeta(daemon_set.metadata, /*namespaced=*/true, NameRule::kDns1123Subdomain,
                     "metadata", errors);
  const DaemonSetSpec& spec = daemon_set.spec;
  if (spec.selector.has_value()) {
    ValidateLabelSelector(*spec.selector, "spec.selector", errors);
  }
  // A null selector matches nothing, so the template check fails as in Kubernetes.
  if (!Matches(spec.selector, spec.template_.metadata.labels)) {
    errors->Invalid("spec.template.metadata.labels",
                    validation_internal::RenderLabels(spec.template_.metadata.labels),
                    validation_internal::kSelectorMismatchMsg);
  }
  if (spec.selector.has_value() && spec.selector->match_labels.empty() &&
      spec.selector->match_expressions.empty()) {
    errors->Invalid("spec.selector", "{}", "empty selector is invalid for daemonset");
  }
  ValidatePodTemplateSpec(spec.template_, "spec.template", errors);
  ValidateLongRunningTemplate(spec.template_, "DaemonSet", errors);
}

void ValidateJob(const Job& job, FieldErrors* errors) {
  ValidateObjectMeta(job.metadata, /*namespaced=*/true, NameRule::kDns1123Subdomain, "metadata",
                     errors);
  const JobSpec& spec = job.spec;
  if (spec.parallelism.has_value())
    ValidateNonNegative(*spec.parallelism, "spec.parallelism", errors);
  if (spec.completions.has_value())
    ValidateNonNegative(*spec.completions, "spec.completions", errors);
  if (spec.active_deadline_seconds.has_value()) {
    ValidateNonNegative(*spec.active_deadline_seconds, "spec.activeDeadlineSeconds", errors);
  }
  if (spec.backoff_limit.has_value()) {
    ValidateNonNegative(*spec.backoff_limit, "spec.backoffLimit", errors);
  }
  if (spec.ttl_seconds_after_finished.has_value()) {
    ValidateNonNegative(*spec.ttl_seconds_after_finished, "spec.ttlSecondsAfterFinished", errors);
  }
  if (spec.completion_mode.has_value()) {
    if (*spec.completion_mode != "NonIndexed" && *spec.completion_mode != "Indexed") {
      errors->NotSupported("spec.completionMode", *spec.completion_mode, {"Indexed", "NonIndexed"});
    } else if (*spec.completion_mode == "Indexed" && !spec.completions.has_value()) {
      errors->Required("spec.completions", "when completion mode is Indexed");
    }
  }
  // The API server generates the selector unless manualSelector is set, so only a manual
  // selector is required here; any selector must match the template.
  if (spec.selector.has_value()) {
    ValidateLabelSelector(*spec.selector, "spec.selector", errors);
    if (!Matches(*spec.selector, spec.template_.metadata.labels)) {
      errors->Invalid("spec.template.metadata.labels",
                      validation_internal::RenderLabels(spec.template_.metadata.labels),
                      validation_internal::kSelectorMismatchMsg);
    }
  } else if (spec.manual_selector.value_or(false)) {
    errors->Required("spec.selector");
  }
  ValidatePodTemplateSpec(spec.template_, "spec.template", errors);
  const std::string_view restart = EffectiveRestartPolicy(spec.template_.spec);
  if (restart != kRestartPolicyOnFailure && restart != kRestartPolicyNever) {
    errors->NotSupported("spec.template.spec.restartPolicy", restart,
                         {kRestartPolicyOnFailure, kRestartPolicyNever});
  }
}

void ValidatePodDisruptionBudget(const PodDisruptionBudget& pdb, FieldErrors* errors) {
  ValidateObjectMeta(pdb.metadata, /*namespaced=*/true, NameRule::kDns1123Subdomain, "metadata",
                     errors);
  const PodDisruptionBudgetSpec& spec = pdb.spec;
  if (spec.min_available.has_value() && spec.max_unavailable.has_value()) {
    errors->Invalid("spec",
                    "{minAvailable: " + validation_internal::QuoteIntOrString(*spec.min_available) +
                        ", maxUnavailable: " +
                        validation_internal::QuoteIntOrString(*spec.max_unavailable) + "}",
                    "minAvailable and maxUnavailable cannot be both set");
  }
  if (spec.min_available.has_value()) {
    validation_internal::ValidateIntOrPercent(*spec.min_available, "spec.minAvailable", errors);
  }
  if (spec.max_unavailable.has_value()) {
    validation_internal::ValidateIntOrPercent(*spec.max_unavailable, "spec.maxUnavailable", errors);
  }
  if (spec.selector.has_value()) ValidateLabelSelector(*spec.selector, "spec.selector", errors);
  if (spec.unhealthy_pod_eviction_policy.has_value() &&
      *spec.unhealthy_pod_eviction_policy != kUnhealthyPodEvictionAlwaysAllow &&
      *spec.unhealthy_pod_eviction_policy != kUnhealthyPodEvictionIfHealthyBudget) {
    errors->NotSupported("spec.unhealthyPodEvictionPolicy", *spec.unhealthy_pod_eviction_policy,
                         {kUnhealthyPodEvictionAlwaysAllow, kUnhealthyPodEvictionIfHealthyBudget});
  }
}

void ValidateNode(const Node& node, FieldErrors* errors) {
  ValidateObjectMeta(node.metadata, /*namespaced=*/false, NameRule::kDns1123Subdomain, "metadata",
                     errors);
  ValidateTaints(node.spec.taints, "spec.taints", errors);
  // Kubernetes builds these paths with Child, not Key: status.capacity.cpu.
  for (const auto& [name, quantity] : node.status.capacity) {
    validation_internal::ValidateResourceQuantity(name, quantity,
                                                  ChildPath("status.capacity", name), errors);
  }
  for (const auto& [name, quantity] : node.status.allocatable) {
    validation_internal::ValidateResourceQuantity(name, quantity,
                                                  ChildPath("status.allocatable", name), errors);
  }
}

}  // namespace karpenter::api
