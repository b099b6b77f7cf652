#include "src/sim/event_queue.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace karpenter::sim {

// Saturates: a double beyond int64 (1e16 s and up) was undefined behaviour that wrapped the
// clock, and NaN has no time at all. 2^53 ms (285,000 years) leaves room to add delays to any
// instant of a run without overflowing.
SimMillis SecondsToMillis(double seconds) {
  constexpr double kLimit = 9007199254740992.0;  // 2^53
  const double millis = seconds * kMillisPerSecond;
  if (std::isnan(millis)) return 0;
  return static_cast<SimMillis>(std::llround(std::clamp(millis, -kLimit, kLimit)));
}

double MillisToSeconds(SimMillis millis) { return static_cast<double>(millis) / kMillisPerSecond; }

api::Time EventQueue::Now() const {
  return api::Time::FromUnixNanos(epoch_.UnixNanos() + now_ * 1000000);
}

void EventQueue::At(SimMillis when, Action action) {
  if (when < now_) when = now_;
  queue_.push(Event{when, next_sequence_++, std::move(action)});
}

void EventQueue::RunEventEnds() {
  // An action may add more; they run too, in order.
  for (size_t i = 0; i < at_event_end_.size(); ++i) {
    Action action = std::move(at_event_end_[i]);
    action();
  }
  at_event_end_.clear();
}

void EventQueue::RunUntil(SimMillis end) {
  if (!at_event_end_.empty()) RunEventEnds();
  while (!queue_.empty() && queue_.top().when <= end) {
    // Copied out before popping: the action may schedule more events.
    Event event = queue_.top();
    queue_.pop();
    now_ = event.when;
    ++executed_;
    event.action();
    if (!at_event_end_.empty()) RunEventEnds();
  }
  if (end > now_) now_ = end;
}

}  // namespace karpenter::sim
