// Storage kinds the scheduler reads for volume topology (P13) and CSI attach limits (P14):
// PersistentVolume, PersistentVolumeClaim, StorageClass and CSINode, as the subset of
// k8s.io/api core/v1 and storage/v1 those paths need. Volume sources the engine never looks at
// (NFS, iSCSI, ...) are skipped by the decoder, so a volume using one simply has no modeled source.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "src/api/meta.h"
#include "src/api/quantity.h"
#include "src/api/resource_list.h"
#include "src/api/selector.h"
#include "src/api/time.h"

namespace karpenter::api {

// Access modes and volume modes (enums are strings, as in Go).
inline constexpr char kReadWriteOnce[] = "ReadWriteOnce";
inline constexpr char kReadOnlyMany[] = "ReadOnlyMany";
inline constexpr char kReadWriteMany[] = "ReadWriteMany";
inline constexpr char kReadWriteOncePod[] = "ReadWriteOncePod";
inline constexpr char kVolumeModeFilesystem[] = "Filesystem";
inline constexpr char kVolumeModeBlock[] = "Block";
inline constexpr char kVolumeBindingImmediate[] = "Immediate";
inline constexpr char kVolumeBindingWaitForFirstConsumer[] = "WaitForFirstConsumer";

// v1.HostPathVolumeSource (shared by pod volumes and PVs).
struct HostPathVolumeSource {
  std::string path;
  std::optional<std::string> type;
  bool operator==(const HostPathVolumeSource&) const = default;
  template <class V>
  void Fields(V& v) {
    v("path", path);
    v("type", type);
  }
};

// v1.AWSElasticBlockStoreVolumeSource: the in-tree EBS plugin, translated to the
// ebs.csi.aws.com driver when counting CSI attachments.
struct AWSElasticBlockStoreVolumeSource {
  std::string volume_id;
  std::string fs_type;
  int32_t partition = 0;
  bool read_only = false;
  bool operator==(const AWSElasticBlockStoreVolumeSource&) const = default;
  template <class V>
  void Fields(V& v) {
    v("volumeID", volume_id);
    v("fsType", fs_type);
    v("partition", partition);
    v("readOnly", read_only);
  }
};

// v1.VolumeResourceRequirements (PVC spec.resources).
struct VolumeResourceRequirements {
  ResourceList limits;
  ResourceList requests;
  bool operator==(const VolumeResourceRequirements&) const = default;
  template <class V>
  void Fields(V& v) {
    v("limits", limits);
    v("requests", requests);
  }
};

// v1.PersistentVolumeClaimSpec. `storage_class_name` is a pointer in Go: unset means "use the
// default class", "" means "no class" (bind only to class-less PVs).
struct PersistentVolumeClaimSpec {
  std::vector<std::string> access_modes;
  std::optional<LabelSelector> selector;
  VolumeResourceRequirements resources;
  std::string volume_name;
  std::optional<std::string> storage_class_name;
  std::optional<std::string> volume_mode;
  bool operator==(const PersistentVolumeClaimSpec&) const = default;
  template <class V>
  void Fields(V& v) {
    v("accessModes", access_modes);
    v("selector", selector);
    v("resources", resources);
    v("volumeName", volume_name);
    v("storageClassName", storage_class_name);
    v("volumeMode", volume_mode);
    v.Ignore("dataSource");
    v.Ignore("dataSourceRef");
    v.Ignore("volumeAttributesClassName");
  }
};

struct PersistentVolumeClaimStatus {
  std::string phase;  // Pending | Bound | Lost
  std::vector<std::string> access_modes;
  ResourceList capacity;
  bool operator==(const PersistentVolumeClaimStatus&) const = default;
  template <class V>
  void Fields(V& v) {
    v("phase", phase);
    v("accessModes", access_modes);
    v("capacity", capacity);
    v.Ignore("conditions");
    v.Ignore("allocatedResources");
    v.Ignore("allocatedResourceStatuses");
    v.Ignore("currentVolumeAttributesClassName");
    v.Ignore("modifyVolumeStatus");
  }
};

struct PersistentVolumeClaim {
  std::string api_version = "v1";
  std::string kind = "PersistentVolumeClaim";
  ObjectMeta metadata;
  PersistentVolumeClaimSpec spec;
  PersistentVolumeClaimStatus status;
  bool operator==(const PersistentVolumeClaim&) const = default;
  template <class V>
  void Fields(V& v) {
    v("apiVersion", api_version);
    v("kind", kind);
    v("metadata", metadata);
    v("spec", spec);
    v("status", status);
  }
};

// v1.CSIPersistentVolumeSource (secret references are skipped).
struct CSIPersistentVolumeSource {
  std::string driver;
  std::string volume_handle;
  bool read_only = false;
  std::string fs_type;
  std::map<std::string, std::string> volume_attributes;
  bool operator==(const CSIPersistentVolumeSource&) const = default;
  template <class V>
  void Fields(V& v) {
    v("driver", driver);
    v("volumeHandle", volume_handle);
    v("readOnly", read_only);
    v("fsType", fs_type);
    v("volumeAttributes", volume_attributes);
    v.Ignore("controllerPublishSecretRef");
    v.Ignore("nodeStageSecretRef");
    v.Ignore("nodePublishSecretRef");
    v.Ignore("controllerExpandSecretRef");
    v.Ignore("nodeExpandSecretRef");
  }
};

// v1.LocalVolumeSource: a node-local disk; always paired with node affinity.
struct LocalVolumeSource {
  std::string path;
  std::optional<std::string> fs_type;
  bool operator==(const LocalVolumeSource&) const = default;
  template <class V>
  void Fields(V& v) {
    v("path", path);
    v("fsType", fs_type);
  }
};

// v1.ObjectReference as used by PV claimRef.
struct ObjectReference {
  std::string kind;
  std::string namespace_;
  std::string name;
  std::string uid;
  std::string api_version;
  std::string resource_version;
  std::string field_path;
  bool operator==(const ObjectReference&) const = default;
  template <class V>
  void Fields(V& v) {
    v("kind", kind);
    v("namespace", namespace_);
    v("name", name);
    v("uid", uid);
    v("apiVersion", api_version);
    v("resourceVersion", resource_version);
    v("fieldPath", field_path);
  }
};

struct VolumeNodeAffinity {
  std::optional<NodeSelector> required;
  bool operator==(const VolumeNodeAffinity&) const = default;
  template <class V>
  void Fields(V& v) {
    v("required", required);
  }
};

// Persistent volume sources Kubernetes knows but the engine ignores (no topology or CSI
// accounting of their own); listed so the decoder does not report them as unknown.
template <class V>
void IgnoreUnmodeledPersistentVolumeSources(V& v) {
  for (const char* name :
       {"gcePersistentDisk", "glusterfs", "nfs", "rbd", "iscsi", "cinder", "cephfs", "fc",
        "flocker", "flexVolume", "azureFile", "vsphereVolume", "quobyte", "azureDisk",
        "photonPersistentDisk", "portworxVolume", "scaleIO", "storageos"}) {
    v.Ignore(name);
  }
}

struct PersistentVolumeSpec {
  ResourceList capacity;
  std::optional<AWSElasticBlockStoreVolumeSource> aws_elastic_block_store;
  std::optional<HostPathVolumeSource> host_path;
  std::optional<LocalVolumeSource> local;
  std::optional<CSIPersistentVolumeSource> csi;
  std::vector<std::string> access_modes;
  std::optional<ObjectReference> claim_ref;
  std::string persistent_volume_reclaim_policy;  // Retain | Delete | Recycle
  std::string storage_class_name;
  std::vector<std::string> mount_options;
  std::optional<std::string> volume_mode;
  std::optional<VolumeNodeAffinity> node_affinity;
  bool operator==(const PersistentVolumeSpec&) const = default;
  template <class V>
  void Fields(V& v) {
    v("capacity", capacity);
    v("awsElasticBlockStore", aws_elastic_block_store);
    v("hostPath", host_path);
    v("local", local);
    v("csi", csi);
    IgnoreUnmodeledPersistentVolumeSources(v);
    v("accessModes", access_modes);
    v("claimRef", claim_ref);
    v("persistentVolumeReclaimPolicy", persistent_volume_reclaim_policy);
    v("storageClassName", storage_class_name);
    v("mountOptions", mount_options);
    v("volumeMode", volume_mode);
    v("nodeAffinity", node_affinity);
    v.Ignore("volumeAttributesClassName");
  }
};

struct PersistentVolumeStatus {
  std::string phase;  // Pending | Available | Bound | Released | Failed
  std::string message;
  std::string reason;
  std::optional<Time> last_phase_transition_time;
  bool operator==(const PersistentVolumeStatus&) const = default;
  template <class V>
  void Fields(V& v) {
    v("phase", phase);
    v("message", message);
    v("reason", reason);
    v("lastPhaseTransitionTime", last_phase_transition_time);
  }
};

// Cluster-scoped.
struct PersistentVolume {
  std::string api_version = "v1";
  std::string kind = "PersistentVolume";
  ObjectMeta metadata;
  PersistentVolumeSpec spec;
  PersistentVolumeStatus status;
  bool operator==(const PersistentVolume&) const = default;
  template <class V>
  void Fields(V& v) {
    v("apiVersion", api_version);
    v("kind", kind);
    v("metadata", metadata);
    v("spec", spec);
    v("status", status);
  }
};

// v1.TopologySelectorLabelRequirement / TopologySelectorTerm (StorageClass allowedTopologies).
struct TopologySelectorLabelRequirement {
  std::string key;
  std::vector<std::string> values;
  bool operator==(const TopologySelectorLabelRequirement&) const = default;
  template <class V>
  void Fields(V& v) {
    v("key", key);
    v("values", values);
  }
};

struct TopologySelectorTerm {
  std::vector<TopologySelectorLabelRequirement> match_label_expressions;
  bool operator==(const TopologySelectorTerm&) const = default;
  template <class V>
  void Fields(V& v) {
    v("matchLabelExpressions", match_label_expressions);
  }
};

// storage.k8s.io/v1 StorageClass (cluster-scoped; no spec/status split).
struct StorageClass {
  std::string api_version = "storage.k8s.io/v1";
  std::string kind = "StorageClass";
  ObjectMeta metadata;
  std::string provisioner;
  std::map<std::string, std::string> parameters;
  std::optional<std::string> reclaim_policy;  // Delete (default) | Retain
  std::vector<std::string> mount_options;
  std::optional<bool> allow_volume_expansion;
  std::optional<std::string> volume_binding_mode;  // Immediate (default) | WaitForFirstConsumer
  std::vector<TopologySelectorTerm> allowed_topologies;
  bool operator==(const StorageClass&) const = default;
  template <class V>
  void Fields(V& v) {
    v("apiVersion", api_version);
    v("kind", kind);
    v("metadata", metadata);
    v("provisioner", provisioner);
    v("parameters", parameters);
    v("reclaimPolicy", reclaim_policy);
    v("mountOptions", mount_options);
    v("allowVolumeExpansion", allow_volume_expansion);
    v("volumeBindingMode", volume_binding_mode);
    v("allowedTopologies", allowed_topologies);
  }
};

// storage.k8s.io/v1 CSINode: per-node CSI driver registrations and attach limits.
struct VolumeNodeResources {
  std::optional<int32_t> count;  // unset = unbounded
  bool operator==(const VolumeNodeResources&) const = default;
  template <class V>
  void Fields(V& v) {
    v("count", count);
  }
};

struct CSINodeDriver {
  std::string name;
  std::string node_id;
  std::vector<std::string> topology_keys;
  std::optional<VolumeNodeResources> allocatable;
  bool operator==(const CSINodeDriver&) const = default;
  template <class V>
  void Fields(V& v) {
    v("name", name);
    v("nodeID", node_id);
    v("topologyKeys", topology_keys);
    v("allocatable", allocatable);
  }
};

struct CSINodeSpec {
  std::vector<CSINodeDriver> drivers;
  bool operator==(const CSINodeSpec&) const = default;
  template <class V>
  void Fields(V& v) {
    v("drivers", drivers);
  }
};

// Cluster-scoped; named after its Node.
struct CSINode {
  std::string api_version = "storage.k8s.io/v1";
  std::string kind = "CSINode";
  ObjectMeta metadata;
  CSINodeSpec spec;
  bool operator==(const CSINode&) const = default;
  template <class V>
  void Fields(V& v) {
    v("apiVersion", api_version);
    v("kind", kind);
    v("metadata", metadata);
    v("spec", spec);
  }
};

// What a VolumeAttachment attaches: a PersistentVolume by name (the only source the
// termination controller looks at; inline volumes are read as unknown fields).
struct VolumeAttachmentSource {
  std::optional<std::string> persistent_volume_name;
  bool operator==(const VolumeAttachmentSource&) const = default;
  template <class V>
  void Fields(V& v) {
    v("persistentVolumeName", persistent_volume_name);
    v.Ignore("inlineVolumeSpec");
  }
};

struct VolumeAttachmentSpec {
  std::string attacher;
  VolumeAttachmentSource source;
  std::string node_name;
  bool operator==(const VolumeAttachmentSpec&) const = default;
  template <class V>
  void Fields(V& v) {
    v("attacher", attacher);
    v("source", source);
    v("nodeName", node_name);
  }
};

struct VolumeAttachmentStatus {
  bool attached = false;
  std::map<std::string, std::string> attachment_metadata;
  bool operator==(const VolumeAttachmentStatus&) const = default;
  template <class V>
  void Fields(V& v) {
    v("attached", attached);
    v("attachmentMetadata", attachment_metadata);
    v.Ignore("attachError");
    v.Ignore("detachError");
  }
};

// Cluster-scoped: a CSI volume attached (or being attached) to a node. The attach-detach
// controller deletes it once the volume is detached; node termination waits for that.
struct VolumeAttachment {
  std::string api_version = "storage.k8s.io/v1";
  std::string kind = "VolumeAttachment";
  ObjectMeta metadata;
  VolumeAttachmentSpec spec;
  VolumeAttachmentStatus status;
  bool operator==(const VolumeAttachment&) const = default;
  template <class V>
  void Fields(V& v) {
    v("apiVersion", api_version);
    v("kind", kind);
    v("metadata", metadata);
    v("spec", spec);
    v("status", status);
  }
};

// API-server defaults (pkg/apis/core/v1 and storage/v1 defaults.go).
// PVC: spec.volumeMode Filesystem, status.phase Pending.
void ApplyDefaults(PersistentVolumeClaim& claim);
// PVC spec alone (as embedded in ephemeral volumes and StatefulSet claim templates).
void ApplyDefaults(PersistentVolumeClaimSpec& spec);
// PV: reclaim policy Retain, volumeMode Filesystem, status.phase Pending.
void ApplyDefaults(PersistentVolume& volume);
// StorageClass: reclaimPolicy Delete, volumeBindingMode Immediate.
void ApplyDefaults(StorageClass& storage_class);
// CSINode has no defaults; provided so every kind can be defaulted uniformly.
inline void ApplyDefaults(CSINode&) {}
inline void ApplyDefaults(VolumeAttachment&) {}

}  // namespace karpenter::api
