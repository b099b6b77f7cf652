// Kubelet and block-device-mapping rules of EC2NodeClass validation.
#include <map>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/api/ec2nodeclass_testing.h"

namespace karpenter::api {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

Duration Minutes(int minutes) { return Duration::Parse(std::to_string(minutes) + "m").value(); }

const std::map<std::string, std::string> kAllSignals = {
    {"memory.available", "5%"},  {"nodefs.available", "10%"},  {"nodefs.inodesFree", "15%"},
    {"imagefs.available", "5%"}, {"imagefs.inodesFree", "5%"}, {"pid.available", "5%"}};

EC2NodeClass WithKubelet(KubeletConfiguration kubelet) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.kubelet = std::move(kubelet);
  return node_class;
}

TEST(EC2NodeClassKubelet, FullyPopulatedKubeletIsValid) {
  KubeletConfiguration kubelet;
  kubelet.cluster_dns = {"10.0.0.10"};
  kubelet.max_pods = 0;
  kubelet.pods_per_core = 0;
  kubelet.system_reserved = {
      {"cpu", "100m"}, {"memory", "100Mi"}, {"ephemeral-storage", "1Gi"}, {"pid", "100"}};
  kubelet.kube_reserved = {{"cpu", "200m"}, {"memory", "1.5e3"}};
  kubelet.eviction_hard = kAllSignals;
  kubelet.eviction_soft = kAllSignals;
  for (const auto& entry : kAllSignals)
    kubelet.eviction_soft_grace_period[entry.first] = Minutes(1);
  kubelet.eviction_max_pod_grace_period = 60;
  kubelet.image_gc_high_threshold_percent = 100;
  kubelet.image_gc_low_threshold_percent = 0;
  kubelet.cpu_cfs_quota = true;
  EXPECT_THAT(ValidationErrors(WithKubelet(kubelet)), IsEmpty());
}

TEST(EC2NodeClassKubelet, NegativeMaxPodsAndPodsPerCore) {
  EXPECT_THAT(ValidationErrors(WithKubelet({.max_pods = -1, .pods_per_core = -2})),
              ElementsAre(FieldErrorIs("spec.kubelet.maxPods",
                                       "Invalid value: -1: should be greater than or equal to 0"),
                          FieldErrorIs("spec.kubelet.podsPerCore",
                                       "Invalid value: -2: should be greater than or equal to 0")));
}

TEST(EC2NodeClassKubelet, ReservedKeysMustBeKnownResources) {
  EXPECT_THAT(ValidationErrors(WithKubelet({.system_reserved = {{"pods", "2"}}})),
              ElementsAre(FieldErrorIs("spec.kubelet.systemReserved[pods]",
                                       "valid keys for systemReserved are "
                                       "['cpu','memory','ephemeral-storage','pid']")));
  EXPECT_THAT(ValidationErrors(WithKubelet({.kube_reserved = {{"pods", "2"}}})),
              ElementsAre(FieldErrorIs("spec.kubelet.kubeReserved[pods]",
                                       "valid keys for kubeReserved are "
                                       "['cpu','memory','ephemeral-storage','pid']")));
}

TEST(EC2NodeClassKubelet, ReservedValuesMustBeNonNegativeQuantities) {
  EXPECT_THAT(
      ValidationErrors(WithKubelet({.system_reserved = {{"cpu", "-1"}, {"memory", "1GB"}}})),
      ElementsAre(FieldErrorIs("spec.kubelet.systemReserved[cpu]",
                               "systemReserved value cannot be a negative resource quantity"),
                  FieldErrorIs("spec.kubelet.systemReserved[memory]",
                               "Invalid value: \"1GB\": should match")));
  EXPECT_THAT(ValidationErrors(WithKubelet({.kube_reserved = {{"memory", "-100Mi"}}})),
              ElementsAre(FieldErrorIs("spec.kubelet.kubeReserved[memory]",
                                       "kubeReserved value cannot be a negative resource "
                                       "quantity")));
}

