// Pod volumes (v1.Volume) with the sources the engine reads: claims and ephemeral claim
// templates (volume topology and CSI attach limits, P13/P14), inline CSI and EBS volumes, and
// the host-local kinds (hostPath, emptyDir, secret, configMap) that need no scheduling.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "src/api/box.h"
#include "src/api/meta.h"
#include "src/api/quantity.h"
#include "src/api/storage.h"

namespace karpenter::api {

struct EmptyDirVolumeSource {
  std::string medium;
  std::optional<Quantity> size_limit;
  bool operator==(const EmptyDirVolumeSource&) const = default;
  template <class V>
  void Fields(V& v) {
    v("medium", medium);
    v("sizeLimit", size_limit);
  }
};

struct SecretVolumeSource {
  std::string secret_name;
  std::optional<int32_t> default_mode;
  std::optional<bool> optional;
  bool operator==(const SecretVolumeSource&) const = default;
  template <class V>
  void Fields(V& v) {
    v("secretName", secret_name);
    v.Ignore("items");
    v("defaultMode", default_mode);
    v("optional", optional);
  }
};

struct ConfigMapVolumeSource {
  std::string name;
  std::optional<int32_t> default_mode;
  std::optional<bool> optional;
  bool operator==(const ConfigMapVolumeSource&) const = default;
  template <class V>
  void Fields(V& v) {
    v("name", name);
    v.Ignore("items");
    v("defaultMode", default_mode);
    v("optional", optional);
  }
};

struct PersistentVolumeClaimVolumeSource {
  std::string claim_name;
  bool read_only = false;
  bool operator==(const PersistentVolumeClaimVolumeSource&) const = default;
  template <class V>
  void Fields(V& v) {
    v("claimName", claim_name);
    v("readOnly", read_only);
  }
};

// v1.CSIVolumeSource: an inline (ephemeral) CSI volume.
struct CSIVolumeSource {
  std::string driver;
  std::optional<bool> read_only;
  std::optional<std::string> fs_type;
  std::map<std::string, std::string> volume_attributes;
  bool operator==(const CSIVolumeSource&) const = default;
  template <class V>
  void Fields(V& v) {
    v("driver", driver);
    v("readOnly", read_only);
    v("fsType", fs_type);
    v("volumeAttributes", volume_attributes);
    v.Ignore("nodePublishSecretRef");
  }
};

// v1.PersistentVolumeClaimTemplate: the claim a generic ephemeral volume creates, named
// "<pod>-<volume>".
struct PersistentVolumeClaimTemplate {
  ObjectMeta metadata;
  PersistentVolumeClaimSpec spec;
  bool operator==(const PersistentVolumeClaimTemplate&) const = default;
  template <class V>
  void Fields(V& v) {
    v("metadata", metadata);
    v("spec", spec);
  }
};

struct EphemeralVolumeSource {
  std::optional<PersistentVolumeClaimTemplate> volume_claim_template;
  bool operator==(const EphemeralVolumeSource&) const = default;
  template <class V>
  void Fields(V& v) {
    v("volumeClaimTemplate", volume_claim_template);
  }
};

// v1.Volume with the sources the engine reads. Other sources are skipped; a volume using one
// has none of the modeled sources set. A volume sets at most one source, so each is boxed: a
// Volume stays near 100 bytes instead of carrying room for all eight sources inline.
struct Volume {
  std::string name;
  Box<HostPathVolumeSource> host_path;
  Box<EmptyDirVolumeSource> empty_dir;
  Box<AWSElasticBlockStoreVolumeSource> aws_elastic_block_store;
  Box<SecretVolumeSource> secret;
  Box<PersistentVolumeClaimVolumeSource> persistent_volume_claim;
  Box<ConfigMapVolumeSource> config_map;
  Box<CSIVolumeSource> csi;
  Box<EphemeralVolumeSource> ephemeral;
  bool operator==(const Volume&) const = default;
  template <class V>
  void Fields(V& v) {
    v("name", name);
    v("hostPath", host_path);
    v("emptyDir", empty_dir);
    v.Ignore("gcePersistentDisk");
    v("awsElasticBlockStore", aws_elastic_block_store);
    v.Ignore("gitRepo");
    v("secret", secret);
    for (const char* skipped : {"nfs", "iscsi", "glusterfs"}) v.Ignore(skipped);
    v("persistentVolumeClaim", persistent_volume_claim);
    for (const char* skipped :
         {"rbd", "flexVolume", "cinder", "cephfs", "flocker", "downwardAPI", "fc", "azureFile"}) {
      v.Ignore(skipped);
    }
    v("configMap", config_map);
    for (const char* skipped : {"vsphereVolume", "quobyte", "azureDisk", "photonPersistentDisk",
                                "projected", "portworxVolume", "scaleIO", "storageos"}) {
      v.Ignore(skipped);
    }
    v("csi", csi);
    v("ephemeral", ephemeral);
    v.Ignore("image");
  }
};

}  // namespace karpenter::api
