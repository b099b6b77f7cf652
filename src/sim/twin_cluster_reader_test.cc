#include "src/sim/twin_cluster_reader.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "src/sim/sim_test_util.h"
#include "src/state/pod_predicates.h"

namespace karpenter::sim {
namespace {

using testing::MakeDeployment;
using testing::NodeGroupInstance;
using testing::World;

const api::PodCondition* ConditionOf(const api::Pod& pod, std::string_view type) {
  for (const api::PodCondition& condition : pod.status.conditions) {
    if (condition.type == type) return &condition;
  }
  return nullptr;
}

std::vector<std::string> Names(const std::vector<api::Object>& objects) {
  std::vector<std::string> names;
  for (const api::Object& object : objects) names.push_back(KeyOf(object).name);
  return names;
}

TEST(TwinClusterReader, ANodeExistsFromRegistrationUntilItsInstanceGoes) {
  World world;
  TwinClusterReader reader(world.cluster);
  const std::string id = world.cluster.LaunchInstance(NodeGroupInstance("m6i.large"));
  world.queue.RunUntil(34999);
  EXPECT_TRUE(reader.List("Node").empty()) << "booting: no Node yet";
  world.queue.RunUntil(35000);
  const Instance& instance = world.cluster.instances().at(id);
  const std::string name = instance.node.metadata.name;
  ASSERT_EQ(Names(reader.List("Node")), std::vector<std::string>{name});
  const std::string provider_id = instance.node.spec.provider_id;
  ASSERT_TRUE(reader.NodeByProviderId(provider_id).has_value());
  EXPECT_EQ(reader.NodeByProviderId(provider_id)->metadata.name, name);
  EXPECT_FALSE(reader.NodeByProviderId("aws:///us-east-1b/" + id).has_value())
      << "another zone is another provider ID";
  world.cluster.TerminateInstance(id);
  EXPECT_FALSE(reader.Get(ObjectKey{"Node", "", name}).has_value());
  EXPECT_FALSE(reader.NodeByProviderId(provider_id).has_value());
  EXPECT_TRUE(reader.List("Node").empty());
}

TEST(TwinClusterReader, PodsCarryTheirSchedulingAndReadinessConditions) {
  World world;
  TwinClusterReader reader(world.cluster);
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("web", 2, "500m", "512Mi"), false).ok());
  world.cluster.LaunchInstance(NodeGroupInstance("m6i.xlarge"));
  world.queue.RunUntil(10000);
  std::vector<api::Object> pods = reader.List("Pod");
  ASSERT_EQ(pods.size(), 2u);
  const api::Pod& pending = std::get<api::Pod>(pods[0]);
  EXPECT_EQ(pending.status.phase, "Pending");
  const api::PodCondition* unscheduled = ConditionOf(pending, state::kPodConditionScheduled);
  ASSERT_NE(unscheduled, nullptr);
  EXPECT_EQ(unscheduled->status, "False");
  EXPECT_EQ(unscheduled->reason, state::kPodReasonUnschedulable);
  EXPECT_EQ(ConditionOf(pending, state::kPodConditionReady), nullptr);

  world.queue.RunUntil(60000);  // Ready at 50 s, bound 1 s later
  std::optional<api::Object> bound = reader.Get(ObjectKey{"Pod", "default", KeyOf(pods[0]).name});
  ASSERT_TRUE(bound.has_value());
  const api::Pod& running = std::get<api::Pod>(*bound);
  EXPECT_EQ(running.status.phase, "Running");
  for (std::string_view type : {state::kPodConditionScheduled, state::kPodConditionReady}) {
    const api::PodCondition* condition = ConditionOf(running, type);
    ASSERT_NE(condition, nullptr) << type;
    EXPECT_EQ(condition->status, "True") << type;
    EXPECT_EQ(condition->last_transition_time, world.queue.Now() - api::Duration::FromMillis(9000))
        << type << ": set as the pod bound, at 51 s";
  }
  EXPECT_EQ(reader.PodsOnNode(running.spec.node_name).size(), 2u);
  EXPECT_TRUE(reader.PodsOnNode("no-such-node").empty());
}

