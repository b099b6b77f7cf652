// The time seam. Controllers read time and set timers only through a Clock, so the same code
// runs on the twin's virtual time (every run reproducible from its seed) and on the machine's
// clocks in the in-cluster controller.
#pragma once

#include <cstdint>
#include <functional>

#include "src/api/time.h"

namespace karpenter {

class Clock {
 public:
  virtual ~Clock() = default;

  // Milliseconds since the host's origin (the run's start in the twin); never goes backwards.
  virtual int64_t NowMillis() const = 0;
  // The same instant as a wall-clock time, for objects' timestamps.
  virtual api::Time Now() const = 0;
  // Runs `action` once the clock has reached NowMillis() + `delay_millis` (a negative delay
  // counts as zero), on the thread that runs the controllers. Timers due at the same instant run
  // in the order they were set. There is no cancellation: an action that may have become stale
  // checks its own state when it runs, as a requeued reconcile does.
  virtual void After(int64_t delay_millis, std::function<void()> action) = 0;
};

}  // namespace karpenter
