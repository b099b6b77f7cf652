#include "src/state/snapshot.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "src/api/pod_resources.h"
#include "src/state/state_test_util.h"

namespace karpenter::state {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing_util::PodKeys;
using testing_util::SnapshotFromYaml;

template <class T>
std::vector<std::string> Names(const std::vector<T>& objects) {
  std::vector<std::string> names;
  for (const T& object : objects) {
    names.push_back(object.metadata.namespace_.empty()
                        ? object.metadata.name
                        : object.metadata.namespace_ + "/" + object.metadata.name);
  }
  return names;
}

constexpr std::string_view kMixedObjects = R"(
apiVersion: v1
kind: Pod
metadata: {name: b, namespace: zeta}
spec: {containers: [{name: c, image: i}]}
---
apiVersion: v1
kind: Pod
metadata: {name: c}
spec: {containers: [{name: c, image: i}]}
---
apiVersion: v1
kind: Pod
metadata: {name: a, namespace: zeta}
spec: {containers: [{name: c, image: i}]}
---
apiVersion: v1
kind: Node
metadata: {name: node-b, namespace: ignored}
---
apiVersion: v1
kind: Node
metadata: {name: node-a}
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: default}
)";

TEST(ClusterSnapshot, SortsEveryListByNamespaceThenName) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(kMixedObjects);
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  EXPECT_THAT(Names(snapshot->pods()), ElementsAre("default/c", "zeta/a", "zeta/b"));
  EXPECT_THAT(Names(snapshot->nodes()), ElementsAre("node-a", "node-b"));
}

TEST(ClusterSnapshot, DefaultsNamespaceOfNamespacedKindsAndDropsItFromClusterScoped) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(kMixedObjects);
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  EXPECT_NE(snapshot->FindPod("default", "c"), nullptr);
  ASSERT_NE(snapshot->FindNode("node-b"), nullptr);
  EXPECT_EQ(snapshot->FindNode("node-b")->metadata.namespace_, "");
}

TEST(ClusterSnapshot, SkipsUnmodelledKindsAndListsThem) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(kMixedObjects);
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  ASSERT_EQ(snapshot->skipped().size(), 1u);
  EXPECT_THAT(snapshot->skipped()[0], HasSubstr("Service/default/web (test.yaml:"));
}

TEST(ClusterSnapshot, DuplicateObjectFailsNamingBothOrigins) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(R"(
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: default}
---
apiVersion: v1
kind: Pod
metadata: {name: other}
---
apiVersion: v1
kind: Pod
metadata: {name: web}
)");
  ASSERT_FALSE(snapshot.ok());
  EXPECT_EQ(snapshot.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(std::string(snapshot.status().message()),
            "duplicate Pod default/web: defined at test.yaml:2 and at test.yaml:10");
}

TEST(ClusterSnapshot, DuplicateClusterScopedObjectFails) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(R"(
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: default}
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: default}
)");
  ASSERT_FALSE(snapshot.ok());
  EXPECT_THAT(std::string(snapshot.status().message()),
              HasSubstr("duplicate NodePool default: defined at"));
}

TEST(ClusterSnapshot, SameNameInOtherKindOrNamespaceIsNoDuplicate) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(R"(
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: a}
---
apiVersion: v1
kind: Pod
metadata: {name: web, namespace: b}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web, namespace: a}
)");
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  EXPECT_EQ(snapshot->pods().size(), 2u);
  EXPECT_EQ(snapshot->pod_disruption_budgets().size(), 1u);
}

TEST(ClusterSnapshot, ObjectWithoutNameFails) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(R"(
apiVersion: v1
kind: Pod
metadata: {generateName: web-}
)");
  ASSERT_FALSE(snapshot.ok());
  EXPECT_EQ(std::string(snapshot.status().message()), "test.yaml:2: Pod has no metadata.name");
}

