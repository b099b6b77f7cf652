#include "src/provisioning/room_index.h"

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

TEST(RoomIndex, AgreesWithAWalkAfterAnyChanges) {
  property_test::CheckProperty({.seed = 7, .runs = 300}, "room index = walk", [] {
    const auto room = rc::gen::build<ResourceFootprint>(
        rc::gen::set(&ResourceFootprint::cpu, rc::gen::inRange<int64_t>(-1, 8)),
        rc::gen::set(&ResourceFootprint::memory, rc::gen::inRange<int64_t>(-1, 8)),
        rc::gen::set(&ResourceFootprint::pods, rc::gen::inRange<int64_t>(-1, 3)));
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
      const ResourceFootprint need = *rc::gen::build<ResourceFootprint>(
          rc::gen::set(&ResourceFootprint::cpu, rc::gen::inRange<int64_t>(0, 8)),
          rc::gen::set(&ResourceFootprint::memory, rc::gen::inRange<int64_t>(0, 8)),
          rc::gen::set(&ResourceFootprint::pods, rc::gen::inRange<int64_t>(0, 3)));
      RC_ASSERT(index.FirstFit(from, need) == FirstFitByWalking(rooms, from, need));
    }
  });
}

}  // namespace
}  // namespace karpenter::provisioning
