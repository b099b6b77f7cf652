// The AWS provider's seams for time and randomness: credential expiry, SigV4 dates and retry
// backoff read the time and sleep through `Clock`, and jitter draws from `Random`, so tests drive
// them with fakes and never wait (STYLE.md, "Determinism"). The production versions are in
// real_clock.cc.
#pragma once

#include <cstdint>
#include <memory>

#include "absl/time/time.h"

namespace karpenter::aws {

class Clock {
 public:
  virtual ~Clock() = default;
  // The current wall-clock time (SigV4 dates and credential expiry are wall-clock facts).
  virtual absl::Time Now() = 0;
  // Blocks the calling thread for `duration` (retry backoff); a fake advances its time instead.
  virtual void SleepFor(absl::Duration duration) = 0;
};

class Random {
 public:
  virtual ~Random() = default;
  // Uniform in [0, 1).
  virtual double Uniform01() = 0;
};

// The machine's clock and a randomly seeded generator; thread-safe.
std::unique_ptr<Clock> NewRealClock();
std::unique_ptr<Random> NewRealRandom();

}  // namespace karpenter::aws
