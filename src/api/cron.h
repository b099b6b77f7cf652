// Cron schedules for NodePool disruption budgets: standard 5-field specs ("0 9 * * mon-fri") and
// the @-macros, parsed and evaluated exactly as Karpenter does (robfig/cron ParseStandard with a
// forced "TZ=UTC" prefix), so a schedule is valid here iff it is valid for Karpenter, and fires at
// the same instants. Always UTC.
//
// Grammar per field: comma-separated ranges; a range is `*`, `?`, `N`, `N-M`, any of them with
// `/step` (`N/step` means N..max); months and weekdays also accept jan..dec / sun..sat (any case).
// Bounds: minute 0-59, hour 0-23, day-of-month 1-31, month 1-12, day-of-week 0-6 (Sunday = 0).
// Day matching follows cron: when both day fields are restricted, either may match; when one is
// `*`/`?` (without a step > 1), only the other counts.
// Macros: @yearly/@annually, @monthly, @weekly, @daily/@midnight, @hourly, and `@every <duration>`.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "src/api/time.h"

namespace karpenter::api {

class CronSchedule {
 public:
  // Leading/trailing whitespace is ignored, as upstream trims it. Errors are InvalidArgument with
  // upstream's wording ("expected exactly 5 fields, found 1: [*]").
  static absl::StatusOr<CronSchedule> Parse(std::string_view spec);

  // The first fire time strictly after `t`, at whole-second precision. nullopt when the schedule
  // never fires within the following five years (e.g. "0 0 30 2 *"); upstream returns the zero
  // time there, which Karpenter's budget check then treats as "already fired", i.e. active.
  std::optional<Time> NextAfter(Time t) const;
  // Same on Unix seconds (UTC).
  std::optional<int64_t> NextAfterUnixSeconds(int64_t unix_seconds) const;

  bool operator==(const CronSchedule&) const = default;

 private:
  CronSchedule() = default;

  // Bit i set = value i allowed. kStarBit marks a day field written as `*`/`?`.
  static constexpr uint64_t kStarBit = uint64_t{1} << 63;
  uint64_t minute_ = 0;
  uint64_t hour_ = 0;
  uint64_t day_of_month_ = 0;
  uint64_t month_ = 0;
  uint64_t day_of_week_ = 0;
  int64_t every_seconds_ = 0;  // > 0 for `@every`, which ignores the fields above

  friend struct CronParser;
  friend struct CronSearch;
};

// OK iff CronSchedule::Parse accepts `spec`.
absl::Status ValidateCron(std::string_view spec);

}  // namespace karpenter::api
