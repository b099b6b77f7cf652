// Blocking the calling thread until the injected Clock reaches a time: the client's I/O threads
// wait out rate limits and backoffs this way, so time still comes only from the Clock (a fake
// clock releases them when the test advances it). The clock must accept `After` from any thread.
#pragma once

#include <cstdint>

#include "karpenter/clock.h"

namespace karpenter::kube {

// Returns once `clock` has run a timer set `delay_millis` from now; at once when `delay_millis`
// is not positive. On a real clock's timer thread (a controller's write) it sleeps as long
// instead, since that thread would have to run the timer.
void WaitOnClock(Clock& clock, int64_t delay_millis);

}  // namespace karpenter::kube
