#include "src/kube/clock_wait.h"

#include <condition_variable>
#include <memory>
#include <mutex>

#include "src/kube/real_clock.h"

namespace karpenter::kube {

void WaitOnClock(Clock& clock, int64_t delay_millis) {
  if (delay_millis <= 0) return;
  // The controllers' own thread runs the timers: it cannot wait for one.
  if (SleepIfRealClockTimerThread(delay_millis)) return;
  struct Latch {
    std::mutex mu;
    std::condition_variable cv;
    bool done = false;
  };
  // Shared: the timer may run after a waiter has gone (it never does today, but the clock keeps
  // the action alive as long as it likes).
  auto latch = std::make_shared<Latch>();
  clock.After(delay_millis, [latch] {
    std::lock_guard<std::mutex> lock(latch->mu);
    latch->done = true;
    latch->cv.notify_all();
  });
  std::unique_lock<std::mutex> lock(latch->mu);
  latch->cv.wait(lock, [&] { return latch->done; });
}

}  // namespace karpenter::kube
