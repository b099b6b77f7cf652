// Upstream: kubernetes-sigs/karpenter pkg/events/recorder.go. Controllers publish the same
// event (a pod that still cannot schedule, a node still blocked from disruption) on every
// reconcile; upstream drops a repeat of an event with the same reason and de-duplication
// values within two minutes, so `kubectl describe` shows one line per cause, not a flood.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "karpenter/clock.h"
#include "karpenter/event_recorder.h"

namespace karpenter::controllers {

inline constexpr int64_t kEventDedupeMillis = 2 * 60 * 1000;

class DedupingRecorder {
 public:
  DedupingRecorder(const Clock& clock, EventRecorder& sink) : clock_(clock), sink_(sink) {}

  // Publishes `event` unless one with the same reason and `dedupe_values` went out less than
  // `timeout_millis` ago. Without values, the object, type and message are the identity.
  // Returns whether it was published.
  bool Publish(const Event& event, const std::vector<std::string>& dedupe_values = {},
               int64_t timeout_millis = kEventDedupeMillis);

  uint64_t dropped() const { return dropped_; }

 private:
  const Clock& clock_;
  EventRecorder& sink_;
  std::map<std::string, int64_t> last_published_;  // identity → when
  uint64_t dropped_ = 0;
};

}  // namespace karpenter::controllers
