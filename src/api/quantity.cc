// Parsing of Kubernetes quantities. The scanner follows upstream's hand-written one (not the
// regular expression its error message quotes, which is looser in places and stricter in
// others), and the value is computed exactly in nano-units without allocating.
#include "src/api/quantity.h"

#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>

#include "absl/status/status.h"
#include "src/api/quantity_internal.h"

namespace karpenter::api {
namespace {

using quantity_internal::U128;

// Plain arrays: this absl build has its own string_view, distinct from std::string_view.
constexpr char kFormatWrongMessage[] =
    "quantities must match the regular expression "
    "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
constexpr char kNumericMessage[] = "unable to parse numeric part of quantity";
constexpr char kSuffixMessage[] = "unable to parse quantity's suffix";

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool IsSuffixLetter(char c) {
  switch (c) {
    case 'e':
    case 'E':
    case 'i':
    case 'n':
    case 'u':
    case 'm':
    case 'k':
    case 'K':
    case 'M':
    case 'G':
    case 'T':
    case 'P':
      return true;
    default:
      return false;
  }
}

// The pieces upstream's scanner cuts a quantity into.
struct Pieces {
  bool negative = false;
  std::string_view num;    // integer digits with leading zeros removed; empty means zero
  std::string_view denom;  // digits after the point
  std::string_view suffix;
  // Whether the numeric text (sign, digits, point) holds any digit. Upstream re-parses that text
  // on its slow path and fails with "unable to parse numeric part" when it holds none.
  bool has_digits = false;
};

std::optional<Pieces> Scan(std::string_view s) {
  Pieces p;
  size_t pos = 0;
  const size_t end = s.size();
  if (pos < end && (s[0] == '-' || s[0] == '+')) {
    p.negative = s[0] == '-';
    ++pos;
  }
  const size_t zeros_start = pos;
  while (pos < end && s[pos] == '0') ++pos;
  if (pos >= end) {
    // Only a sign and zeros (or nothing after the sign): upstream treats this as "0".
    p.has_digits = true;
    return p;
  }
  p.has_digits = pos > zeros_start;
  const size_t num_start = pos;
  while (pos < end && IsDigit(s[pos])) ++pos;
  p.num = s.substr(num_start, pos - num_start);
  p.has_digits = p.has_digits || !p.num.empty();
  if (pos >= end) return p;

  if (s[pos] == '.') {
    ++pos;
    const size_t denom_start = pos;
    while (pos < end && IsDigit(s[pos])) ++pos;
    p.denom = s.substr(denom_start, pos - denom_start);
    p.has_digits = p.has_digits || !p.denom.empty();
    if (pos >= end) return p;
  }

  const size_t suffix_start = pos;
  while (pos < end && IsSuffixLetter(s[pos])) ++pos;
  if (pos < end && (s[pos] == '-' || s[pos] == '+')) ++pos;
  while (pos < end && IsDigit(s[pos])) ++pos;
  if (pos < end) return std::nullopt;
  p.suffix = s.substr(suffix_start);
  return p;
}

struct SuffixInfo {
  int base;          // 10 or 2
  int32_t exponent;  // power of the base
  Quantity::Format format;
};

// strconv.ParseInt(s, 10, 64): optional sign, at least one digit, within int64.
std::optional<int64_t> ParseGoInt64(std::string_view s) {
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return std::nullopt;
  const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  uint64_t v = 0;
  for (char c : s) {
    if (!IsDigit(c)) return std::nullopt;
    const uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (limit - d) / 10) return std::nullopt;
    v = v * 10 + d;
  }
  // Two's complement negation in unsigned arithmetic, then a modular (C++20) conversion.
  return static_cast<int64_t>(negative ? 0 - v : v);
}

std::optional<SuffixInfo> InterpretSuffix(std::string_view s) {
  using F = Quantity::Format;
  if (s.empty()) return SuffixInfo{10, 0, F::kDecimalSI};
  if (s.size() == 1) {
    switch (s[0]) {
      case 'n':
        return SuffixInfo{10, -9, F::kDecimalSI};
      case 'u':
        return SuffixInfo{10, -6, F::kDecimalSI};
      case 'm':
        return SuffixInfo{10, -3, F::kDecimalSI};
      case 'k':
        return SuffixInfo{10, 3, F::kDecimalSI};
      case 'M':
        return SuffixInfo{10, 6, F::kDecimalSI};
      case 'G':
        return SuffixInfo{10, 9, F::kDecimalSI};
      case 'T':
        return SuffixInfo{10, 12, F::kDecimalSI};
      case 'P':
        return SuffixInfo{10, 15, F::kDecimalSI};
      case 'E':
        return SuffixInfo{10, 18, F::kDecimalSI};
      default:
        return std::nullopt;
    }
  }
  if (s.size() == 2 && s[1] == 'i') {
    switch (s[0]) {
      case 'K':
        return SuffixInfo{2, 10, F::kBinarySI};
      case 'M':
        return SuffixInfo{2, 20, F::kBinarySI};
      case 'G':
        return SuffixInfo{2, 30, F::kBinarySI};
      case 'T':
        return SuffixInfo{2, 40, F::kBinarySI};
      case 'P':
        return SuffixInfo{2, 50, F::kBinarySI};
      case 'E':
        return SuffixInfo{2, 60, F::kBinarySI};
      default:
        break;
    }
  }
  if (s[0] == 'e' || s[0] == 'E') {
    const std::optional<int64_t> exponent = ParseGoInt64(s.substr(1));
    if (!exponent) return std::nullopt;
    // Upstream narrows the parsed exponent to int32 the same way, so "1e4294967296" is 1.
    return SuffixInfo{10, static_cast<int32_t>(*exponent), F::kDecimalExponent};
  }
  return std::nullopt;
}

// The significant digits num ++ denom, addressed by index without concatenating.
class Digits {
 public:
  Digits(std::string_view num, std::string_view denom) : num_(num), denom_(denom) {}
  size_t size() const { return num_.size() + denom_.size(); }
  unsigned operator[](size_t i) const {
    const char c = i < num_.size() ? num_[i] : denom_[i - num_.size()];
    return static_cast<unsigned>(c - '0');
  }

