#include "src/sim/snapshot_scenario.h"

#include <gtest/gtest.h>

#include "absl/strings/str_split.h"
#include "src/sim/runner.h"
#include "src/sim/sim_test_util.h"

namespace karpenter::sim {
namespace {

std::string NodeYaml(const std::string& name, const std::string& group, const std::string& type,
                     const std::string& zone, const std::string& extra_labels = "") {
  std::string labels = "{node.kubernetes.io/instance-type: " + type +
                       ", topology.kubernetes.io/zone: " + zone +
                       ", kubernetes.io/hostname: " + name;
  if (!group.empty()) labels += ", eks.amazonaws.com/nodegroup: " + group;
  if (!extra_labels.empty()) labels += ", " + extra_labels;
  return "apiVersion: v1\nkind: Node\nmetadata: {name: " + name + ", labels: " + labels + "}}\n";
}

constexpr char kWorkloads[] = R"yaml(apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec:
  replicas: 10
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      nodeSelector: {team: web}
      containers: [{name: web, image: nginx, resources: {requests: {cpu: "1", memory: 1Gi}}}]
---
apiVersion: v1
kind: Pod
metadata:
  name: web-1
  namespace: default
  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web-7d4, uid: "1", controller: true}]
spec:
  nodeName: a
  containers: [{name: web, image: nginx}]
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: default}
---
apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata: {name: default}
spec:
  amiSelectorTerms: [{alias: al2023@latest}]
  role: KarpenterNodeRole
  subnetSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}]
  securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}]
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: default}
spec:
  template:
    metadata: {labels: {team: web}}
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
      requirements: []
)yaml";

std::string Snapshot() {
  return NodeYaml("a", "general", "m6i.xlarge", "us-east-1a", "team: web, tier: front") + "---\n" +
         NodeYaml("b", "general", "m6i.xlarge", "us-east-1b", "team: web") + "---\n" +
         NodeYaml("c", "system", "m6i.large", "us-east-1a",
                  "eks.amazonaws.com/capacityType: SPOT") +
         "---\n" + kWorkloads;
}

absl::StatusOr<Scenario> FromSnapshot(const std::string& yaml, Scenario trace = {}) {
  absl::StatusOr<std::vector<api::Manifest>> manifests = api::DecodeManifests(yaml, "snap.yaml");
  EXPECT_TRUE(manifests.ok()) << manifests.status();
  if (!manifests.ok()) return manifests.status();
  return ScenarioFromSnapshot(*manifests, std::move(trace), testing::TestCatalog());
}

TEST(ScenarioFromSnapshot, InfersNodeGroupsFromTheNodesLabels) {
  absl::StatusOr<Scenario> scenario = FromSnapshot(Snapshot());
  ASSERT_TRUE(scenario.ok()) << scenario.status();
  ASSERT_EQ(scenario->node_groups.size(), 2u);
  const NodeGroup& general = scenario->node_groups[0];
  EXPECT_EQ(general.name, "general");
  EXPECT_EQ(general.instance_type, "m6i.xlarge");
  EXPECT_EQ(general.capacity_type, "on-demand");  // no capacity-type label: assumed
  EXPECT_EQ(general.zones, (std::vector<std::string>{"us-east-1a", "us-east-1b"}));
  EXPECT_EQ(general.initial_size, 2);
  EXPECT_EQ(general.min_size, 0);
  EXPECT_EQ(general.max_size, kSnapshotGroupMinMaxSize);
  EXPECT_TRUE(general.autoscaled);
  // Only the labels both nodes carry; the hostname and the well-known ones are the twin's.
  EXPECT_EQ(general.labels, (std::map<std::string, std::string>{{"team", "web"}}));
  const NodeGroup& system = scenario->node_groups[1];
  EXPECT_EQ(system.capacity_type, "spot");
  EXPECT_EQ(system.initial_size, 1);
  EXPECT_EQ(scenario->zones, (std::vector<std::string>{"us-east-1a", "us-east-1b"}));
  // The EC2NodeClass and the NodePool at t=0; the Deployment applied by a step at t=0, so that
  // its pods are measured; the ReplicaSet's pod comes back from its Deployment and the Service
  // is not the twin's.
  EXPECT_EQ(scenario->initial_objects.size(), 2u);
  ASSERT_EQ(scenario->steps.size(), 1u);
  EXPECT_EQ(scenario->steps[0].at_seconds, 0);
  EXPECT_EQ(scenario->steps[0].kind, StepKind::kApply);
  ASSERT_EQ(scenario->steps[0].objects.size(), 1u);
  EXPECT_TRUE(std::holds_alternative<api::Deployment>(scenario->steps[0].objects[0]));
}