TEST(ClusterSnapshot, JsonListItemsAreNamedByPosition) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(R"({"kind":"List","items":[
    {"apiVersion":"v1","kind":"Node","metadata":{"name":"n"}},
    {"apiVersion":"v1","kind":"Node","metadata":{"name":"n"}}]})");
  ASSERT_FALSE(snapshot.ok());
  EXPECT_EQ(std::string(snapshot.status().message()),
            "duplicate Node n: defined at test.yaml (item 1) and at test.yaml (item 2)");
}

constexpr std::string_view kNodesAndClaims = R"(
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: default}
---
apiVersion: karpenter.sh/v1
kind: NodeClaim
metadata: {name: default-abcde}
status: {providerID: "aws:///us-east-1a/i-0001", nodeName: ip-1}
---
apiVersion: karpenter.sh/v1
kind: NodeClaim
metadata: {name: default-inflight}
---
apiVersion: v1
kind: Node
metadata: {name: ip-1}
spec: {providerID: "aws:///us-east-1a/i-0001"}
---
apiVersion: v1
kind: Node
metadata: {name: static-node}
---
apiVersion: v1
kind: Pod
metadata: {name: z, namespace: default}
spec: {nodeName: ip-1, containers: [{name: c, image: i}]}
---
apiVersion: v1
kind: Pod
metadata: {name: a, namespace: kube-system}
spec: {nodeName: ip-1, containers: [{name: c, image: i}]}
---
apiVersion: v1
kind: Pod
metadata: {name: orphan, namespace: default}
spec: {nodeName: gone-node, containers: [{name: c, image: i}]}
---
apiVersion: v1
kind: Pod
metadata: {name: pending, namespace: default}
spec: {containers: [{name: c, image: i}]}
)";

TEST(ClusterSnapshot, IndexesPodsByNodeNameInSnapshotOrder) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(kNodesAndClaims);
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  EXPECT_THAT(PodKeys(snapshot->PodsOnNode("ip-1")), ElementsAre("default/z", "kube-system/a"));
  EXPECT_THAT(PodKeys(snapshot->PodsOnNode("gone-node")), ElementsAre("default/orphan"));
  EXPECT_TRUE(snapshot->PodsOnNode("static-node").empty());
  EXPECT_THAT(snapshot->NodeNamesWithPods(), ElementsAre("gone-node", "ip-1"));
}

TEST(ClusterSnapshot, PairsNodesAndNodeClaimsByProviderId) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(kNodesAndClaims);
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  const api::Node* node = snapshot->FindNode("ip-1");
  ASSERT_NE(node, nullptr);
  const api::NodeClaim* claim = snapshot->NodeClaimForNode(*node);
  ASSERT_NE(claim, nullptr);
  EXPECT_EQ(claim->metadata.name, "default-abcde");
  EXPECT_EQ(snapshot->NodeForNodeClaim(*claim), node);
  EXPECT_EQ(snapshot->NodeClaimForNode(*snapshot->FindNode("static-node")), nullptr);
  EXPECT_EQ(snapshot->NodeForNodeClaim(*snapshot->FindNodeClaim("default-inflight")), nullptr);
}

TEST(ClusterSnapshot, FindsObjectsByName) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(kNodesAndClaims);
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  ASSERT_NE(snapshot->FindNodePool("default"), nullptr);
  EXPECT_EQ(snapshot->FindNodePool("default")->metadata.name, "default");
  EXPECT_EQ(snapshot->FindNodePool("missing"), nullptr);
  EXPECT_EQ(snapshot->FindPod("default", "a"), nullptr);
  EXPECT_NE(snapshot->FindPod("kube-system", "a"), nullptr);
}

