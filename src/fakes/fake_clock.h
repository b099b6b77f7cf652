// A Clock for tests: time moves only when the test says so, and timers run in (time, order set)
// order as it moves, on the test's thread.
#pragma once

#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

#include "karpenter/clock.h"

namespace karpenter::fakes {

class FakeClock : public Clock {
 public:
  explicit FakeClock(api::Time epoch = api::Time::FromUnixSeconds(1'700'000'000)) : epoch_(epoch) {}

  int64_t NowMillis() const override { return now_; }
  api::Time Now() const override;
  void After(int64_t delay_millis, std::function<void()> action) override;

  // Moves the clock forward by `millis`, running every timer that falls due on the way (and
  // the timers those set, when they fall due within the step).
  void Advance(int64_t millis);
  // Runs the timers due now without moving the clock.
  void RunDue() { Advance(0); }
  // Moves to the next timer and runs everything due then; false when no timer is set.
  bool RunNext();

  size_t pending() const { return timers_.size(); }

 private:
  struct Timer {
    int64_t at;
    uint64_t sequence;
    std::function<void()> action;
  };
  struct Later {
    bool operator()(const Timer& a, const Timer& b) const {
      if (a.at != b.at) return a.at > b.at;
      return a.sequence > b.sequence;
    }
  };

  api::Time epoch_;
  int64_t now_ = 0;
  uint64_t next_sequence_ = 0;
  std::priority_queue<Timer, std::vector<Timer>, Later> timers_;
};

}  // namespace karpenter::fakes
