// The machine's clock as a karpenter::Clock for the client's threads and the in-cluster
// controller: `After` may be called from any thread, and timers run in order on one timer thread
// the clock owns (the thread that, in the controller host, runs the controllers).
#pragma once

#include <cstdint>
#include <memory>

#include "karpenter/clock.h"

namespace karpenter::kube {

// Timers still pending when the clock is destroyed never run.
std::unique_ptr<Clock> NewRealClock();

// On the timer thread of a clock NewRealClock made, blocks that thread for `delay_millis` of
// real time and returns true: a controller's write that meets the client's rate limit runs
// there, and waiting for a timer instead would wait for the very thread that is waiting.
// Returns false at once on any other thread (which may wait for a timer).
bool SleepIfRealClockTimerThread(int64_t delay_millis);

}  // namespace karpenter::kube
