// Upstream: pkg/apis/{core,apps,batch,storage}/v1/defaults.go (kubernetes/kubernetes)
// API-server defaulting for the node, workload and storage kinds (k8s.io/kubernetes
// pkg/apis/{core,apps,batch,storage}/v1 defaults.go), limited to the modeled fields.
#include <optional>

#include "src/api/node.h"
#include "src/api/pod_template.h"
#include "src/api/storage.h"
#include "src/api/workloads.h"

namespace karpenter::api {
namespace {

void DefaultReplicas(std::optional<int32_t>& replicas) {
  if (!replicas.has_value()) replicas = 1;
}

}  // namespace

void ApplyDefaults(Node& node) {
  if (node.status.allocatable.empty()) node.status.allocatable = node.status.capacity;
}

void ApplyDefaults(PersistentVolumeClaimSpec& spec) {
  if (!spec.volume_mode.has_value()) spec.volume_mode = kVolumeModeFilesystem;
}

void ApplyDefaults(PersistentVolumeClaim& claim) {
  ApplyDefaults(claim.spec);
  if (claim.status.phase.empty()) claim.status.phase = "Pending";
}

void ApplyDefaults(PersistentVolume& volume) {
  if (volume.status.phase.empty()) volume.status.phase = "Pending";
  if (volume.spec.persistent_volume_reclaim_policy.empty()) {
    volume.spec.persistent_volume_reclaim_policy = "Retain";
  }
  if (!volume.spec.volume_mode.has_value()) volume.spec.volume_mode = kVolumeModeFilesystem;
}

void ApplyDefaults(StorageClass& storage_class) {
  if (!storage_class.reclaim_policy.has_value()) storage_class.reclaim_policy = "Delete";
  if (!storage_class.volume_binding_mode.has_value()) {
    storage_class.volume_binding_mode = kVolumeBindingImmediate;
  }
}

void ApplyDefaults(Deployment& deployment) {
  DefaultReplicas(deployment.spec.replicas);
  ApplyDefaults(deployment.spec.template_);
}

void ApplyDefaults(ReplicaSet& replica_set) {
  DefaultReplicas(replica_set.spec.replicas);
  ApplyDefaults(replica_set.spec.template_);
}

void ApplyDefaults(StatefulSet& stateful_set) {
  StatefulSetSpec& spec = stateful_set.spec;
  DefaultReplicas(spec.replicas);
  if (spec.pod_management_policy.empty()) spec.pod_management_policy = kPodManagementOrderedReady;
  for (PersistentVolumeClaim& claim : spec.volume_claim_templates) ApplyDefaults(claim);
  ApplyDefaults(spec.template_);
}

void ApplyDefaults(DaemonSet& daemon_set) { ApplyDefaults(daemon_set.spec.template_); }

void ApplyDefaults(Job& job) {
  JobSpec& spec = job.spec;
  // A non-parallel job may leave both unset; a work-queue job sets only parallelism.
  if (!spec.completions.has_value() && !spec.parallelism.has_value()) spec.completions = 1;
  if (!spec.parallelism.has_value()) spec.parallelism = 1;
  if (!spec.backoff_limit.has_value()) spec.backoff_limit = 6;
  if (!spec.template_.metadata.labels.empty() && job.metadata.labels.empty()) {
    job.metadata.labels = spec.template_.metadata.labels;
  }
  if (!spec.completion_mode.has_value()) spec.completion_mode = "NonIndexed";
  if (!spec.suspend.has_value()) spec.suspend = false;
  ApplyDefaults(spec.template_);
}

}  // namespace karpenter::api
