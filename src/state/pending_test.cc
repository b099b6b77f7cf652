#include "src/state/pending.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "src/state/state_test_util.h"

namespace karpenter::state {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using testing_util::PodKeys;
using testing_util::SnapshotFromYaml;

// A pod in namespace default with the given metadata and spec/status fields (YAML lines).
std::string PodYaml(std::string_view name, std::string_view metadata_fields = "",
                    std::string_view spec_fields = "", std::string_view status = "{}") {
  return "apiVersion: v1\nkind: Pod\nmetadata:\n  name: " + std::string(name) +
         "\n  namespace: default\n" + std::string(metadata_fields) +
         "spec:\n  containers: [{name: c, image: i}]\n" + std::string(spec_fields) +
         "status: " + std::string(status) + "\n---\n";
}

constexpr std::string_view kPendingVariety = R"(
apiVersion: v1
kind: Node
metadata: {name: n1}
---
)";

TEST(PendingPods, SelectsOnlyProvisionablePods) {
  const std::string yaml =
      std::string(kPendingVariety) + PodYaml("unbound") + PodYaml("bound", "", "  nodeName: n1\n") +
      PodYaml("succeeded", "", "", "{phase: Succeeded}") +
      PodYaml("failed", "", "", "{phase: Failed}") +
      PodYaml("deleting", "  deletionTimestamp: \"2024-01-01T00:00:00Z\"\n") +
      PodYaml("nominated", "", "", "{nominatedNodeName: n1}") +
      PodYaml("gated", "", "  schedulingGates: [{name: example.com/wait}]\n") +
      PodYaml("daemon",
              "  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: ds, uid: u}]\n") +
      PodYaml("static", "  ownerReferences: [{apiVersion: v1, kind: Node, name: n1, uid: u}]\n") +
      PodYaml("mirror", "  annotations: {kubernetes.io/config.mirror: abc}\n") +
      PodYaml("pending-with-condition", "", "",
              "{phase: Pending, conditions: [{type: PodScheduled, status: \"False\", reason: "
              "Unschedulable}]}");
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(yaml);
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  PendingPods pending = SelectPendingPods(*snapshot);
  EXPECT_THAT(PodKeys(pending.pods),
              ElementsAre("default/pending-with-condition", "default/unbound"));
  EXPECT_THAT(pending.ignored, IsEmpty());
}

TEST(PendingPods, UnderTheControllersRuleOnlyPodsKubeSchedulerGaveUpOnArePending) {
  const std::string yaml =
      PodYaml("untried") + PodYaml("scheduling", "", "", "{conditions: [{type: PodScheduled}]}") +
      PodYaml("gated", "", "  schedulingGates: [{name: example.com/wait}]\n",
              "{conditions: [{type: PodScheduled, status: \"False\", reason: SchedulingGated}]}") +
      PodYaml("unschedulable", "", "",
              "{conditions: [{type: PodScheduled, status: \"False\", reason: Unschedulable}]}") +
      PodYaml("unschedulable-bound", "", "  nodeName: n1\n",
              "{conditions: [{type: PodScheduled, status: \"False\", reason: Unschedulable}]}");
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(yaml);
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  EXPECT_THAT(PodKeys(SelectPendingPods(*snapshot, PendingRule::kFailedToSchedule).pods),
              ElementsAre("default/unschedulable"));
  // Offline, every unbound pod the cluster could run waits for capacity.
  EXPECT_THAT(PodKeys(SelectPendingPods(*snapshot).pods),
              ElementsAre("default/scheduling", "default/unschedulable", "default/untried"));
}

TEST(PendingPods, DaemonSetOwnerNeedsTheAppsV1ApiVersion) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(PodYaml(
      "old-daemon",
      "  ownerReferences: [{apiVersion: extensions/v1beta1, kind: DaemonSet, name: ds}]\n"));
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  EXPECT_THAT(PodKeys(SelectPendingPods(*snapshot).pods), ElementsAre("default/old-daemon"));
}