TEST(ClusterSnapshot, DefaultStorageClassIsNewestAnnotatedOne) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(R"(
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: a-old
  creationTimestamp: "2024-01-01T00:00:00Z"
  annotations: {storageclass.kubernetes.io/is-default-class: "true"}
provisioner: ebs.csi.aws.com
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: b-new
  creationTimestamp: "2024-06-01T00:00:00Z"
  annotations: {storageclass.kubernetes.io/is-default-class: "true"}
provisioner: ebs.csi.aws.com
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: c-newest-not-default
  creationTimestamp: "2025-01-01T00:00:00Z"
  annotations: {storageclass.kubernetes.io/is-default-class: "false"}
provisioner: ebs.csi.aws.com
)");
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  ASSERT_NE(snapshot->DefaultStorageClass(), nullptr);
  EXPECT_EQ(snapshot->DefaultStorageClass()->metadata.name, "b-new");
}

TEST(ClusterSnapshot, NoDefaultStorageClassWithoutAnnotation) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(R"(
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.aws.com
)");
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  EXPECT_EQ(snapshot->DefaultStorageClass(), nullptr);
}

constexpr std::string_view kOneDeployment = R"(
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: c, image: i}]}
)";

TEST(ClusterSnapshot, ExpandsWorkloadsByDefaultAndMarksExpandedPods) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(kOneDeployment);
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  ASSERT_EQ(snapshot->pods().size(), 2u);
  EXPECT_EQ(snapshot->expanded_pod_count(), 2u);
  EXPECT_TRUE(snapshot->IsExpanded(snapshot->pods()[0]));
}

TEST(ClusterSnapshot, ExpansionCanBeTurnedOff) {
  absl::StatusOr<ClusterSnapshot> snapshot =
      SnapshotFromYaml(kOneDeployment, SnapshotOptions{.expand_workloads = false});
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  EXPECT_TRUE(snapshot->pods().empty());
  EXPECT_EQ(snapshot->expanded_pod_count(), 0u);
}

TEST(ClusterSnapshot, InputPodsAreNotMarkedExpanded) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(kMixedObjects);
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  for (const api::Pod& pod : snapshot->pods()) EXPECT_FALSE(snapshot->IsExpanded(pod));
}

TEST(ClusterSnapshot, BuildsFromObjectsMadeInCode) {
  api::Pod pod;
  pod.metadata.name = "p";
  api::Node node;
  node.metadata.name = "n";
  std::vector<SourcedObject> objects;
  objects.push_back({pod, "first"});
  objects.push_back({node, "second"});
  objects.push_back({pod, "third"});
  absl::StatusOr<ClusterSnapshot> snapshot = ClusterSnapshot::FromObjects(std::move(objects));
  ASSERT_FALSE(snapshot.ok());
  EXPECT_EQ(std::string(snapshot.status().message()),
            "duplicate Pod default/p: defined at first and at third");
}

TEST(ClusterSnapshot, CopiesKeepWorkingIndexes) {
  absl::StatusOr<ClusterSnapshot> original = SnapshotFromYaml(kNodesAndClaims);
  ASSERT_TRUE(original.ok()) << original.status();
  const ClusterSnapshot copy = *original;
  ASSERT_EQ(copy.PodsOnNode("ip-1").size(), 2u);
  EXPECT_EQ(copy.PodsOnNode("ip-1")[0], copy.FindPod("default", "z"));
  EXPECT_EQ(copy.NodeClaimForNode(*copy.FindNode("ip-1")), copy.FindNodeClaim("default-abcde"));
}

TEST(ClusterSnapshot, TakenPodsGoBackWithTheirIndexes) {
  absl::StatusOr<ClusterSnapshot> snapshot =
      SnapshotFromYaml(kNodesAndClaims, SnapshotOptions{.expand_workloads = false});
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  std::vector<api::Pod> pods = snapshot->TakePods().pods;
  ASSERT_EQ(pods.size(), 4u);
  EXPECT_TRUE(snapshot->pods().empty());
  EXPECT_TRUE(snapshot->PodsOnNode("ip-1").empty());
  pods.erase(pods.begin());         // default/orphan
  pods[0].spec.node_name = "ip-1";  // default/pending binds
  ASSERT_TRUE(snapshot->ReplacePods(std::move(pods)).ok());
  EXPECT_THAT(PodKeys(snapshot->PodsOnNode("ip-1")),
              ElementsAre("default/pending", "default/z", "kube-system/a"));
  EXPECT_TRUE(snapshot->PodsOnNode("gone-node").empty());
  EXPECT_EQ(snapshot->FindPod("default", "orphan"), nullptr);
}

