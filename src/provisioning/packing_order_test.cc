#include "src/provisioning/packing_order.h"

#include <map>
#include <span>
#include <vector>

#include "gtest/gtest.h"
#include "src/provisioning/scheduler_test_util.h"
#include "src/provisioning/topology_test_util.h"

namespace karpenter::provisioning {
namespace {

using namespace ::karpenter::provisioning::testing;  // NOLINT: test fixtures

ClaimRoom Room(int64_t cpu_left, int64_t memory_left, int64_t pods_left = 10'000) {
  return {.price = 1, .size = {4000, 8000, 10'000}, .left = {cpu_left, memory_left, pods_left}};
}

// The claims Offer proposes, in order, when every one refuses the pod.
std::vector<size_t> Proposed(const FreeFitIndex& index, const ResourceFootprint& pod) {
  std::vector<size_t> order;
  const std::optional<size_t> placed = index.Offer(pod, [&order](size_t claim) {
    order.push_back(claim);
    return false;
  });
  EXPECT_FALSE(placed.has_value());
  return order;
}

TEST(FreeFitIndex, ProposesClaimsThatHoldThePodLeastCpuLeftFirst) {
  FreeFitIndex index;
  index.Update(0, Room(3000, 5000));
  index.Update(1, Room(500, 5000));  // too little cpu
  index.Update(2, Room(1000, 5000));
  index.Update(3, Room(1000, 100));      // too little memory
  index.Update(4, Room(1000, 2000));     // same cpu as 2, less memory: tighter
  index.Update(5, Room(2000, 5000, 0));  // no pod slot left
  EXPECT_EQ(Proposed(index, {1000, 1000, 1000}), (std::vector<size_t>{4, 2, 0}));
}

TEST(FreeFitIndex, StopsAtTheFirstClaimThatTakesThePod) {
  FreeFitIndex index;
  index.Update(0, Room(1000, 1000));
  index.Update(1, Room(2000, 1000));
  std::vector<size_t> asked;
  const std::optional<size_t> placed = index.Offer({1000, 1000, 1000}, [&asked](size_t claim) {
    asked.push_back(claim);
    return true;
  });
  EXPECT_EQ(placed, 0u);
  EXPECT_EQ(asked, std::vector<size_t>{0});
}

TEST(FreeFitIndex, UpdateReplacesAClaimsRoom) {
  FreeFitIndex index;
  index.Update(0, Room(2000, 2000));
  index.Update(1, Room(3000, 3000));
  index.Update(0, Room(100, 100));  // filled up since
  EXPECT_EQ(Proposed(index, {1000, 1000, 1000}), std::vector<size_t>{1});
}

TEST(FitsRoom, EveryResourceMustFit) {
  EXPECT_TRUE(FitsRoom(Room(1000, 1000, 1000), {1000, 1000, 1000}));
  EXPECT_FALSE(FitsRoom(Room(999, 1000, 1000), {1000, 1000, 1000}));
  EXPECT_FALSE(FitsRoom(Room(1000, 999, 1000), {1000, 1000, 1000}));
  EXPECT_FALSE(FitsRoom(Room(1000, 1000, 999), {1000, 1000, 1000}));
}

TEST(AntiAffinityFirst, MovesRequiredAntiAffinityPodsAheadKeepingOrder) {
  api::Pod plain_1 = MakePod("plain-1");
  api::Pod anti_1 = Labeled("anti-1", {{"app", "a"}});
  RequireAntiAffinity(anti_1, AffinityTerm(kHostnameKey, {{"app", "a"}}));
  api::Pod plain_2 = MakePod("plain-2");
  api::Pod anti_2 = anti_1;
  anti_2.metadata.name = "anti-2";
  api::Pod preferred = MakePod("preferred");  // a preference only: stays in place
  AntiAffinityOf(preferred).preferred_during_scheduling_ignored_during_execution.push_back(
      {1, AffinityTerm(kHostnameKey, {{"app", "a"}})});
  std::vector<const api::Pod*> pods = {&plain_1, &anti_1, &preferred, &plain_2, &anti_2};
  AntiAffinityFirst(pods);
  EXPECT_EQ(pods, (std::vector<const api::Pod*>{&anti_1, &anti_2, &plain_1, &preferred, &plain_2}));
}

TEST(UnconstrainedLast, MovesPodsFreeOfPlacementConstraintsBehindKeepingOrder) {
  const api::Pod free_1 = MakePod("free-1");
  api::Pod selector = MakePod("selector");
  selector.spec.node_selector[kZoneKey] = kZoneA;
  api::Pod spread = MakePod("spread");
  spread.spec.topology_spread_constraints.emplace_back();
  const api::Pod free_2 = MakePod("free-2");
  api::Pod anti = Labeled("anti", {{"app", "a"}});
  RequireAntiAffinity(anti, AffinityTerm(kHostnameKey, {{"app", "a"}}));
  api::Pod node_affinity = MakePod("node-affinity");
  AddRequiredAffinity(node_affinity, {Term(kZoneKey, "In", {kZoneA})});
  std::vector<const api::Pod*> pods = {&free_1, &selector, &spread, &free_2, &anti, &node_affinity};
  UnconstrainedLast(pods);
  EXPECT_EQ(pods, (std::vector<const api::Pod*>{&selector, &spread, &anti, &node_affinity, &free_1,
                                                &free_2}));
}

TEST(MemoryWeight, IsTheTypesSummedCpuOverTheirSummedMemory) {
  TypeCandidate small;
  small.exact_room = ResourceFootprint{1000, 4000, 10};
  TypeCandidate large;
  large.room = {3000, 4000, 10};  // a bound only: counts as well
  TypeCandidate unbounded;        // room unknown: skipped
  const std::vector<TypeCandidate> pool_1 = {small, unbounded};
  const std::vector<TypeCandidate> pool_2 = {large};
  EXPECT_DOUBLE_EQ(MemoryWeight({pool_1, pool_2}), 0.5);
  EXPECT_DOUBLE_EQ(MemoryWeight({pool_1}), 0.25);
  EXPECT_DOUBLE_EQ(MemoryWeight({std::span<const TypeCandidate>()}), 0);
}

TEST(LargestFirst, RanksByCpuPlusWeightedMemoryKeepingTheOrderOfEqualSizes) {
  const api::Pod cpu_heavy = MakePod("cpu-heavy");
  const api::Pod memory_heavy = MakePod("memory-heavy");
  const api::Pod small_1 = MakePod("small-1");
  const api::Pod small_2 = MakePod("small-2");
  const std::map<const api::Pod*, ResourceFootprint> sizes = {
      {&cpu_heavy, {1500, 200, 1000}},     // 1500 + 0.5 × 200 = 1600
      {&memory_heavy, {100, 4000, 1000}},  // 100 + 0.5 × 4000 = 2100
      {&small_1, {100, 200, 1000}},        // 200
      {&small_2, {100, 200, 1000}},
  };
  const auto size_of = [&](const api::Pod& pod) -> const ResourceFootprint& {
    return sizes.at(&pod);
  };
  std::vector<const api::Pod*> pods = {&small_2, &cpu_heavy, &small_1, &memory_heavy};
  LargestFirst(pods, size_of, 0.5);
  EXPECT_EQ(pods, (std::vector<const api::Pod*>{&memory_heavy, &cpu_heavy, &small_2, &small_1}));
  // Without a weight memory does not count: cpu alone ranks them.
  pods = {&small_2, &memory_heavy, &cpu_heavy, &small_1};
  LargestFirst(pods, size_of, 0);
  EXPECT_EQ(pods, (std::vector<const api::Pod*>{&cpu_heavy, &small_2, &memory_heavy, &small_1}));
}

}  // namespace
}  // namespace karpenter::provisioning
