// A UTC instant with nanosecond precision (metav1.Time's value), parsed and printed as RFC 3339
// with Go's rules. Held as int64 nanoseconds since the Unix epoch, which covers
// 1677-09-21T00:12:43.145224192Z to 2262-04-11T23:47:16.854775807Z; instants outside fail to
// parse with OutOfRange. Calendar math is proleptic Gregorian, done here, independent of TZ.
#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "src/api/duration.h"

namespace karpenter::api {

class Time {
 public:
  constexpr Time() = default;  // the Unix epoch

  static constexpr Time FromUnixNanos(int64_t nanos) { return Time(nanos); }
  // Saturates at the representable range.
  static Time FromUnixSeconds(int64_t seconds);
  // A UTC civil time; InvalidArgument for impossible dates or clock values, OutOfRange when the
  // instant does not fit.
  static absl::StatusOr<Time> FromCivil(int64_t year, int month, int day, int hour, int minute,
                                        int second, int nanosecond);

  // time.Parse(time.RFC3339, text) as metav1.Time uses it: "2024-06-22T02:24:16Z", optional
  // fraction (',' also accepted, digits past nanoseconds ignored), "Z" or "+hh:mm". Like Go it
  // also takes a one-digit hour and offsets up to +24:00 / minute 60. Errors carry Go's text.
  static absl::StatusOr<Time> ParseRfc3339(std::string_view text);

  // metav1.Time's JSON form: UTC, whole seconds, "2024-06-22T02:24:16Z".
  std::string Rfc3339() const;
  // Go's RFC3339Nano in UTC: fraction with trailing zeros removed, none when zero.
  std::string Rfc3339Nano() const;

  constexpr int64_t UnixNanos() const { return nanos_; }
  // Whole seconds, rounded toward negative infinity as Go's Unix() does.
  int64_t UnixSeconds() const;

  // Saturating, like Go's Time.Sub which clamps to the Duration range.
  friend Time operator+(Time t, Duration d);
  friend Time operator-(Time t, Duration d);
  friend Duration operator-(Time a, Time b);

  friend constexpr bool operator==(Time a, Time b) = default;
  friend constexpr std::strong_ordering operator<=>(Time a, Time b) = default;

 private:
  constexpr explicit Time(int64_t nanos) : nanos_(nanos) {}

  int64_t nanos_ = 0;
};

}  // namespace karpenter::api
