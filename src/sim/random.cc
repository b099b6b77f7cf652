#include "src/sim/random.h"

namespace karpenter::sim {

double Random::Uniform01() {
  return static_cast<double>(engine_() >> 11) * (1.0 / 9007199254740992.0);
}

double Random::Uniform(double lo, double hi) {
  if (hi <= lo) return lo;
  return lo + (hi - lo) * Uniform01();
}

uint64_t Random::Below(uint64_t n) {
  if (n == 0) return 0;
  // Rejection sampling keeps the draw unbiased for any n.
  const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
  uint64_t draw = engine_();
  while (draw >= limit) draw = engine_();
  return draw % n;
}

}  // namespace karpenter::sim
