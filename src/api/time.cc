// RFC 3339 parsing and printing for Time, following Go's time.Parse(time.RFC3339, ...) including
// its lenient fallback parser, and civil-date arithmetic that needs no C library time zone.
#include "src/api/time.h"

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "fmt/format.h"
#include "src/api/go_quote.h"

namespace karpenter::api {
namespace {

constexpr int64_t kNanosPerSecond = 1'000'000'000;
constexpr int64_t kSecondsPerDay = 86'400;
constexpr char kLayout[] = "2006-01-02T15:04:05Z07:00";

bool IsLeap(int64_t year) { return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0); }

int DaysIn(int month, int64_t year) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeap(year) ? 29 : kDays[month - 1];
}

// Floor division and the matching non-negative remainder.
int64_t FloorDiv(int64_t a, int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

// Days from 1970-01-01 to the given proleptic Gregorian date. Counting years from March puts the
// leap day last, so a month's start is a linear function of its index (153 days per 5 months),
// and 400-year eras of 146097 days make the rest exact integer arithmetic.
int64_t DaysFromCivil(int64_t year, int month, int day) {
  const int64_t y = month <= 2 ? year - 1 : year;
  const int64_t era = FloorDiv(y, 400);
  const int64_t year_of_era = y - era * 400;                      // [0, 399]
  const int64_t march_month = month > 2 ? month - 3 : month + 9;  // March = 0
  const int64_t day_of_year = (153 * march_month + 2) / 5 + day - 1;
  const int64_t day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
  return era * 146097 + day_of_era - 719468;  // 719468 days from 0000-03-01 to 1970-01-01
}

struct CivilDate {
  int64_t year;
  int month;
  int day;
};

// Inverse of DaysFromCivil.
CivilDate CivilFromDays(int64_t days) {
  const int64_t shifted = days + 719468;
  const int64_t era = FloorDiv(shifted, 146097);
  const int64_t day_of_era = shifted - era * 146097;  // [0, 146096]
  const int64_t year_of_era =
      (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  const int64_t day_of_year =
      day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  const int64_t march_month = (5 * day_of_year + 2) / 153;
  const int day = static_cast<int>(day_of_year - (153 * march_month + 2) / 5 + 1);
  const int month = static_cast<int>(march_month < 10 ? march_month + 3 : march_month - 9);
  return {year_of_era + era * 400 + (month <= 2 ? 1 : 0), month, day};
}

absl::Status OutOfRange(std::string what) {
  what +=
      ": outside the supported range 1677-09-21T00:12:43.145224192Z to "
      "2262-04-11T23:47:16.854775807Z";
  return absl::OutOfRangeError(what);
}

// (days * 86400 + seconds) * 10^9 + nanos for nanos in [0, 10^9), or false when it does not
// fit in int64.
bool ToUnixNanos(int64_t days, int64_t seconds, int64_t nanos, int64_t& out) {
  int64_t total_seconds;
  if (__builtin_mul_overflow(days, kSecondsPerDay, &total_seconds) ||
      __builtin_add_overflow(total_seconds, seconds, &total_seconds)) {
    return false;
  }
  if (total_seconds < 0 && nanos > 0) {
    // Borrow a second so the earliest instants do not overflow on the way.
    ++total_seconds;
    nanos -= kNanosPerSecond;
  }
  return !__builtin_mul_overflow(total_seconds, kNanosPerSecond, &out) &&
         !__builtin_add_overflow(out, nanos, &out);
}

bool IsDigit(std::string_view s, size_t i) { return i < s.size() && s[i] >= '0' && s[i] <= '9'; }

int TwoDigits(std::string_view s) { return (s[0] - '0') * 10 + (s[1] - '0'); }

// Builds Go's *time.ParseError texts for one input.
class ParseErrors {
 public:
  explicit ParseErrors(std::string_view value) : value_(value) {}
  absl::Status CannotParse(std::string_view value_elem, std::string_view layout_elem) const {
    return absl::InvalidArgumentError(
        absl::StrCat("parsing time ", GoQuote(value_), " as ", GoQuote(kLayout), ": cannot parse ",
                     GoQuote(value_elem), " as ", GoQuote(layout_elem)));
  }
  absl::Status Message(std::string_view message) const {
    std::string text = "parsing time " + GoQuote(value_);
    text.append(message);
    return absl::InvalidArgumentError(text);
  }
  absl::Status OutOfRange(std::string_view field) const {
    std::string message = ": ";
    message.append(field).append(" out of range");
    return Message(message);
  }

 private:
  std::string_view value_;
};

std::string FormatRfc3339(int64_t unix_nanos, bool with_fraction) {
  const int64_t seconds = FloorDiv(unix_nanos, kNanosPerSecond);
  // The remainder directly: seconds * 10^9 itself overflows for the earliest instants.
  int64_t nanos = unix_nanos % kNanosPerSecond;
  if (nanos < 0) nanos += kNanosPerSecond;
  const int64_t days = FloorDiv(seconds, kSecondsPerDay);
  const int64_t second_of_day = seconds - days * kSecondsPerDay;
  const CivilDate date = CivilFromDays(days);
  std::string out =
      fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}", date.year, date.month, date.day,
                  second_of_day / 3600, second_of_day / 60 % 60, second_of_day % 60);
  if (with_fraction && nanos != 0) {
    std::string fraction = fmt::format(".{:09}", nanos);
    while (fraction.back() == '0') fraction.pop_back();
    out += fraction;
  }
  out.push_back('Z');
  return out;
}

}  // namespace

