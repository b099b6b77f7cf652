#include "src/api/cron.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <span>
#include <string>
#include <vector>

#include "karpenter/common/status.h"
#include "src/api/duration.h"

namespace karpenter::api {

// Parsing lives in a friend so the schedule's bit sets stay private.
struct CronParser {
  struct Bounds {
    uint32_t min;
    uint32_t max;
    std::span<const std::string_view> names;  // index + name_offset = value
    uint32_t name_offset;
  };

  static absl::StatusOr<CronSchedule> Parse(std::string_view spec);
  static absl::StatusOr<CronSchedule> ParseDescriptor(std::string_view spec);
  static absl::StatusOr<uint64_t> ParseField(std::string_view field, const Bounds& bounds);
  static absl::StatusOr<uint64_t> ParseRange(std::string_view expr, const Bounds& bounds);
  static absl::StatusOr<uint32_t> ParseIntOrName(std::string_view expr, const Bounds& bounds);
  static absl::StatusOr<uint32_t> ParseNonNegativeInt(std::string_view expr);
};

namespace {

constexpr std::array<std::string_view, 12> kMonthNames = {"jan", "feb", "mar", "apr", "may", "jun",
                                                          "jul", "aug", "sep", "oct", "nov", "dec"};
constexpr std::array<std::string_view, 7> kDayNames = {"sun", "mon", "tue", "wed",
                                                       "thu", "fri", "sat"};

constexpr CronParser::Bounds kMinutes = {0, 59, {}, 0};
constexpr CronParser::Bounds kHours = {0, 23, {}, 0};
constexpr CronParser::Bounds kDaysOfMonth = {1, 31, {}, 0};
constexpr CronParser::Bounds kMonths = {1, 12, kMonthNames, 1};
constexpr CronParser::Bounds kDaysOfWeek = {0, 6, kDayNames, 0};

uint64_t Bits(uint32_t min, uint32_t max, uint32_t step) {
  uint64_t bits = 0;
  for (uint32_t i = min; i <= max; i += step) bits |= uint64_t{1} << i;
  return bits;
}

// Go's strings.Fields / TrimSpace treat these ASCII bytes as white space.
bool IsSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

std::string_view Trim(std::string_view s) {
  while (!s.empty() && IsSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && IsSpace(s.back())) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> SplitFields(std::string_view s) {
  std::vector<std::string_view> fields;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && IsSpace(s[i])) ++i;
    size_t start = i;
    while (i < s.size() && !IsSpace(s[i])) ++i;
    if (i > start) fields.push_back(s.substr(start, i - start));
  }
  return fields;
}

// Splits on `sep`, keeping empty pieces (Go's strings.Split).
std::vector<std::string_view> Split(std::string_view s, char sep) {
  std::vector<std::string_view> pieces;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      pieces.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return pieces;
}

std::string Join(const std::vector<std::string_view>& pieces, std::string_view sep) {
  std::string out;
  for (size_t i = 0; i < pieces.size(); ++i) {
    if (i > 0) out += sep;
    out += pieces[i];
  }
  return out;
}

std::string ToLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

absl::Status Invalid(std::string message) { return absl::InvalidArgumentError(std::move(message)); }

// ---- UTC civil time on Unix seconds (proleptic Gregorian, as Go's time package) ----

int64_t FloorDiv(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

// Days since 1970-01-01 of a (possibly denormalised, day >= 1 or more) date; month 1..12.
int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  const int64_t era = FloorDiv(y, 400);
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

struct Civil {
  int64_t year;
  int month;  // 1..12
  int day;    // 1..31
  int hour;
  int minute;
  int second;
  int weekday;  // 0 = Sunday
};

Civil ToCivil(int64_t unix_seconds) {
  const int64_t days = FloorDiv(unix_seconds, 86400);
  const int64_t secs = unix_seconds - days * 86400;
  const int64_t z = days + 719468;
  const int64_t era = FloorDiv(z, 146097);
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  const int day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  const int month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  const int64_t year = yoe + era * 400 + (month <= 2);
  const int weekday = static_cast<int>(((days % 7) + 11) % 7);  // 1970-01-01 was a Thursday
  return {year,
          month,
          day,
          static_cast<int>(secs / 3600),
          static_cast<int>((secs / 60) % 60),
          static_cast<int>(secs % 60),
          weekday};
}

// Go's time.Date: out-of-range months and days roll over into the next ones.
int64_t FromCivil(int64_t year, int64_t month, int64_t day, int64_t hour, int64_t minute,
                  int64_t second) {
  const int64_t month0 = month - 1;
  year += FloorDiv(month0, 12);
  month = month0 - FloorDiv(month0, 12) * 12 + 1;
  return (DaysFromCivil(year, month, 1) + day - 1) * 86400 + hour * 3600 + minute * 60 + second;
}

}  // namespace

absl::StatusOr<uint32_t> CronParser::ParseNonNegativeInt(std::string_view expr) {
  // strconv.Atoi: optional sign, decimal digits, no spaces.
  std::string_view digits = expr;
  bool negative = false;
  if (!digits.empty() && (digits.front() == '+' || digits.front() == '-')) {
    negative = digits.front() == '-';
    digits.remove_prefix(1);
  }
  int64_t value = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() ||
      digits.front() == '+' || digits.front() == '-') {
    return Invalid("failed to parse int from " + std::string(expr));
  }
  if (negative && value != 0) {
    return Invalid("negative number (-" + std::string(digits) +
                   ") not allowed: " + std::string(expr));
  }
  if (value > UINT32_MAX) return static_cast<uint32_t>(UINT32_MAX);
  return static_cast<uint32_t>(value);
}

