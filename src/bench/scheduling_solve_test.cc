#include "src/bench/scheduling_solve.h"

#include "gtest/gtest.h"
#include "src/api/quantity.h"
#include "src/bench/benchmark_pods.h"
#include "src/bench/lower_bound.h"
#include "src/provisioning/scheduler.h"

namespace karpenter::bench {
namespace {

using provisioning::NewNodeClaim;
using provisioning::OfferingView;

provisioning::InstanceTypeView TypeWithOfferings(std::vector<OfferingView> offerings) {
  provisioning::InstanceTypeView type;
  type.name = "t";
  type.offerings = std::move(offerings);
  return type;
}

// The claim points at `type`, which must outlive it.
NewNodeClaim ClaimFor(const provisioning::InstanceTypeView& type) {
  NewNodeClaim claim;
  claim.instance_types = {type.name};
  claim.instance_type_options = {&type};
  return claim;
}

TEST(BenchNodePool, LiftsLimitsAndHasNoRequirementsOrTaints) {
  const api::NodePool pool = BenchNodePool();
  EXPECT_EQ(pool.metadata.name, kBenchNodePoolName);
  EXPECT_EQ(pool.spec.limits.at("cpu"), *api::Quantity::Parse("10000000"));
  EXPECT_EQ(pool.spec.limits.at("memory"), *api::Quantity::Parse("10000000Gi"));
  const api::NodePool large = BenchNodePool(100'000);
  EXPECT_EQ(large.spec.limits.at("cpu"), *api::Quantity::Parse("50000000"));
  EXPECT_EQ(large.spec.limits.at("memory"), *api::Quantity::Parse("50000000Gi"));
  EXPECT_EQ(BenchNodePool(20'000).spec.limits.at("cpu"), *api::Quantity::Parse("10000000"));
  EXPECT_TRUE(pool.spec.template_.spec.requirements.empty());
  EXPECT_TRUE(pool.spec.template_.spec.taints.empty());
}

TEST(ToInstanceTypeView, CopiesShapeAndOfferings) {
  const FakeInstanceType type = FakeInstanceTypes(3)[2];
  const provisioning::InstanceTypeView view = ToInstanceTypeView(type);
  EXPECT_EQ(view.name, "fake-it-2");
  EXPECT_EQ(view.requirements, type.requirements);
  EXPECT_EQ(view.allocatable, type.allocatable);
  EXPECT_EQ(view.capacity, type.capacity);
  ASSERT_EQ(view.offerings.size(), 5u);
  EXPECT_EQ(view.offerings[4].zone, kFakeZone3);
  EXPECT_EQ(view.offerings[4].capacity_type, "on-demand");
  EXPECT_DOUBLE_EQ(view.offerings[4].price, type.offerings[4].price);
}

// What `--catalog fake400` plans with is what a file holding fake400 would give.
TEST(Fake400CatalogFile, RoundTripsThroughTheFileFormat) {
  const provisioning::InstanceTypeFile fake = Fake400CatalogFile();
  EXPECT_EQ(fake.well_known_labels, (std::vector<std::string>{"size", "special", "integer"}));
  absl::StatusOr<provisioning::InstanceTypeFile> parsed =
      provisioning::ParseInstanceTypeFile(provisioning::EncodeInstanceTypeFile(fake));
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->well_known_labels, fake.well_known_labels);
  ASSERT_EQ(parsed->instance_types.size(), 400u);
  const std::vector<FakeInstanceType> types = FakeCatalog400();
  for (size_t i = 0; i < types.size(); ++i) {
    const FakeInstanceType& want = types[i];
    const provisioning::InstanceTypeView& got = parsed->instance_types[i];
    EXPECT_EQ(got.name, want.name);
    EXPECT_EQ(got.requirements.ToString(), want.requirements.ToString()) << want.name;
    ASSERT_EQ(got.offerings.size(), want.offerings.size()) << want.name;
    for (size_t j = 0; j < want.offerings.size(); ++j) {
      EXPECT_EQ(got.offerings[j].zone, want.offerings[j].zone);
      EXPECT_EQ(got.offerings[j].capacity_type, want.offerings[j].capacity_type);
      EXPECT_EQ(got.offerings[j].price, want.offerings[j].price);
      EXPECT_EQ(got.offerings[j].available, want.offerings[j].available);
    }
    for (const char* resource : {"cpu", "memory", "pods"}) {
      EXPECT_EQ(got.capacity.at(resource).Nanos(), want.capacity.at(resource).Nanos());
      EXPECT_EQ(got.allocatable.at(resource).Nanos(), want.allocatable.at(resource).Nanos());
    }
  }
}

TEST(BenchSchedulerInput, OnePoolWithTheWholeCatalogAndThePods) {
  const std::vector<FakeInstanceType> catalog = FakeCatalog400();
  const provisioning::SchedulerInput input =
      BenchSchedulerInput(catalog, MakeDiversePods(20), provisioning::PreferencePolicy::kIgnore);
  ASSERT_EQ(input.node_pools.size(), 1u);
  EXPECT_EQ(input.node_pools[0].instance_types.size(), 400u);
  EXPECT_EQ(input.pending_pods.size(), 20u);
  EXPECT_TRUE(input.existing_nodes.empty());
  EXPECT_TRUE(input.daemonset_pods.empty());
  EXPECT_EQ(input.options.preference_policy, provisioning::PreferencePolicy::kIgnore);
}

TEST(NodeClaimPrice, CheapestOfferingTheClaimAllows) {
  const provisioning::InstanceTypeView type = TypeWithOfferings({{"z1", "spot", 1.0, true},
                                                                 {"z2", "spot", 0.5, false},
                                                                 {"z2", "on-demand", 2.0, true},
                                                                 {"z3", "on-demand", 1.5, true}});
  NewNodeClaim claim = ClaimFor(type);
  EXPECT_DOUBLE_EQ(NodeClaimPrice(claim), 1.0);
  claim.capacity_types = {"on-demand"};
  EXPECT_DOUBLE_EQ(NodeClaimPrice(claim), 1.5);
  claim.zones = {"z2"};
  EXPECT_DOUBLE_EQ(NodeClaimPrice(claim), 2.0);
  claim.zones = {"z9"};
  EXPECT_DOUBLE_EQ(NodeClaimPrice(claim), 0);
  EXPECT_DOUBLE_EQ(NodeClaimPrice(NewNodeClaim{}), 0);
}

TEST(Summarise, CountsClaimsPodsAndPrice) {
  provisioning::SchedulerResult result;
  const provisioning::InstanceTypeView type_a = TypeWithOfferings({{"z1", "spot", 1.25, true}});
  const provisioning::InstanceTypeView type_b = TypeWithOfferings({{"z1", "spot", 0.5, true}});
  NewNodeClaim a = ClaimFor(type_a);
  a.pods = {"default/p1", "default/p2"};
  NewNodeClaim b = ClaimFor(type_b);
  b.pods = {"default/p3"};
  result.new_node_claims = {a, b};
  result.unschedulable = {{"default/p4", "no fit"}};
  const SolveOutcome outcome = Summarise(result, 0.25);
  EXPECT_EQ(outcome.nodes, 2);
  EXPECT_EQ(outcome.pods_scheduled, 3);
  EXPECT_EQ(outcome.unschedulable, 1);
  EXPECT_DOUBLE_EQ(outcome.price_per_hour, 1.75);
  EXPECT_DOUBLE_EQ(outcome.seconds, 0.25);
}

TEST(DecisionDigest, EqualForEqualResultsAndChangesWithAnyPlacement) {
  const provisioning::InstanceTypeView type = TypeWithOfferings({{"z1", "spot", 1, true}});
  provisioning::SchedulerResult result;
  NewNodeClaim a = ClaimFor(type);
  a.pods = {"default/p1", "default/p2"};
  NewNodeClaim b = ClaimFor(type);
  b.pods = {"default/p3"};
  result.new_node_claims = {a, b};
  const std::string digest = DecisionDigest(result);
  EXPECT_EQ(digest.size(), 16u);
  EXPECT_EQ(DecisionDigest(result), digest);
  EXPECT_EQ(Summarise(result, 1).decision_digest, digest);

  provisioning::SchedulerResult moved = result;
  moved.new_node_claims[0].pods = {"default/p1"};
  moved.new_node_claims[1].pods = {"default/p2", "default/p3"};
  EXPECT_NE(DecisionDigest(moved), digest);
  provisioning::SchedulerResult reordered = result;
  reordered.new_node_claims[0].pods = {"default/p2", "default/p1"};
  EXPECT_NE(DecisionDigest(reordered), digest);
  provisioning::SchedulerResult failed = result;
  failed.unschedulable = {{"default/p4", "no fit"}};
  EXPECT_NE(DecisionDigest(failed), digest);
}

TEST(BenchSolve, EveryDiversePodIsPlacedOrReported) {
  const std::vector<api::Pod> pods = MakeDiversePods(50);
  const provisioning::SchedulerInput input =
      BenchSchedulerInput(FakeCatalog400(), pods, provisioning::PreferencePolicy::kRespect);
  const provisioning::SchedulerResult result = provisioning::Solve(input);
  const SolveOutcome outcome = Summarise(result, 0);
  EXPECT_EQ(outcome.pods_scheduled + outcome.unschedulable, 50);
  EXPECT_GE(outcome.nodes, 1);
}

TEST(BenchSolve, DiversePodsAllScheduleWithTheirTopologyConstraints) {
  // Spread, affinity and hostname anti-affinity pods included: one node per anti-affinity pod
  // at least.
  const std::vector<api::Pod> pods = MakeDiversePods(50);
  const provisioning::SchedulerInput input =
      BenchSchedulerInput(FakeCatalog400(), pods, provisioning::PreferencePolicy::kRespect);
  const provisioning::SchedulerResult result = provisioning::Solve(input);
  EXPECT_TRUE(result.unschedulable.empty());
  EXPECT_GE(Summarise(result, 0).nodes, AntiAffinityNodeFloor(pods));
}

TEST(BenchSolve, UnconstrainedDiversePodsAllScheduleAboveTheFluidBound) {
  // The diverse mix's generic group: requests only, no affinity or spread.
  std::vector<api::Pod> pods;
  for (api::Pod& pod : MakeDiversePods(50)) {
    if (!pod.spec.affinity && pod.spec.topology_spread_constraints.empty()) {
      pods.push_back(std::move(pod));
    }
  }
  ASSERT_EQ(pods.size(), 10u);
  const std::vector<FakeInstanceType> catalog = FakeCatalog400();
  const provisioning::SchedulerInput input =
      BenchSchedulerInput(catalog, pods, provisioning::PreferencePolicy::kRespect);
  const provisioning::SchedulerResult result = provisioning::Solve(input);
  const SolveOutcome outcome = Summarise(result, 0);
  EXPECT_TRUE(result.unschedulable.empty());
  EXPECT_EQ(outcome.pods_scheduled, 10);
  absl::StatusOr<double> bound = FluidLowerBound(pods, catalog);
  ASSERT_TRUE(bound.ok());
  EXPECT_GT(outcome.price_per_hour, 0);
  EXPECT_GE(outcome.price_per_hour, *bound);
}

TEST(BenchSolve, PreferencePodsScheduleUnderBothPolicies) {
  const std::vector<FakeInstanceType> catalog = FakeCatalog400();
  for (provisioning::PreferencePolicy policy :
       {provisioning::PreferencePolicy::kRespect, provisioning::PreferencePolicy::kIgnore}) {
    const provisioning::SchedulerInput input =
        BenchSchedulerInput(catalog, MakePreferencePods(40), policy);
    const provisioning::SchedulerResult result = provisioning::Solve(input);
    EXPECT_TRUE(result.unschedulable.empty());
    EXPECT_EQ(Summarise(result, 0).pods_scheduled, 40);
  }
}

TEST(BenchSolve, PreferencePodsNeedUpstreamsNodeCounts) {
  // Upstream's 4,000 pods of 100m / 4Gi take 4,000 nodes under Respect (the hostname preference
  // holds, one pod per node) and 21 under Ignore (199 pods fill the largest type's memory,
  // 800Gi less 10Mi reserved). The same arithmetic at 400 pods: 400 and 3.
  const std::vector<FakeInstanceType> catalog = FakeCatalog400();
  const provisioning::SchedulerInput respect = BenchSchedulerInput(
      catalog, MakePreferencePods(400), provisioning::PreferencePolicy::kRespect);
  const provisioning::SchedulerInput ignore = BenchSchedulerInput(
      catalog, MakePreferencePods(400), provisioning::PreferencePolicy::kIgnore);
  const SolveOutcome respected = Summarise(provisioning::Solve(respect), 0);
  const SolveOutcome ignored = Summarise(provisioning::Solve(ignore), 0);
  EXPECT_EQ(respected.unschedulable, 0);
  EXPECT_EQ(respected.nodes, 400);
  EXPECT_EQ(ignored.unschedulable, 0);
  EXPECT_EQ(ignored.nodes, 3);
}

}  // namespace
}  // namespace karpenter::bench
