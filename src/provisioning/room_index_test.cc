#include "src/provisioning/room_index.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "rapidcheck.h"
#include "test/property_check.h"

namespace karpenter::provisioning {
namespace {

size_t FirstFitByWalking(const std::vector<ResourceFootprint>& rooms, size_t from,
                         const ResourceFootprint& need) {
  for (size_t i = from; i < rooms.size(); ++i) {
    const ResourceFootprint& room = rooms[i];
    if (need.cpu <= room.cpu && need.memory <= room.memory && need.pods <= room.pods) return i;
  }
  return rooms.size();
}

TEST(RoomIndex, FindsTheFirstNodeThatHoldsEveryResource) {
  // The second node has the cpu and the third the memory: only the fourth has both.
  RoomIndex index(std::vector<ResourceFootprint>{
      {100, 100, 1}, {900, 100, 1}, {100, 900, 1}, {900, 900, 1}, {900, 900, 0}});
  EXPECT_EQ(index.FirstFit(0, {500, 500, 1}), 3u);
  EXPECT_EQ(index.FirstFit(4, {500, 500, 1}), 5u);  // no pod slot left there
  EXPECT_EQ(index.FirstFit(0, {500, 0, 1}), 1u);
  EXPECT_EQ(index.FirstFit(2, {500, 0, 1}), 3u);
  index.Close(3);
  EXPECT_EQ(index.FirstFit(0, {500, 500, 1}), 5u);
  index.Set(0, {500, 500, 2});
  EXPECT_EQ(index.FirstFit(0, {500, 500, 1}), 0u);
  EXPECT_EQ(RoomIndex().FirstFit(0, {0, 0, 0}), 0u);
}

// Rooms of 0 to 7 units of cpu and memory or -1 (a closed node) and up to 2 pod slots, changed at
// random between searches for needs of 0 to 7 units.
void CheckAgainstAWalk(uint64_t seed, int64_t cpu_unit, int64_t memory_unit) {
  property_test::CheckProperty({.seed = seed, .runs = 300}, "room index = walk", [=] {
    auto footprint = [=](int64_t low) {
      return rc::gen::build<ResourceFootprint>(
          rc::gen::set(&ResourceFootprint::cpu,
                       rc::gen::map(rc::gen::inRange<int64_t>(low, 8),
                                    [=](int64_t n) { return n < 0 ? -1 : n * cpu_unit; })),
          rc::gen::set(&ResourceFootprint::memory,
                       rc::gen::map(rc::gen::inRange<int64_t>(low, 8),
                                    [=](int64_t n) { return n < 0 ? -1 : n * memory_unit; })),
          rc::gen::set(&ResourceFootprint::pods, rc::gen::inRange<int64_t>(low, 3)));
    };
    const auto room = footprint(-1);
    std::vector<ResourceFootprint> rooms =
        *rc::gen::container<std::vector<ResourceFootprint>>(room);
    RoomIndex index(rooms);
    const int steps = *rc::gen::inRange(1, 40);
    for (int step = 0; step < steps; ++step) {
      if (!rooms.empty() && *rc::gen::arbitrary<bool>()) {
        const size_t at = *rc::gen::inRange<size_t>(0, rooms.size());
        rooms[at] = *room;
        index.Set(at, rooms[at]);
      }
      const size_t from = *rc::gen::inRange<size_t>(0, rooms.size() + 2);
      const ResourceFootprint need = *footprint(0);
      RC_ASSERT(index.FirstFit(from, need) == FirstFitByWalking(rooms, from, need));
    }
  });
}

TEST(RoomIndex, AgreesWithAWalkAfterAnyChanges) { CheckAgainstAWalk(7, 1, 1); }

// In real units (millicores, millibytes) rooms and needs span about 0.02 to 14 GiB per core, across
// the memory-per-cpu ratios of the balanced scores, so their pruning is what is checked.
TEST(RoomIndex, AgreesWithAWalkInRealUnits) {
  constexpr int64_t kQuarterCore = 250;
  constexpr int64_t kHalfGib = int64_t{512} * 1024 * 1024 * 1000;
  CheckAgainstAWalk(11, kQuarterCore, kHalfGib);
  CheckAgainstAWalk(13, 2 * kQuarterCore, kHalfGib / 8);
}

TEST(RoomIndex, AnswersNoneWhenEachNodeHoldsOnlyTheCpuOrTheMemory) {
  // Half the nodes have cpu and no memory, half memory and no cpu: every range's maxima hold the
  // pod, no node does. The answer must still be "none", and once one node fits, that node.
  constexpr int64_t kGib = int64_t{1024} * 1024 * 1024 * 1000;
  std::vector<ResourceFootprint> rooms;
  for (int i = 0; i < 512; ++i) {
    rooms.push_back(i % 2 == 0 ? ResourceFootprint{4000, kGib / 4, 10}
                               : ResourceFootprint{250, 16 * kGib, 10});
  }
  RoomIndex index(rooms);
  EXPECT_EQ(index.FirstFit(0, {2000, 4 * kGib, 1}), rooms.size());
  index.Set(300, {2000, 4 * kGib, 1});
  EXPECT_EQ(index.FirstFit(0, {2000, 4 * kGib, 1}), 300u);
  EXPECT_EQ(index.FirstFit(301, {2000, 4 * kGib, 1}), rooms.size());
}

}  // namespace
}  // namespace karpenter::provisioning
