// The Simulator works in the caller's scheduler input for every simulation: each must see the
// cluster as it is, whatever was simulated before on the same Simulator, and the caller must get
// its input back as it built it.
#include "src/disruption/simulation.h"

#include <memory>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/disruption/disruption_test_util.h"

namespace karpenter::disruption {
namespace {

using namespace ::karpenter::disruption::testing;  // NOLINT: test fixtures
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::Pair;

api::Time Now() { return *api::Time::ParseRfc3339("2026-12-02T00:00:00Z"); }

struct Cluster {
  state::ClusterSnapshot snapshot;
  provisioning::SnapshotSchedulerInput input;
  CandidateSet candidates;

  const Candidate* Find(const std::string& name) const {
    for (const Candidate& candidate : candidates.candidates) {
      if (candidate.name() == name) return &candidate;
    }
    return nullptr;
  }
};

// The snapshot with its scheduler input and disruption candidates at Now().
std::unique_ptr<Cluster> ClusterFrom(absl::StatusOr<state::ClusterSnapshot> snapshot) {
  EXPECT_TRUE(snapshot.ok()) << snapshot.status();
  auto cluster = std::make_unique<Cluster>(Cluster{*std::move(snapshot), {}, {}});
  provisioning::CatalogCache catalogs;
  cluster->input = *provisioning::BuildSchedulerInput(cluster->snapshot, {.now = Now()}, catalogs);
  cluster->candidates =
      BuildCandidates(cluster->snapshot, IndexInstanceTypes(cluster->input.input), Now());
  return cluster;
}

// n1, n2 and n3 with one 1-cpu pod each: a moved pod fits on any other node, and the scheduler
// tries existing nodes by name.
std::unique_ptr<Cluster> ThreeNodes() {
  absl::StatusOr<state::ClusterSnapshot> snapshot = state::testing_util::SnapshotFromYaml(
      Join({kNodeClass, NodePoolYaml("default", "{consolidateAfter: 0s}"), NodeYaml({.name = "n1"}),
            NodeYaml({.name = "n2"}), NodeYaml({.name = "n3"}),
            PodYaml({.name = "a", .node = "n1", .cpu = "1"}),
            PodYaml({.name = "b", .node = "n2", .cpu = "1"}),
            PodYaml({.name = "c", .node = "n3", .cpu = "1"})}));
  return ClusterFrom(std::move(snapshot));
}

SimulationResult SimulateOne(const Simulator& simulator, const Candidate* candidate) {
  return simulator.Simulate(std::span(&candidate, 1), {.consolidation = true, .now = Now()});
}

TEST(Simulator, ARemovedCandidateComesBackForTheNextSimulation) {
  std::unique_ptr<Cluster> cluster = ThreeNodes();
  const Candidate* n1 = cluster->Find("n1");
  const Candidate* n2 = cluster->Find("n2");
  ASSERT_NE(n1, nullptr);
  ASSERT_NE(n2, nullptr);
  const Simulator simulator(cluster->snapshot, cluster->input);

  const SimulationResult first = SimulateOne(simulator, n1);
  EXPECT_THAT(first.failures, IsEmpty());
  EXPECT_THAT(first.destinations, ElementsAre(Pair("default/a", "n2")));
  // n1 is back: b moves to it, as a fresh Simulator would decide.
  const SimulationResult second = SimulateOne(simulator, n2);
  EXPECT_THAT(second.destinations, ElementsAre(Pair("default/b", "n1")));
  EXPECT_EQ(second.destinations,
            SimulateOne(Simulator(cluster->snapshot, cluster->input), n2).destinations);
  // a is no longer pending from the first simulation, nor b from the second.
  const SimulationResult again = SimulateOne(simulator, n1);
  EXPECT_EQ(again.destinations, first.destinations);
  EXPECT_THAT(again.new_node_claims, IsEmpty());
}

TEST(Simulator, TwoCandidatesLeaveOnlyTheThirdNode) {
  std::unique_ptr<Cluster> cluster = ThreeNodes();
  const Candidate* both[] = {cluster->Find("n1"), cluster->Find("n2")};
  const Simulator simulator(cluster->snapshot, cluster->input);
  const SimulationResult result = simulator.Simulate(both, {.consolidation = true, .now = Now()});
  EXPECT_THAT(result.failures, IsEmpty());
  EXPECT_THAT(result.destinations, ElementsAre(Pair("default/a", "n3"), Pair("default/b", "n3")));
}

TEST(Simulator, ACandidateSimulatedAloneMovesAllItsPodsAgainWithAnother) {
  std::unique_ptr<Cluster> cluster = ThreeNodes();
  const Candidate* both[] = {cluster->Find("n1"), cluster->Find("n2")};
  const Simulator simulator(cluster->snapshot, cluster->input);
  SimulateOne(simulator, both[0]);
  SimulateOne(simulator, both[1]);
  const SimulationResult result = simulator.Simulate(both, {.consolidation = true, .now = Now()});
  EXPECT_THAT(result.failures, IsEmpty());
  EXPECT_THAT(result.destinations, ElementsAre(Pair("default/a", "n3"), Pair("default/b", "n3")));
  EXPECT_THAT(SimulateOne(simulator, both[0]).destinations, ElementsAre(Pair("default/a", "n2")));
}

// Only m5.xlarge, reserved or on-demand.
constexpr char kOneTypePool[] = R"(apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: default}
spec:
  disruption: {consolidateAfter: 0s}
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
      requirements:
      - {key: node.kubernetes.io/instance-type, operator: In, values: [m5.xlarge]}
      - {key: karpenter.sh/capacity-type, operator: In, values: [reserved, on-demand]}
)";

// The class reserves one m5.xlarge in us-east-1a; n1 and n2 each run a pod that needs an
// m5.xlarge of its own.
std::unique_ptr<Cluster> TwoNodesAndAReservation() {
  const std::string node_class = std::string(kNodeClass) + R"(status:
  capacityReservations:
  - {availabilityZone: us-east-1a, id: cr-0123, instanceMatchCriteria: targeted,
     instanceType: m5.xlarge, ownerID: '012345678901', availableInstanceCount: 1}
)";
  absl::StatusOr<state::ClusterSnapshot> snapshot = state::testing_util::SnapshotFromYaml(
      Join({node_class, kOneTypePool, NodeYaml({.name = "n1"}), NodeYaml({.name = "n2"}),
            PodYaml({.name = "a", .node = "n1", .cpu = "3"}),
            PodYaml({.name = "b", .node = "n2", .cpu = "3"})}));
  return ClusterFrom(std::move(snapshot));
}

