#include "src/api/time.h"

#include <cstdint>
#include <limits>
#include <random>
#include <string>

#include "fmt/format.h"
#include "gtest/gtest.h"

namespace karpenter::api {
namespace {

constexpr int64_t kNanos = 1'000'000'000;

Time T(std::string_view text) {
  absl::StatusOr<Time> t = Time::ParseRfc3339(text);
  EXPECT_TRUE(t.ok()) << text << ": " << t.status();
  return t.ok() ? *t : Time();
}

std::string ParseError(std::string_view text) {
  absl::StatusOr<Time> t = Time::ParseRfc3339(text);
  EXPECT_FALSE(t.ok()) << text;
  return t.ok() ? "" : std::string(t.status().message());
}

TEST(Time, ParsesUtcSecondsPrecision) {
  const Time t = T("2024-06-22T02:24:16Z");
  EXPECT_EQ(t.UnixSeconds(), 1719023056);
  EXPECT_EQ(t.UnixNanos(), int64_t{1719023056} * kNanos);
  EXPECT_EQ(t.Rfc3339(), "2024-06-22T02:24:16Z");
  EXPECT_EQ(t.Rfc3339Nano(), "2024-06-22T02:24:16Z");
}

TEST(Time, ParsesFractionalSeconds) {
  const Time t = T("2024-06-22T02:24:16.123456789Z");
  EXPECT_EQ(t.UnixNanos(), int64_t{1719023056} * kNanos + 123456789);
  EXPECT_EQ(t.Rfc3339(), "2024-06-22T02:24:16Z");  // metav1.Time drops the fraction
  EXPECT_EQ(t.Rfc3339Nano(), "2024-06-22T02:24:16.123456789Z");
  EXPECT_EQ(T("2024-06-22T02:24:16.5Z").Rfc3339Nano(), "2024-06-22T02:24:16.5Z");
  EXPECT_EQ(T("2024-06-22T02:24:16.120Z").Rfc3339Nano(), "2024-06-22T02:24:16.12Z");
  // Digits past nanoseconds are dropped, not rounded.
  EXPECT_EQ(T("2024-06-22T02:24:16.1234567899Z").UnixNanos() % kNanos, 123456789);
}

TEST(Time, AppliesOffsets) {
  EXPECT_EQ(T("2024-06-22T04:24:16+02:00"), T("2024-06-22T02:24:16Z"));
  EXPECT_EQ(T("2024-06-21T18:54:16-07:30").Rfc3339(), "2024-06-22T02:24:16Z");
  EXPECT_EQ(T("2024-01-01T00:30:00+01:00").Rfc3339(), "2023-12-31T23:30:00Z");
  EXPECT_EQ(T("2024-06-22T02:24:16+00:00"), T("2024-06-22T02:24:16Z"));
}

TEST(Time, AcceptsWhatGoFallbackParserAccepts) {
  // time.Parse retries RFC 3339 input with its general layout parser, which is laxer.
  EXPECT_EQ(T("2024-06-22T2:24:16Z").Rfc3339(), "2024-06-22T02:24:16Z");
  EXPECT_EQ(T("2024-06-22T02:24:16,25Z").Rfc3339Nano(), "2024-06-22T02:24:16.25Z");
  EXPECT_EQ(T("2024-06-22T02:24:16+24:00").Rfc3339(), "2024-06-21T02:24:16Z");
  EXPECT_EQ(T("2024-06-22T02:24:16-00:60").Rfc3339(), "2024-06-22T03:24:16Z");
}

TEST(Time, ValidatesCalendarDates) {
  EXPECT_EQ(T("2024-02-29T00:00:00Z").Rfc3339(), "2024-02-29T00:00:00Z");
  EXPECT_EQ(T("2000-02-29T00:00:00Z").Rfc3339(), "2000-02-29T00:00:00Z");
  EXPECT_EQ(ParseError("2023-02-29T00:00:00Z"),
            "parsing time \"2023-02-29T00:00:00Z\": day out of range");
  EXPECT_EQ(ParseError("1900-02-29T00:00:00Z"),
            "parsing time \"1900-02-29T00:00:00Z\": day out of range");
  EXPECT_EQ(ParseError("2024-04-31T00:00:00Z"),
            "parsing time \"2024-04-31T00:00:00Z\": day out of range");
  EXPECT_EQ(ParseError("2024-01-00T00:00:00Z"),
            "parsing time \"2024-01-00T00:00:00Z\": day out of range");
  EXPECT_EQ(ParseError("2024-13-01T00:00:00Z"),
            "parsing time \"2024-13-01T00:00:00Z\": month out of range");
  EXPECT_EQ(ParseError("2024-00-01T00:00:00Z"),
            "parsing time \"2024-00-01T00:00:00Z\": month out of range");
  EXPECT_EQ(ParseError("2024-01-01T24:00:00Z"),
            "parsing time \"2024-01-01T24:00:00Z\": hour out of range");
  EXPECT_EQ(ParseError("2024-01-01T00:60:00Z"),
            "parsing time \"2024-01-01T00:60:00Z\": minute out of range");
  EXPECT_EQ(ParseError("2024-01-01T23:59:60Z"),
            "parsing time \"2024-01-01T23:59:60Z\": second out of range");
  EXPECT_EQ(ParseError("2024-01-01T00:00:00+25:00"),
            "parsing time \"2024-01-01T00:00:00+25:00\": time zone offset hour out of range");
  EXPECT_EQ(ParseError("2024-01-01T00:00:00+25:61"),
            "parsing time \"2024-01-01T00:00:00+25:61\": time zone offset minute out of range");
}

TEST(Time, RejectsMalformedTextWithGoMessages) {
  const std::string layout = " as \"2006-01-02T15:04:05Z07:00\": cannot parse ";
  EXPECT_EQ(ParseError(""), "parsing time \"\"" + layout + "\"\" as \"2006\"");
  EXPECT_EQ(ParseError("24-06-22T02:24:16Z"),
            "parsing time \"24-06-22T02:24:16Z\"" + layout + "\"24-06-22T02:24:16Z\" as \"2006\"");
  EXPECT_EQ(ParseError("2024/06/22T02:24:16Z"),
            "parsing time \"2024/06/22T02:24:16Z\"" + layout + "\"/06/22T02:24:16Z\" as \"-\"");
  EXPECT_EQ(ParseError("2024-6-22T02:24:16Z"),
            "parsing time \"2024-6-22T02:24:16Z\"" + layout + "\"6-22T02:24:16Z\" as \"01\"");
  EXPECT_EQ(ParseError("2024-06-22 02:24:16Z"),
            "parsing time \"2024-06-22 02:24:16Z\"" + layout + "\" 02:24:16Z\" as \"T\"");
  EXPECT_EQ(ParseError("2024-06-22t02:24:16Z"),
            "parsing time \"2024-06-22t02:24:16Z\"" + layout + "\"t02:24:16Z\" as \"T\"");
  EXPECT_EQ(ParseError("2024-06-22T02:24:16"),
            "parsing time \"2024-06-22T02:24:16\"" + layout + "\"\" as \"Z07:00\"");
  EXPECT_EQ(ParseError("2024-06-22T02:24:16z"),
            "parsing time \"2024-06-22T02:24:16z\"" + layout + "\"z\" as \"Z07:00\"");
  EXPECT_EQ(ParseError("2024-06-22T02:24:16+0200"),
            "parsing time \"2024-06-22T02:24:16+0200\"" + layout + "\"+0200\" as \"Z07:00\"");
  EXPECT_EQ(ParseError("2024-06-22T02:24:16*02:00"),
            "parsing time \"2024-06-22T02:24:16*02:00\"" + layout + "\"*02:00\" as \"Z07:00\"");
  EXPECT_EQ(ParseError("2024-06-22T02:24:16.Z"),
            "parsing time \"2024-06-22T02:24:16.Z\"" + layout + "\".Z\" as \"Z07:00\"");
  EXPECT_EQ(ParseError("2024-06-22T02:24:16Zjunk"),
            "parsing time \"2024-06-22T02:24:16Zjunk\": extra text: \"junk\"");
  EXPECT_EQ(ParseError("2024-06-22T02:24:16Z\xff"),
            "parsing time \"2024-06-22T02:24:16Z\\xff\": extra text: \"\\xff\"");
}

TEST(Time, RejectsInstantsOutsideInt64Nanos) {
  for (const char* text : {"0001-01-01T00:00:00Z", "1677-09-21T00:12:43.145224191Z",
                           "2262-04-11T23:47:16.854775808Z", "9999-12-31T23:59:59Z"}) {
    const absl::StatusOr<Time> t = Time::ParseRfc3339(text);
    ASSERT_FALSE(t.ok()) << text;
    EXPECT_EQ(t.status().code(), absl::StatusCode::kOutOfRange) << text;
  }
  EXPECT_EQ(T("2262-04-11T23:47:16.854775807Z").UnixNanos(), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(T("1677-09-21T00:12:43.145224192Z").UnixNanos(), std::numeric_limits<int64_t>::min());
  // The offset can bring an instant back into range.
  EXPECT_EQ(T("2262-04-12T00:47:16.854775807+01:00").UnixNanos(),
            std::numeric_limits<int64_t>::max());
}

TEST(Time, FormatsInstantsBeforeEpoch) {
  EXPECT_EQ(Time::FromUnixNanos(-1).Rfc3339Nano(), "1969-12-31T23:59:59.999999999Z");
  EXPECT_EQ(Time::FromUnixNanos(-1).Rfc3339(), "1969-12-31T23:59:59Z");
  EXPECT_EQ(Time::FromUnixNanos(-1).UnixSeconds(), -1);
  EXPECT_EQ(Time::FromUnixSeconds(-2203891200).Rfc3339(), "1900-03-01T00:00:00Z");
  EXPECT_EQ(Time::FromUnixNanos(std::numeric_limits<int64_t>::min()).Rfc3339Nano(),
            "1677-09-21T00:12:43.145224192Z");
  EXPECT_EQ(Time().Rfc3339(), "1970-01-01T00:00:00Z");
}

TEST(Time, FromCivilMatchesKnownInstants) {
  EXPECT_EQ(*Time::FromCivil(1970, 1, 1, 0, 0, 0, 0), Time());
  EXPECT_EQ(Time::FromCivil(2000, 3, 1, 0, 0, 0, 0)->UnixSeconds(), 951868800);
  EXPECT_EQ(Time::FromCivil(2024, 6, 22, 2, 24, 16, 5)->UnixNanos(),
            int64_t{1719023056} * kNanos + 5);
  EXPECT_EQ(Time::FromCivil(2023, 2, 29, 0, 0, 0, 0).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Time::FromCivil(2024, 1, 1, 24, 0, 0, 0).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Time::FromCivil(3000, 1, 1, 0, 0, 0, 0).status().code(), absl::StatusCode::kOutOfRange);
  EXPECT_EQ(Time::FromCivil(int64_t{1} << 60, 1, 1, 0, 0, 0, 0).status().code(),
            absl::StatusCode::kOutOfRange);
}

TEST(Time, CivilConversionIsConsistentForEveryDayInRange) {
  // Walks day by day through the representable range: each date must sit exactly one day after
  // the previous one and print back as itself.
  int64_t previous = Time::FromCivil(1678, 1, 1, 0, 0, 0, 0)->UnixSeconds() - 86400;
  for (int64_t year = 1678; year <= 2261; ++year) {
    for (int month = 1; month <= 12; ++month) {
      for (int day = 1; day <= 31; ++day) {
        const absl::StatusOr<Time> t = Time::FromCivil(year, month, day, 0, 0, 0, 0);
        if (!t.ok()) {
          ASSERT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument);
          ASSERT_GT(day, 28);
          continue;
        }
        ASSERT_EQ(t->UnixSeconds(), previous + 86400) << year << "-" << month << "-" << day;
        previous = t->UnixSeconds();
        ASSERT_EQ(t->Rfc3339(), fmt::format("{:04}-{:02}-{:02}T00:00:00Z", year, month, day));
      }
    }
  }
}

TEST(Time, Rfc3339NanoRoundTripsThroughParse) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 20000; ++i) {
    const Time t = Time::FromUnixNanos(static_cast<int64_t>(rng()));
    EXPECT_EQ(T(t.Rfc3339Nano()), t) << t.Rfc3339Nano();
    EXPECT_EQ(T(t.Rfc3339()).UnixSeconds(), t.UnixSeconds());
  }
}

