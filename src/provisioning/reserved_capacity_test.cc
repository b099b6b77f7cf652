// Reserved capacity in the scheduler (P17): the ReservationManager's counting, claims holding
// and releasing reservations, strict mode (no fallback to on-demand or lower-weight pools while
// compatible reservations exist) and finalisation narrowing a claim to its reservations.
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/provisioning/reservation_manager.h"
#include "src/provisioning/scheduler.h"
#include "src/provisioning/scheduler_test_util.h"

namespace karpenter::provisioning {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using namespace ::karpenter::provisioning::testing;  // NOLINT: test fixtures

constexpr char kReservationId[] = "karpenter.k8s.aws/capacity-reservation-id";

OfferingView Reserved(const std::string& id, const char* zone, int64_t capacity,
                      double price = 0.0000001) {
  return OfferingView{.zone = zone,
                      .capacity_type = "reserved",
                      .price = price,
                      .available = capacity > 0,
                      .reservation_id = id,
                      .reservation_type = "default",
                      .reservation_capacity = capacity};
}

// The catalog with a reservation of m.large: capacity-type then also allows reserved.
std::vector<InstanceTypeView> CatalogWithReservation(const OfferingView& offering) {
  std::vector<InstanceTypeView> types = Catalog();
  for (InstanceTypeView& type : types) {
    if (type.name != "m.large") continue;
    type.offerings.push_back(offering);
    type.requirements.Add(scheduling::Requirement::In("karpenter.sh/capacity-type",
                                                      {"spot", "on-demand", "reserved"}));
  }
  return types;
}

// Pods of 1.5 cpu: one per m.large (2 cpu), so every pod needs its own node.
std::vector<api::Pod> BigPods(int count) {
  std::vector<api::Pod> pods;
  for (int i = 0; i < count; ++i) pods.push_back(MakePod("p" + std::to_string(i), "1500m", "1Gi"));
  return pods;
}

// A pool of the 2-cpu amd64 types (m.large, c.large), so every BigPods pod needs its own node.
std::vector<NodePoolInstanceTypes> PoolWith(const OfferingView& offering) {
  api::NodePool pool = MakeNodePool("default");
  AddRequirement(pool, "node.kubernetes.io/instance-type", "In", {"m.large", "c.large"});
  return {{pool, CatalogWithReservation(offering)}};
}

TEST(ReservationManager, CountsTheSmallestCapacityAcrossPools) {
  std::vector<NodePoolInstanceTypes> pools = PoolWith(Reserved("cr-1", kZoneA, 3));
  pools.push_back({MakeNodePool("other"), CatalogWithReservation(Reserved("cr-1", kZoneA, 2))});
  const ReservationManager manager(pools);
  EXPECT_EQ(manager.RemainingCapacity("cr-1"), 2);
  EXPECT_EQ(manager.RemainingCapacity("cr-unknown"), 0);
  EXPECT_FALSE(manager.CanReserve("host", "cr-unknown"));
  EXPECT_FALSE(manager.empty());
  const std::vector<NodePoolInstanceTypes> plain = {{MakeNodePool("plain"), Catalog()}};
  EXPECT_TRUE(ReservationManager(plain).empty());
}

TEST(ReservationManager, ReservingIsIdempotentPerHostnameAndReleaseGivesBack) {
  const std::vector<NodePoolInstanceTypes> pools = PoolWith(Reserved("cr-1", kZoneA, 1));
  ReservationManager manager(pools);
  const std::vector<std::string> ids = {"cr-1"};
  ASSERT_TRUE(manager.CanReserve("a", "cr-1"));
  manager.Reserve("a", ids);
  manager.Reserve("a", ids);
  EXPECT_EQ(manager.RemainingCapacity("cr-1"), 0);
  EXPECT_TRUE(manager.HasReservation("a", "cr-1"));
  EXPECT_TRUE(manager.CanReserve("a", "cr-1"));  // Already held.
  EXPECT_FALSE(manager.CanReserve("b", "cr-1"));
  manager.Reserve("b", ids);  // Nothing left: no over-reservation.
  EXPECT_FALSE(manager.HasReservation("b", "cr-1"));
  EXPECT_EQ(manager.RemainingCapacity("cr-1"), 0);
  manager.Release("b", "cr-1");  // Holds nothing: no-op.
  EXPECT_EQ(manager.RemainingCapacity("cr-1"), 0);
  manager.Release("a", "cr-1");
  EXPECT_EQ(manager.RemainingCapacity("cr-1"), 1);
  EXPECT_TRUE(manager.CanReserve("b", "cr-1"));
}

TEST(ReservedCapacity, ClaimOnAReservationIsNarrowedToIt) {
  SchedulerInput input;
  input.node_pools = PoolWith(Reserved("cr-1", kZoneA, 1));
  input.pending_pods = BigPods(1);
  const SchedulerResult result = Solve(input);
  ASSERT_EQ(result.new_node_claims.size(), 1u);
  const NewNodeClaim& claim = result.new_node_claims[0];
  EXPECT_THAT(claim.capacity_types, ElementsAre("reserved"));
  EXPECT_THAT(claim.zones, ElementsAre(kZoneA));
  EXPECT_THAT(claim.requirements.Get(kReservationId).Values(), ElementsAre("cr-1"));
  EXPECT_THAT(claim.requirements.Get("karpenter.sh/capacity-type").Values(),
              ElementsAre("reserved"));
  EXPECT_EQ(claim.instance_types.vector().front(), "m.large");
}

TEST(ReservedCapacity, StrictModeDefersPodsOnceTheReservationIsHeld) {
  SchedulerInput input;
  input.node_pools = PoolWith(Reserved("cr-1", kZoneA, 2));
  input.pending_pods = BigPods(3);
  const SchedulerResult result = Solve(input);
  ASSERT_EQ(result.new_node_claims.size(), 2u);
  for (const NewNodeClaim& claim : result.new_node_claims) {
    EXPECT_THAT(claim.capacity_types, ElementsAre("reserved"));
  }
  ASSERT_EQ(result.unschedulable.size(), 1u);
  EXPECT_THAT(result.unschedulable.begin()->second, HasSubstr("could not be reserved"));
}

TEST(ReservedCapacity, FallbackModeLaunchesOnDemandOnceTheReservationIsHeld) {
  SchedulerInput input;
  input.node_pools = PoolWith(Reserved("cr-1", kZoneA, 1));
  input.pending_pods = BigPods(2);
  input.options.reserved_offering_mode = ReservedOfferingMode::kFallback;
  const SchedulerResult result = Solve(input);
  ASSERT_EQ(result.new_node_claims.size(), 2u);
  EXPECT_THAT(result.unschedulable, IsEmpty());
  EXPECT_THAT(result.new_node_claims[0].capacity_types, ElementsAre("reserved"));
  // The reservation is the first claim's: the second is kept off it.
  EXPECT_THAT(result.new_node_claims[1].capacity_types, ElementsAre("on-demand", "spot"));
  EXPECT_EQ(result.new_node_claims[1].requirements.Get(kReservationId).Operator(),
            scheduling::NodeSelectorOperator::kDoesNotExist);
}

TEST(ReservedCapacity, NoFallbackToALowerWeightPoolWhileReservationsAreCompatible) {
  SchedulerInput input;
  input.node_pools = PoolWith(Reserved("cr-1", kZoneA, 1));
  input.node_pools[0].node_pool.spec.weight = 10;
  input.node_pools.push_back({MakeNodePool("fallback", 1), Catalog()});
  input.pending_pods = BigPods(2);
  const SchedulerResult result = Solve(input);
  ASSERT_EQ(result.new_node_claims.size(), 1u);
  EXPECT_EQ(result.new_node_claims[0].node_pool, "default");
  ASSERT_EQ(result.unschedulable.size(), 1u);
  EXPECT_THAT(result.unschedulable.begin()->second, HasSubstr("could not be reserved"));
  EXPECT_THAT(result.unschedulable.begin()->second, Not(HasSubstr("fallback")));
}

TEST(ReservedCapacity, PoolThatExcludesReservedIgnoresReservations) {
  SchedulerInput input;
  input.node_pools = PoolWith(Reserved("cr-1", kZoneA, 1));
  AddRequirement(input.node_pools[0].node_pool, "karpenter.sh/capacity-type", "In", {"on-demand"});
  input.pending_pods = BigPods(2);
  const SchedulerResult result = Solve(input);
  ASSERT_EQ(result.new_node_claims.size(), 2u);
  EXPECT_THAT(result.unschedulable, IsEmpty());
  for (const NewNodeClaim& claim : result.new_node_claims) {
    EXPECT_THAT(claim.capacity_types, ElementsAre("on-demand"));
  }
}

TEST(ReservedCapacity, PoolsSharingAReservationShareItsCount) {
  SchedulerInput input;
  input.node_pools = PoolWith(Reserved("cr-1", kZoneA, 1));
  input.node_pools.push_back(
      {MakeNodePool("second"), CatalogWithReservation(Reserved("cr-1", kZoneA, 1))});
  std::vector<api::Pod> pods = BigPods(2);
  pods[0].spec.node_selector["karpenter.sh/nodepool"] = "default";
  pods[1].spec.node_selector["karpenter.sh/nodepool"] = "second";
  input.pending_pods = pods;
  const SchedulerResult result = Solve(input);
  ASSERT_EQ(result.new_node_claims.size(), 1u);
  ASSERT_EQ(result.unschedulable.size(), 1u);
  EXPECT_THAT(result.unschedulable.begin()->second, HasSubstr("could not be reserved"));
}

// p0 opens a claim that holds cr-1 (zone A); p1 fits beside it but needs zone B; host ports keep
// p2 off every claim p0 or p1 is on.
SchedulerInput ZoneMoveInput() {
  SchedulerInput input;
  input.node_pools = PoolWith(Reserved("cr-1", kZoneA, 1));
  api::Pod p0 = MakePod("p0", "1", "1Gi");
  api::Pod p1 = MakePod("p1", "500m", "1Gi");
  p1.spec.node_selector["topology.kubernetes.io/zone"] = kZoneB;
  api::Pod p2 = MakePod("p2", "400m", "1Gi");
  AddHostPort(p0, 8080);
  AddHostPort(p1, 9090);
  AddHostPort(p2, 8080);
  AddHostPort(p2, 9090);
  input.pending_pods = {p0, p1, p2};
  return input;
}

TEST(ReservedCapacity, StrictModeKeepsAPodOffAClaimItWouldCostItsReservations) {
  const SchedulerInput input = ZoneMoveInput();
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.unschedulable,
              ElementsAre(::testing::Pair("default/p2", HasSubstr("could not be reserved"))));
  ASSERT_EQ(result.new_node_claims.size(), 2u);
  EXPECT_THAT(result.new_node_claims[0].pods, ElementsAre("default/p0"));
  EXPECT_THAT(result.new_node_claims[0].capacity_types, ElementsAre("reserved"));
  EXPECT_THAT(result.new_node_claims[1].pods, ElementsAre("default/p1"));
  EXPECT_THAT(result.new_node_claims[1].zones, ElementsAre(kZoneB));
}

