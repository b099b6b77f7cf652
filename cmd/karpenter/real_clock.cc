#include "cmd/karpenter/real_clock.h"

#include <chrono>

namespace karpenter::cli {

int64_t RealMonotonicMillis() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

double RealMonotonicSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

api::Time RealNow() {
  return api::Time::FromUnixNanos(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                      std::chrono::system_clock::now().time_since_epoch())
                                      .count());
}

}  // namespace karpenter::cli
