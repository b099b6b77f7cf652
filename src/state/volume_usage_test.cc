#include "src/state/volume_usage.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/state/state_test_util.h"

namespace karpenter::state {
namespace {

using ::testing::ElementsAre;
using ::testing::Pair;
using testing_util::SnapshotFromYaml;

constexpr char kCluster[] = R"(
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: legacy}
provisioner: kubernetes.io/aws-ebs
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: nfs}
provisioner: ""
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-efs}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteMany]
  claimRef: {namespace: default, name: shared}
  csi: {driver: efs.csi.aws.com, volumeHandle: fs-1}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: shared, namespace: default}
spec:
  accessModes: [ReadWriteMany]
  resources: {requests: {storage: 1Gi}}
  volumeName: pv-efs
  storageClassName: gp3
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: default}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
  storageClassName: legacy
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: plain, namespace: default}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
  storageClassName: nfs
---
apiVersion: v1
kind: Pod
metadata: {name: db, namespace: default}
spec:
  containers: [{name: app, image: pause}]
  volumes:
  - {name: a, persistentVolumeClaim: {claimName: shared}}
  - {name: b, persistentVolumeClaim: {claimName: data}}
  - {name: c, persistentVolumeClaim: {claimName: plain}}
  - {name: d, emptyDir: {}}
  - name: scratch
    ephemeral:
      volumeClaimTemplate:
        spec:
          accessModes: [ReadWriteOnce]
          storageClassName: gp3
          resources: {requests: {storage: 1Gi}}
---
apiVersion: storage.k8s.io/v1
kind: CSINode
metadata: {name: node-1}
spec:
  drivers:
  - {name: ebs.csi.aws.com, nodeID: i-1, allocatable: {count: 2}}
  - {name: efs.csi.aws.com, nodeID: i-1}
)";

TEST(VolumeUsage, PodVolumesResolveTheirDriver) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(kCluster);
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  const VolumesByDriver volumes = PodVolumes(*snapshot, *snapshot->FindPod("default", "db"));
  // The bound volume's CSI driver wins over its class; in-tree EBS is the EBS CSI driver; the
  // ephemeral claim is "<pod>-<volume>"; a class with no provisioner and emptyDir add nothing.
  EXPECT_THAT(volumes, ElementsAre(Pair("ebs.csi.aws.com",
                                        ElementsAre("default/data", "default/db-scratch")),
                                   Pair("efs.csi.aws.com", ElementsAre("default/shared"))));
}

TEST(VolumeUsage, LimitsComeFromDriversWithACount) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(kCluster);
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  EXPECT_THAT(VolumeLimits(*snapshot->FindCSINode("node-1")),
              ElementsAre(Pair("ebs.csi.aws.com", 2)));
}

TEST(VolumeUsage, ExceededCountsEachVolumeOnce) {
  const std::map<std::string, int64_t> limits = {{"ebs", 2}};
  const VolumesByDriver in_use = {{"ebs", {"ns/a"}}};
  EXPECT_EQ(ExceededVolumeLimit(limits, in_use, {{"ebs", {"ns/b"}}}), "");
  EXPECT_EQ(ExceededVolumeLimit(limits, in_use, {{"ebs", {"ns/a", "ns/b"}}}), "");
  EXPECT_EQ(ExceededVolumeLimit(limits, in_use, {{"ebs", {"ns/b", "ns/c"}}}), "ebs");
  EXPECT_EQ(ExceededVolumeLimit(limits, in_use, {{"other", {"ns/b", "ns/c", "ns/d"}}}), "");
  VolumesByDriver merged = in_use;
  AddVolumes(merged, {{"ebs", {"ns/a", "ns/b"}}});
  EXPECT_EQ(ExceededVolumeLimit(limits, merged, {{"ebs", {"ns/c"}}}), "ebs");
}

}  // namespace
}  // namespace karpenter::state