 private:
  std::string_view num_;
  std::string_view denom_;
};

// Magnitude in nano-units, or nullopt when it reaches Quantity::kNanoLimit.
// value = digits * 10^shift * multiplier, rounded up to an integer.
std::optional<U128> ExactNanos(const Digits& digits, int64_t shift, uint64_t multiplier) {
  const U128 limit = quantity_internal::ToNative(Quantity::kNanoLimit);
  const size_t n = digits.size();
  // Digits at index < int_end are whole nano-units, the rest are a fraction of one.
  size_t int_end = n;
  size_t missing_zeros = 0;  // fraction zeros between the point and the first digit
  if (shift < 0) {
    const uint64_t frac_len = static_cast<uint64_t>(-shift);
    if (frac_len >= n) {
      int_end = 0;
      missing_zeros = frac_len - n > 64 ? 64 : static_cast<size_t>(frac_len - n);
    } else {
      int_end = n - static_cast<size_t>(frac_len);
    }
  }
  // Checking before each multiplication keeps the 128-bit arithmetic from wrapping.
  const U128 max_before_times_ten = (limit - 1) / 10;
  U128 whole = 0;
  for (size_t i = 0; i < int_end; ++i) {
    if (whole > max_before_times_ten) return std::nullopt;
    whole = whole * 10 + digits[i];
    if (whole >= limit) return std::nullopt;
  }
  if (whole != 0) {
    for (int64_t i = 0; i < shift; ++i) {
      if (whole > max_before_times_ten) return std::nullopt;
      whole *= 10;
    }
  }
  // Multiply the fraction by `multiplier` right to left, as on paper: what carries out of the
  // leftmost position is whole, any digit left behind means the product was not exact.
  uint64_t carry = 0;
  bool inexact = false;
  for (size_t i = n; i > int_end; --i) {
    const uint64_t t = digits[i - 1] * multiplier + carry;  // < 10 * 2^60, no overflow
    inexact = inexact || t % 10 != 0;
    carry = t / 10;
  }
  for (size_t i = 0; i < missing_zeros && carry != 0; ++i) {
    inexact = inexact || carry % 10 != 0;
    carry /= 10;
  }
  if (whole > (limit - 1) / multiplier) return std::nullopt;
  U128 total = whole * multiplier + carry + (inexact ? 1 : 0);
  if (total >= limit) return std::nullopt;
  return total;
}

bool EndsWithThreeZeros(const Digits& digits) {
  const size_t n = digits.size();
  return n >= 3 && digits[n - 1] == 0 && digits[n - 2] == 0 && digits[n - 3] == 0;
}

// Upstream keeps the input string as the printed form when it took its int64 fast path and the
// input already looked canonical. Reproduces those conditions.
bool UpstreamKeepsText(const Pieces& p, const SuffixInfo& suffix) {
  // Upstream substitutes "0" for an empty integer part before counting digits.
  const size_t num_len = p.num.empty() ? 1 : p.num.size();
  if (suffix.base == 10) {
    const int64_t precision = 18 - static_cast<int64_t>(num_len + p.denom.size());
    const int64_t scale = int64_t{suffix.exponent} - static_cast<int64_t>(p.denom.size());
    if (precision < 0 || scale < -9) return false;
    const Digits digits(p.num, p.denom);
    return scale % 3 == 0 && !EndsWithThreeZeros(digits) && !p.num.empty();
  }
  if (!p.denom.empty()) return false;
  const int64_t precision = 15 - static_cast<int64_t>(num_len) - suffix.exponent * 3 / 10 - 1;
  if (precision < 0) return false;
  uint64_t value = 0;  // at most 14 digits here
  for (char c : p.num) value = value * 10 + static_cast<uint64_t>(c - '0');
  if (value > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) >> suffix.exponent) {
    return false;  // upstream's multiplication overflows and it takes the slow path
  }
  return (value & 7) != 0;
}