TEST(ReservedCapacity, AClaimReleasesReservationsItCanNoLongerUse) {
  SchedulerInput input = ZoneMoveInput();
  input.options.reserved_offering_mode = ReservedOfferingMode::kFallback;
  const SchedulerResult result = Solve(input);
  EXPECT_THAT(result.unschedulable, IsEmpty());
  ASSERT_EQ(result.new_node_claims.size(), 2u);
  // p1 moved the first claim to zone B, which gave cr-1 back for p2's claim.
  EXPECT_THAT(result.new_node_claims[0].pods, ElementsAre("default/p0", "default/p1"));
  EXPECT_THAT(result.new_node_claims[0].capacity_types, Not(::testing::Contains("reserved")));
  EXPECT_THAT(result.new_node_claims[1].pods, ElementsAre("default/p2"));
  EXPECT_THAT(result.new_node_claims[1].requirements.Get(kReservationId).Values(),
              ElementsAre("cr-1"));
}

TEST(ReservedCapacity, ExhaustedReservationOffersNothing) {
  SchedulerInput input;
  input.node_pools = PoolWith(Reserved("cr-1", kZoneA, 0));
  input.pending_pods = BigPods(1);
  const SchedulerResult result = Solve(input);
  ASSERT_EQ(result.new_node_claims.size(), 1u);
  EXPECT_THAT(result.unschedulable, IsEmpty());
  EXPECT_THAT(result.new_node_claims[0].capacity_types, ElementsAre("on-demand", "spot"));
}

TEST(ReservedCapacity, PodSelectingAReservationLandsOnlyOnIt) {
  SchedulerInput input;
  input.node_pools = PoolWith(Reserved("cr-1", kZoneA, 5));
  std::vector<api::Pod> pods = BigPods(1);
  pods[0].spec.node_selector[kReservationId] = "cr-1";
  input.pending_pods = pods;
  const SchedulerResult result = Solve(input);
  ASSERT_EQ(result.new_node_claims.size(), 1u);
  EXPECT_THAT(result.new_node_claims[0].instance_types.vector(), ElementsAre("m.large"));
  EXPECT_THAT(result.new_node_claims[0].capacity_types, ElementsAre("reserved"));
}

}  // namespace
}  // namespace karpenter::provisioning