TEST(Simulator, FallsBackFromAHeldReservationWhereProvisioningWouldWait) {
  std::unique_ptr<Cluster> cluster = TwoNodesAndAReservation();
  const Candidate* both[] = {cluster->Find("n1"), cluster->Find("n2")};
  ASSERT_NE(both[0], nullptr);
  ASSERT_NE(both[1], nullptr);
  ASSERT_EQ(cluster->input.input.options.reserved_offering_mode,
            provisioning::ReservedOfferingMode::kStrict);
  const SimulationResult result = Simulator(cluster->snapshot, cluster->input)
                                      .Simulate(both, {.consolidation = true, .now = Now()});
  EXPECT_THAT(result.failures, IsEmpty());
  ASSERT_EQ(result.new_node_claims.size(), 2u);
  EXPECT_EQ(result.new_node_claims[0].launch.capacity_type, "reserved");
  EXPECT_EQ(result.new_node_claims[0].launch.reservation_id, "cr-0123");
  // The reservation has one instance: the other replacement launches on-demand.
  EXPECT_EQ(result.new_node_claims[1].launch.capacity_type, "on-demand");
}

// A consolidation predicts the launch itself after cutting the types: the simulation then only
// checks that the claim could launch, and decides the same claims and destinations.
TEST(Simulator, LeavesTheLaunchToTheCallerWhenAskedTo) {
  std::unique_ptr<Cluster> cluster = TwoNodesAndAReservation();
  const Candidate* n1 = cluster->Find("n1");
  ASSERT_NE(n1, nullptr);
  const Simulator simulator(cluster->snapshot, cluster->input);
  const SimulationResult predicted = SimulateOne(simulator, n1);
  const SimulationResult unpredicted = simulator.Simulate(
      std::span(&n1, 1), {.consolidation = true, .now = Now(), .predict_launches = false});
  ASSERT_EQ(predicted.new_node_claims.size(), 1u);
  ASSERT_EQ(unpredicted.new_node_claims.size(), 1u);
  EXPECT_EQ(predicted.new_node_claims[0].launch.instance_type, "m5.xlarge");
  EXPECT_EQ(unpredicted.new_node_claims[0].launch.instance_type, "");
  EXPECT_EQ(unpredicted.new_node_claims[0].claim.instance_types,
            predicted.new_node_claims[0].claim.instance_types);
  EXPECT_EQ(unpredicted.destinations, predicted.destinations);
  EXPECT_THAT(unpredicted.failures, IsEmpty());
}

// Simulations remove nodes, add pending and moving pods and switch to fallback mode in the
// caller's input; each puts all of it back, so the input the poll built is unchanged after.
TEST(Simulator, PutsTheCallersInputBackAfterEachSimulation) {
  std::unique_ptr<Cluster> cluster = TwoNodesAndAReservation();
  const Candidate* both[] = {cluster->Find("n1"), cluster->Find("n2")};
  ASSERT_NE(both[0], nullptr);
  ASSERT_NE(both[1], nullptr);
  const provisioning::SchedulerInput& input = cluster->input.input;
  const size_t pending = input.pending_pods.size();
  const Simulator simulator(cluster->snapshot, cluster->input);
  ASSERT_EQ(simulator.Simulate(both, {.consolidation = true, .now = Now()}).new_node_claims.size(),
            2u);
  EXPECT_THAT(input.removed_nodes, IsEmpty());
  EXPECT_THAT(input.moving_pods, IsEmpty());
  EXPECT_EQ(input.pending_pods.size(), pending);
  EXPECT_EQ(input.options.reserved_offering_mode, provisioning::ReservedOfferingMode::kStrict);
  ASSERT_EQ(SimulateOne(simulator, both[0]).new_node_claims.size(), 1u);
  EXPECT_THAT(input.removed_nodes, IsEmpty());
  EXPECT_EQ(input.pending_pods.size(), pending);
}

}  // namespace
}  // namespace karpenter::disruption
