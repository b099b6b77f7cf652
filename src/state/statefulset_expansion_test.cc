#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "src/state/pending.h"
#include "src/state/state_test_util.h"
#include "src/state/workload_expansion.h"

namespace karpenter::state {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::SizeIs;
using testing_util::ExpandedPodNames;
using testing_util::SnapshotFromYaml;

constexpr std::string_view kStatefulSet = R"(
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: data, creationTimestamp: "2024-03-01T00:00:00Z"}
spec:
  replicas: 3
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: c, image: i}]
      volumes:
      - name: data
        emptyDir: {}
  volumeClaimTemplates:
  - metadata: {name: data, labels: {tier: storage}}
    spec:
      accessModes: [ReadWriteOnce]
      storageClassName: gp3
      resources: {requests: {storage: 10Gi}}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
)";

std::vector<std::string> ClaimNames(const ClusterSnapshot& snapshot) {
  std::vector<std::string> names;
  for (const api::PersistentVolumeClaim& claim : snapshot.persistent_volume_claims()) {
    names.push_back(claim.metadata.name);
  }
  return names;
}

TEST(StatefulSetExpansion, CreatesEveryMissingOrdinal) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(kStatefulSet);
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  EXPECT_THAT(ExpandedPodNames(*snapshot), ElementsAre("db-0", "db-1", "db-2"));
  const api::Pod* pod = snapshot->FindPod("data", "db-1");
  ASSERT_NE(pod, nullptr);
  EXPECT_EQ(pod->metadata.labels.at("statefulset.kubernetes.io/pod-name"), "db-1");
  EXPECT_EQ(pod->metadata.labels.at("apps.kubernetes.io/pod-index"), "1");
  EXPECT_EQ(pod->metadata.labels.at("app"), "db");
  EXPECT_EQ(pod->metadata.owner_references[0].kind, "StatefulSet");
  EXPECT_EQ(pod->metadata.creation_timestamp->Rfc3339(), "2024-03-01T00:00:00Z");
  EXPECT_EQ(pod->status.conditions[0].reason, "Unschedulable");
}

TEST(StatefulSetExpansion, SkipsOrdinalsThatHavePods) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(std::string(kStatefulSet) + R"(
---
apiVersion: v1
kind: Pod
metadata: {name: db-1, namespace: data, labels: {app: db}}
spec: {nodeName: n1, containers: [{name: c, image: i}]}
)");
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  EXPECT_THAT(ExpandedPodNames(*snapshot), ElementsAre("db-0", "db-2"));
  EXPECT_THAT(ClaimNames(*snapshot), ElementsAre("data-db-0", "data-db-2"));
}

TEST(StatefulSetExpansion, HonoursOrdinalsStart) {
  absl::StatusOr<ClusterSnapshot> raw =
      SnapshotFromYaml(R"(
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: s}
spec:
  replicas: 2
  ordinals: {start: 5}
  selector: {matchLabels: {app: s}}
  template:
    metadata: {labels: {app: s}}
    spec: {containers: [{name: c, image: i}]}
)",
                       SnapshotOptions{.expand_workloads = false});
  ASSERT_TRUE(raw.ok()) << raw.status();
  EXPECT_THAT(MissingOrdinals(*raw, raw->stateful_sets()[0]), ElementsAre(5, 6));
}

TEST(StatefulSetExpansion, ClaimTemplatesBecomePendingClaimsThePodsUse) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(kStatefulSet);
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  EXPECT_THAT(ClaimNames(*snapshot), ElementsAre("data-db-0", "data-db-1", "data-db-2"));
  EXPECT_EQ(snapshot->expanded_claim_count(), 3u);
  const api::PersistentVolumeClaim* claim =
      snapshot->FindPersistentVolumeClaim("data", "data-db-2");
  ASSERT_NE(claim, nullptr);
  EXPECT_EQ(claim->spec.storage_class_name, "gp3");
  EXPECT_EQ(claim->status.phase, "Pending");
  EXPECT_EQ(claim->spec.resources.requests.at("storage").String(), "10Gi");
  EXPECT_EQ(claim->metadata.labels.at("tier"), "storage");
  EXPECT_EQ(claim->metadata.labels.at("app"), "db");
  // The template's emptyDir volume of the same name is replaced by the claim.
  const api::Pod* pod = snapshot->FindPod("data", "db-2");
  ASSERT_NE(pod, nullptr);
  ASSERT_THAT(pod->spec.volumes, SizeIs(1));
  EXPECT_FALSE(pod->spec.volumes[0].empty_dir.has_value());
  ASSERT_TRUE(pod->spec.volumes[0].persistent_volume_claim.has_value());
  EXPECT_EQ(pod->spec.volumes[0].persistent_volume_claim->claim_name, "data-db-2");
  // Unbound claims under a WaitForFirstConsumer class are fine to provision for.
  PendingPods pending = SelectPendingPods(*snapshot);
  EXPECT_THAT(pending.pods, SizeIs(3));
  EXPECT_TRUE(pending.ignored.empty());
}

