// What a workload controller creates from its templates, as the API server would store it: a pod
// from a pod template (metadata copied, owner reference, API-server defaults applied) and a
// PersistentVolumeClaim from a claim template (the default StorageClass filled in when the
// template names none, as the DefaultStorageClass admission plugin does).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "src/api/pod.h"
#include "src/api/pod_template.h"
#include "src/api/storage.h"
#include "src/api/time.h"

namespace karpenter::state {

// An owner reference to `owner` with controller and blockOwnerDeletion set, as controllers write.
api::OwnerReference ControllerReference(std::string_view api_version, std::string_view kind,
                                        const api::ObjectMeta& owner);

// A pod stamped from `pod_template`: the template's labels, annotations and finalizers, the
// given name and namespace, a uid derived from them, `controller` as its only owner reference,
// creationTimestamp `created`, the template's spec, and the API server's pod defaults (requests
// from limits, ...). The status is left empty.
api::Pod PodFromTemplate(const api::PodTemplateSpec& pod_template,
                         const api::OwnerReference& controller, std::string_view namespace_,
                         std::string_view name, api::Time created);

// Marks `pod` as kube-scheduler leaves a pod it could not place: phase Pending and condition
// PodScheduled=False with reason Unschedulable, dated `when`.
void MarkUnschedulable(api::Pod& pod, api::Time when);

// A claim stamped from a claim template: the template's labels and annotations, the given name
// and namespace, a derived uid, creationTimestamp `created`, the template's spec, and phase
// Pending. A template without storageClassName gets `default_storage_class` when there is one.
// `controller`, when set, becomes the claim's owner reference.
api::PersistentVolumeClaim ClaimFromTemplate(
    const api::ObjectMeta& template_metadata, const api::PersistentVolumeClaimSpec& template_spec,
    std::string_view namespace_, std::string_view name, api::Time created,
    const std::optional<std::string>& default_storage_class,
    const std::optional<api::OwnerReference>& controller);

}  // namespace karpenter::state