Time Time::FromUnixSeconds(int64_t seconds) {
  int64_t nanos;
  if (__builtin_mul_overflow(seconds, kNanosPerSecond, &nanos)) {
    return Time(seconds > 0 ? std::numeric_limits<int64_t>::max()
                            : std::numeric_limits<int64_t>::min());
  }
  return Time(nanos);
}

absl::StatusOr<Time> Time::FromCivil(int64_t year, int month, int day, int hour, int minute,
                                     int second, int nanosecond) {
  if (month < 1 || month > 12 || day < 1 || day > DaysIn(month, year) || hour < 0 || hour > 23 ||
      minute < 0 || minute > 59 || second < 0 || second > 59 || nanosecond < 0 ||
      nanosecond >= kNanosPerSecond) {
    return absl::InvalidArgumentError(
        fmt::format("invalid civil time {}-{:02}-{:02} {:02}:{:02}:{:02}.{:09}", year, month, day,
                    hour, minute, second, nanosecond));
  }
  // Years this far out cannot fit anyway; bounding them keeps the day arithmetic exact.
  if (year < -1'000'000 || year > 1'000'000) return OutOfRange(absl::StrCat("year ", year));
  int64_t nanos;
  if (!ToUnixNanos(DaysFromCivil(year, month, day), hour * 3600 + minute * 60 + second, nanosecond,
                   nanos)) {
    return OutOfRange(fmt::format("{:04}-{:02}-{:02}", year, month, day));
  }
  return Time(nanos);
}