TEST(StatefulSetExpansion, ExistingClaimIsKept) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(std::string(kStatefulSet) + R"(
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data-db-0, namespace: data}
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: gp3
  resources: {requests: {storage: 50Gi}}
)");
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  EXPECT_THAT(ClaimNames(*snapshot), ElementsAre("data-db-0", "data-db-1", "data-db-2"));
  EXPECT_EQ(snapshot->expanded_claim_count(), 2u);
  EXPECT_EQ(snapshot->FindPersistentVolumeClaim("data", "data-db-0")
                ->spec.resources.requests.at("storage")
                .String(),
            "50Gi");
}

constexpr std::string_view kClasslessStatefulSet = R"(
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: 1
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec: {containers: [{name: c, image: i}]}
  volumeClaimTemplates:
  - metadata: {name: data}
    spec:
      accessModes: [ReadWriteOnce]
      resources: {requests: {storage: 1Gi}}
)";

TEST(StatefulSetExpansion, ClaimWithoutClassGetsTheDefaultStorageClass) {
  absl::StatusOr<ClusterSnapshot> snapshot =
      SnapshotFromYaml(std::string(kClasslessStatefulSet) + R"(
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: gp2
  annotations: {storageclass.kubernetes.io/is-default-class: "true"}
provisioner: kubernetes.io/aws-ebs
volumeBindingMode: WaitForFirstConsumer
)");
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  const api::PersistentVolumeClaim* claim =
      snapshot->FindPersistentVolumeClaim("default", "data-db-0");
  ASSERT_NE(claim, nullptr);
  EXPECT_EQ(claim->spec.storage_class_name, "gp2");
}

TEST(StatefulSetExpansion, ClaimWithoutClassAndNoDefaultLeavesPodIgnored) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(kClasslessStatefulSet);
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  const api::PersistentVolumeClaim* claim =
      snapshot->FindPersistentVolumeClaim("default", "data-db-0");
  ASSERT_NE(claim, nullptr);
  EXPECT_FALSE(claim->spec.storage_class_name.has_value());
  PendingPods pending = SelectPendingPods(*snapshot);
  ASSERT_THAT(pending.ignored, SizeIs(1));
  EXPECT_THAT(pending.ignored[0].reason.message, HasSubstr("must define a storage class"));
}

TEST(StatefulSetExpansion, EphemeralVolumesGetTheirClaims) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(R"(
apiVersion: v1
kind: Pod
metadata: {name: scratch, namespace: default, uid: pod-uid}
spec:
  containers: [{name: c, image: i}]
  volumes:
  - name: cache
    ephemeral:
      volumeClaimTemplate:
        metadata: {labels: {kind: cache}}
        spec:
          accessModes: [ReadWriteOnce]
          storageClassName: gp3
          resources: {requests: {storage: 5Gi}}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
)");
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  const api::PersistentVolumeClaim* claim =
      snapshot->FindPersistentVolumeClaim("default", "scratch-cache");
  ASSERT_NE(claim, nullptr);
  EXPECT_EQ(claim->metadata.labels.at("kind"), "cache");
  ASSERT_THAT(claim->metadata.owner_references, SizeIs(1));
  EXPECT_EQ(claim->metadata.owner_references[0].kind, "Pod");
  EXPECT_EQ(claim->metadata.owner_references[0].uid, "pod-uid");
  EXPECT_THAT(SelectPendingPods(*snapshot).pods, SizeIs(1));
}

}  // namespace
}  // namespace karpenter::state
