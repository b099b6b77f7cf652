// The machine's clock as a karpenter::Clock for the client's threads and the in-cluster
// controller: `After` may be called from any thread, and timers run in order on one timer thread
// the clock owns (the thread that, in the controller host, runs the controllers).
#pragma once

#include <memory>

#include "karpenter/clock.h"

namespace karpenter::kube {

// Timers still pending when the clock is destroyed never run.
std::unique_ptr<Clock> NewRealClock();

}  // namespace karpenter::kube
