// Rules on spec.blockDeviceMappings and their EBS parameters.
#include <string>

#include "src/api/ec2nodeclass_validation_internal.h"

namespace karpenter::api::ec2nodeclass_internal {
namespace {

void ValidateBlockDevice(const BlockDevice& ebs, const std::string& path, FieldErrors* errors) {
  if (!ebs.snapshot_id && !ebs.volume_size) {
    CelFailure(path, kObject, "snapshotID or volumeSize must be defined", errors);
  }
  if (ebs.volume_initialization_rate) {
    if (!ebs.snapshot_id || ebs.snapshot_id->empty()) {
      CelFailure(path, kObject, "snapshotID must be set when volumeInitializationRate is set",
                 errors);
    }
    CheckRange(ChildPath(path, "volumeInitializationRate"), *ebs.volume_initialization_rate, 100,
               300, errors);
  }
  if (ebs.volume_size) {
    // The Go client submits the canonical form, so that is what the pattern sees.
    CheckPattern(ChildPath(path, "volumeSize"), ebs.volume_size->String(), kVolumeSizePattern,
                 errors);
  }
  if (ebs.volume_type) {
    CheckEnum(ChildPath(path, "volumeType"), *ebs.volume_type,
              {"standard", "io1", "io2", "gp2", "sc1", "st1", "gp3"}, errors);
  }
}

}  // namespace

void ValidateBlockDeviceMappings(const std::vector<BlockDeviceMapping>& mappings,
                                 const std::string& path, FieldErrors* errors) {
  CheckMaxItems(path, mappings.size(), 50, errors);
  size_t root_volumes = 0;
  for (size_t i = 0; i < mappings.size(); ++i) {
    const BlockDeviceMapping& mapping = mappings[i];
    if (mapping.root_volume) ++root_volumes;
    if (mapping.ebs)
      ValidateBlockDevice(*mapping.ebs, ChildPath(IndexPath(path, i), "ebs"), errors);
  }
  if (root_volumes > 1) {
    CelFailure(path, kArray, "must have only one blockDeviceMappings with rootVolume", errors);
  }
}

}  // namespace karpenter::api::ec2nodeclass_internal