TEST(ClusterSnapshot, PodChargesAreComputedOnceAndCarriedOverWithThePods) {
  absl::StatusOr<ClusterSnapshot> snapshot =
      SnapshotFromYaml(kNodesAndClaims, SnapshotOptions{.expand_workloads = false});
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  const api::Pod* z = snapshot->FindPod("default", "z");
  ASSERT_NE(z, nullptr);
  const ClusterSnapshot::PodCharge& charge = snapshot->ChargeOf(*z);
  EXPECT_EQ(charge.requests, api::PodRequests(*z));
  EXPECT_FALSE(charge.terminal);
  EXPECT_EQ(&snapshot->ChargeOf(*z), &charge);  // kept, not recomputed

  ClusterSnapshot::TakenPods taken = snapshot->TakePods();
  ASSERT_EQ(taken.charges.size(), taken.pods.size());
  const size_t z_index = 2;  // default/orphan, default/pending, default/z, kube-system/a
  ASSERT_EQ(taken.pods[z_index].metadata.name, "z");
  ASSERT_TRUE(taken.charges[z_index].has_value());
  EXPECT_FALSE(taken.charges[0].has_value());  // never asked
  // A carried charge is taken as it is (the host vouches the pod did not change).
  taken.charges[z_index]->requests["cpu"] = api::Quantity::FromMilli(7000, {});
  taken.pods[0].status.phase = "Succeeded";
  ASSERT_TRUE(snapshot->ReplacePods(std::move(taken.pods), std::move(taken.charges)).ok());
  EXPECT_EQ(snapshot->ChargeOf(*snapshot->FindPod("default", "z")).requests.at("cpu").MilliValue(),
            7000);
  EXPECT_TRUE(snapshot->ChargeOf(*snapshot->FindPod("default", "orphan")).terminal);

  std::vector<api::Pod> pods = snapshot->pods();
  EXPECT_THAT(snapshot->ReplacePods(pods, std::vector<std::optional<ClusterSnapshot::PodCharge>>(1))
                  .message(),
              HasSubstr("1 charges for 4 pods"));
}

TEST(ClusterSnapshot, ReplacedPodsMustBeSortedUniqueAndNamed) {
  absl::StatusOr<ClusterSnapshot> snapshot =
      SnapshotFromYaml(kNodesAndClaims, SnapshotOptions{.expand_workloads = false});
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  const std::vector<api::Pod> pods = snapshot->pods();
  std::vector<api::Pod> reversed(pods.rbegin(), pods.rend());
  EXPECT_THAT(snapshot->ReplacePods(reversed).message(), HasSubstr("out of order or repeated"));
  std::vector<api::Pod> repeated = {pods[0], pods[0]};
  EXPECT_THAT(snapshot->ReplacePods(repeated).message(), HasSubstr("out of order or repeated"));
  std::vector<api::Pod> unnamespaced = {pods[0]};
  unnamespaced[0].metadata.namespace_.clear();
  EXPECT_THAT(snapshot->ReplacePods(unnamespaced).message(), HasSubstr("no namespace or name"));
  EXPECT_EQ(snapshot->pods().size(), pods.size());  // refused: nothing changed

  absl::StatusOr<ClusterSnapshot> expanded = SnapshotFromYaml(kOneDeployment);
  ASSERT_TRUE(expanded.ok()) << expanded.status();
  EXPECT_EQ(expanded->ReplacePods({}).code(), absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace karpenter::state