TEST(PendingPods, DaemonSetIsNeverPendingEvenWithUnboundPods) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(R"(
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: aws-node, namespace: kube-system}
spec:
  selector: {matchLabels: {k8s-app: aws-node}}
  template:
    metadata: {labels: {k8s-app: aws-node}}
    spec: {containers: [{name: c, image: i}]}
---
apiVersion: v1
kind: Pod
metadata:
  name: aws-node-x1
  namespace: kube-system
  labels: {k8s-app: aws-node}
  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: aws-node, controller: true}]
spec: {containers: [{name: c, image: i}]}
)");
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  PendingPods pending = SelectPendingPods(*snapshot);
  EXPECT_THAT(pending.pods, IsEmpty());
  EXPECT_THAT(pending.ignored, IsEmpty());
}

TEST(PendingPods, IgnoredPodsAreReportedApartInSnapshotOrder) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(
      PodYaml("b-ok") + PodYaml("a-restricted", "", "  nodeSelector: {karpenter.sh/custom: x}\n") +
      PodYaml("c-no-karpenter", "", R"(  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchExpressions: [{key: karpenter.sh/nodepool, operator: DoesNotExist}]
)"));
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  PendingPods pending = SelectPendingPods(*snapshot);
  EXPECT_THAT(PodKeys(pending.pods), ElementsAre("default/b-ok"));
  ASSERT_EQ(pending.ignored.size(), 2u);
  EXPECT_EQ(pending.ignored[0].pod->metadata.name, "a-restricted");
  EXPECT_FALSE(pending.ignored[0].reason.silent);
  EXPECT_EQ(pending.ignored[1].pod->metadata.name, "c-no-karpenter");
  EXPECT_TRUE(pending.ignored[1].reason.silent);
}

// --- P4: pods of deleting nodes ---

constexpr api::Time kNow = api::Time::FromUnixNanos(1'717'000'000'000'000'000);

constexpr std::string_view kNodes = R"(
apiVersion: v1
kind: Node
metadata: {name: deleting, deletionTimestamp: "2024-05-01T00:00:00Z"}
---
apiVersion: v1
kind: Node
metadata: {name: claim-deleting}
spec: {providerID: "aws:///z/i-1"}
---
apiVersion: karpenter.sh/v1
kind: NodeClaim
metadata: {name: c1, deletionTimestamp: "2024-05-01T00:00:00Z"}
status: {providerID: "aws:///z/i-1"}
---
apiVersion: v1
kind: Node
metadata: {name: terminating-instance}
spec: {providerID: "aws:///z/i-2"}
---
apiVersion: karpenter.sh/v1
kind: NodeClaim
metadata: {name: c2}
status:
  providerID: "aws:///z/i-2"
  conditions: [{type: InstanceTerminating, status: "True", reason: Terminating}]
---
apiVersion: v1
kind: Node
metadata: {name: healthy}
spec: {providerID: "aws:///z/i-3"}
---
apiVersion: karpenter.sh/v1
kind: NodeClaim
metadata: {name: c3}
status: {providerID: "aws:///z/i-3"}
---
)";

TEST(DeletingNodes, NodeOrItsNodeClaimBeingDeletedCounts) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(kNodes);
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  EXPECT_TRUE(IsNodeDeleting(*snapshot, *snapshot->FindNode("deleting")));
  EXPECT_TRUE(IsNodeDeleting(*snapshot, *snapshot->FindNode("claim-deleting")));
  EXPECT_TRUE(IsNodeDeleting(*snapshot, *snapshot->FindNode("terminating-instance")));
  EXPECT_FALSE(IsNodeDeleting(*snapshot, *snapshot->FindNode("healthy")));
}

std::string OnNode(std::string_view node) { return "  nodeName: " + std::string(node) + "\n"; }

