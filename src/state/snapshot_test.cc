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

template <class List>
std::vector<std::string> Names(const List& objects) {
  std::vector<std::string> names;
  for (const auto& object : objects) {
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

// The shared pods of `snapshot`, in its order.
std::vector<SharedPod> SharedPods(const ClusterSnapshot& snapshot) {
  std::vector<SharedPod> shared;
  for (size_t i = 0; i < snapshot.pods().size(); ++i) shared.push_back(snapshot.pods().shared(i));
  return shared;
}

SharedPod Share(api::Pod pod) { return std::make_shared<const SnapshotPod>(std::move(pod)); }

TEST(ClusterSnapshot, ReplacedPodsComeWithTheirIndexes) {
  absl::StatusOr<ClusterSnapshot> snapshot =
      SnapshotFromYaml(kNodesAndClaims, SnapshotOptions{.expand_workloads = false});
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  EXPECT_THAT(PodKeys(snapshot->UnboundPods()), ElementsAre("default/pending"));
  std::vector<SharedPod> pods = SharedPods(*snapshot);
  ASSERT_EQ(pods.size(), 4u);
  pods.erase(pods.begin());       // default/orphan
  api::Pod bound = pods[0]->pod;  // default/pending binds
  bound.spec.node_name = "ip-1";
  pods[0] = Share(std::move(bound));
  ASSERT_TRUE(snapshot->ReplacePods(std::move(pods)).ok());
  EXPECT_THAT(PodKeys(snapshot->PodsOnNode("ip-1")),
              ElementsAre("default/pending", "default/z", "kube-system/a"));
  EXPECT_TRUE(snapshot->PodsOnNode("gone-node").empty());
  EXPECT_TRUE(snapshot->UnboundPods().empty());
  EXPECT_EQ(snapshot->FindPod("default", "orphan"), nullptr);
  ASSERT_NE(snapshot->FindPod("default", "pending"), nullptr);
  EXPECT_EQ(snapshot->FindPod("default", "pending")->spec.node_name, "ip-1");
}

TEST(ClusterSnapshot, SnapshotsShareUnchangedPodsAndTheirCharges) {
  absl::StatusOr<ClusterSnapshot> first =
      SnapshotFromYaml(kNodesAndClaims, SnapshotOptions{.expand_workloads = false});
  ASSERT_TRUE(first.ok()) << first.status();
  const api::Pod* z = first->FindPod("default", "z");
  ASSERT_NE(z, nullptr);
  std::vector<const SharedPod*> on_node = first->SharedPodsOnNode("ip-1");
  ASSERT_EQ(on_node.size(), 2u);
  EXPECT_EQ(&(*on_node[0])->pod, z);
  EXPECT_EQ((*on_node[0])->charge.requests, api::PodRequests(*z));
  EXPECT_FALSE((*on_node[0])->charge.terminal);
  EXPECT_FALSE((*on_node[0])->charge.daemon);

  // The next snapshot keeps z and replaces the orphan with a finished version of it.
  ClusterSnapshot second = *first;
  std::vector<SharedPod> pods = SharedPods(*first);
  api::Pod finished = pods[0]->pod;  // default/orphan
  finished.status.phase = "Succeeded";
  pods[0] = Share(std::move(finished));
  ASSERT_TRUE(second.ReplacePods(std::move(pods)).ok());
  EXPECT_EQ(second.FindPod("default", "z"), z);  // the same object, not a copy
  EXPECT_TRUE((*second.SharedPodsOnNode("gone-node")[0])->charge.terminal);
  EXPECT_FALSE((*first->SharedPodsOnNode("gone-node")[0])->charge.terminal);
}

api::Pod NamedPod(const std::string& ns, const std::string& name, const std::string& node) {
  api::Pod pod;
  pod.metadata.namespace_ = ns;
  pod.metadata.name = name;
  pod.spec.node_name = node;
  return pod;
}

TEST(ClusterSnapshot, CarriedPodsAndIndexesMatchTheListReplacedWhole) {
  absl::StatusOr<ClusterSnapshot> first =
      SnapshotFromYaml(kNodesAndClaims, SnapshotOptions{.expand_workloads = false});
  ASSERT_TRUE(first.ok()) << first.status();
  // default/orphan goes, default/pending binds, two pods come (one before every other, one
  // unbound carrying do-not-disrupt), and a change for a pod that never was stays a no-op.
  api::Pod bound = *first->FindPod("default", "pending");
  bound.spec.node_name = "ip-1";
  api::Pod protected_pod = NamedPod("default", "new", "");
  protected_pod.metadata.annotations["karpenter.sh/do-not-disrupt"] = "true";
  const SharedPod front = Share(NamedPod("aaa", "x", "ip-2"));
  const SharedPod pending = Share(bound);
  const SharedPod added = Share(protected_pod);
  std::vector<PodChange> changes = {{"aaa", "x", front},
                                    {"default", "never", nullptr},
                                    {"default", "new", added},
                                    {"default", "orphan", nullptr},
                                    {"default", "pending", pending}};
  ClusterSnapshot carried = *first;
  ASSERT_TRUE(carried.CarryPodsOver(*first, std::move(changes)).ok());

  std::vector<SharedPod> whole = SharedPods(*first);  // orphan, pending, z, kube-system/a
  whole = {front, added, pending, whole[2], whole[3]};
  ClusterSnapshot replaced = *first;
  ASSERT_TRUE(replaced.ReplacePods(whole).ok());

  EXPECT_EQ(SharedPods(carried), whole);
  EXPECT_EQ(carried.FindPod("default", "z"), first->FindPod("default", "z"));  // not copied
  EXPECT_EQ(carried.NodeNamesWithPods(), replaced.NodeNamesWithPods());
  EXPECT_THAT(carried.NodeNamesWithPods(), ElementsAre("ip-1", "ip-2"));
  for (const std::string& node : replaced.NodeNamesWithPods()) {
    EXPECT_EQ(PodKeys(carried.PodsOnNode(node)), PodKeys(replaced.PodsOnNode(node))) << node;
  }
  EXPECT_THAT(PodKeys(carried.PodsOnNode("ip-1")),
              ElementsAre("default/pending", "default/z", "kube-system/a"));
  EXPECT_THAT(PodKeys(carried.UnboundPods()), ElementsAre("default/new"));
  EXPECT_THAT(PodKeys(carried.PodsWithDoNotDisrupt()), ElementsAre("default/new"));
  EXPECT_TRUE(carried.PodsOnNode("gone-node").empty());
  // The source is untouched.
  EXPECT_THAT(PodKeys(first->UnboundPods()), ElementsAre("default/pending"));
}

TEST(ClusterSnapshot, CarriedChangesMustBeSortedUniqueAndUnderTheirPodsNames) {
  absl::StatusOr<ClusterSnapshot> first =
      SnapshotFromYaml(kNodesAndClaims, SnapshotOptions{.expand_workloads = false});
  ASSERT_TRUE(first.ok()) << first.status();
  ClusterSnapshot carried = *first;
  EXPECT_THAT(carried.CarryPodsOver(*first, {{"default", "z", nullptr}, {"default", "a", nullptr}})
                  .message(),
              HasSubstr("out of order or repeated"));
  EXPECT_THAT(carried.CarryPodsOver(*first, {{"default", "z", Share(NamedPod("default", "y", ""))}})
                  .message(),
              HasSubstr("holds pod default/y"));
  EXPECT_THAT(carried.CarryPodsOver(*first, {{"", "z", nullptr}}).message(),
              HasSubstr("no namespace or name"));
  EXPECT_EQ(carried.pods().size(), first->pods().size());  // refused: nothing changed
}

TEST(ClusterSnapshot, DaemonSetPodsAreChargedAsDaemons) {
  api::Pod pod;
  pod.metadata.name = "agent";
  pod.metadata.namespace_ = "kube-system";
  pod.metadata.owner_references.push_back(
      {.api_version = "apps/v1", .kind = "DaemonSet", .name = "agent"});
  EXPECT_TRUE(SnapshotPod(pod).charge.daemon);
  pod.metadata.owner_references[0].kind = "ReplicaSet";
  EXPECT_FALSE(SnapshotPod(pod).charge.daemon);
}

TEST(ClusterSnapshot, PodsAreMarkedReschedulableAsTheirControllersWouldRecreateThem) {
  api::Pod pod;
  pod.metadata.name = "web-1";
  pod.metadata.owner_references.push_back(
      {.api_version = "apps/v1", .kind = "ReplicaSet", .name = "web"});
  EXPECT_TRUE(SnapshotPod(pod).charge.reschedulable);
  pod.metadata.deletion_timestamp = api::Time::FromUnixSeconds(1);
  EXPECT_FALSE(SnapshotPod(pod).charge.reschedulable);
  pod.metadata.owner_references[0].kind = "StatefulSet";  // keeps its name: it comes back
  EXPECT_TRUE(SnapshotPod(pod).charge.reschedulable);
  pod.metadata.deletion_timestamp.reset();
  pod.status.phase = "Succeeded";
  EXPECT_FALSE(SnapshotPod(pod).charge.reschedulable);
  pod.status.phase = "Running";
  pod.metadata.owner_references[0].kind = "DaemonSet";
  EXPECT_FALSE(SnapshotPod(pod).charge.reschedulable);
  pod.metadata.owner_references[0] = {.api_version = "v1", .kind = "Node", .name = "n"};
  EXPECT_FALSE(SnapshotPod(pod).charge.reschedulable);  // a mirror pod
}

TEST(ClusterSnapshot, PodsAreMarkedForHostPortsAndClaimedVolumes) {
  api::Pod pod;
  pod.spec.containers.push_back({.name = "app", .ports = {{.container_port = 80}}});
  pod.spec.volumes.push_back({.name = "config"});
  EXPECT_FALSE(SnapshotPod(pod).charge.host_ports);
  EXPECT_FALSE(SnapshotPod(pod).charge.claims_volumes);
  pod.spec.containers[0].ports[0].host_port = 8080;
  pod.spec.volumes.push_back(
      {.name = "data", .persistent_volume_claim = api::PersistentVolumeClaimVolumeSource{}});
  EXPECT_TRUE(SnapshotPod(pod).charge.host_ports);
  EXPECT_TRUE(SnapshotPod(pod).charge.claims_volumes);
  pod.spec.volumes.back() = {.name = "scratch", .ephemeral = api::EphemeralVolumeSource{}};
  EXPECT_TRUE(SnapshotPod(pod).charge.claims_volumes);
}

TEST(ClusterSnapshot, ListsThePodsCarryingDoNotDisrupt) {
  absl::StatusOr<ClusterSnapshot> snapshot =
      SnapshotFromYaml(kNodesAndClaims, SnapshotOptions{.expand_workloads = false});
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  EXPECT_TRUE(snapshot->PodsWithDoNotDisrupt().empty());
  std::vector<SharedPod> pods = SharedPods(*snapshot);
  ASSERT_EQ(pods.size(), 4u);
  // Both forms count: whether a duration still protects the pod is the reader's question.
  api::Pod forever = pods[1]->pod;
  forever.metadata.annotations["karpenter.sh/do-not-disrupt"] = "true";
  api::Pod for_a_while = pods[3]->pod;
  for_a_while.metadata.annotations["karpenter.sh/do-not-disrupt"] = "10m";
  pods[1] = Share(std::move(forever));
  pods[3] = Share(std::move(for_a_while));
  const std::vector<const api::Pod*> expected = {&pods[1]->pod, &pods[3]->pod};
  ASSERT_TRUE(snapshot->ReplacePods(std::move(pods)).ok());
  EXPECT_EQ(snapshot->PodsWithDoNotDisrupt(), expected);
}

TEST(ClusterSnapshot, ReplacedPodsMustBeSortedUniqueAndNamed) {
  absl::StatusOr<ClusterSnapshot> snapshot =
      SnapshotFromYaml(kNodesAndClaims, SnapshotOptions{.expand_workloads = false});
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  const std::vector<SharedPod> pods = SharedPods(*snapshot);
  std::vector<SharedPod> reversed(pods.rbegin(), pods.rend());
  EXPECT_THAT(snapshot->ReplacePods(reversed).message(), HasSubstr("out of order or repeated"));
  std::vector<SharedPod> repeated = {pods[0], pods[0]};
  EXPECT_THAT(snapshot->ReplacePods(repeated).message(), HasSubstr("out of order or repeated"));
  api::Pod unnamespaced = pods[0]->pod;
  unnamespaced.metadata.namespace_.clear();
  EXPECT_THAT(snapshot->ReplacePods({Share(std::move(unnamespaced))}).message(),
              HasSubstr("no namespace or name"));
  EXPECT_EQ(snapshot->pods().size(), pods.size());  // refused: nothing changed

  absl::StatusOr<ClusterSnapshot> expanded = SnapshotFromYaml(kOneDeployment);
  ASSERT_TRUE(expanded.ok()) << expanded.status();
  EXPECT_EQ(expanded->ReplacePods({}).code(), absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace karpenter::state