TEST(ScenarioFromSnapshot, KeepsTheTracesStepsAndRefusesAGroupInBoth) {
  Scenario trace;
  trace.name = "peak";
  trace.duration_seconds = 600;
  trace.steps.push_back(
      {.at_seconds = 60, .kind = StepKind::kScale, .target = "default/web", .replicas = 20});
  absl::StatusOr<Scenario> scenario = FromSnapshot(Snapshot(), trace);
  ASSERT_TRUE(scenario.ok()) << scenario.status();
  EXPECT_EQ(scenario->name, "peak");
  EXPECT_EQ(scenario->duration_seconds, 600);
  ASSERT_EQ(scenario->steps.size(), 2u);
  EXPECT_EQ(scenario->steps[1].target, "default/web");
  trace.node_groups.push_back({.name = "general", .instance_type = "m6i.large"});
  absl::StatusOr<Scenario> clash = FromSnapshot(Snapshot(), trace);
  ASSERT_FALSE(clash.ok());
  EXPECT_NE(clash.status().message().find("nodeGroups: general is both"), std::string::npos);
}

TEST(ScenarioFromSnapshot, NamesTheFieldPathOfEveryProblem) {
  const std::string yaml =
      NodeYaml("a", "general", "m6i.xlarge", "us-east-1a") + "---\n" +
      NodeYaml("b", "general", "m6i.2xlarge", "us-east-1a") + "---\n" +
      NodeYaml("c", "", "m6i.xlarge", "us-east-1a") + "---\n" +
      NodeYaml("d", "", "m6i.xlarge", "us-east-1a", "karpenter.sh/nodepool: default") + "---\n" +
      "apiVersion: v1\nkind: Node\nmetadata: {name: e, labels: {eks.amazonaws.com/nodegroup: "
      "x}}\n---\n" +
      NodeYaml("f", "g", "m6i.xlarge", "us-east-1a", "eks.amazonaws.com/capacityType: CHEAP") +
      "---\n" + NodeYaml("h", "g", "m99.huge", "us-east-1a") + "---\n" +
      NodeYaml("i", "g", "m6i.xlarge", "mars-1a") +
      "---\napiVersion: v1\nkind: Pod\nmetadata: {name: bare, namespace: default}\nspec:\n  "
      "containers: [{name: c, image: i}]\n";
  absl::StatusOr<Scenario> scenario = FromSnapshot(yaml);
  ASSERT_FALSE(scenario.ok());
  EXPECT_EQ(scenario.status().code(), absl::StatusCode::kInvalidArgument);
  const std::vector<std::string> lines = absl::StrSplit(scenario.status().message(), '\n');
  ASSERT_EQ(lines.size(), 9u) << scenario.status().message();
  EXPECT_EQ(lines[0].rfind("snap.yaml: Node/b: metadata.labels[node.kubernetes.io/instance-type]: "
                           "m6i.2xlarge on-demand differs from m6i.xlarge on-demand of node a",
                           0),
            0u)
      << lines[0];
  EXPECT_EQ(lines[1].rfind("snap.yaml: Node/c: metadata.labels[eks.amazonaws.com/nodegroup]: "
                           "required",
                           0),
            0u)
      << lines[1];
  EXPECT_EQ(lines[2].rfind("snap.yaml: Node/d: metadata.labels[karpenter.sh/nodepool]: ", 0), 0u);
  EXPECT_EQ(lines[3].rfind("snap.yaml: Node/e: metadata.labels[node.kubernetes.io/instance-type]: "
                           "required",
                           0),
            0u)
      << lines[3];
  EXPECT_EQ(lines[4].rfind("snap.yaml: Node/e: metadata.labels[topology.kubernetes.io/zone]: ", 0),
            0u);
  EXPECT_EQ(lines[5],
            "snap.yaml: Node/f: metadata.labels[eks.amazonaws.com/capacityType]: \"CHEAP\": must "
            "be ON_DEMAND or SPOT");
  EXPECT_EQ(lines[6],
            "snap.yaml: Node/h: metadata.labels[node.kubernetes.io/instance-type]: unknown "
            "instance type \"m99.huge\": not in the catalog");
  EXPECT_EQ(lines[7].rfind("snap.yaml: Node/i: metadata.labels[topology.kubernetes.io/zone]: "
                           "unknown zone \"mars-1a\"",
                           0),
            0u)
      << lines[7];
  EXPECT_EQ(lines[8].rfind("snap.yaml: Pod/default/bare: metadata.ownerReferences: ", 0), 0u)
      << lines[8];
}

