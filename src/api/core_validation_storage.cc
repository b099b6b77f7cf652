// Upstream: pkg/apis/{core,storage}/validation/validation.go (kubernetes/kubernetes)
// Validation of the storage kinds: PersistentVolume, PersistentVolumeClaim (and claim specs
// embedded elsewhere), StorageClass and CSINode, following k8s.io/kubernetes
// pkg/apis/{core,storage}/validation for the modeled fields.
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/ascii.h"
#include "src/api/core_validation.h"
#include "src/api/core_validation_internal.h"
#include "src/api/labels.h"
#include "src/api/selector_match.h"

namespace karpenter::api {

using validation_internal::ValidateDns1123Subdomain;
using validation_internal::ValidateQualifiedName;

namespace {

constexpr size_t kCSINodeIDMaxLength = 192;
constexpr size_t kCSIDriverNameMaxLength = 63;
constexpr size_t kMaxProvisionerParameters = 512;

bool IsSupportedAccessMode(std::string_view mode) {
  return mode == kReadWriteOnce || mode == kReadOnlyMany || mode == kReadWriteMany ||
         mode == kReadWriteOncePod;
}

// Access-mode rules shared by PVs and PVCs; `required_detail` differs between the two.
void ValidateAccessModes(const std::vector<std::string>& modes, const std::string& path,
                         std::string_view required_detail, FieldErrors* errors) {
  if (modes.empty()) errors->Required(path, required_detail);
  bool read_write_once_pod = false;
  bool other = false;
  for (const std::string& mode : modes) {
    if (!IsSupportedAccessMode(mode)) {
      errors->NotSupported(path, mode,
                           {kReadOnlyMany, kReadWriteMany, kReadWriteOnce, kReadWriteOncePod});
    } else if (mode == kReadWriteOncePod) {
      read_write_once_pod = true;
    } else {
      other = true;
    }
  }
  if (read_write_once_pod && other) {
    errors->Forbidden(path, "may not use ReadWriteOncePod with other access modes");
  }
}

void ValidateVolumeMode(const std::optional<std::string>& mode, const std::string& path,
                        FieldErrors* errors) {
  if (mode.has_value() && *mode != kVolumeModeBlock && *mode != kVolumeModeFilesystem) {
    errors->NotSupported(path, *mode, {kVolumeModeBlock, kVolumeModeFilesystem});
  }
}

void ValidatePositiveQuantity(const Quantity& value, const std::string& path, FieldErrors* errors) {
  if (value.Sign() <= 0) {
    errors->Invalid(path, Quote(value.String()), validation_internal::kNotPositiveMsg);
  }
}

void ValidatePersistentVolumeSources(const PersistentVolumeSpec& spec, FieldErrors* errors) {
  int sources = 0;
  auto count = [&](bool present, std::string_view field) {
    if (!present) return false;
    if (++sources > 1) {
      errors->Forbidden(ChildPath("spec", field), "may not specify more than 1 volume type");
      return false;
    }
    return true;
  };
  if (count(spec.aws_elastic_block_store.has_value(), "awsElasticBlockStore") &&
      spec.aws_elastic_block_store->volume_id.empty()) {
    errors->Required("spec.awsElasticBlockStore.volumeID");
  }
  if (count(spec.host_path.has_value(), "hostPath") && spec.host_path->path.empty()) {
    errors->Required("spec.hostPath.path");
  }
  if (count(spec.local.has_value(), "local")) {
    if (spec.local->path.empty()) errors->Required("spec.local.path");
    // A local disk exists on one node only; without affinity nothing could use it.
    if (!spec.node_affinity.has_value()) {
      errors->Required("spec.nodeAffinity", "Local volume requires node affinity");
    }
  }
  if (count(spec.csi.has_value(), "csi")) {
    if (spec.csi->driver.empty()) errors->Required("spec.csi.driver");
    if (spec.csi->volume_handle.empty()) errors->Required("spec.csi.volumeHandle");
  }
}

void ValidateCSIDriverName(std::string_view name, const std::string& path, FieldErrors* errors) {
  if (name.empty()) {
    errors->Required(path);
    return;
  }
  if (name.size() > kCSIDriverNameMaxLength) errors->TooLong(path, kCSIDriverNameMaxLength);
  validation_internal::InvalidEach(errors, path, Quote(name),
                                   IsDns1123Subdomain(absl::AsciiStrToLower(std::string(name))));
}

void ValidateTopologySelectorTerm(const TopologySelectorTerm& term, const std::string& path,
                                  std::map<std::string, std::set<std::string>>* expressions,
                                  FieldErrors* errors) {
  const std::string expressions_path = ChildPath(path, "matchLabelExpressions");
  for (size_t i = 0; i < term.match_label_expressions.size(); ++i) {
    const TopologySelectorLabelRequirement& requirement = term.match_label_expressions[i];
    const std::string index_path = IndexPath(expressions_path, i);
    const std::string values_path = ChildPath(index_path, "values");
    if (requirement.values.empty()) {
      errors->Required(values_path, "must specify as least one value");
    }
    std::set<std::string> values;
    for (size_t v = 0; v < requirement.values.size(); ++v) {
      if (!values.insert(requirement.values[v]).second) {
        errors->Duplicate(IndexPath(values_path, v), Quote(requirement.values[v]));
      }
    }
    ValidateQualifiedName(requirement.key, ChildPath(index_path, "key"), errors);
    if (!expressions->emplace(requirement.key, std::move(values)).second) {
      errors->Duplicate(ChildPath(index_path, "key"), Quote(requirement.key));
    }
  }
}

}  // namespace

void ValidatePersistentVolumeClaimSpec(const PersistentVolumeClaimSpec& spec, std::string_view path,
                                       FieldErrors* errors) {
  ValidateAccessModes(spec.access_modes, ChildPath(path, "accessModes"),
                      "at least 1 access mode is required", errors);
  if (spec.selector.has_value()) {
    ValidateLabelSelector(*spec.selector, ChildPath(path, "selector"), errors);
  }
  // Kubernetes reports the storage request at "<spec>.resources[storage]".
  const std::string storage_path = KeyPath(ChildPath(path, "resources"), "storage");
  auto storage = spec.resources.requests.find("storage");
  if (storage == spec.resources.requests.end()) {
    errors->Required(storage_path);
  } else {
    ValidatePositiveQuantity(storage->second, storage_path, errors);
  }
  if (spec.storage_class_name.has_value() && !spec.storage_class_name->empty()) {
    ValidateDns1123Subdomain(*spec.storage_class_name, ChildPath(path, "storageClassName"), errors);
  }
  ValidateVolumeMode(spec.volume_mode, ChildPath(path, "volumeMode"), errors);
}

void ValidatePersistentVolumeClaim(const PersistentVolumeClaim& claim, FieldErrors* errors) {
  ValidateObjectMeta(claim.metadata, /*namespaced=*/true, NameRule::kDns1123Subdomain, "metadata",
                     errors);
  ValidatePersistentVolumeClaimSpec(claim.spec, "spec", errors);
}

void ValidatePersistentVolume(const PersistentVolume& volume, FieldErrors* errors) {
  ValidateObjectMeta(volume.metadata, /*namespaced=*/false, NameRule::kDns1123Subdomain, "metadata",
                     errors);
  const PersistentVolumeSpec& spec = volume.spec;
  ValidateAccessModes(spec.access_modes, "spec.accessModes", "", errors);
  if (spec.capacity.empty()) {
    errors->Required("spec.capacity");
  } else if (spec.capacity.count("storage") == 0 || spec.capacity.size() > 1) {
    std::string names;
    for (const auto& [name, quantity] : spec.capacity) names += (names.empty() ? "" : ",") + name;
    errors->NotSupported("spec.capacity", names, {"storage"});
  }
  for (const auto& [name, quantity] : spec.capacity) {
    ValidatePositiveQuantity(quantity, KeyPath("spec.capacity", name), errors);
  }
  const std::string& policy = spec.persistent_volume_reclaim_policy;
  if (!policy.empty() && policy != "Delete" && policy != "Recycle" && policy != "Retain") {
    errors->NotSupported("spec.persistentVolumeReclaimPolicy", policy,
                         {"Delete", "Recycle", "Retain"});
  }
  if (!spec.storage_class_name.empty()) {
    ValidateDns1123Subdomain(spec.storage_class_name, "spec.storageClassName", errors);
  }
  ValidateVolumeMode(spec.volume_mode, "spec.volumeMode", errors);
  ValidatePersistentVolumeSources(spec, errors);
  if (spec.node_affinity.has_value()) {
    if (!spec.node_affinity->required.has_value()) {
      errors->Required("spec.nodeAffinity.required", "must specify required node constraints");
    } else {
      ValidateNodeSelector(*spec.node_affinity->required, "spec.nodeAffinity.required", errors);
    }
  }
}

void ValidateStorageClass(const StorageClass& storage_class, FieldErrors* errors) {
  ValidateObjectMeta(storage_class.metadata, /*namespaced=*/false, NameRule::kDns1123Subdomain,
                     "metadata", errors);
  if (storage_class.provisioner.empty()) {
    errors->Required("provisioner");
  } else {
    validation_internal::InvalidEach(
        errors, "provisioner", Quote(absl::AsciiStrToLower(storage_class.provisioner)),
        IsQualifiedName(absl::AsciiStrToLower(storage_class.provisioner)));
  }
  if (storage_class.parameters.size() > kMaxProvisionerParameters) {
    errors->TooMany("parameters", storage_class.parameters.size(), kMaxProvisionerParameters);
  }
  for (const auto& [key, value] : storage_class.parameters) {
    if (key.empty()) errors->Invalid("parameters", Quote(key), "field can not be empty.");
  }
  const auto& reclaim = storage_class.reclaim_policy;
  if (reclaim.has_value() && !reclaim->empty() && *reclaim != "Delete" && *reclaim != "Retain") {
    errors->NotSupported("reclaimPolicy", *reclaim, {"Delete", "Retain"});
  }
  // Defaulting sets the mode; an unset one is accepted as the default Immediate.
  const auto& binding = storage_class.volume_binding_mode;
  if (binding.has_value() && *binding != kVolumeBindingImmediate &&
      *binding != kVolumeBindingWaitForFirstConsumer) {
    errors->NotSupported("volumeBindingMode", *binding,
                         {kVolumeBindingImmediate, kVolumeBindingWaitForFirstConsumer});
  }
  std::vector<std::map<std::string, std::set<std::string>>> seen_terms;
  for (size_t i = 0; i < storage_class.allowed_topologies.size(); ++i) {
    const std::string term_path = IndexPath("allowedTopologies", i);
    std::map<std::string, std::set<std::string>> expressions;
    ValidateTopologySelectorTerm(storage_class.allowed_topologies[i], term_path, &expressions,
                                 errors);
    for (const auto& earlier : seen_terms) {
      if (earlier == expressions) {
        errors->Duplicate(ChildPath(term_path, "matchLabelExpressions"), "\"\"");
      }
    }
    seen_terms.push_back(std::move(expressions));
  }
}

void ValidateCSINode(const CSINode& csi_node, FieldErrors* errors) {
  ValidateObjectMeta(csi_node.metadata, /*namespaced=*/false, NameRule::kDns1123Subdomain,
                     "metadata", errors);
  std::set<std::string> drivers;
  for (size_t i = 0; i < csi_node.spec.drivers.size(); ++i) {
    const CSINodeDriver& driver = csi_node.spec.drivers[i];
    const std::string driver_path = IndexPath("spec.drivers", i);
    const std::string name_path = ChildPath(driver_path, "name");
    ValidateCSIDriverName(driver.name, name_path, errors);
    const std::string node_id_path = ChildPath(driver_path, "nodeID");
    if (driver.node_id.empty()) {
      errors->Required(node_id_path);
    } else if (driver.node_id.size() > kCSINodeIDMaxLength) {
      errors->Invalid(node_id_path, Quote(driver.node_id),
                      "must be " + std::to_string(kCSINodeIDMaxLength) + " characters or less");
    }
    if (driver.allocatable.has_value() && driver.allocatable->count.has_value()) {
      validation_internal::ValidateNonNegative(*driver.allocatable->count,
                                               ChildPath(driver_path, "allocatable.count"), errors);
    }
    if (!drivers.insert(driver.name).second) errors->Duplicate(name_path, Quote(driver.name));
    // Kubernetes reports topology key problems at the driver itself.
    std::set<std::string> keys;
    for (const std::string& key : driver.topology_keys) {
      if (key.empty()) errors->Required(driver_path);
      if (!keys.insert(key).second) errors->Duplicate(driver_path, Quote(key));
      ValidateQualifiedName(key, driver_path, errors);
    }
  }
}

// storage/validation ValidateVolumeAttachment: an attacher (a CSI driver name), a node, and a
// persistent volume to attach (inline specs are not modelled, so an absent name is required).
void ValidateVolumeAttachment(const VolumeAttachment& attachment, FieldErrors* errors) {
  ValidateObjectMeta(attachment.metadata, /*namespaced=*/false, NameRule::kDns1123Subdomain,
                     "metadata", errors);
  ValidateCSIDriverName(attachment.spec.attacher, "spec.attacher", errors);
  if (attachment.spec.node_name.empty()) {
    errors->Required("spec.nodeName");
  } else {
    ValidateDns1123Subdomain(attachment.spec.node_name, "spec.nodeName", errors);
  }
  if (attachment.spec.source.persistent_volume_name &&
      attachment.spec.source.persistent_volume_name->empty()) {
    errors->Required("spec.source.persistentVolumeName");
  }
}

}  // namespace karpenter::api
