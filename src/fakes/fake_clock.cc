#include "src/fakes/fake_clock.h"

#include <algorithm>
#include <utility>

namespace karpenter::fakes {

api::Time FakeClock::Now() const {
  return api::Time::FromUnixNanos(epoch_.UnixNanos() + now_ * 1'000'000);
}

void FakeClock::After(int64_t delay_millis, std::function<void()> action) {
  timers_.push(
      Timer{now_ + std::max<int64_t>(0, delay_millis), next_sequence_++, std::move(action)});
}

void FakeClock::Advance(int64_t millis) {
  const int64_t end = now_ + std::max<int64_t>(0, millis);
  while (!timers_.empty() && timers_.top().at <= end) {
    Timer timer = timers_.top();
    timers_.pop();
    now_ = std::max(now_, timer.at);
    timer.action();
  }
  now_ = end;
}

bool FakeClock::RunNext() {
  if (timers_.empty()) return false;
  Advance(timers_.top().at - now_);
  return true;
}

}  // namespace karpenter::fakes
