#include "src/api/duration.h"

#include <cstdint>
#include <limits>
#include <random>
#include <string>

#include "gtest/gtest.h"
#include "src/api/go_quote.h"

namespace karpenter::api {
namespace {

constexpr int64_t kNs = Duration::kNanosecond;
constexpr int64_t kUs = Duration::kMicrosecond;
constexpr int64_t kMs = Duration::kMillisecond;
constexpr int64_t kS = Duration::kSecond;
constexpr int64_t kM = Duration::kMinute;
constexpr int64_t kH = Duration::kHour;

int64_t ParseNanos(std::string_view text) {
  absl::StatusOr<Duration> d = Duration::Parse(text);
  EXPECT_TRUE(d.ok()) << text << ": " << d.status();
  return d.ok() ? d->Nanos() : -12345;
}

// Cases from Go's parseDurationTests (src/time/time_test.go) plus the task's examples.
TEST(Duration, ParseMatchesGo) {
  struct Case {
    const char* text;
    int64_t nanos;
  };
  const Case cases[] = {
      {"0", 0},
      {"5s", 5 * kS},
      {"30s", 30 * kS},
      {"1478s", 1478 * kS},
      {"-5s", -5 * kS},
      {"+5s", 5 * kS},
      {"-0", 0},
      {"+0", 0},
      {"5.0s", 5 * kS},
      {"5.6s", 5 * kS + 600 * kMs},
      {"5.s", 5 * kS},
      {".5s", 500 * kMs},
      {"1.0s", 1 * kS},
      {"1.004s", 1 * kS + 4 * kMs},
      {"100.00100s", 100 * kS + 1 * kMs},
      {"10ns", 10 * kNs},
      {"11us", 11 * kUs},
      {"12\xC2\xB5s", 12 * kUs},  // U+00B5 micro sign
      {"12\xCE\xBCs", 12 * kUs},  // U+03BC Greek mu
      {"13ms", 13 * kMs},
      {"15m", 15 * kM},
      {"16h", 16 * kH},
      {"3h30m", 3 * kH + 30 * kM},
      {"10.5s4m", 4 * kM + 10 * kS + 500 * kMs},
      {"-2m3.4s", -(2 * kM + 3 * kS + 400 * kMs)},
      {"1h2m3s4ms5us6ns", kH + 2 * kM + 3 * kS + 4 * kMs + 5 * kUs + 6 * kNs},
      {"39h9m14.425s", 39 * kH + 9 * kM + 14 * kS + 425 * kMs},
      {"52763797000ns", 52763797000 * kNs},
      {"0.3333333333333333333h", 20 * kM},
      {"9007199254740993ns", (int64_t{1} << 53) + 1},
      {"9223372036854775807ns", std::numeric_limits<int64_t>::max()},
      {"9223372036854775.807us", std::numeric_limits<int64_t>::max()},
      {"9223372036s854ms775us807ns", std::numeric_limits<int64_t>::max()},
      {"-9223372036854775808ns", std::numeric_limits<int64_t>::min()},
      {"-9223372036854775.808us", std::numeric_limits<int64_t>::min()},
      {"-2562047h47m16.854775808s", std::numeric_limits<int64_t>::min()},
      {"0.100000000000000000000h", 6 * kM},
      {"0.830103483285477580700h", 49 * kM + 48 * kS + 372539827 * kNs},
      {"720h", 720 * kH},
      {"1m30s", 90 * kS},
      {"1.5h", 90 * kM},
      {"300ms", 300 * kMs},
      {"2h45m", 2 * kH + 45 * kM},
      {"-1.5h", -90 * kM},
  };
  for (const Case& c : cases) EXPECT_EQ(ParseNanos(c.text), c.nanos) << c.text;
}

TEST(Duration, ParseRejectsWithGoMessages) {
  struct Case {
    const char* text;
    const char* message;
  };
  const Case cases[] = {
      {"", "time: invalid duration \"\""},
      {"1", "time: missing unit in duration \"1\""},
      {"3", "time: missing unit in duration \"3\""},
      {"1x", "time: unknown unit \"x\" in duration \"1x\""},
      {"1d", "time: unknown unit \"d\" in duration \"1d\""},
      {"h", "time: invalid duration \"h\""},
      {"-", "time: invalid duration \"-\""},
      {"s", "time: invalid duration \"s\""},
      {".", "time: invalid duration \".\""},
      {"-.", "time: invalid duration \"-.\""},
      {".s", "time: invalid duration \".s\""},
      {"+.s", "time: invalid duration \"+.s\""},
      {"1s ", "time: unknown unit \"s \" in duration \"1s \""},
      {"\x85\x85", "time: invalid duration \"\\x85\\x85\""},
      {"\xff\xff", "time: invalid duration \"\\xff\\xff\""},
      {"hello \xff\xff world", "time: invalid duration \"hello \\xff\\xff world\""},
      {"1\xC2\xB5", "time: unknown unit \"\\xc2\\xb5\" in duration \"1\\xc2\\xb5\""},
      {"9223372036854775808ns", "time: invalid duration \"9223372036854775808ns\""},
      {"9223372036854775.808us", "time: invalid duration \"9223372036854775.808us\""},
      {"9223372036854ms775us808ns", "time: invalid duration \"9223372036854ms775us808ns\""},
      {"-9223372036854775809ns", "time: invalid duration \"-9223372036854775809ns\""},
  };
  for (const Case& c : cases) {
    const absl::StatusOr<Duration> d = Duration::Parse(c.text);
    ASSERT_FALSE(d.ok()) << c.text;
    EXPECT_EQ(d.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_EQ(d.status().message(), c.message) << c.text;
  }
}

// Cases from Go's durationTests plus the task's examples.
TEST(Duration, StringMatchesGo) {
  struct Case {
    int64_t nanos;
    const char* text;
  };
  const Case cases[] = {
      {0, "0s"},
      {1 * kNs, "1ns"},
      {1100 * kNs, "1.1\xC2\xB5s"},
      {1 * kUs, "1\xC2\xB5s"},
      {2200 * kUs, "2.2ms"},
      {3300 * kMs, "3.3s"},
      {4 * kM + 5 * kS, "4m5s"},
      {4 * kM + 5001 * kMs, "4m5.001s"},
      {5 * kH + 6 * kM + 7001 * kMs, "5h6m7.001s"},
      {8 * kM + 1 * kNs, "8m0.000000001s"},
      {std::numeric_limits<int64_t>::max(), "2562047h47m16.854775807s"},
      {std::numeric_limits<int64_t>::min(), "-2562047h47m16.854775808s"},
      {720 * kH, "720h0m0s"},
      {90 * kS, "1m30s"},
      {1500 * kMs, "1.5s"},
      {300 * kMs, "300ms"},
      {-1500 * kMs, "-1.5s"},
      {kH, "1h0m0s"},
      {-1, "-1ns"},
  };
  for (const Case& c : cases) EXPECT_EQ(Duration::FromNanos(c.nanos).String(), c.text);
}

TEST(Duration, StringRoundTripsThroughParse) {
  std::mt19937_64 rng(42);
  for (int i = 0; i < 20000; ++i) {
    const int64_t magnitude_bits = static_cast<int64_t>(rng() % 63);
    const int64_t nanos =
        static_cast<int64_t>(rng() >> (63 - magnitude_bits)) * (rng() % 2 == 0 ? 1 : -1);
    const Duration d = Duration::FromNanos(nanos);
    const absl::StatusOr<Duration> again = Duration::Parse(d.String());
    ASSERT_TRUE(again.ok()) << d.String();
    EXPECT_EQ(*again, d) << d.String();
  }
}

TEST(Duration, UnitAccessorsMatchGo) {
  EXPECT_EQ(Duration::FromNanos(300000000).Seconds(), 0.3);
  EXPECT_EQ(Duration::FromNanos(std::numeric_limits<int64_t>::max()).Seconds(),
            9223372036.854775807);
  EXPECT_EQ(Duration::FromNanos(-60000000000).Minutes(), -1.0);
  EXPECT_EQ(Duration::FromNanos(-1).Minutes(), -1 / 60e9);
  EXPECT_EQ(Duration::FromNanos(60000000001).Minutes(), 1 + 1 / 60e9);
  EXPECT_EQ(Duration::FromNanos(-3600000000000).Hours(), -1.0);
  EXPECT_EQ(Duration::FromNanos(36).Hours(), 1e-11);
  EXPECT_EQ(Duration::FromNanos(3600000000001).Hours(), 1 + 1 / 3600e9);
}

TEST(Duration, ConstructorsAndArithmeticSaturate) {
  EXPECT_EQ(Duration::FromSeconds(90).String(), "1m30s");
  EXPECT_EQ(Duration::FromMillis(-1500).String(), "-1.5s");
  EXPECT_EQ(Duration::FromMinutes(3).Nanos(), 3 * kM);
  EXPECT_EQ(Duration::FromHours(3000000), Duration::Max());
  EXPECT_EQ(Duration::FromHours(-3000000), Duration::Min());
  EXPECT_EQ(Duration::Max() + Duration::FromNanos(1), Duration::Max());
  EXPECT_EQ(Duration::Min() - Duration::FromNanos(1), Duration::Min());
  EXPECT_EQ(Duration::FromNanos(0) - Duration::Min(), Duration::Max());
  EXPECT_EQ(-Duration::Min(), Duration::Max());
  EXPECT_EQ(Duration::FromSeconds(1) + Duration::FromMillis(500), Duration::FromMillis(1500));
  EXPECT_EQ(Duration::FromSeconds(1) - Duration::FromMillis(1500), Duration::FromMillis(-500));
  EXPECT_LT(Duration::FromSeconds(59), Duration::FromMinutes(1));
}

TEST(NillableDuration, NeverParsesToNoDuration) {
  const absl::StatusOr<NillableDuration> n = NillableDuration::Parse("Never");
  ASSERT_TRUE(n.ok());
  EXPECT_TRUE(n->IsNever());
  EXPECT_EQ(n->ToString(), "Never");
  EXPECT_EQ(*n, NillableDuration::Never());
}

TEST(NillableDuration, KeepsTextItWasParsedFrom) {
  const absl::StatusOr<NillableDuration> n = NillableDuration::Parse("720h");
  ASSERT_TRUE(n.ok());
  EXPECT_FALSE(n->IsNever());
  EXPECT_EQ(n->duration, Duration::FromHours(720));
  EXPECT_EQ(n->ToString(), "720h");
  EXPECT_EQ(NillableDuration::Of(Duration::FromHours(720)).ToString(), "720h0m0s");
  EXPECT_EQ(NillableDuration::Never().ToString(), "Never");
}

TEST(NillableDuration, EqualityIgnoresRawText) {
  EXPECT_EQ(*NillableDuration::Parse("60m"), *NillableDuration::Parse("1h"));
  EXPECT_EQ(*NillableDuration::Parse("1h"), NillableDuration::Of(Duration::FromHours(1)));
  EXPECT_FALSE(*NillableDuration::Parse("0s") == NillableDuration::Never());
}

TEST(NillableDuration, RejectsWhatGoRejects) {
  const absl::StatusOr<NillableDuration> n = NillableDuration::Parse("never");
  ASSERT_FALSE(n.ok());
  EXPECT_EQ(n.status().message(), "time: invalid duration \"never\"");
  EXPECT_FALSE(NillableDuration::Parse("").ok());
}

TEST(DurationPatterns, KarpenterDurationPattern) {
  for (const char* ok : {"Never", "1s", "30m", "720h", "1h30m", "1h30m15s", "0s", "10m10m"}) {
    EXPECT_TRUE(MatchesKarpenterDurationPattern(ok)) << ok;
  }
  for (const char* bad : {"", "never", "1", "h", "1.5h", "-1h", "1ms", "1h ", " 1h", "1d",
                          "Never1h", "1hNever", "1h\n"}) {
    EXPECT_FALSE(MatchesKarpenterDurationPattern(bad)) << bad;
  }
}

TEST(DurationPatterns, BudgetDurationPattern) {
  for (const char* ok : {"1h", "30m", "1h30m", "10m0s", "1h0s", "1h30m0s", "0h", "0m", "24h0m0s"}) {
    EXPECT_TRUE(MatchesBudgetDurationPattern(ok)) << ok;
  }
  for (const char* bad : {"", "0s", "10s", "1h30s", "30m1h", "1m30m", "1h30m1s", "1h00s", "1h0s0s",
                          "h", "1h30", "Never", "1.5h", "1hm"}) {
    EXPECT_FALSE(MatchesBudgetDurationPattern(bad)) << bad;
  }
}

TEST(DurationPatterns, TerminationGracePeriodPattern) {
  for (const char* ok : {"0s", "24h", "1h30m", "30s", "1m1m1m"}) {
    EXPECT_TRUE(MatchesTgpPattern(ok)) << ok;
  }
  for (const char* bad : {"", "Never", "1", "1.5s", "-1s", "1ms", "1h ", "s"}) {
    EXPECT_FALSE(MatchesTgpPattern(bad)) << bad;
  }
}

TEST(GoQuote, EscapesLikeGoTimePackage) {
  EXPECT_EQ(GoQuote("abc"), "\"abc\"");
  EXPECT_EQ(GoQuote("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(GoQuote("\t\x7f"), "\"\\x09\x7f\"");
  EXPECT_EQ(GoQuote("\xC2\xB5"), "\"\\xc2\\xb5\"");
  EXPECT_EQ(GoQuote(""), "\"\"");
}

}  // namespace
}  // namespace karpenter::api
