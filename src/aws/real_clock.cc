// The production `Clock` and `Random` (the only place in src/aws that reads the real clock or an
// entropy source; tools/check_banned.sh exempts real_*.cc).
#include <mutex>
#include <random>

#include "absl/time/clock.h"
#include "src/aws/clock.h"

namespace karpenter::aws {
namespace {

class RealClock final : public Clock {
 public:
  absl::Time Now() override { return absl::Now(); }
  void SleepFor(absl::Duration duration) override { absl::SleepFor(duration); }
};

class RealRandom final : public Random {
 public:
  RealRandom() : engine_(std::random_device{}()) {}
  double Uniform01() override {
    std::lock_guard<std::mutex> lock(mu_);
    return static_cast<double>(engine_() >> 11) * 0x1.0p-53;
  }

 private:
  std::mutex mu_;
  std::mt19937_64 engine_;
};

}  // namespace

std::unique_ptr<Clock> NewRealClock() { return std::make_unique<RealClock>(); }
std::unique_ptr<Random> NewRealRandom() { return std::make_unique<RealRandom>(); }

}  // namespace karpenter::aws