TEST(Time, ArithmeticWithDurations) {
  const Time t = T("2024-06-22T02:24:16Z");
  EXPECT_EQ((t + Duration::FromHours(1)).Rfc3339(), "2024-06-22T03:24:16Z");
  EXPECT_EQ((t - Duration::FromHours(48)).Rfc3339(), "2024-06-20T02:24:16Z");
  EXPECT_EQ(T("2024-06-22T03:00:00Z") - T("2024-06-22T02:24:16Z"), *Duration::Parse("35m44s"));
  EXPECT_EQ((T("2024-06-22T02:24:16Z") - T("2024-06-22T03:00:00Z")).String(), "-35m44s");
  EXPECT_LT(t, t + Duration::FromNanos(1));
  EXPECT_GT(t, t - Duration::FromNanos(1));
  EXPECT_EQ(t + Duration(), t);
}

TEST(Time, ArithmeticSaturates) {
  const Time max = Time::FromUnixNanos(std::numeric_limits<int64_t>::max());
  const Time min = Time::FromUnixNanos(std::numeric_limits<int64_t>::min());
  EXPECT_EQ(max + Duration::FromHours(1), max);
  EXPECT_EQ(min - Duration::FromHours(1), min);
  EXPECT_EQ(min + Duration::FromHours(-1), min);
  EXPECT_EQ(max - min, Duration::Max());  // as Go's Time.Sub clamps
  EXPECT_EQ(min - max, Duration::Min());
  EXPECT_EQ(Time::FromUnixSeconds(std::numeric_limits<int64_t>::max()), max);
}

}  // namespace
}  // namespace karpenter::api
