// PodTemplateSpec: the pod blueprint embedded in workload kinds (Deployment, StatefulSet, Job,
// DaemonSet, ...). The engine expands templates into pending pods and simulates DaemonSet pods
// from them, so a template carries exactly a Pod's metadata and spec.
#pragma once

#include "src/api/meta.h"
#include "src/api/pod.h"

namespace karpenter::api {

struct PodTemplateSpec {
  ObjectMeta metadata;
  PodSpec spec;
  bool operator==(const PodTemplateSpec&) const = default;
  template <class V>
  void Fields(V& v) {
    v("metadata", metadata);
    v("spec", spec);
  }
};

// Template defaults are the PodSpec defaults only; pod-only defaults (requests from limits,
// host ports under hostNetwork) apply when a pod is created from the template.
inline void ApplyDefaults(PodTemplateSpec& pod_template) {
  ApplyPodSpecDefaults(pod_template.spec);
}

}  // namespace karpenter::api
