#include "src/state/volume_topology.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/state/state_test_util.h"

namespace karpenter::state {
namespace {

using testing_util::SnapshotFromYaml;

constexpr char kStorage[] = R"(
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: zonal-c}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
allowedTopologies:
- matchLabelExpressions:
  - {key: topology.kubernetes.io/zone, values: [us-east-1c]}
- matchLabelExpressions:
  - {key: topology.kubernetes.io/zone, values: [us-east-1d]}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: anywhere}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-b}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  claimRef: {namespace: default, name: bound}
  csi: {driver: ebs.csi.aws.com, volumeHandle: vol-1}
  nodeAffinity:
    required:
      nodeSelectorTerms:
      - matchExpressions:
        - {key: topology.kubernetes.io/zone, operator: In, values: [us-east-1b]}
      - matchExpressions:
        - {key: topology.kubernetes.io/zone, operator: In, values: [us-east-1f]}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-local}
spec:
  capacity: {storage: 1Gi}
  accessModes: [ReadWriteOnce]
  claimRef: {namespace: default, name: local}
  local: {path: /mnt/disk}
  nodeAffinity:
    required:
      nodeSelectorTerms:
      - matchExpressions:
        - {key: kubernetes.io/hostname, operator: In, values: [node-1]}
        - {key: topology.kubernetes.io/zone, operator: In, values: [us-east-1a]}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: bound, namespace: default}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
  volumeName: pv-b
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: local, namespace: default}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
  volumeName: pv-local
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: unbound, namespace: default}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
  storageClassName: zonal-c
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: db-scratch, namespace: default}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
  storageClassName: zonal-c
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: free, namespace: default}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
  storageClassName: anywhere
)";

// The pod "default/db" of the snapshot.
api::Pod PodWith(const ClusterSnapshot& snapshot) {
  const api::Pod* pod = snapshot.FindPod("default", "db");
  return pod == nullptr ? api::Pod() : *pod;
}

ClusterSnapshot Snapshot(const std::string& pod_spec_tail) {
  const std::string yaml = std::string(kStorage) + R"(---
apiVersion: v1
kind: Pod
metadata: {name: db, namespace: default}
spec:
  containers: [{name: app, image: pause}]
)" + pod_spec_tail;
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(yaml);
  EXPECT_TRUE(snapshot.ok()) << snapshot.status();
  return snapshot.ok() ? *std::move(snapshot) : ClusterSnapshot();
}

std::vector<std::string> Rendered(const std::vector<api::NodeSelectorRequirement>& requirements) {
  std::vector<std::string> out;
  for (const api::NodeSelectorRequirement& r : requirements) {
    std::string values;
    for (const std::string& v : r.values) values += (values.empty() ? "" : ",") + v;
    out.push_back(r.key + " " + r.operator_ + " " + values);
  }
  return out;
}

TEST(VolumeTopology, BoundVolumeContributesItsFirstNodeAffinityTerm) {
  const ClusterSnapshot snapshot =
      Snapshot("  volumes: [{name: data, persistentVolumeClaim: {claimName: bound}}]\n");
  EXPECT_THAT(Rendered(VolumeRequirements(snapshot, PodWith(snapshot))),
              ::testing::ElementsAre("topology.kubernetes.io/zone In us-east-1b"));
}

TEST(VolumeTopology, LocalVolumeDropsItsHostname) {
  const ClusterSnapshot snapshot =
      Snapshot("  volumes: [{name: data, persistentVolumeClaim: {claimName: local}}]\n");
  EXPECT_THAT(Rendered(VolumeRequirements(snapshot, PodWith(snapshot))),
              ::testing::ElementsAre("topology.kubernetes.io/zone In us-east-1a"));
}

TEST(VolumeTopology, UnboundClaimUsesTheFirstAllowedTopologyOfItsClass) {
  const ClusterSnapshot snapshot =
      Snapshot("  volumes: [{name: data, persistentVolumeClaim: {claimName: unbound}}]\n");
  EXPECT_THAT(Rendered(VolumeRequirements(snapshot, PodWith(snapshot))),
              ::testing::ElementsAre("topology.kubernetes.io/zone In us-east-1c"));
}

TEST(VolumeTopology, EphemeralVolumeFindsItsGeneratedClaim) {
  const ClusterSnapshot snapshot = Snapshot(
      "  volumes: [{name: scratch, ephemeral: {volumeClaimTemplate: {spec: {accessModes: "
      "[ReadWriteOnce], resources: {requests: {storage: 1Gi}}}}}}]\n");
  EXPECT_THAT(Rendered(VolumeRequirements(snapshot, PodWith(snapshot))),
              ::testing::ElementsAre("topology.kubernetes.io/zone In us-east-1c"));
}

TEST(VolumeTopology, ClassWithoutTopologiesAndOtherVolumesAddNothing) {
  const ClusterSnapshot snapshot = Snapshot(
      "  volumes: [{name: data, persistentVolumeClaim: {claimName: free}}, {name: tmp, "
      "emptyDir: {}}, {name: gone, persistentVolumeClaim: {claimName: missing}}]\n");
  api::Pod pod = PodWith(snapshot);
  EXPECT_TRUE(VolumeRequirements(snapshot, pod).empty());
  InjectVolumeRequirements(snapshot, pod);
  EXPECT_FALSE(pod.spec.affinity.has_value());
}

TEST(VolumeTopology, InjectionAddsToEveryRequiredTerm) {
  const ClusterSnapshot snapshot =
      Snapshot(R"(  volumes: [{name: data, persistentVolumeClaim: {claimName: bound}}]
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchExpressions: [{key: kubernetes.io/arch, operator: In, values: [arm64]}]
        - matchExpressions: [{key: kubernetes.io/arch, operator: In, values: [amd64]}]
)");
  api::Pod pod = PodWith(snapshot);
  InjectVolumeRequirements(snapshot, pod);
  const auto& terms =
      pod.spec.affinity->node_affinity->required_during_scheduling_ignored_during_execution
          ->node_selector_terms;
  ASSERT_EQ(terms.size(), 2u);
  for (const api::NodeSelectorTerm& term : terms) {
    EXPECT_THAT(Rendered(term.match_expressions),
                ::testing::Contains("topology.kubernetes.io/zone In us-east-1b"));
  }
}

TEST(VolumeTopology, InjectionCreatesATermWhenThePodHasNone) {
  const ClusterSnapshot snapshot =
      Snapshot("  volumes: [{name: data, persistentVolumeClaim: {claimName: unbound}}]\n");
  api::Pod pod = PodWith(snapshot);
  InjectVolumeRequirements(snapshot, pod);
  ASSERT_TRUE(pod.spec.affinity.has_value());
  const auto& terms =
      pod.spec.affinity->node_affinity->required_during_scheduling_ignored_during_execution
          ->node_selector_terms;
  ASSERT_EQ(terms.size(), 1u);
  EXPECT_THAT(Rendered(terms[0].match_expressions),
              ::testing::ElementsAre("topology.kubernetes.io/zone In us-east-1c"));
}

}  // namespace
}  // namespace karpenter::state