absl::StatusOr<Time> Time::ParseRfc3339(std::string_view text) {
  const ParseErrors errors(text);
  std::string_view rest = text;
  auto skip = [&rest](char c) {
    if (rest.empty() || rest[0] != c) return false;
    rest.remove_prefix(1);
    return true;
  };
  // Year "2006": four digits.
  if (rest.size() < 4 || !IsDigit(rest, 0) || !IsDigit(rest, 1) || !IsDigit(rest, 2) ||
      !IsDigit(rest, 3)) {
    return errors.CannotParse(rest, "2006");
  }
  const int year = TwoDigits(rest) * 100 + TwoDigits(rest.substr(2));
  rest.remove_prefix(4);
  if (!skip('-')) return errors.CannotParse(rest, "-");
  // Month "01": exactly two digits.
  if (!IsDigit(rest, 0) || !IsDigit(rest, 1)) return errors.CannotParse(rest, "01");
  const int month = TwoDigits(rest);
  rest.remove_prefix(2);
  if (month < 1 || month > 12) return errors.OutOfRange("month");
  if (!skip('-')) return errors.CannotParse(rest, "-");
  // Day "02": exactly two digits, checked against the month once everything parsed.
  if (!IsDigit(rest, 0) || !IsDigit(rest, 1)) return errors.CannotParse(rest, "02");
  const int day = TwoDigits(rest);
  rest.remove_prefix(2);
  if (!skip('T')) return errors.CannotParse(rest, "T");
  // Hour "15": Go's layout element takes one or two digits.
  if (!IsDigit(rest, 0)) return errors.CannotParse(rest, "15");
  int hour = rest[0] - '0';
  if (IsDigit(rest, 1)) {
    hour = TwoDigits(rest);
    rest.remove_prefix(2);
  } else {
    rest.remove_prefix(1);
  }
  if (hour >= 24) return errors.OutOfRange("hour");
  if (!skip(':')) return errors.CannotParse(rest, ":");
  if (!IsDigit(rest, 0) || !IsDigit(rest, 1)) return errors.CannotParse(rest, "04");
  const int minute = TwoDigits(rest);
  rest.remove_prefix(2);
  if (minute >= 60) return errors.OutOfRange("minute");
  if (!skip(':')) return errors.CannotParse(rest, ":");
  if (!IsDigit(rest, 0) || !IsDigit(rest, 1)) return errors.CannotParse(rest, "05");
  const int second = TwoDigits(rest);
  rest.remove_prefix(2);
  if (second >= 60) return errors.OutOfRange("second");
  // Fractional second: '.' or ',' then digits; only the first nine count.
  int64_t nanos = 0;
  if (rest.size() >= 2 && (rest[0] == '.' || rest[0] == ',') && IsDigit(rest, 1)) {
    size_t n = 1;
    for (; IsDigit(rest, n); ++n) {
      if (n <= 9) nanos = nanos * 10 + (rest[n] - '0');
    }
    for (size_t i = n; i <= 9; ++i) nanos *= 10;
    rest.remove_prefix(n);
  }
  // Zone "Z07:00": 'Z' or a signed hh:mm offset.
  int64_t offset_seconds = 0;
  if (!rest.empty() && rest[0] == 'Z') {
    rest.remove_prefix(1);
  } else {
    const std::string_view hold = rest;
    if (rest.size() < 6 || rest[3] != ':') return errors.CannotParse(hold, "Z07:00");
    const std::string_view hh = rest.substr(1, 2);
    const std::string_view mm = rest.substr(4, 2);
    const char sign = rest[0];
    rest.remove_prefix(6);
    const bool hh_ok = IsDigit(hh, 0) && IsDigit(hh, 1);
    const bool mm_ok = hh_ok && IsDigit(mm, 0) && IsDigit(mm, 1);
    const int offset_hour = hh_ok ? TwoDigits(hh) : 0;
    const int offset_minute = mm_ok ? TwoDigits(mm) : 0;
    // Go reports the last range problem it saw, before any syntax problem; it lets 24 and 60
    // through because people write them.
    if (offset_minute > 60) return errors.OutOfRange("time zone offset minute");
    if (offset_hour > 24) return errors.OutOfRange("time zone offset hour");
    if (!hh_ok || !mm_ok || (sign != '+' && sign != '-')) {
      return errors.CannotParse(hold, "Z07:00");
    }
    offset_seconds = (offset_hour * 60 + offset_minute) * 60;
    if (sign == '-') offset_seconds = -offset_seconds;
  }
  if (!rest.empty()) return errors.Message(absl::StrCat(": extra text: ", GoQuote(rest)));
  if (day < 1 || day > DaysIn(month, year)) return errors.Message(": day out of range");

  const int64_t second_of_day = hour * 3600 + minute * 60 + second - offset_seconds;
  int64_t unix_nanos;
  if (!ToUnixNanos(DaysFromCivil(year, month, day), second_of_day, nanos, unix_nanos)) {
    return OutOfRange("parsing time " + GoQuote(text));
  }
  return Time(unix_nanos);
}

std::string Time::Rfc3339() const { return FormatRfc3339(nanos_, /*with_fraction=*/false); }

std::string Time::Rfc3339Nano() const { return FormatRfc3339(nanos_, /*with_fraction=*/true); }

int64_t Time::UnixSeconds() const { return FloorDiv(nanos_, kNanosPerSecond); }

Time operator+(Time t, Duration d) {
  int64_t r;
  if (__builtin_add_overflow(t.nanos_, d.Nanos(), &r)) {
    r = d.Nanos() > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
  }
  return Time(r);
}

Time operator-(Time t, Duration d) {
  int64_t r;
  if (__builtin_sub_overflow(t.nanos_, d.Nanos(), &r)) {
    r = d.Nanos() < 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
  }
  return Time(r);
}

Duration operator-(Time a, Time b) {
  int64_t r;
  if (__builtin_sub_overflow(a.nanos_, b.nanos_, &r)) {
    return a.nanos_ > b.nanos_ ? Duration::Max() : Duration::Min();
  }
  return Duration::FromNanos(r);
}

}  // namespace karpenter::api
