// Go time.Duration parsing and printing, following src/time/format.go and time.go.
#include "src/api/duration.h"

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "src/api/go_quote.h"

namespace karpenter::api {
namespace {

constexpr uint64_t kTwoTo63 = uint64_t{1} << 63;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

absl::Status InvalidDuration(std::string_view original) {
  return absl::InvalidArgumentError(absl::StrCat("time: invalid duration ", GoQuote(original)));
}

// Go's leadingInt: consumes [0-9]*, failing once the value passes 2^63.
bool LeadingInt(std::string_view& s, uint64_t& value) {
  size_t i = 0;
  value = 0;
  for (; i < s.size() && IsDigit(s[i]); ++i) {
    if (value > kTwoTo63 / 10) return false;
    value = value * 10 + static_cast<uint64_t>(s[i] - '0');
    if (value > kTwoTo63) return false;
  }
  s.remove_prefix(i);
  return true;
}

// Go's leadingFraction: consumes [0-9]*, keeping as many digits as fit and ignoring the rest.
void LeadingFraction(std::string_view& s, uint64_t& value, double& scale) {
  size_t i = 0;
  value = 0;
  scale = 1;
  bool overflow = false;
  for (; i < s.size() && IsDigit(s[i]); ++i) {
    if (overflow) continue;
    if (value > (kTwoTo63 - 1) / 10) {
      overflow = true;
      continue;
    }
    const uint64_t next = value * 10 + static_cast<uint64_t>(s[i] - '0');
    if (next > kTwoTo63) {
      overflow = true;
      continue;
    }
    value = next;
    scale *= 10;
  }
  s.remove_prefix(i);
}

// Nanoseconds per unit, or 0 for an unknown unit. "µs" is U+00B5 (micro sign) and "μs" U+03BC
// (Greek mu); Go accepts both.
uint64_t UnitNanos(std::string_view unit) {
  if (unit == "ns") return 1;
  if (unit == "us" || unit == "\xC2\xB5s" || unit == "\xCE\xBCs") return 1'000;
  if (unit == "ms") return 1'000'000;
  if (unit == "s") return 1'000'000'000;
  if (unit == "m") return 60'000'000'000;
  if (unit == "h") return 3'600'000'000'000;
  return 0;
}

// Writes v / 10^precision's fractional digits into the tail of buf[0, end), dropping trailing
// zeros (and the point when nothing is left). Returns the new start; v becomes the integer part.
size_t FormatFraction(char* buf, size_t end, uint64_t& v, int precision) {
  bool print = false;
  for (int i = 0; i < precision; ++i) {
    const uint64_t digit = v % 10;
    print = print || digit != 0;
    if (print) buf[--end] = static_cast<char>('0' + digit);
    v /= 10;
  }
  if (print) buf[--end] = '.';
  return end;
}

size_t FormatInt(char* buf, size_t end, uint64_t v) {
  do {
    buf[--end] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  return end;
}

int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) {
    return a > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
  }
  return r;
}

}  // namespace

Duration Duration::Scaled(int64_t count, int64_t unit) {
  int64_t r;
  if (__builtin_mul_overflow(count, unit, &r)) {
    return count > 0 ? Max() : Min();
  }
  return Duration(r);
}

absl::StatusOr<Duration> Duration::Parse(std::string_view text) {
  const std::string_view original = text;
  std::string_view s = text;
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return Duration();
  if (s.empty()) return InvalidDuration(original);
  uint64_t total = 0;
  while (!s.empty()) {
    if (!(s[0] == '.' || IsDigit(s[0]))) return InvalidDuration(original);
    const size_t before_int = s.size();
    uint64_t whole = 0;
    if (!LeadingInt(s, whole)) return InvalidDuration(original);
    const bool has_int = s.size() != before_int;

    uint64_t fraction = 0;
    double scale = 1;
    bool has_fraction = false;
    if (!s.empty() && s[0] == '.') {
      s.remove_prefix(1);
      const size_t before_fraction = s.size();
      LeadingFraction(s, fraction, scale);
      has_fraction = s.size() != before_fraction;
    }
    if (!has_int && !has_fraction) return InvalidDuration(original);  // ".s"

    size_t unit_len = 0;
    while (unit_len < s.size() && s[unit_len] != '.' && !IsDigit(s[unit_len])) ++unit_len;
    if (unit_len == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("time: missing unit in duration ", GoQuote(original)));
    }
    const std::string_view unit_text = s.substr(0, unit_len);
    s.remove_prefix(unit_len);
    const uint64_t unit = UnitNanos(unit_text);
    if (unit == 0) {
      return absl::InvalidArgumentError(absl::StrCat("time: unknown unit ", GoQuote(unit_text),
                                                     " in duration ", GoQuote(original)));
    }
    if (whole > kTwoTo63 / unit) return InvalidDuration(original);
    whole *= unit;
    if (fraction > 0) {
      // Go goes through float64 here, which is nanosecond-exact up to hours; mirror it.
      whole += static_cast<uint64_t>(static_cast<double>(fraction) *
                                     (static_cast<double>(unit) / scale));
      if (whole > kTwoTo63) return InvalidDuration(original);
    }
    total += whole;
    if (total > kTwoTo63) return InvalidDuration(original);
  }
  if (negative) return Duration(static_cast<int64_t>(0 - total));  // 2^63 becomes the minimum
  if (total > kTwoTo63 - 1) return InvalidDuration(original);
  return Duration(static_cast<int64_t>(total));
}