TEST(EC2NodeClassKubelet, EvictionHardKeysAndValues) {
  EXPECT_THAT(ValidationErrors(WithKubelet({.eviction_hard = kAllSignals})), IsEmpty());
  EXPECT_THAT(ValidationErrors(WithKubelet({.eviction_hard = {{"memory", "5%"}}})),
              ElementsAre(FieldErrorIs("spec.kubelet.evictionHard[memory]",
                                       "valid keys for evictionHard are ['memory.available',"
                                       "'nodefs.available','nodefs.inodesFree','imagefs.available',"
                                       "'imagefs.inodesFree','pid.available']")));
  for (const char* value : {"5%3", "110%", "110GB"}) {
    EXPECT_THAT(
        ValidationErrors(WithKubelet({.eviction_hard = {{"memory.available", value}}})),
        ElementsAre(FieldErrorIs("spec.kubelet.evictionHard[memory.available]", "should match")))
        << value;
  }
}

TEST(EC2NodeClassKubelet, EvictionSoftKeysValuesAndGracePeriods) {
  KubeletConfiguration kubelet{.eviction_soft = {{"memory", "5%"}},
                               .eviction_soft_grace_period = {{"memory", Minutes(1)}}};
  EXPECT_THAT(ValidationErrors(WithKubelet(kubelet)),
              ElementsAre(FieldErrorIs("spec.kubelet.evictionSoft[memory]",
                                       "valid keys for evictionSoft are"),
                          FieldErrorIs("spec.kubelet.evictionSoftGracePeriod[memory]",
                                       "valid keys for evictionSoftGracePeriod are")));
  for (const char* value : {"5%3", "110%", "110GB"}) {
    kubelet = {.eviction_soft = {{"memory.available", value}},
               .eviction_soft_grace_period = {{"memory.available", Minutes(1)}}};
    EXPECT_THAT(
        ValidationErrors(WithKubelet(kubelet)),
        ElementsAre(FieldErrorIs("spec.kubelet.evictionSoft[memory.available]", "should match")))
        << value;
  }
}

TEST(EC2NodeClassKubelet, EvictionSoftAndGracePeriodMustNameTheSameSignals) {
  EXPECT_THAT(ValidationErrors(WithKubelet({.eviction_soft = {{"memory.available", "200Mi"}}})),
              ElementsAre(FieldErrorIs("spec.kubelet",
                                       "Invalid value: \"object\": evictionSoft OwnerKey "
                                       "does not have a matching "
                                       "evictionSoftGracePeriod")));
  EXPECT_THAT(ValidationErrors(
                  WithKubelet({.eviction_soft_grace_period = {{"memory.available", Minutes(1)}}})),
              ElementsAre(FieldErrorIs("spec.kubelet",
                                       "evictionSoftGracePeriod OwnerKey does not have a matching "
                                       "evictionSoft")));
}

TEST(EC2NodeClassKubelet, ImageGCThresholdsRangeAndOrder) {
  EXPECT_THAT(ValidationErrors(WithKubelet({.image_gc_high_threshold_percent = 10})), IsEmpty());
  EXPECT_THAT(ValidationErrors(WithKubelet(
                  {.image_gc_high_threshold_percent = 50, .image_gc_low_threshold_percent = 60})),
              ElementsAre(FieldErrorIs("spec.kubelet",
                                       "imageGCHighThresholdPercent must be greater than "
                                       "imageGCLowThresholdPercent")));
  EXPECT_THAT(ValidationErrors(WithKubelet(
                  {.image_gc_high_threshold_percent = 50, .image_gc_low_threshold_percent = 50})),
              ElementsAre(FieldErrorIs("spec.kubelet", "must be greater than")));
  EXPECT_THAT(ValidationErrors(WithKubelet(
                  {.image_gc_high_threshold_percent = 101, .image_gc_low_threshold_percent = -1})),
              ElementsAre(FieldErrorIs("spec.kubelet.imageGCHighThresholdPercent",
                                       "should be less than or equal to 100"),
                          FieldErrorIs("spec.kubelet.imageGCLowThresholdPercent",
                                       "should be greater than or equal to 0")));
}

BlockDeviceMapping Mapping(std::string size, bool root = false) {
  BlockDevice ebs;
  ebs.volume_size = Quantity::Parse(size).value();
  return BlockDeviceMapping{.device_name = "/dev/xvda", .ebs = ebs, .root_volume = root};
}

