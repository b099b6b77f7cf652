#include "src/sim/event_queue.h"

#include <cmath>
#include <utility>

namespace karpenter::sim {

SimMillis SecondsToMillis(double seconds) {
  return static_cast<SimMillis>(std::llround(seconds * kMillisPerSecond));
}

double MillisToSeconds(SimMillis millis) { return static_cast<double>(millis) / kMillisPerSecond; }

api::Time EventQueue::Now() const {
  return api::Time::FromUnixNanos(epoch_.UnixNanos() + now_ * 1000000);
}

void EventQueue::At(SimMillis when, Action action) {
  if (when < now_) when = now_;
  queue_.push(Event{when, next_sequence_++, std::move(action)});
}

void EventQueue::RunUntil(SimMillis end) {
  while (!queue_.empty() && queue_.top().when <= end) {
    // Copied out before popping: the action may schedule more events.
    Event event = queue_.top();
    queue_.pop();
    now_ = event.when;
    ++executed_;
    event.action();
  }
  if (end > now_) now_ = end;
}

}  // namespace karpenter::sim
