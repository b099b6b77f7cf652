#include "src/api/cron.h"

#include <gtest/gtest.h>

#include <ctime>
#include <random>
#include <string>
#include <vector>

namespace karpenter::api {
namespace {

// Unix seconds of a UTC civil time, computed independently of the code under test.
int64_t Unix(int year, int month, int day, int hour = 0, int minute = 0, int second = 0) {
  std::tm tm{};
  tm.tm_year = year - 1900;
  tm.tm_mon = month - 1;
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  tm.tm_sec = second;
  return static_cast<int64_t>(timegm(&tm));
}

std::optional<int64_t> Next(std::string_view spec, int64_t after) {
  absl::StatusOr<CronSchedule> schedule = CronSchedule::Parse(spec);
  EXPECT_TRUE(schedule.ok()) << spec << ": " << schedule.status();
  if (!schedule.ok()) return std::nullopt;
  return schedule->NextAfterUnixSeconds(after);
}

std::string ErrorOf(std::string_view spec) {
  absl::Status status = ValidateCron(spec);
  return std::string(status.message());
}

TEST(Cron, AcceptsStandardFieldsAndMacros) {
  for (const char* spec : {"* * * * *", "0 9 * * mon-fri", "0 22 * * sat,sun", "*/15 0-6 1,15 * *",
                           "5/10 * * * *", "0 0 ? * ?", "0 0 1 JAN-jun Sun", "  0 9 * * 1  ",
                           "0,,5 * * * *", "+5 * * * *", "@annually", "@yearly", "@monthly",
                           "@weekly", "@daily", "@midnight", "@hourly", "@every 90m", " @daily "}) {
    EXPECT_TRUE(ValidateCron(spec).ok()) << spec << ": " << ValidateCron(spec);
  }
}

TEST(Cron, RejectsMalformedSpecsWithUpstreamMessages) {
  EXPECT_EQ(ErrorOf("*"), "expected exactly 5 fields, found 1: [*]");
  EXPECT_EQ(ErrorOf("* * * * "), "expected exactly 5 fields, found 4: [* * * *]");
  EXPECT_EQ(ErrorOf(""), "expected exactly 5 fields, found 0: []");
  EXPECT_EQ(ErrorOf("* * * * * *"), "expected exactly 5 fields, found 6: [* * * * * *]");
  EXPECT_EQ(ErrorOf("61 * * * *"), "end of range (61) above maximum (59): 61");
  EXPECT_EQ(ErrorOf("* 24 * * *"), "end of range (24) above maximum (23): 24");
  EXPECT_EQ(ErrorOf("* * 0 * *"), "beginning of range (0) below minimum (1): 0");
  EXPECT_EQ(ErrorOf("* * * 13 *"), "end of range (13) above maximum (12): 13");
  EXPECT_EQ(ErrorOf("* * * * 7"), "end of range (7) above maximum (6): 7");
  EXPECT_EQ(ErrorOf("5-1 * * * *"), "beginning of range (5) beyond end of range (1): 5-1");
  EXPECT_EQ(ErrorOf("*/0 * * * *"), "step of range should be a positive number: */0");
  EXPECT_EQ(ErrorOf("1-2-3 * * * *"), "too many hyphens: 1-2-3");
  EXPECT_EQ(ErrorOf("*/2/3 * * * *"), "too many slashes: */2/3");
  EXPECT_EQ(ErrorOf("a * * * *"), "failed to parse int from a");
  EXPECT_EQ(ErrorOf("-5 * * * *"), "failed to parse int from ");
  EXPECT_EQ(ErrorOf("*/-5 * * * *"), "negative number (-5) not allowed: -5");
  EXPECT_EQ(ErrorOf("* * * foo *"), "failed to parse int from foo");
  EXPECT_EQ(ErrorOf("@dailyx"), "unrecognized descriptor: @dailyx");
  EXPECT_EQ(ErrorOf("@daily foo"), "unrecognized descriptor: @daily foo");
  EXPECT_FALSE(ValidateCron("@every 1d").ok());
  // Karpenter forces UTC; a zone inside the schedule is an extra field.
  EXPECT_FALSE(ValidateCron("TZ=Europe/Paris 0 9 * * *").ok());
  EXPECT_EQ(ValidateCron("a * * * *").code(), absl::StatusCode::kInvalidArgument);
}

TEST(Cron, NextAfterIsStrictlyLaterAndOnWholeMinutes) {
  EXPECT_EQ(Next("* * * * *", Unix(2024, 6, 1, 10, 0, 30)), Unix(2024, 6, 1, 10, 1, 0));
  EXPECT_EQ(Next("* * * * *", Unix(2024, 6, 1, 10, 0, 0)), Unix(2024, 6, 1, 10, 1, 0));
  EXPECT_EQ(Next("0 9 * * *", Unix(2024, 6, 1, 9, 0, 0)), Unix(2024, 6, 2, 9, 0, 0));
  EXPECT_EQ(Next("0 9 * * *", Unix(2024, 6, 1, 8, 59, 59)), Unix(2024, 6, 1, 9, 0, 0));
}

TEST(Cron, NextAfterSkipsToTheNextMatchingWeekday) {
  // 2024-06-01 is a Saturday.
  EXPECT_EQ(Next("0 9 * * mon-fri", Unix(2024, 6, 1, 12)), Unix(2024, 6, 3, 9));
  EXPECT_EQ(Next("0 22 * * sat,sun", Unix(2024, 6, 3)), Unix(2024, 6, 8, 22));
  EXPECT_EQ(Next("@weekly", Unix(2024, 6, 1, 12)), Unix(2024, 6, 2));
}

TEST(Cron, NextAfterRollsOverMonthsAndYears) {
  EXPECT_EQ(Next("@yearly", Unix(2024, 6, 1)), Unix(2025, 1, 1));
  EXPECT_EQ(Next("@monthly", Unix(2024, 12, 15)), Unix(2025, 1, 1));
  EXPECT_EQ(Next("0 0 31 * *", Unix(2024, 4, 1)), Unix(2024, 5, 31));
  EXPECT_EQ(Next("0 0 29 2 *", Unix(2024, 3, 1)), Unix(2028, 2, 29));
  EXPECT_EQ(Next("30 23 31 12 *", Unix(2024, 12, 31, 23, 30)), Unix(2025, 12, 31, 23, 30));
}

TEST(Cron, NextAfterReturnsNothingForAnImpossibleDate) {
  EXPECT_EQ(Next("0 0 30 2 *", Unix(2024, 1, 1)), std::nullopt);
}

TEST(Cron, DayFieldsAreOredOnlyWhenBothAreRestricted) {
  // 2024-06-13 is a Thursday; the next Friday is the 14th.
  EXPECT_EQ(Next("0 0 13 * 5", Unix(2024, 6, 13, 1)), Unix(2024, 6, 14));
  EXPECT_EQ(Next("0 0 13 * *", Unix(2024, 6, 13, 1)), Unix(2024, 7, 13));
  // `*/1` keeps the star semantics, `*/2` does not.
  EXPECT_EQ(Next("0 0 1 * */1", Unix(2024, 6, 2)), Unix(2024, 7, 1));
  EXPECT_EQ(Next("0 0 1 * */2", Unix(2024, 6, 2)), Unix(2024, 6, 4));
}

TEST(Cron, StepsRangesAndNamesExpand) {
  EXPECT_EQ(Next("5/20 * * * *", Unix(2024, 6, 1, 10, 6)), Unix(2024, 6, 1, 10, 25));
  EXPECT_EQ(Next("*/15 * * * *", Unix(2024, 6, 1, 10, 46)), Unix(2024, 6, 1, 11, 0));
  EXPECT_EQ(Next("0 0 1 JUN-aug *", Unix(2024, 9, 1, 1)), Unix(2025, 6, 1));
  EXPECT_EQ(Next("@hourly", Unix(2024, 6, 1, 10, 59, 59)), Unix(2024, 6, 1, 11));
  EXPECT_EQ(Next("@every 90m", Unix(2024, 6, 1, 10)), Unix(2024, 6, 1, 11, 30));
  EXPECT_EQ(Next("@every 100ms", Unix(2024, 6, 1, 10)), Unix(2024, 6, 1, 10, 0, 1));
}

TEST(Cron, NextAfterTimeTruncatesToTheSecond) {
  absl::StatusOr<CronSchedule> schedule = CronSchedule::Parse("0 9 * * *");
  ASSERT_TRUE(schedule.ok());
  absl::StatusOr<Time> start = Time::ParseRfc3339("2024-06-01T08:59:59.5Z");
  ASSERT_TRUE(start.ok()) << start.status();
  std::optional<Time> next = schedule->NextAfter(*start);
  ASSERT_TRUE(next.has_value());
  EXPECT_EQ(next->Rfc3339(), "2024-06-01T09:00:00Z");
}

// Brute-force oracle: walk days, then minutes, with cron's day rule.
struct Fields {
  std::vector<bool> minute = std::vector<bool>(60), hour = std::vector<bool>(24),
                    dom = std::vector<bool>(32), month = std::vector<bool>(13),
                    dow = std::vector<bool>(7);
  bool dom_star = false, dow_star = false;
};

std::optional<int64_t> OracleNext(const Fields& f, int64_t after) {
  const int64_t start = (after / 60 + 1) * 60;
  for (int64_t day = start / 86400; day < start / 86400 + 5 * 366; ++day) {
    std::time_t t = static_cast<std::time_t>(day * 86400);
    std::tm tm{};
    gmtime_r(&t, &tm);
    const bool dom = f.dom[tm.tm_mday], dow = f.dow[tm.tm_wday];
    const bool day_ok = (f.dom_star || f.dow_star) ? (dom && dow) : (dom || dow);
    if (!f.month[tm.tm_mon + 1] || !day_ok) continue;
    for (int m = 0; m < 1440; ++m) {
      const int64_t at = day * 86400 + m * 60;
      if (at >= start && f.hour[m / 60] && f.minute[m % 60]) return at;
    }
  }
  return std::nullopt;
}

// Builds one random field, recording the allowed values in `allowed`.
std::string RandomField(std::mt19937& rng, int lo, int hi, std::vector<bool>& allowed, bool* star) {
  std::uniform_int_distribution<int> pick(lo, hi);
  switch (rng() % 4) {
    case 0:
      for (int i = lo; i <= hi; ++i) allowed[i] = true;
      if (star) *star = true;
      return "*";
    case 1: {
      int a = pick(rng), b = pick(rng);
      if (a > b) std::swap(a, b);
      for (int i = a; i <= b; ++i) allowed[i] = true;
      return std::to_string(a) + "-" + std::to_string(b);
    }
    case 2: {
      int a = pick(rng), step = 1 + static_cast<int>(rng() % 5);
      for (int i = a; i <= hi; i += step) allowed[i] = true;
      return std::to_string(a) + "/" + std::to_string(step);
    }
    default: {
      int a = pick(rng), b = pick(rng);
      allowed[a] = allowed[b] = true;
      return std::to_string(a) + "," + std::to_string(b);
    }
  }
}

TEST(Cron, NextAfterAgreesWithBruteForceOnRandomSchedules) {
  std::mt19937 rng(42);
  for (int i = 0; i < 150; ++i) {
    Fields f;
    std::string spec = RandomField(rng, 0, 59, f.minute, nullptr) + " " +
                       RandomField(rng, 0, 23, f.hour, nullptr) + " " +
                       RandomField(rng, 1, 31, f.dom, &f.dom_star) + " " +
                       RandomField(rng, 1, 12, f.month, nullptr) + " " +
                       RandomField(rng, 0, 6, f.dow, &f.dow_star);
    const int64_t after = Unix(2024, 1, 1) + static_cast<int64_t>(rng() % (3 * 365 * 86400));
    EXPECT_EQ(Next(spec, after), OracleNext(f, after)) << spec << " after " << after;
  }
}

}  // namespace
}  // namespace karpenter::api
