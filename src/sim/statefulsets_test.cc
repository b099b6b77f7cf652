// The twin's StatefulSet controller (cluster_statefulsets.cc) and its scenario-file steps.
#include <gtest/gtest.h>

#include "src/sim/scenario_file.h"
#include "src/sim/sim_test_util.h"

namespace karpenter::sim {
namespace {

using testing::EventLines;
using testing::NodeGroupInstance;
using testing::World;

api::StatefulSet MakeStatefulSet(const std::string& name, int replicas, const std::string& cpu,
                                 const std::string& policy = "") {
  api::StatefulSet stateful_set;
  stateful_set.metadata.name = name;
  stateful_set.metadata.namespace_ = "default";
  stateful_set.spec.replicas = replicas;
  stateful_set.spec.pod_management_policy = policy;
  stateful_set.spec.template_ = testing::MakeDeployment(name, 1, cpu, "1Gi").spec.template_;
  return stateful_set;
}

// Names of the set's pods, and whether each is bound, in name order.
std::vector<std::string> PodStates(const Cluster& cluster) {
  std::vector<std::string> out;
  for (const auto& [key, record] : cluster.pods()) {
    if (!record.stateful_set) continue;
    out.push_back(record.pod.metadata.name +
                  (record.pod.spec.node_name.empty() ? ":pending" : ":bound"));
  }
  return out;
}

TEST(StatefulSet, OrderedReadyCreatesOnePodAtATimeWithOrdinalNames) {
  World world;
  world.cluster.LaunchInstance(NodeGroupInstance("m6i.2xlarge"), /*initial=*/true);
  ASSERT_TRUE(world.cluster.Apply(MakeStatefulSet("db", 3, "1"), false).ok());
  // Only db-0 exists until it runs (bind after 1 s), then db-1 after the controller's 1 s.
  EXPECT_EQ(PodStates(world.cluster), (std::vector<std::string>{"db-0:pending"}));
  world.queue.RunUntil(1000);
  EXPECT_EQ(PodStates(world.cluster), (std::vector<std::string>{"db-0:bound"}));
  world.queue.RunUntil(2000);
  EXPECT_EQ(PodStates(world.cluster), (std::vector<std::string>{"db-0:bound", "db-1:pending"}));
  world.queue.RunUntil(10000);
  EXPECT_EQ(PodStates(world.cluster),
            (std::vector<std::string>{"db-0:bound", "db-1:bound", "db-2:bound"}));
  const auto& pod = world.cluster.pods().at("default/db-1").pod;
  ASSERT_EQ(pod.metadata.owner_references.size(), 1u);
  EXPECT_EQ(pod.metadata.owner_references[0].kind, "StatefulSet");
  EXPECT_EQ(pod.metadata.labels.at("statefulset.kubernetes.io/pod-name"), "db-1");
}

TEST(StatefulSet, OrderedReadyWaitsForAPendingPredecessor) {
  World world;
  world.cluster.LaunchInstance(NodeGroupInstance("m6i.large"),
                               /*initial=*/true);  // 2 vCPUs: db-0 only
  ASSERT_TRUE(world.cluster.Apply(MakeStatefulSet("db", 3, "1500m"), false).ok());
  world.queue.RunUntil(30000);
  EXPECT_EQ(PodStates(world.cluster), (std::vector<std::string>{"db-0:bound", "db-1:pending"}));
}

TEST(StatefulSet, ParallelCreatesEveryPodAtOnce) {
  World world;
  world.cluster.LaunchInstance(NodeGroupInstance("m6i.large"), /*initial=*/true);
  ASSERT_TRUE(world.cluster.Apply(MakeStatefulSet("db", 3, "1500m", "Parallel"), false).ok());
  // All three exist at once, though only one fits: nothing waits for a predecessor.
  ASSERT_EQ(world.cluster.pods().size(), 3u);
  for (const char* name : {"default/db-0", "default/db-1", "default/db-2"}) {
    EXPECT_TRUE(world.cluster.pods().contains(name)) << name;
  }
  world.queue.RunUntil(30000);
  EXPECT_EQ(testing::BoundPods(world.cluster), 1u);
}

TEST(StatefulSet, ScaleDownRemovesTheHighestOrdinalsAndScaleUpRefillsThem) {
  World world;
  world.cluster.LaunchInstance(NodeGroupInstance("m6i.2xlarge"), /*initial=*/true);
  ASSERT_TRUE(world.cluster.Apply(MakeStatefulSet("db", 4, "1"), false).ok());
  world.queue.RunUntil(20000);
  ASSERT_EQ(PodStates(world.cluster).size(), 4u);
  ASSERT_TRUE(world.cluster.ScaleStatefulSet("default/db", 2).ok());
  EXPECT_EQ(PodStates(world.cluster), (std::vector<std::string>{"db-0:bound", "db-1:bound"}));
  const std::vector<std::string> deleted = EventLines(world.log, "PodDeleted");
  ASSERT_EQ(deleted.size(), 2u);
  EXPECT_NE(deleted[0].find("default/db-3"), std::string::npos) << deleted[0];
  EXPECT_NE(deleted[1].find("default/db-2"), std::string::npos) << deleted[1];
  ASSERT_TRUE(world.cluster.ScaleStatefulSet("default/db", 3).ok());
  world.queue.RunUntil(40000);
  EXPECT_EQ(PodStates(world.cluster),
            (std::vector<std::string>{"db-0:bound", "db-1:bound", "db-2:bound"}));
  EXPECT_FALSE(world.cluster.ScaleStatefulSet("default/nope", 1).ok());
}

TEST(StatefulSet, AnEvictedPodComesBackUnderItsOwnName) {
  World world;
  world.cluster.LaunchInstance(NodeGroupInstance("m6i.2xlarge"), /*initial=*/true);
  ASSERT_TRUE(world.cluster.Apply(MakeStatefulSet("db", 2, "1"), false).ok());
  world.queue.RunUntil(20000);
  const std::string old_uid = world.cluster.pods().at("default/db-0").pod.metadata.uid;
  ASSERT_EQ(world.cluster.Evict("default/db-0"), Cluster::Eviction::kEvicted);
  // The name is free only once the old pod has shut down (its 30 s grace period).
  world.queue.RunUntil(49000);
  EXPECT_EQ(world.cluster.pods().at("default/db-0").pod.metadata.uid, old_uid);
  EXPECT_TRUE(world.cluster.pods().at("default/db-0").terminating());
  world.queue.RunUntil(60000);
  EXPECT_EQ(PodStates(world.cluster), (std::vector<std::string>{"db-0:bound", "db-1:bound"}));
  EXPECT_NE(world.cluster.pods().at("default/db-0").pod.metadata.uid, old_uid);
}

TEST(StatefulSet, VolumeClaimTemplatesAreRefused) {
  World world;
  api::StatefulSet stateful_set = MakeStatefulSet("db", 1, "1");
  stateful_set.spec.volume_claim_templates.emplace_back().metadata.name = "data";
  const absl::Status status = world.cluster.Apply(stateful_set, false);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("spec.volumeClaimTemplates"), std::string::npos) << status;
}

constexpr char kScenario[] = R"yaml(
name: sts
durationSeconds: 600
zones: [us-east-1a]
manifests: |
  apiVersion: apps/v1
  kind: StatefulSet
  metadata: {name: db, namespace: default}
  spec:
    replicas: 2
    serviceName: db
    selector: {matchLabels: {app: db}}
    template:
      metadata: {labels: {app: db}}
      spec:
        containers: [{name: db, image: postgres, resources: {requests: {cpu: "1"}}}]
steps:
  - {at: 60, scale: {statefulSet: default/db, replicas: 5}}
)yaml";

