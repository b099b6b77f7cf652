#include "src/api/decimal.h"

#include <limits>

namespace karpenter::api {

std::optional<int64_t> ParseDecimalInt64(std::string_view s) {
  bool negative = false;
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return std::nullopt;
  // Accumulate downwards so that the most negative value is representable.
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  int64_t acc = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    int digit = c - '0';
    // Integer division of a negative number rounds towards zero, i.e. up, which is the exact
    // smallest accumulator that cannot underflow.
    if (acc < (kMin + digit) / 10) return std::nullopt;
    acc = acc * 10 - digit;
  }
  if (negative) return acc;
  if (acc == kMin) return std::nullopt;
  return -acc;
}

}  // namespace karpenter::api