TEST(EC2NodeClassBlockDevices, OneRootVolumeAndValidSizesAreAccepted) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.block_device_mappings = {Mapping("500G", true), Mapping("50T"),
                                           Mapping("58G"),        Mapping("45T"),
                                           Mapping("59000Gi"),    Mapping("58Ti")};
  EXPECT_THAT(ValidationErrors(node_class), IsEmpty());
}

TEST(EC2NodeClassBlockDevices, TwoRootVolumesAreRejectedAtTheList) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.block_device_mappings = {Mapping("50G", true), Mapping("50G", true)};
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.blockDeviceMappings",
                                       "Invalid value: \"array\": must have only one "
                                       "blockDeviceMappings with rootVolume")));
}

TEST(EC2NodeClassBlockDevices, AtMostFiftyMappings) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.block_device_mappings.assign(51, Mapping("20Gi"));
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.blockDeviceMappings",
                                       "Too many: 51: must have at most 50 items")));
}

TEST(EC2NodeClassBlockDevices, VolumeSizeOutsideThePatternIsRejected) {
  for (const char* size : {"1m", "100T", "0", "100Mi", "59001Gi", "64001G", "59Ti", "65T"}) {
    EC2NodeClass node_class = ValidEC2NodeClass();
    node_class.spec.block_device_mappings = {Mapping(size)};
    EXPECT_THAT(ValidationErrors(node_class),
                ElementsAre(FieldErrorIs(
                    "spec.blockDeviceMappings[0].ebs.volumeSize",
                    "Invalid value: \"" + std::string(size) + "\": should match '^((?:[1-9]")))
        << size;
  }
}

TEST(EC2NodeClassBlockDevices, EbsNeedsSnapshotOrSize) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.block_device_mappings = {BlockDeviceMapping{.ebs = BlockDevice{}}};
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.blockDeviceMappings[0].ebs",
                                       "Invalid value: \"object\": snapshotID or volumeSize must "
                                       "be defined")));
  node_class.spec.block_device_mappings[0].ebs->snapshot_id = "snap-1";
  EXPECT_THAT(ValidationErrors(node_class), IsEmpty());
}

TEST(EC2NodeClassBlockDevices, VolumeInitializationRateNeedsSnapshotAndRange) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.block_device_mappings = {Mapping("20Gi")};
  BlockDevice& ebs = *node_class.spec.block_device_mappings[0].ebs;
  ebs.volume_initialization_rate = 100;
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.blockDeviceMappings[0].ebs",
                                       "snapshotID must be set when volumeInitializationRate is "
                                       "set")));
  ebs.snapshot_id = "";
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.blockDeviceMappings[0].ebs",
                                       "snapshotID must be set when volumeInitializationRate")));
  ebs.snapshot_id = "snap-1";
  EXPECT_THAT(ValidationErrors(node_class), IsEmpty());
  ebs.volume_initialization_rate = 300;
  EXPECT_THAT(ValidationErrors(node_class), IsEmpty());
  ebs.volume_initialization_rate = 99;
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.blockDeviceMappings[0].ebs.volumeInitializationRate",
                                       "should be greater than or equal to 100")));
  ebs.volume_initialization_rate = 888;
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.blockDeviceMappings[0].ebs.volumeInitializationRate",
                                       "should be less than or equal to 300")));
}

TEST(EC2NodeClassBlockDevices, VolumeTypeEnum) {
  EC2NodeClass node_class = ValidEC2NodeClass();
  node_class.spec.block_device_mappings = {Mapping("20Gi")};
  for (const char* type : {"standard", "io1", "io2", "gp2", "sc1", "st1", "gp3"}) {
    node_class.spec.block_device_mappings[0].ebs->volume_type = type;
    EXPECT_THAT(ValidationErrors(node_class), IsEmpty()) << type;
  }
  node_class.spec.block_device_mappings[0].ebs->volume_type = "gp4";
  EXPECT_THAT(ValidationErrors(node_class),
              ElementsAre(FieldErrorIs("spec.blockDeviceMappings[0].ebs.volumeType",
                                       "Unsupported value: \"gp4\": supported values: "
                                       "\"standard\", \"io1\"")));
}

}  // namespace
}  // namespace karpenter::api
