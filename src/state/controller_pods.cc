#include "src/state/controller_pods.h"

#include <string>

#include "src/state/generated_names.h"
#include "src/state/pod_predicates.h"

namespace karpenter::state {

api::OwnerReference ControllerReference(std::string_view api_version, std::string_view kind,
                                        const api::ObjectMeta& owner) {
  return api::OwnerReference{.api_version = std::string(api_version),
                             .kind = std::string(kind),
                             .name = owner.name,
                             .uid = owner.uid,
                             .controller = true,
                             .block_owner_deletion = true};
}

api::Pod PodFromTemplate(const api::PodTemplateSpec& pod_template,
                         const api::OwnerReference& controller, std::string_view namespace_,
                         std::string_view name, api::Time created) {
  api::Pod pod;
  pod.metadata.name = std::string(name);
  pod.metadata.namespace_ = std::string(namespace_);
  pod.metadata.uid = DeterministicUid({"Pod", namespace_, name});
  pod.metadata.creation_timestamp = created;
  pod.metadata.labels = pod_template.metadata.labels;
  pod.metadata.annotations = pod_template.metadata.annotations;
  pod.metadata.finalizers = pod_template.metadata.finalizers;
  pod.metadata.owner_references.push_back(controller);
  pod.spec = pod_template.spec;
  api::ApplyDefaults(pod);
  return pod;
}

void MarkUnschedulable(api::Pod& pod, api::Time when) {
  pod.status.phase = std::string(kPodPhasePending);
  pod.status.conditions.push_back(
      api::PodCondition{.type = std::string(kPodConditionScheduled),
                        .status = "False",
                        .last_transition_time = when,
                        .reason = std::string(kPodReasonUnschedulable)});
}

api::PersistentVolumeClaim ClaimFromTemplate(
    const api::ObjectMeta& template_metadata, const api::PersistentVolumeClaimSpec& template_spec,
    std::string_view namespace_, std::string_view name, api::Time created,
    const std::optional<std::string>& default_storage_class,
    const std::optional<api::OwnerReference>& controller) {
  api::PersistentVolumeClaim claim;
  claim.metadata.name = std::string(name);
  claim.metadata.namespace_ = std::string(namespace_);
  claim.metadata.uid = DeterministicUid({"PersistentVolumeClaim", namespace_, name});
  claim.metadata.creation_timestamp = created;
  claim.metadata.labels = template_metadata.labels;
  claim.metadata.annotations = template_metadata.annotations;
  if (controller.has_value()) claim.metadata.owner_references.push_back(*controller);
  claim.spec = template_spec;
  if (!claim.spec.storage_class_name.has_value() && default_storage_class.has_value()) {
    claim.spec.storage_class_name = *default_storage_class;
  }
  claim.status = {};
  api::ApplyDefaults(claim);
  return claim;
}

}  // namespace karpenter::state
