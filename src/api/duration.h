// Go's time.Duration (signed nanoseconds) with time.ParseDuration / Duration.String semantics,
// Karpenter's NillableDuration ("Never" or a duration, remembering how it was written), and
// matchers for the duration patterns Karpenter's CRDs declare.
#pragma once

#include <compare>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace karpenter::api {

class Duration {
 public:
  static constexpr int64_t kNanosecond = 1;
  static constexpr int64_t kMicrosecond = 1'000;
  static constexpr int64_t kMillisecond = 1'000'000;
  static constexpr int64_t kSecond = 1'000'000'000;
  static constexpr int64_t kMinute = 60 * kSecond;
  static constexpr int64_t kHour = 60 * kMinute;

  constexpr Duration() = default;  // zero

  static constexpr Duration FromNanos(int64_t nanos) { return Duration(nanos); }
  // Unit constructors saturate at the int64 range instead of wrapping as Go's multiplication does.
  static Duration FromMillis(int64_t millis) { return Scaled(millis, kMillisecond); }
  static Duration FromSeconds(int64_t seconds) { return Scaled(seconds, kSecond); }
  static Duration FromMinutes(int64_t minutes) { return Scaled(minutes, kMinute); }
  static Duration FromHours(int64_t hours) { return Scaled(hours, kHour); }
  static constexpr Duration Max() { return Duration(std::numeric_limits<int64_t>::max()); }
  static constexpr Duration Min() { return Duration(std::numeric_limits<int64_t>::min()); }

  // time.ParseDuration: "300ms", "-1.5h", "2h45m", "1µs"; units ns, us, µs, μs, ms, s, m, h.
  // Errors carry Go's messages, e.g. `time: invalid duration "1"`.
  static absl::StatusOr<Duration> Parse(std::string_view text);

  // Duration.String: "720h0m0s", "1m30s", "1.5s", "300ms", "1µs", "0s".
  std::string String() const;

  constexpr int64_t Nanos() const { return nanos_; }
  // As Go: whole units plus the remainder as a fraction, so large values stay precise.
  double Seconds() const;
  double Minutes() const;
  double Hours() const;

  // Saturating arithmetic; Go's wraps silently.
  friend Duration operator+(Duration a, Duration b);
  friend Duration operator-(Duration a, Duration b);
  friend Duration operator-(Duration d);

  friend constexpr bool operator==(Duration a, Duration b) = default;
  friend constexpr std::strong_ordering operator<=>(Duration a, Duration b) = default;

 private:
  constexpr explicit Duration(int64_t nanos) : nanos_(nanos) {}
  static Duration Scaled(int64_t count, int64_t unit);

  int64_t nanos_ = 0;
};

inline constexpr std::string_view kNever = "Never";

// Karpenter's NillableDuration (expireAfter, consolidateAfter): a duration, or "Never" meaning
// none. Like upstream it keeps the text it was parsed from and prints that back, so a manifest
// survives a round trip unchanged ("1h" is not rewritten to "1h0m0s").
struct NillableDuration {
  std::optional<Duration> duration;  // nullopt means Never
  std::string raw;                   // the parsed text; empty when built in code or for Never

  static NillableDuration Never() { return {}; }
  static NillableDuration Of(Duration d) { return {d, {}}; }
  // "Never" or anything time.ParseDuration accepts.
  static absl::StatusOr<NillableDuration> Parse(std::string_view text);

  bool IsNever() const { return !duration.has_value(); }
  // The raw text if any, else the duration's Go form, else "Never".
  std::string ToString() const;

  // Equality looks at the value only; upstream excludes the raw text from hashing, too.
  friend bool operator==(const NillableDuration& a, const NillableDuration& b) {
    return a.duration == b.duration;
  }
};

// A time.Duration field (terminationGracePeriod, a budget's duration) that remembers the text it
// was decoded from. The API server matches a CRD pattern against the JSON string as written,
// before Go parses it, so "0.5h", "+5m" and "1h1h" must be refused although they parse, and "0h"
// accepted although it prints as "0s". Only the value takes part in equality.
struct WrittenDuration {
  Duration value;
  std::string text;  // as written; empty when built in code

  WrittenDuration() = default;
  // Implicit, so code and tests can assign a Duration where the manifest has a WrittenDuration.
  WrittenDuration(Duration d) : value(d) {}  // NOLINT(google-explicit-constructor)

  // time.ParseDuration, keeping `text`.
  static absl::StatusOr<WrittenDuration> Parse(std::string_view text);
  // What a CRD pattern sees: the text as written, else Go's form of the value.
  std::string PatternText() const { return text.empty() ? value.String() : text; }

  friend bool operator==(const WrittenDuration& a, const WrittenDuration& b) {
    return a.value == b.value;
  }
};

// CRD patterns, matched without a regex engine.
// expireAfter / consolidateAfter: ^(([0-9]+(s|m|h))+|Never)$
bool MatchesKarpenterDurationPattern(std::string_view s);
// disruption.budgets[].duration: ^((([0-9]+(h|m))|([0-9]+h[0-9]+m))(0s)?)$
bool MatchesBudgetDurationPattern(std::string_view s);
// terminationGracePeriod: ^([0-9]+(s|m|h))+$
bool MatchesTgpPattern(std::string_view s);

}  // namespace karpenter::api