TEST(StatefulSet, ScenarioFilesDeclareAndScaleThem) {
  absl::StatusOr<Scenario> scenario = ParseScenario(kScenario, "s.yaml");
  ASSERT_TRUE(scenario.ok()) << scenario.status();
  ASSERT_EQ(scenario->initial_objects.size(), 1u);
  EXPECT_TRUE(std::holds_alternative<api::StatefulSet>(scenario->initial_objects[0]));
  ASSERT_EQ(scenario->steps.size(), 1u);
  EXPECT_EQ(scenario->steps[0].kind, StepKind::kScaleStatefulSet);
  EXPECT_EQ(scenario->steps[0].target, "default/db");
  EXPECT_EQ(scenario->steps[0].replicas, 5);

  std::string both = kScenario;
  both.replace(both.find("statefulSet: default/db,"), 24,
               "statefulSet: default/db, deployment: default/web,");
  absl::StatusOr<Scenario> bad = ParseScenario(both, "s.yaml");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("s.yaml: steps[0].scale: needs exactly one of deployment, "
                                        "statefulSet"),
            std::string::npos)
      << bad.status();

  std::string claims = kScenario;
  claims.replace(claims.find("    serviceName: db\n"), 20,
                 "    serviceName: db\n    volumeClaimTemplates: [{metadata: {name: data}}]\n");
  absl::StatusOr<Scenario> refused = ParseScenario(claims, "s.yaml");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("spec.volumeClaimTemplates"), std::string::npos)
      << refused.status();
}

}  // namespace
}  // namespace karpenter::sim
