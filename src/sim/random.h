// The twin's only source of randomness: a seeded 64-bit Mersenne Twister with distributions
// computed here from raw draws (not std::*_distribution, whose algorithms differ between
// standard libraries), so a seed gives the same run on every platform.
#pragma once

#include <cstdint>
#include <random>

namespace karpenter::sim {

class Random {
 public:
  explicit Random(uint64_t seed) : engine_(seed) {}

  // Uniform in [0, 1), 53 bits.
  double Uniform01();
  // Uniform in [lo, hi]; `lo` when hi <= lo.
  double Uniform(double lo, double hi);
  // Uniform integer in [0, n); 0 when n == 0.
  uint64_t Below(uint64_t n);

 private:
  std::mt19937_64 engine_;
};

}  // namespace karpenter::sim