TEST(DeletingNodes, ReschedulablePodsOfEveryDeletingNode) {
  const std::string yaml = std::string(kNodes) + PodYaml("on-deleting", "", OnNode("deleting")) +
                           PodYaml("on-claim-deleting", "", OnNode("claim-deleting")) +
                           PodYaml("on-terminating", "", OnNode("terminating-instance")) +
                           PodYaml("on-healthy", "", OnNode("healthy"));
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(yaml);
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  EXPECT_THAT(
      PodKeys(ReschedulablePodsOfDeletingNodes(*snapshot, kNow)),
      ElementsAre("default/on-claim-deleting", "default/on-deleting", "default/on-terminating"));
}

TEST(DeletingNodes, SkipsPodsThatWillNotMove) {
  const std::string node = OnNode("deleting");
  const std::string yaml =
      std::string(kNodes) + PodYaml("movable", "", node) +
      PodYaml("daemon", "  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: d}]\n",
              node) +
      PodYaml("static", "  ownerReferences: [{apiVersion: v1, kind: Node, name: deleting}]\n",
              node) +
      PodYaml("mirror", "  annotations: {kubernetes.io/config.mirror: x}\n", node) +
      PodYaml("done", "", node, "{phase: Succeeded}") +
      PodYaml("terminating", "  deletionTimestamp: \"2024-05-01T00:00:00Z\"\n", node) +
      PodYaml("terminating-sts",
              "  deletionTimestamp: \"2024-05-01T00:00:00Z\"\n"
              "  ownerReferences: [{apiVersion: apps/v1, kind: StatefulSet, name: s}]\n",
              node) +
      PodYaml("do-not-disrupt", "  annotations: {karpenter.sh/do-not-disrupt: \"true\"}\n", node) +
      PodYaml("do-not-disrupt-invalid", "  annotations: {karpenter.sh/do-not-disrupt: nope}\n",
              node);
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(yaml);
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  EXPECT_THAT(
      PodKeys(ReschedulablePodsOfDeletingNodes(*snapshot, kNow)),
      ElementsAre("default/do-not-disrupt-invalid", "default/movable", "default/terminating-sts"));
}

TEST(DeletingNodes, DurationDoNotDisruptProtectsOnlyUntilItElapses) {
  const std::string node = OnNode("deleting");
  const std::string annotation = "  annotations: {karpenter.sh/do-not-disrupt: 1h}\n";
  // kNow is 2024-05-29T16:26:40Z.
  const std::string yaml =
      std::string(kNodes) +
      PodYaml("young", annotation, node, "{startTime: \"2024-05-29T16:00:00Z\"}") +
      PodYaml("old", annotation, node, "{startTime: \"2024-05-29T15:00:00Z\"}") +
      PodYaml("unstarted", annotation, node);
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(yaml);
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  EXPECT_THAT(PodKeys(ReschedulablePodsOfDeletingNodes(*snapshot, kNow)),
              ElementsAre("default/old"));
}

TEST(DeletingNodes, FullyBlockingBudgetKeepsPodsOut) {
  const std::string node = OnNode("deleting");
  const std::string yaml = std::string(kNodes) + PodYaml("guarded", "  labels: {app: g}\n", node) +
                           PodYaml("budgeted", "  labels: {app: b}\n", node) + R"(
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: never, namespace: default}
spec: {maxUnavailable: 0, selector: {matchLabels: {app: g}}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: zero-now, namespace: default}
spec: {maxUnavailable: 1, selector: {matchLabels: {app: b}}}
status: {disruptionsAllowed: 0}
)";
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(yaml);
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  // A budget that is merely exhausted now does not stop planning for the pod.
  EXPECT_THAT(PodKeys(ReschedulablePodsOfDeletingNodes(*snapshot, kNow)),
              ElementsAre("default/budgeted"));
}

}  // namespace
}  // namespace karpenter::state