std::string Duration::String() const {
  // The longest output is "-2562047h47m16.854775808s".
  char buf[32];
  size_t w = sizeof(buf);
  const bool negative = nanos_ < 0;
  uint64_t u = static_cast<uint64_t>(nanos_);
  if (negative) u = 0 - u;

  if (u < static_cast<uint64_t>(kSecond)) {
    // Below a second Go switches to the largest unit that keeps an integer part.
    buf[--w] = 's';
    int precision = 0;
    if (u == 0) {
      buf[--w] = '0';
      return std::string(buf + w, sizeof(buf) - w);
    }
    if (u < static_cast<uint64_t>(kMicrosecond)) {
      buf[--w] = 'n';
    } else if (u < static_cast<uint64_t>(kMillisecond)) {
      precision = 3;
      buf[--w] = '\xB5';  // U+00B5 'µ' as UTF-8
      buf[--w] = '\xC2';
    } else {
      precision = 6;
      buf[--w] = 'm';
    }
    w = FormatFraction(buf, w, u, precision);
    w = FormatInt(buf, w, u);
  } else {
    buf[--w] = 's';
    w = FormatFraction(buf, w, u, 9);
    w = FormatInt(buf, w, u % 60);  // u is now whole seconds
    u /= 60;
    if (u > 0) {
      buf[--w] = 'm';
      w = FormatInt(buf, w, u % 60);
      u /= 60;
      if (u > 0) {  // stop at hours: days vary in length
        buf[--w] = 'h';
        w = FormatInt(buf, w, u);
      }
    }
  }
  if (negative) buf[--w] = '-';
  return std::string(buf + w, sizeof(buf) - w);
}

double Duration::Seconds() const {
  const int64_t whole = nanos_ / kSecond;
  const int64_t rest = nanos_ % kSecond;
  return static_cast<double>(whole) + static_cast<double>(rest) / 1e9;
}

double Duration::Minutes() const {
  const int64_t whole = nanos_ / kMinute;
  const int64_t rest = nanos_ % kMinute;
  return static_cast<double>(whole) + static_cast<double>(rest) / (60 * 1e9);
}

double Duration::Hours() const {
  const int64_t whole = nanos_ / kHour;
  const int64_t rest = nanos_ % kHour;
  return static_cast<double>(whole) + static_cast<double>(rest) / (60 * 60 * 1e9);
}

Duration operator+(Duration a, Duration b) {
  return Duration::FromNanos(SaturatingAdd(a.nanos_, b.nanos_));
}

Duration operator-(Duration a, Duration b) {
  int64_t r;
  if (__builtin_sub_overflow(a.nanos_, b.nanos_, &r)) {
    return b.nanos_ < 0 ? Duration::Max() : Duration::Min();
  }
  return Duration::FromNanos(r);
}

Duration operator-(Duration d) {
  return d.nanos_ == std::numeric_limits<int64_t>::min() ? Duration::Max()
                                                         : Duration::FromNanos(-d.nanos_);
}

absl::StatusOr<NillableDuration> NillableDuration::Parse(std::string_view text) {
  if (text == kNever) return Never();
  absl::StatusOr<Duration> d = Duration::Parse(text);
  if (!d.ok()) return d.status();
  return NillableDuration{*d, std::string(text)};
}

absl::StatusOr<WrittenDuration> WrittenDuration::Parse(std::string_view text) {
  absl::StatusOr<Duration> d = Duration::Parse(text);
  if (!d.ok()) return d.status();
  WrittenDuration written(*d);
  written.text = std::string(text);
  return written;
}

std::string NillableDuration::ToString() const {
  if (!raw.empty()) return raw;
  if (duration) return duration->String();
  return std::string(kNever);
}

}  // namespace karpenter::api