absl::StatusOr<uint32_t> CronParser::ParseIntOrName(std::string_view expr, const Bounds& bounds) {
  const std::string lower = ToLower(expr);
  for (size_t i = 0; i < bounds.names.size(); ++i) {
    if (bounds.names[i] == lower) return static_cast<uint32_t>(i) + bounds.name_offset;
  }
  return ParseNonNegativeInt(expr);
}

absl::StatusOr<uint64_t> CronParser::ParseRange(std::string_view expr, const Bounds& bounds) {
  const std::vector<std::string_view> range_and_step = Split(expr, '/');
  const std::vector<std::string_view> low_and_high = Split(range_and_step[0], '-');
  const bool single_value = low_and_high.size() == 1;

  uint32_t start = 0;
  uint32_t end = 0;
  uint64_t extra = 0;
  if (low_and_high[0] == "*" || low_and_high[0] == "?") {
    // Upstream ignores anything after a hyphen here ("*-5" is "*").
    start = bounds.min;
    end = bounds.max;
    extra = CronSchedule::kStarBit;
  } else {
    KP_ASSIGN_OR_RETURN(start, ParseIntOrName(low_and_high[0], bounds));
    if (low_and_high.size() == 1) {
      end = start;
    } else if (low_and_high.size() == 2) {
      KP_ASSIGN_OR_RETURN(end, ParseIntOrName(low_and_high[1], bounds));
    } else {
      return Invalid("too many hyphens: " + std::string(expr));
    }
  }

  uint32_t step = 1;
  if (range_and_step.size() == 2) {
    KP_ASSIGN_OR_RETURN(step, ParseNonNegativeInt(range_and_step[1]));
    if (single_value) end = bounds.max;  // "N/step" means N..max
    if (step > 1) extra = 0;
  } else if (range_and_step.size() > 2) {
    return Invalid("too many slashes: " + std::string(expr));
  }

  const std::string e(expr);
  if (start < bounds.min) {
    return Invalid("beginning of range (" + std::to_string(start) + ") below minimum (" +
                   std::to_string(bounds.min) + "): " + e);
  }
  if (end > bounds.max) {
    return Invalid("end of range (" + std::to_string(end) + ") above maximum (" +
                   std::to_string(bounds.max) + "): " + e);
  }
  if (start > end) {
    return Invalid("beginning of range (" + std::to_string(start) + ") beyond end of range (" +
                   std::to_string(end) + "): " + e);
  }
  if (step == 0) return Invalid("step of range should be a positive number: " + e);
  return Bits(start, end, step) | extra;
}

absl::StatusOr<uint64_t> CronParser::ParseField(std::string_view field, const Bounds& bounds) {
  uint64_t bits = 0;
  // Empty list items are skipped, as upstream splits with FieldsFunc.
  for (std::string_view range : Split(field, ',')) {
    if (range.empty()) continue;
    KP_ASSIGN_OR_RETURN(uint64_t range_bits, ParseRange(range, bounds));
    bits |= range_bits;
  }
  return bits;
}

absl::StatusOr<CronSchedule> CronParser::ParseDescriptor(std::string_view spec) {
  CronSchedule schedule;
  const uint64_t all_dom = Bits(1, 31, 1) | CronSchedule::kStarBit;
  const uint64_t all_dow = Bits(0, 6, 1) | CronSchedule::kStarBit;
  const uint64_t all_months = Bits(1, 12, 1) | CronSchedule::kStarBit;
  schedule.minute_ = 1;  // minute 0
  schedule.hour_ = 1;    // hour 0
  schedule.day_of_month_ = all_dom;
  schedule.month_ = all_months;
  schedule.day_of_week_ = all_dow;
  if (spec == "@yearly" || spec == "@annually") {
    schedule.day_of_month_ = uint64_t{1} << 1;
    schedule.month_ = uint64_t{1} << 1;
  } else if (spec == "@monthly") {
    schedule.day_of_month_ = uint64_t{1} << 1;
  } else if (spec == "@weekly") {
    schedule.day_of_week_ = 1;  // Sunday
  } else if (spec == "@daily" || spec == "@midnight") {
    // defaults above
  } else if (spec == "@hourly") {
    schedule.hour_ = Bits(0, 23, 1) | CronSchedule::kStarBit;
  } else if (spec.starts_with("@every ")) {
    absl::StatusOr<Duration> every = Duration::Parse(spec.substr(7));
    if (!every.ok()) {
      return Invalid("failed to parse duration " + std::string(spec) + ": " +
                     std::string(every.status().message()));
    }
    const int64_t nanos = std::max(every->Nanos(), Duration::kSecond);
    schedule.every_seconds_ = nanos / Duration::kSecond;
  } else {
    return Invalid("unrecognized descriptor: " + std::string(spec));
  }
  return schedule;
}

