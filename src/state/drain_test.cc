// SimulateDrain and ApplyDrain: kubectl drain's filters, the eviction API's PDB answers counted
// across nodes, and the snapshot as the planner sees it afterwards.
#include "src/state/drain.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "src/api/selector_match.h"
#include "src/state/state_test_util.h"

namespace karpenter::state {
namespace {

using testing_util::SnapshotFromYaml;
using testing_util::StrictManifests;

std::string Node(const std::string& name, const std::string& group) {
  return "apiVersion: v1\nkind: Node\nmetadata:\n  name: " + name + "\n  labels: {group: " + group +
         "}\n---\n";
}

// A pod on `node`; `owner` is "Kind" (a controller owner of that kind) or "" (none).
std::string Pod(const std::string& name, const std::string& node, const std::string& owner,
                const std::string& extra = "") {
  std::string out =
      "apiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name + "\n  labels: {app: web}\n" + extra;
  if (!owner.empty()) {
    const std::string api = owner == "Node" ? "v1" : "apps/v1";
    out += "  ownerReferences: [{apiVersion: " + api + ", kind: " + owner +
           ", name: o, uid: u, controller: true}]\n";
  }
  return out + "spec:\n  nodeName: " + node +
         "\n  containers: [{name: c, image: x}]\nstatus: {phase: Running}\n---\n";
}

std::string Pdb(int allowed, const std::string& spec = "minAvailable: 1") {
  return "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: web, namespace: "
         "default}\nspec:\n  " +
         spec + "\n  selector: {matchLabels: {app: web}}\nstatus: {disruptionsAllowed: " +
         std::to_string(allowed) + "}\n---\n";
}

std::vector<DrainSelector> Selectors(const std::string& text) {
  absl::StatusOr<api::LabelSelector> selector = api::ParseSelector(text);
  EXPECT_TRUE(selector.ok()) << selector.status();
  return {{text, *selector}};
}

TEST(SimulateDrain, EvictsControlledPodsAndLeavesDaemonSetAndMirrorPods) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(
      Node("a", "old") + Node("b", "new") + Pod("web", "a", "ReplicaSet") +
      Pod("ds", "a", "DaemonSet") + Pod("static", "a", "Node") + Pod("other", "b", "ReplicaSet"));
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  const DrainResult drain = SimulateDrain(*snapshot, Selectors("group=old"));
  ASSERT_EQ(drain.nodes.size(), 1u);
  EXPECT_EQ(drain.nodes[0].name, "a");
  EXPECT_EQ(drain.nodes[0].evicted, std::vector<std::string>{"default/web"});
  EXPECT_EQ(drain.nodes[0].daemon_set_pods, std::vector<std::string>{"default/ds"});
  EXPECT_EQ(drain.nodes[0].mirror_pods, std::vector<std::string>{"default/static"});
  EXPECT_TRUE(drain.nodes[0].Completes());
  EXPECT_TRUE(drain.warnings.empty());
}

TEST(SimulateDrain, PodWithoutControllerStopsKubectlOnItsNode) {
  absl::StatusOr<ClusterSnapshot> snapshot =
      SnapshotFromYaml(Node("a", "old") + Pod("web", "a", "ReplicaSet") + Pod("bare", "a", ""));
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  const DrainResult drain = SimulateDrain(*snapshot, Selectors("group=old"));
  ASSERT_EQ(drain.nodes.size(), 1u);
  EXPECT_TRUE(drain.nodes[0].evicted.empty());
  EXPECT_NE(drain.nodes[0].error.find("default/bare"), std::string::npos);
  EXPECT_FALSE(drain.nodes[0].Completes());
}

TEST(SimulateDrain, PdbAllowancesAreUsedUpAcrossNodes) {
  absl::StatusOr<ClusterSnapshot> snapshot =
      SnapshotFromYaml(Node("a", "old") + Node("b", "old") + Pod("web-1", "a", "ReplicaSet") +
                       Pod("web-2", "b", "ReplicaSet") + Pdb(1));
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  const DrainResult drain = SimulateDrain(*snapshot, Selectors("group=old"));
  ASSERT_EQ(drain.refusals.size(), 1u);
  EXPECT_EQ(drain.refusals[0].pod, "default/web-2");
  EXPECT_FALSE(drain.refusals[0].never);
  // Retried: it still leaves.
  EXPECT_EQ(drain.nodes[1].evicted, std::vector<std::string>{"default/web-2"});
}

TEST(SimulateDrain, BudgetThatNeverAllowsKeepsThePod) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(
      Node("a", "old") + Pod("web-1", "a", "ReplicaSet") + Pdb(0, "maxUnavailable: 0"));
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  const DrainResult drain = SimulateDrain(*snapshot, Selectors("group=old"));
  ASSERT_EQ(drain.refusals.size(), 1u);
  EXPECT_TRUE(drain.refusals[0].never);
  EXPECT_EQ(drain.nodes[0].stuck, std::vector<std::string>{"default/web-1"});
  EXPECT_TRUE(drain.nodes[0].evicted.empty());
  EXPECT_FALSE(drain.nodes[0].Completes());
}

TEST(SimulateDrain, SelectorMatchingNoNodeWarns) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(Node("a", "old"));
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  const DrainResult drain = SimulateDrain(*snapshot, Selectors("group=gone"));
  EXPECT_TRUE(drain.nodes.empty());
  EXPECT_EQ(drain.warnings, std::vector<std::string>{"--drain \"group=gone\" matches no node"});
}

TEST(ApplyDrain, CordonsAndUnbindsEvictedPodsOnly) {
  const std::string yaml = Node("a", "old") + Pod("web", "a", "ReplicaSet") +
                           Pod("ds", "a", "DaemonSet") + Node("b", "new") +
                           Pod("other", "b", "ReplicaSet");
  absl::StatusOr<ClusterSnapshot> before = SnapshotFromYaml(yaml);
  ASSERT_TRUE(before.ok()) << before.status();
  const DrainResult drain = SimulateDrain(*before, Selectors("group=old"));
  absl::StatusOr<std::vector<api::Manifest>> manifests = StrictManifests(yaml);
  ASSERT_TRUE(manifests.ok());
  ApplyDrain(drain, *manifests);
  absl::StatusOr<ClusterSnapshot> after = ClusterSnapshot::FromManifests(*std::move(manifests));
  ASSERT_TRUE(after.ok()) << after.status();
  const api::Node* a = after->FindNode("a");
  ASSERT_NE(a, nullptr);
  EXPECT_TRUE(a->spec.unschedulable);
  ASSERT_EQ(a->spec.taints.size(), 1u);
  EXPECT_EQ(a->spec.taints[0].key, kUnschedulableTaintKey);
  EXPECT_EQ(a->spec.taints[0].effect, "NoSchedule");
  EXPECT_FALSE(after->FindNode("b")->spec.unschedulable);
  EXPECT_TRUE(after->FindPod("default", "web")->spec.node_name.empty());
  EXPECT_EQ(after->FindPod("default", "ds")->spec.node_name, "a");
  EXPECT_EQ(after->FindPod("default", "other")->spec.node_name, "b");
}

}  // namespace
}  // namespace karpenter::state