// With the Auto Scaling groups, a node without the nodegroup label joins the group holding its
// instance, and the groups' bounds and auto-discovery tag replace the assumed ones.
// Node a's instance is in none of them (replaced since the ASGs were listed): b names the ASG.
TEST(ScenarioFromSnapshot, TakesGroupsAndBoundsFromTheAutoScalingGroups) {
  const std::string yaml = NodeYaml("a", "general", "m6i.xlarge", "us-east-1a") +
                           "spec: {providerID: \"aws:///us-east-1a/i-0z\"}\n" + "---\n" +
                           NodeYaml("b", "", "m6i.xlarge", "us-east-1b") +
                           "spec: {providerID: \"aws:///us-east-1b/i-0b\"}\n---\n" +
                           NodeYaml("c", "", "m6i.large", "us-east-1a") +
                           "spec: {providerID: \"aws:///us-east-1a/i-0c\"}\n";
  absl::StatusOr<std::vector<api::Manifest>> manifests = api::DecodeManifests(yaml, "snap.yaml");
  ASSERT_TRUE(manifests.ok()) << manifests.status();
  std::vector<AutoScalingGroupRecord> asgs = {
      {.name = "eks-general-1",
       .node_group = "general",
       .min_size = 1,
       .max_size = 6,
       .autoscaled = true,
       .instance_ids = {"i-0a", "i-0b"}},
      {.name = "self-managed", .min_size = 1, .max_size = 1, .instance_ids = {"i-0c"}}};
  absl::StatusOr<Scenario> scenario =
      ScenarioFromSnapshot(*manifests, {}, testing::TestCatalog(), asgs);
  ASSERT_TRUE(scenario.ok()) << scenario.status();
  ASSERT_EQ(scenario->node_groups.size(), 2u);
  const NodeGroup& general = scenario->node_groups[0];
  EXPECT_EQ(general.name, "general");
  EXPECT_EQ(general.initial_size, 2);
  EXPECT_EQ(general.min_size, 1);
  EXPECT_EQ(general.max_size, 6);
  EXPECT_TRUE(general.autoscaled);
  const NodeGroup& self_managed = scenario->node_groups[1];
  EXPECT_EQ(self_managed.name, "self-managed");
  EXPECT_EQ(self_managed.max_size, 1);
  EXPECT_FALSE(self_managed.autoscaled);  // untagged: Cluster Autoscaler does not resize it
  // Without the groups, the unlabelled nodes are refused.
  absl::StatusOr<Scenario> without = ScenarioFromSnapshot(*manifests, {}, testing::TestCatalog());
  ASSERT_FALSE(without.ok());
  EXPECT_NE(without.status().message().find("Node/b: metadata.labels[eks.amazonaws.com/nodegroup]"),
            std::string::npos);
}

TEST(ScenarioFromSnapshot, RefusesASnapshotWithoutNodes) {
  absl::StatusOr<Scenario> scenario = FromSnapshot(kWorkloads);
  ASSERT_FALSE(scenario.ok());
  EXPECT_NE(scenario.status().message().find("has no Node"), std::string::npos);
}

// The snapshot's cluster runs: its pods that no longer fit wait for each autoscaler, Cluster
// Autoscaler grows the inferred group and Karpenter launches from the snapshot's NodePool.
TEST(ScenarioFromSnapshot, RunsTheUsersClusterThroughBothAutoscalers) {
  Scenario trace;
  trace.name = "snapshot";
  trace.duration_seconds = 900;
  absl::StatusOr<Scenario> scenario = FromSnapshot(Snapshot(), trace);
  ASSERT_TRUE(scenario.ok()) << scenario.status();
  EventLog log(false);
  absl::StatusOr<SimReport> report = RunScenario(*scenario, 1, testing::TestCatalog(), log);
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_EQ(report->runs.size(), 2u);
  for (const RunResult& run : report->runs) {
    SCOPED_TRACE(AutoscalerName(run.autoscaler));
    EXPECT_EQ(run.samples.front().nodes, 3u);  // the snapshot's nodes
    EXPECT_GT(run.nodes_max, 3u);              // and more for the pods that did not fit
    EXPECT_EQ(run.unschedulable_pods, 0u);
    // The pods that did not fit on the snapshot's nodes waited, and are measured.
    EXPECT_GE(run.pods_measured, 1u);
    EXPECT_EQ(run.pod_sets[static_cast<size_t>(PodSet::kWorkload)].pods, 10u);
  }
}

}  // namespace
}  // namespace karpenter::sim