absl::StatusOr<CronSchedule> CronParser::Parse(std::string_view raw_spec) {
  // Karpenter parses "TZ=UTC " + spec; upstream then trims what follows the zone.
  const std::string_view spec = Trim(raw_spec);
  if (spec.starts_with("@")) return ParseDescriptor(spec);
  const std::vector<std::string_view> fields = SplitFields(spec);
  if (fields.size() != 5) {
    return Invalid("expected exactly 5 fields, found " + std::to_string(fields.size()) + ": [" +
                   Join(fields, " ") + "]");
  }
  CronSchedule schedule;
  KP_ASSIGN_OR_RETURN(schedule.minute_, ParseField(fields[0], kMinutes));
  KP_ASSIGN_OR_RETURN(schedule.hour_, ParseField(fields[1], kHours));
  KP_ASSIGN_OR_RETURN(schedule.day_of_month_, ParseField(fields[2], kDaysOfMonth));
  KP_ASSIGN_OR_RETURN(schedule.month_, ParseField(fields[3], kMonths));
  KP_ASSIGN_OR_RETURN(schedule.day_of_week_, ParseField(fields[4], kDaysOfWeek));
  return schedule;
}

absl::StatusOr<CronSchedule> CronSchedule::Parse(std::string_view spec) {
  return CronParser::Parse(spec);
}

absl::Status ValidateCron(std::string_view spec) { return CronSchedule::Parse(spec).status(); }

// The state of one NextAfter search. Each step advances `t` until its field matches and reports
// whether the field wrapped around (then the search restarts from the month). The first step that
// moves `t` also truncates the smaller fields, as upstream does.
struct CronSearch {
  const CronSchedule& schedule;
  int64_t t;
  bool added = false;

  static bool Has(uint64_t bits, int value) { return (bits >> value) & 1; }

  bool DayMatches(const Civil& c) const {
    const bool dom = Has(schedule.day_of_month_, c.day);
    const bool dow = Has(schedule.day_of_week_, c.weekday);
    if ((schedule.day_of_month_ & CronSchedule::kStarBit) ||
        (schedule.day_of_week_ & CronSchedule::kStarBit)) {
      return dom && dow;
    }
    return dom || dow;
  }

  void Truncate(int64_t truncated) {
    if (added) return;
    added = true;
    t = truncated;
  }

  bool WrapsMonth() {
    for (Civil c = ToCivil(t); !Has(schedule.month_, c.month); c = ToCivil(t)) {
      Truncate(FromCivil(c.year, c.month, 1, 0, 0, 0));
      c = ToCivil(t);
      t = FromCivil(c.year, c.month + 1, c.day, c.hour, c.minute, c.second);
      if (ToCivil(t).month == 1) return true;
    }
    return false;
  }

  bool WrapsDay() {
    for (Civil c = ToCivil(t); !DayMatches(c); c = ToCivil(t)) {
      Truncate(FromCivil(c.year, c.month, c.day, 0, 0, 0));
      t += 86400;
      if (ToCivil(t).day == 1) return true;
    }
    return false;
  }

  bool WrapsHour() {
    for (Civil c = ToCivil(t); !Has(schedule.hour_, c.hour); c = ToCivil(t)) {
      Truncate(FromCivil(c.year, c.month, c.day, c.hour, 0, 0));
      t += 3600;
      if (ToCivil(t).hour == 0) return true;
    }
    return false;
  }

  bool WrapsMinute() {
    for (Civil c = ToCivil(t); !Has(schedule.minute_, c.minute); c = ToCivil(t)) {
      Truncate(t - c.second);
      t += 60;
      if (ToCivil(t).minute == 0) return true;
    }
    return false;
  }

  // The seconds field of a 5-field spec is always {0}.
  bool WrapsSecond() {
    if (ToCivil(t).second == 0) return false;
    added = true;
    t += 60 - ToCivil(t).second;
    return true;
  }
};

std::optional<Time> CronSchedule::NextAfter(Time t) const {
  std::optional<int64_t> next = NextAfterUnixSeconds(t.UnixSeconds());
  if (!next) return std::nullopt;
  return Time::FromUnixSeconds(*next);
}

std::optional<int64_t> CronSchedule::NextAfterUnixSeconds(int64_t unix_seconds) const {
  if (every_seconds_ > 0) return unix_seconds + every_seconds_;
  // Mirrors upstream's search: start at the next whole second, then walk month, day, hour,
  // minute and second; whenever a field wraps, start over from the month. Give up five years out.
  CronSearch search{.schedule = *this, .t = unix_seconds + 1};
  const int64_t year_limit = ToCivil(search.t).year + 5;
  while (ToCivil(search.t).year <= year_limit) {
    if (search.WrapsMonth() || search.WrapsDay() || search.WrapsHour() || search.WrapsMinute() ||
        search.WrapsSecond()) {
      continue;
    }
    return search.t;
  }
  return std::nullopt;
}

}  // namespace karpenter::api