TEST(TwinClusterReader, ServesTheKarpenterObjectsAndComputesBudgetStatus) {
  World world;
  TwinClusterReader reader(world.cluster);
  ASSERT_TRUE(world.cluster.Apply(testing::MakeNodeClass(), true).ok());
  ASSERT_TRUE(world.cluster.Apply(testing::MakeNodePool({"m6i.large"}, {"on-demand"}), true).ok());
  api::NodeClaim claim;
  claim.metadata.name = "default-x1";
  claim.status.provider_id = "aws:///us-east-1a/i-0000000000000042";
  world.cluster.PutNodeClaim(claim);
  api::PodDisruptionBudget pdb;
  pdb.metadata.name = "web";
  pdb.metadata.namespace_ = "default";
  pdb.spec.selector = api::LabelSelector{.match_labels = {{"app", "web"}}};
  pdb.spec.min_available = api::IntOrString{.is_int = true, .int_value = 1};
  ASSERT_TRUE(world.cluster.Apply(pdb, true).ok());
  world.cluster.LaunchInstance(NodeGroupInstance("m6i.xlarge"), /*initial=*/true);
  ASSERT_TRUE(world.cluster.Apply(MakeDeployment("web", 2, "500m", "512Mi"), false).ok());
  world.queue.RunUntil(5000);

  EXPECT_EQ(Names(reader.List("NodePool")), std::vector<std::string>{"default"});
  EXPECT_EQ(Names(reader.List("EC2NodeClass")), std::vector<std::string>{"default"});
  EXPECT_TRUE(reader.Get(ObjectKey{"NodeClaim", "", "default-x1"}).has_value());
  ASSERT_TRUE(reader.NodeClaimByProviderId(claim.status.provider_id).has_value());
  EXPECT_EQ(reader.NodeClaimByProviderId(claim.status.provider_id)->metadata.name, "default-x1");
  EXPECT_FALSE(reader.NodeClaimByProviderId("").has_value());
  std::optional<api::Object> budget =
      reader.Get(ObjectKey{"PodDisruptionBudget", "default", "web"});
  ASSERT_TRUE(budget.has_value());
  const auto& status = std::get<api::PodDisruptionBudget>(*budget).status;
  EXPECT_EQ(status.expected_pods, 2);
  EXPECT_EQ(status.current_healthy, 2);
  EXPECT_EQ(status.disruptions_allowed, 1);
  EXPECT_TRUE(reader.List("VolumeAttachment").empty()) << "the twin has no volumes";
  EXPECT_TRUE(reader.Synced());
}

TEST(TwinClusterReader, WatchHandlersSeeEachChangedKeyOnceAfterItsEventAndAddNoEvents) {
  auto run = [](bool watch) {
    World world;
    TwinClusterReader reader(world.cluster);
    std::vector<std::string> seen;  // "kind name phase-or-presence"
    if (watch) {
      reader.Watch("Pod", [&](const ObjectKey& key) {
        std::optional<api::Object> pod = reader.Get(key);
        seen.push_back("Pod " + key.name + " " +
                       (pod ? std::get<api::Pod>(*pod).status.phase : std::string("gone")));
      });
      reader.Watch("Node", [&](const ObjectKey& key) {
        seen.push_back("Node " + key.name + (reader.Get(key) ? " present" : " gone"));
      });
    }
    const std::string id = world.cluster.LaunchInstance(NodeGroupInstance("m6i.xlarge"));
    EXPECT_TRUE(world.cluster.Apply(MakeDeployment("web", 1, "500m", "512Mi"), false).ok());
    world.queue.RunUntil(60000);
    world.queue.At(70000, [&] { world.cluster.TerminateInstance(id); });
    world.queue.RunUntil(70000);
    return std::pair(world.queue.executed(), seen);
  };
  const auto [unwatched_events, nothing] = run(false);
  EXPECT_TRUE(nothing.empty());
  const auto [watched_events, seen] = run(true);
  EXPECT_EQ(watched_events, unwatched_events);
  ASSERT_GE(seen.size(), 5u);
  // Created pending (before the run: delivered as it starts), marked unschedulable, bound: each
  // read complete.
  EXPECT_EQ(seen[0].substr(0, 4), "Pod ");
  EXPECT_NE(seen[0].find("Pending"), std::string::npos) << seen[0];
  size_t node_registered = 0;
  size_t pod_running = 0;
  for (const std::string& line : seen) {
    node_registered += line.starts_with("Node ") && line.ends_with(" present");
    pod_running += line.starts_with("Pod ") && line.ends_with(" Running");
  }
  EXPECT_EQ(node_registered, 2u) << "registered, then Ready";
  EXPECT_EQ(pod_running, 1u);
  // The termination deletes the pod and the Node in one event: each announced once, gone.
  EXPECT_TRUE(seen[seen.size() - 2].ends_with(" gone")) << seen[seen.size() - 2];
  EXPECT_TRUE(seen.back().ends_with(" gone")) << seen.back();
}

}  // namespace
}  // namespace karpenter::sim
