#include "src/kube/clock_wait.h"

#include <chrono>
#include <future>
#include <memory>
#include <vector>

#include "gtest/gtest.h"
#include "src/kube/real_clock.h"

namespace karpenter::kube {
namespace {

// A controller runs on the real clock's timer thread; when its write meets the client's rate
// limit, the client waits there. Waiting for a timer would deadlock: the thread that must run
// the timer is the one waiting.
TEST(WaitOnClockTest, ReturnsOnTheRealClocksTimerThreadAfterTheDelay) {
  std::unique_ptr<Clock> clock = NewRealClock();
  std::promise<int64_t> waited;
  clock->After(0, [&] {
    const int64_t start = clock->NowMillis();
    WaitOnClock(*clock, 30);
    waited.set_value(clock->NowMillis() - start);
  });
  std::future<int64_t> result = waited.get_future();
  // Generous: this bounds a hang (the bug), it does not measure speed.
  ASSERT_EQ(result.wait_for(std::chrono::seconds(60)), std::future_status::ready)
      << "WaitOnClock on the timer thread never returned";
  EXPECT_GE(result.get(), 30);
}

TEST(WaitOnClockTest, TimersSetBeforeTheWaitStillRunInOrderAfterIt) {
  std::unique_ptr<Clock> clock = NewRealClock();
  std::vector<int> order;  // written only on the timer thread
  std::promise<std::vector<int>> done;
  clock->After(0, [&] {
    clock->After(0, [&] { order.push_back(2); });
    WaitOnClock(*clock, 10);
    order.push_back(1);
  });
  clock->After(0, [&] { clock->After(20, [&] { done.set_value(order); }); });
  std::future<std::vector<int>> result = done.get_future();
  ASSERT_EQ(result.wait_for(std::chrono::seconds(60)), std::future_status::ready);
  EXPECT_EQ(result.get(), (std::vector<int>{1, 2}));
}

TEST(WaitOnClockTest, OtherThreadsWaitForATimer) {
  std::unique_ptr<Clock> clock = NewRealClock();
  EXPECT_FALSE(SleepIfRealClockTimerThread(10));
  const int64_t start = clock->NowMillis();
  WaitOnClock(*clock, 20);
  EXPECT_GE(clock->NowMillis() - start, 20);
}

}  // namespace
}  // namespace karpenter::kube
