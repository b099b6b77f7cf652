// Field validation for the core Kubernetes kinds the engine consumes, following the API
// server's own checks (k8s.io/kubernetes pkg/apis/{core,apps,batch,policy,storage}/validation)
// for the modeled fields: names, labels and annotations, quantities, container and port shape,
// tolerations and taints, affinity, topology spread, replicas, PDB budgets, storage enums.
// Errors are appended with Kubernetes field paths and wording, e.g.
// `spec.containers[0].resources.requests[cpu]: Invalid value: "-1": must be greater than or
// equal to 0`. Objects are expected to be defaulted first (ApplyDefaults), as the API server
// does; a value the defaults would fill in is accepted when still empty.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "src/api/field_errors.h"
#include "src/api/meta.h"
#include "src/api/node.h"
#include "src/api/pod.h"
#include "src/api/pod_template.h"
#include "src/api/policy.h"
#include "src/api/selector.h"
#include "src/api/storage.h"
#include "src/api/taint.h"
#include "src/api/workloads.h"

namespace karpenter::api {

// --- Kinds (each validates metadata and spec under the root paths "metadata" and "spec") ---

void ValidatePod(const Pod& pod, FieldErrors* errors);
void ValidateNode(const Node& node, FieldErrors* errors);
void ValidateDeployment(const Deployment& deployment, FieldErrors* errors);
void ValidateReplicaSet(const ReplicaSet& replica_set, FieldErrors* errors);
void ValidateStatefulSet(const StatefulSet& stateful_set, FieldErrors* errors);
void ValidateDaemonSet(const DaemonSet& daemon_set, FieldErrors* errors);
void ValidateJob(const Job& job, FieldErrors* errors);
void ValidatePodDisruptionBudget(const PodDisruptionBudget& pdb, FieldErrors* errors);
void ValidatePersistentVolume(const PersistentVolume& volume, FieldErrors* errors);
void ValidatePersistentVolumeClaim(const PersistentVolumeClaim& claim, FieldErrors* errors);
void ValidateStorageClass(const StorageClass& storage_class, FieldErrors* errors);
void ValidateCSINode(const CSINode& csi_node, FieldErrors* errors);
void ValidateVolumeAttachment(const VolumeAttachment& attachment, FieldErrors* errors);

// One overloaded name for every core kind, for generic callers (ValidateObject).
inline void ValidateCoreObject(const Pod& o, FieldErrors* e) { ValidatePod(o, e); }
inline void ValidateCoreObject(const Node& o, FieldErrors* e) { ValidateNode(o, e); }
inline void ValidateCoreObject(const Deployment& o, FieldErrors* e) { ValidateDeployment(o, e); }
inline void ValidateCoreObject(const ReplicaSet& o, FieldErrors* e) { ValidateReplicaSet(o, e); }
inline void ValidateCoreObject(const StatefulSet& o, FieldErrors* e) { ValidateStatefulSet(o, e); }
inline void ValidateCoreObject(const DaemonSet& o, FieldErrors* e) { ValidateDaemonSet(o, e); }
inline void ValidateCoreObject(const Job& o, FieldErrors* e) { ValidateJob(o, e); }
inline void ValidateCoreObject(const PodDisruptionBudget& o, FieldErrors* e) {
  ValidatePodDisruptionBudget(o, e);
}
inline void ValidateCoreObject(const PersistentVolume& o, FieldErrors* e) {
  ValidatePersistentVolume(o, e);
}
inline void ValidateCoreObject(const PersistentVolumeClaim& o, FieldErrors* e) {
  ValidatePersistentVolumeClaim(o, e);
}
inline void ValidateCoreObject(const StorageClass& o, FieldErrors* e) {
  ValidateStorageClass(o, e);
}
inline void ValidateCoreObject(const CSINode& o, FieldErrors* e) { ValidateCSINode(o, e); }
inline void ValidateCoreObject(const VolumeAttachment& o, FieldErrors* e) {
  ValidateVolumeAttachment(o, e);
}

// --- Building blocks, reusable by other kinds ---

// How a kind's metadata.name is checked.
enum class NameRule {
  kDns1123Subdomain,  // most kinds
  kDns1123Label,      // StatefulSet (its name prefixes pod hostnames)
};

// metadata: name (or generateName) required and well-formed; namespace a DNS label when set
// on a namespaced kind and forbidden on a cluster-scoped one (an empty namespace is accepted
// since manifests usually leave it to the client); labels and annotation keys well-formed.
void ValidateObjectMeta(const ObjectMeta& meta, bool namespaced, NameRule rule,
                        std::string_view path, FieldErrors* errors);
// Annotation keys must be qualified names (checked lower-cased) and the total size of keys
// plus values at most 256 KiB. Errors are reported at `path` itself, as Kubernetes does.
void ValidateAnnotations(const std::map<std::string, std::string>& annotations,
                         std::string_view path, FieldErrors* errors);

// A PodSpec as embedded anywhere (pod, template): containers, ports, resources, volumes,
// scheduling constraints and the scalar enums and ranges.
void ValidatePodSpec(const PodSpec& spec, std::string_view path, FieldErrors* errors);
// Template metadata (labels, annotations) plus ValidatePodSpec under "<path>.spec".
void ValidatePodTemplateSpec(const PodTemplateSpec& pod_template, std::string_view path,
                             FieldErrors* errors);
// A container's requests/limits: resource names, non-negative (and for extended resources
// integral) quantities, requests ≤ limits, requests = limits for non-overcommittable resources.
void ValidateContainerResources(const ResourceRequirements& resources, std::string_view path,
                                FieldErrors* errors);

void ValidateTolerations(const std::vector<Toleration>& tolerations, std::string_view path,
                         FieldErrors* errors);
// Node taints: key and effect required, value a label value, key+effect unique.
void ValidateTaints(const std::vector<Taint>& taints, std::string_view path, FieldErrors* errors);
// v1.NodeSelector (required node affinity, PV node affinity): at least one term; operators
// In/NotIn/Exists/DoesNotExist/Gt/Lt with the value counts each needs; matchFields only on
// metadata.name.
void ValidateNodeSelector(const NodeSelector& selector, std::string_view path, FieldErrors* errors);
void ValidateAffinity(const Affinity& affinity, std::string_view path, FieldErrors* errors);
void ValidateTopologySpreadConstraints(const std::vector<TopologySpreadConstraint>& constraints,
                                       std::string_view path, FieldErrors* errors);

// Claim spec as in a PVC, an ephemeral volume or a StatefulSet claim template.
void ValidatePersistentVolumeClaimSpec(const PersistentVolumeClaimSpec& spec, std::string_view path,
                                       FieldErrors* errors);

}  // namespace karpenter::api
