#include "src/fakes/fake_clock.h"

#include <vector>

#include "gtest/gtest.h"

namespace karpenter::fakes {
namespace {

TEST(FakeClock, TimersRunInTimeThenSetOrderAsTheClockMoves) {
  FakeClock clock;
  std::vector<int> ran;
  clock.After(20, [&] { ran.push_back(2); });
  clock.After(10, [&] { ran.push_back(1); });
  clock.After(20, [&] { ran.push_back(3); });
  clock.After(-5, [&] { ran.push_back(0); });
  clock.Advance(15);
  EXPECT_EQ(ran, (std::vector<int>{0, 1}));
  EXPECT_EQ(clock.NowMillis(), 15);
  clock.Advance(5);
  EXPECT_EQ(ran, (std::vector<int>{0, 1, 2, 3}));
}

TEST(FakeClock, TimersSetByTimersRunWhenDueWithinTheStep) {
  FakeClock clock;
  std::vector<int64_t> at;
  clock.After(10, [&] {
    at.push_back(clock.NowMillis());
    clock.After(10, [&] { at.push_back(clock.NowMillis()); });
  });
  clock.Advance(25);
  EXPECT_EQ(at, (std::vector<int64_t>{10, 20}));
  EXPECT_FALSE(clock.RunNext());
}

TEST(FakeClock, NowIsTheEpochPlusTheMillis) {
  FakeClock clock(api::Time::FromUnixSeconds(100));
  clock.Advance(1500);
  EXPECT_EQ(clock.Now().UnixNanos(), 101'500'000'000);
}

}  // namespace
}  // namespace karpenter::fakes