// Whether upstream leaves its int64 fast path for the arbitrary-precision one, where an input
// without digits ("-Pi", ".e-20") fails to re-parse.
bool UpstreamTakesSlowPath(const Pieces& p, const SuffixInfo& suffix) {
  const size_t num_len = p.num.empty() ? 1 : p.num.size();
  if (suffix.base == 10) {
    const int64_t precision = 18 - static_cast<int64_t>(num_len + p.denom.size());
    const int64_t scale = int64_t{suffix.exponent} - static_cast<int64_t>(p.denom.size());
    return precision < 0 || scale < -9;
  }
  if (!p.denom.empty()) return true;
  const int64_t precision = 15 - static_cast<int64_t>(num_len) - suffix.exponent * 3 / 10 - 1;
  return precision < 0;  // a zero value cannot overflow the multiplication
}

}  // namespace

absl::StatusOr<Quantity> Quantity::Parse(std::string_view text) {
  if (text.empty()) return absl::InvalidArgumentError(kFormatWrongMessage);
  const std::optional<Pieces> pieces = Scan(text);
  if (!pieces) return absl::InvalidArgumentError(kFormatWrongMessage);
  const std::optional<SuffixInfo> suffix = InterpretSuffix(pieces->suffix);
  if (!suffix) return absl::InvalidArgumentError(kSuffixMessage);
  if (!pieces->has_digits && UpstreamTakesSlowPath(*pieces, *suffix)) {
    return absl::InvalidArgumentError(kNumericMessage);
  }

  const Digits digits(pieces->num, pieces->denom);
  const int64_t denom_len = static_cast<int64_t>(pieces->denom.size());
  int64_t shift = 9 - denom_len;  // from the digit string to nano-units
  uint64_t multiplier = 1;
  if (suffix->base == 10) {
    shift += suffix->exponent;
  } else {
    multiplier = uint64_t{1} << suffix->exponent;
  }
  Format format = suffix->format;
  std::optional<U128> magnitude = ExactNanos(digits, shift, multiplier);
  if (format == Format::kBinarySI) {
    // Upstream caps binary quantities at the largest int64 instead of failing.
    const U128 cap = U128{quantity_internal::kMaxInt64} * quantity_internal::kNanosPerUnit;
    if (!magnitude || *magnitude > cap) magnitude = cap;
    // Below one unit a binary suffix cannot print without rounding; upstream switches format.
    if (*magnitude != 0 && *magnitude < quantity_internal::kNanosPerUnit) {
      format = Format::kDecimalSI;
    }
  }
  if (!magnitude) {
    return absl::OutOfRangeError(
        "quantity is too large: magnitudes of 10^29 or more are not supported");
  }
  const quantity_internal::I128 signed_nanos =
      pieces->negative ? -static_cast<quantity_internal::I128>(*magnitude)
                       : static_cast<quantity_internal::I128>(*magnitude);
  Quantity q(quantity_internal::FromNative(signed_nanos), format);
  if (UpstreamKeepsText(*pieces, *suffix) &&
      quantity_internal::CanonicalText(q.Nanos(), q.format()).view() != text) {
    q.text_ = std::string(text);
  }
  return q;
}

}  // namespace karpenter::api
