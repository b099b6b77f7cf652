#include "src/api/quantity.h"

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace karpenter::api {
namespace {

using Format = Quantity::Format;

Quantity Q(std::string_view text) {
  absl::StatusOr<Quantity> q = Quantity::Parse(text);
  EXPECT_TRUE(q.ok()) << text << ": " << q.status();
  return q.ok() ? *q : Quantity();
}

constexpr char kFormatWrong[] =
    "quantities must match the regular expression "
    "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

struct StringCase {
  const char* input;
  const char* want;
};

// Parse -> String() pairs; each is a fact from upstream's quantity_test.go (TestQuantityString,
// TestQuantityParseEmit, TestParseQuantity, TestQuantityParse) unless marked otherwise.
constexpr StringCase kStringCases[] = {
    {"1Ki", "1Ki"},
    {"1Mi", "1Mi"},
    {"1Gi", "1Gi"},
    {"1024Mi", "1Gi"},
    {"1000M", "1G"},
    {".001Ki", "1024m"},
    {".000001Ki", "1024u"},
    {".000000001Ki", "1024n"},
    {".000000000001Ki", "2n"},
    {"-1Ki", "-1Ki"},
    {"-1024Mi", "-1Gi"},
    {"-.001Ki", "-1024m"},
    {"307200Ki", "300Mi"},
    {"1025024Mi", "1001Gi"},
    {"1024Gi", "1Ti"},
    {"6Ki", "6Ki"},
    {"1025", "1025"},
    {"5000m", "5"},
    {"0.5", "500m"},
    {"0.001T", "1G"},
    {"1000u", "1m"},
    {"1.08", "1080m"},
    {"1080000000n", "1080m"},
    {"300M", "300M"},
    {"1T", "1T"},
    {"1234567M", "1234567M"},
    {"1234567m", "1234567m"},
    {"3k", "3k"},
    {"80m", "80m"},
    {"1n", "1n"},
    {"80n", "80n"},
    {"1080n", "1080n"},
    {"1u", "1u"},
    {"80u", "80u"},
    {"1080u", "1080u"},
    {".001e12", "1e9"},
    {"0.001e0", "1e-3"},
    {"1000e-12", "1e-9"},
    {"80e-3", "80e-3"},
    {"300e6", "300e6"},
    {"1e12", "1e12"},
    {"3e3", "3e3"},
    {"00", "0"},
    {"0", "0"},
    {"999999999999999999", "999999999999999999"},
    {"-999999999999999999.1", "-999999999999999999100m"},
    {"9999999999999999999", "9999999999999999999"},
    {"9999999999999999999.0", "9999999999999999999"},
    {"1000000000000000000", "1E"},
    {"-1.0E", "-1E"},
    {"10E", "10E"},
    {"10000000000000000000000m", "10E"},
    {"10.000000000000000001E", "10000000000000000001"},
    {"1.0000000000000000001E", "1000000000000000000100m"},
    {"9223372036854775808.1", "9223372036854775808100m"},
    {"-9223372036854775808", "-9223372036854775808"},
    {"9Ei", "9223372036854775807"},
    {"9223372036854775807Ki", "9223372036854775807"},
    {"0.5Mi", "512Ki"},
    {"3.001n", "4n"},
    {"0.00000012345", "124n"},
    {"1.1E-9", "2e-9"},
    // Task examples, checked against upstream's algorithm.
    {"1.5Gi", "1536Mi"},
    {"1536Mi", "1536Mi"},
    {"1000", "1k"},
    {"1.5", "1500m"},
    {"100M", "100M"},
    {"500m", "500m"},
    {"0.1Gi", "107374182400m"},
    {"1e3", "1e3"},
    // Upstream hands back the input text verbatim when it took its int64 fast path and the
    // digits already looked canonical, even with a sign, an upper-case E or a trailing point.
    {"+1", "+1"},
    {"1E3", "1E3"},
    {"1.500", "1.500"},
    {"1.Ki", "1.Ki"},
    {"007", "007"},
};

TEST(Quantity, StringMatchesUpstreamTable) {
  for (const StringCase& c : kStringCases) {
    EXPECT_EQ(Q(c.input).String(), c.want) << c.input;
  }
}

TEST(Quantity, CanonicalStringIgnoresKeptText) {
  EXPECT_EQ(Q("+1").CanonicalString(), "1");
  EXPECT_EQ(Q("1E3").CanonicalString(), "1e3");
  EXPECT_EQ(Q("1.500").CanonicalString(), "1500m");
  EXPECT_EQ(Q("1.Ki").CanonicalString(), "1Ki");
  EXPECT_EQ(Q("007").CanonicalString(), "7");
}

TEST(Quantity, ParseKeepsFormatOfSuffix) {
  EXPECT_EQ(Q("1").format(), Format::kDecimalSI);
  EXPECT_EQ(Q("5n").format(), Format::kDecimalSI);
  EXPECT_EQ(Q("1Ki").format(), Format::kBinarySI);
  EXPECT_EQ(Q("0Ki").format(), Format::kBinarySI);
  EXPECT_EQ(Q("1e3").format(), Format::kDecimalExponent);
  EXPECT_EQ(Q("1E-3").format(), Format::kDecimalExponent);
  EXPECT_EQ(Q("1E").format(), Format::kDecimalSI);
}

TEST(Quantity, ParseSwitchesSubUnitBinaryToDecimal) {
  const Quantity q = Q("0.000000000001Ki");
  EXPECT_EQ(q.format(), Format::kDecimalSI);
  EXPECT_EQ(q.Nanos(), 2);
  EXPECT_EQ(Q("-.5Ki").format(), Format::kBinarySI);  // -512 is not below one unit
}

TEST(Quantity, ParseValuesFromUpstreamTable) {
  struct Case {
    const char* input;
    int64_t nanos;
  };
  const Case cases[] = {
      {"0", 0},
      {"0n", 0},
      {"0Ti", 0},
      {"1", 1'000'000'000},
      {"8Ki", int64_t{8} * 1024 * 1'000'000'000},
      {"5n", 5},
      {"4u", 4'000},
      {"3m", 3'000'000},
      {"50k", int64_t{50'000} * 1'000'000'000},
      {"1E-3", 1'000'000},
      {"100.035k", int64_t{100'035} * 1'000'000'000},
      {"0.0005k", 500'000'000},
      {"0.5e-2", 5'000'000},
      {"10.035M", int64_t{10'035'000} * 1'000'000'000},
      {"1.3E+6", int64_t{1'300'000} * 1'000'000'000},
      {"7.123456M", int64_t{7'123'456} * 1'000'000'000},
      {"0.0000000005", 1},
      {"0.9n", 1},
      {"0.00000012354", 124},
      {"100.035Ki", 102'435'840'000'000},
      {"0.05Gi", 53'687'091'200'000'000},
      {".001", 1'000'000},
      {".0001k", 100'000'000},
      {"1.", 1'000'000'000},
      {"1.G", int64_t{1'000'000'000} * 1'000'000'000},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(Q(c.input).Nanos(), c.nanos) << c.input;
    const std::string negative = std::string("-") + c.input;
    EXPECT_EQ(Q(negative).Nanos(), -c.nanos) << negative;
    const std::string positive = std::string("+") + c.input;
    EXPECT_EQ(Q(positive).Nanos(), c.nanos) << positive;
  }
}

TEST(Quantity, ParseRejectsMalformedInputWithUpstreamMessages) {
  const char* format_wrong[] = {"",       "1.2.3", "abc",   "1 Gi",  " 1",  "1 ",  "1.1.M",
                                "1+1.0M", "aoeu",  "0.1am", "1e3.5", "1Qi", "1e3e"};
  for (const char* input : format_wrong) {
    const absl::StatusOr<Quantity> q = Quantity::Parse(input);
    ASSERT_FALSE(q.ok()) << input;
    EXPECT_EQ(q.status().code(), absl::StatusCode::kInvalidArgument) << input;
    EXPECT_EQ(q.status().message(), kFormatWrong) << input;
  }
  const char* bad_suffix[] = {
      "0.1mi", ".5i", "1i", "-3.01i", "-3.01e-", "1e", "1eE3", "1Ki3", "1e99999999999999999999",
      "--1"};
  for (const char* input : bad_suffix) {
    const absl::StatusOr<Quantity> q = Quantity::Parse(input);
    ASSERT_FALSE(q.ok()) << input;
    EXPECT_EQ(q.status().message(), "unable to parse quantity's suffix") << input;
  }
  // Upstream's slow path re-parses the numeric text, which fails when it holds no digit.
  for (const char* input : {"Pi", "-Ei", ".e-20", "-.e-20"}) {
    const absl::StatusOr<Quantity> q = Quantity::Parse(input);
    ASSERT_FALSE(q.ok()) << input;
    EXPECT_EQ(q.status().message(), "unable to parse numeric part of quantity") << input;
  }
}

TEST(Quantity, ParseAcceptsUpstreamOddities) {
  // Upstream's scanner lets these through as zero; manifests validated by CRD patterns never
  // contain them, but the parser must agree with the API server.
  for (const char* input : {"-", "+", ".", "-.", "Ki", "Ti", "e5", "k", "m"}) {
    const absl::StatusOr<Quantity> q = Quantity::Parse(input);
    ASSERT_TRUE(q.ok()) << input << ": " << q.status();
    EXPECT_TRUE(q->IsZero()) << input;
    EXPECT_EQ(q->String(), "0") << input;
  }
  EXPECT_EQ(Q("Ki").format(), Format::kBinarySI);
}

TEST(Quantity, ExponentIsTruncatedToInt32LikeUpstream) {
  EXPECT_EQ(Q("1e4294967296").Nanos(), 1'000'000'000);  // 2^32 narrows to 0
  EXPECT_EQ(Q("1e4294967295").Nanos(), 100'000'000);    // narrows to -1
}

TEST(Quantity, BinaryValuesAreCappedAtMaxInt64) {
  const int64_t max = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(Q("8Ei").Value(), max);
  EXPECT_EQ(Q("16Ei").Value(), max);
  EXPECT_EQ(Q("-16Ei").Value(), -max);
  EXPECT_EQ(Q("99999999999999999999999999999999999999999999Ei").Value(), max);
  EXPECT_EQ(Q("7.99999999999999999999Ei").String(), "9223372036854775807");
}

TEST(Quantity, DecimalValuesBeyondRangeAreRejected) {
  for (const char* input : {"1e29", "-1e29", "100000000000000000000000000000", "1e100",
                            "99999999999999999999999999999.9999999991", "100000000000E"}) {
    const absl::StatusOr<Quantity> q = Quantity::Parse(input);
    ASSERT_FALSE(q.ok()) << input;
    EXPECT_EQ(q.status().code(), absl::StatusCode::kOutOfRange) << input;
  }
  EXPECT_EQ(Q("99999999999999999999999999999").String(), "99999999999999999999999999999");
  EXPECT_EQ(Q("99999999999999999999999999999.999999999").String(),
            "99999999999999999999999999999999999999n");
}

TEST(Quantity, TinyValuesRoundAwayFromZeroToOneNano) {
  EXPECT_EQ(Q("1e-100").String(), "1e-9");
  EXPECT_EQ(Q("-1e-2147483647").String(), "-1e-9");
  EXPECT_EQ(Q("0.00000000000000000000000000000000000000000000000001").String(), "1n");
  EXPECT_EQ(Q("1.0000000000000000000000000000000000000000000000001").String(), "1000000001n");
  EXPECT_EQ(Q("1.0000000000000000000000000000000000000000000000001Ki").String(), "1024000000001n");
}

TEST(Quantity, DecimalSIBeyondExaKeepsExaSuffix) {
  // Upstream prints these without any suffix (changing the value); we stay with "E".
  EXPECT_EQ(Q("1000E").String(), "1000E");
  EXPECT_EQ(Q("1e21").String(), "1e21");
  EXPECT_EQ(Q("12345678901234567890123").String(), "12345678901234567890123");
  EXPECT_EQ(Q("12345678901234567890000").String(), "12345678901234567890k");
  EXPECT_EQ(Q("10000000000000000000000000").String(), "10000000E");
}

TEST(Quantity, FromIntAndFromMilliPrintLikeUpstream) {
  EXPECT_EQ(Quantity::FromMilli(1, Format::kDecimalSI).String(), "1m");
  EXPECT_EQ(Quantity::FromMilli(1000, Format::kDecimalSI).String(), "1");
  EXPECT_EQ(Quantity::FromMilli(1234000, Format::kDecimalSI).String(), "1234");
  EXPECT_EQ(Quantity::FromMilli(1024, Format::kBinarySI).String(), "1024m");
  EXPECT_EQ(Quantity::FromMilli(1000000, Format::kDecimalExponent).String(), "1e3");
  EXPECT_EQ(Quantity::FromMilli(1024 * 1024, Format::kBinarySI).String(), "1048576m");
  EXPECT_EQ(Quantity::FromInt(1, Format::kDecimalSI).String(), "1");
  EXPECT_EQ(Quantity::FromInt(1000, Format::kDecimalSI).String(), "1k");
  EXPECT_EQ(Quantity::FromInt(1234000, Format::kDecimalSI).String(), "1234k");
  EXPECT_EQ(Quantity::FromInt(1024, Format::kBinarySI).String(), "1Ki");
  EXPECT_EQ(Quantity::FromInt(1000000, Format::kDecimalExponent).String(), "1e6");
  EXPECT_EQ(Quantity::FromInt(1024 * 1024, Format::kBinarySI).String(), "1Mi");
  EXPECT_EQ(Quantity::FromInt(5, Format::kBinarySI).String(), "5");
  EXPECT_EQ(Quantity::FromInt(0, Format::kBinarySI).String(), "0");
  EXPECT_EQ(Quantity::FromInt(std::numeric_limits<int64_t>::min(), Format::kDecimalSI).String(),
            "-9223372036854775808");
}

TEST(Quantity, ValueAndMilliValueRoundAwayFromZero) {
  EXPECT_EQ(Q("1.2").Value(), 2);
  EXPECT_EQ(Q("-1.2").Value(), -2);
  EXPECT_EQ(Q("1n").Value(), 1);
  EXPECT_EQ(Q("2").Value(), 2);
  EXPECT_EQ(Q("0.5m").MilliValue(), 1);
  EXPECT_EQ(Q("-0.5m").MilliValue(), -1);
  EXPECT_EQ(Q("1n").MilliValue(), 1);
  EXPECT_EQ(Q("1.5").MilliValue(), 1500);
  EXPECT_EQ(Q("1Gi").MilliValue(), int64_t{1073741824000});
  EXPECT_EQ(Q("0").MilliValue(), 0);
  EXPECT_EQ(Quantity().Value(), 0);
}

TEST(Quantity, ValueSaturatesInsteadOfOverflowing) {
  EXPECT_EQ(Q("1000E").Value(), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(Q("-1000E").Value(), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(Q("10E").MilliValue(), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(Q("-9223372036854775808").Value(), std::numeric_limits<int64_t>::min());
  EXPECT_EQ(Q("-9223372036854775809").Value(), std::numeric_limits<int64_t>::min());
}

TEST(Quantity, AsApproximateFloat64MatchesUpstream) {
  EXPECT_EQ(Q("2Ki").AsApproximateFloat64(), 2048.0);
  EXPECT_EQ(Q("1.1Ki").AsApproximateFloat64(), 1126.4);
  EXPECT_EQ(Q("1Mi").AsApproximateFloat64(), 1.048576e+06);
  EXPECT_EQ(Q("2Gi").AsApproximateFloat64(), 2.147483648e+09);
  EXPECT_EQ(Q("12E").AsApproximateFloat64(), 1.2e19);
  EXPECT_EQ(Q("9Ei").AsApproximateFloat64(), 9223372036854775807.0);
  EXPECT_EQ(Q("-1.5").AsApproximateFloat64(), -1.5);
  EXPECT_EQ(Q("100m").AsApproximateFloat64(), 0.1);
  EXPECT_EQ(Q("0").AsApproximateFloat64(), 0.0);
}

TEST(Quantity, CmpAndOperatorsCompareNumericValueOnly) {
  EXPECT_EQ(Q("100m").Cmp(Q("50m")), 1);
  EXPECT_EQ(Q("50m").Cmp(Q("100m")), -1);
  EXPECT_EQ(Q("0").Cmp(Q("0")), 0);
  EXPECT_EQ(Q("10000T").Cmp(Q("100Gi")), 1);
  EXPECT_EQ(Q("1Ki"), Q("1024"));
  EXPECT_EQ(Q("1e3"), Q("1k"));
  EXPECT_EQ(Q("+1"), Q("1000m"));
  EXPECT_LT(Q("999m"), Q("1"));
  EXPECT_GT(Q("1n"), Q("0"));
  EXPECT_LT(Q("-1Ei"), Q("-1Pi"));
  EXPECT_TRUE(Q("1Gi") >= Q("1G"));
  EXPECT_NE(Q("1Gi"), Q("1G"));
}

TEST(Quantity, SignAndIsZero) {
  EXPECT_EQ(Q("-1n").Sign(), -1);
  EXPECT_EQ(Q("0Ki").Sign(), 0);
  EXPECT_EQ(Q("3").Sign(), 1);
  EXPECT_TRUE(Q("-0").IsZero());
  EXPECT_FALSE(Q("1n").IsZero());
}

TEST(Quantity, AddAndSubFollowUpstreamFormatRules) {
  Quantity a = Quantity::FromInt(10, Format::kDecimalSI);
  a.Add(Quantity::FromInt(1, Format::kBinarySI));
  EXPECT_EQ(a, Quantity::FromInt(11, Format::kDecimalSI));
  EXPECT_EQ(a.format(), Format::kDecimalSI);

  Quantity b = Quantity::FromInt(10, Format::kBinarySI);
  b.Sub(Quantity::FromInt(1, Format::kDecimalSI));
  EXPECT_EQ(b, Quantity::FromInt(9, Format::kBinarySI));
  EXPECT_EQ(b.format(), Format::kBinarySI);

  Quantity zero;  // a zero receiver adopts the operand's format
  zero.Add(Quantity::FromInt(1024, Format::kBinarySI));
  EXPECT_EQ(zero.String(), "1Ki");
  Quantity zero2;
  zero2.Sub(Quantity::FromInt(50, Format::kDecimalExponent));
  EXPECT_EQ(zero2.String(), "-50");
  EXPECT_EQ(zero2.format(), Format::kDecimalExponent);
}

TEST(Quantity, AddDropsKeptText) {
  Quantity q = Q("+1");
  q.Add(Q("0"));
  EXPECT_EQ(q.String(), "1");
  Quantity n = Q("9.01");
  n.Neg();
  EXPECT_EQ(n.String(), "-9010m");
}

TEST(Quantity, NegAndSubDropKeptText) {
  Quantity q = Q("+1");
  q.Neg();
  EXPECT_EQ(q.String(), "-1");
  Quantity s = Q("007");
  s.Sub(Q("0"));
  EXPECT_EQ(s.String(), "7");
}

TEST(Quantity, FitsInThirtyTwoBytes) {
  // Resource lists hold one per entry; the verbatim text lives on the heap only when needed.
  static_assert(sizeof(Quantity) <= 32);
  static_assert(alignof(Quantity) <= alignof(void*));
  EXPECT_LE(sizeof(Quantity), 32u);
}

TEST(Quantity, CopiesKeepVerbatimTextIndependently) {
  Quantity original = Q("1E3");
  Quantity copy = original;
  Quantity assigned;
  assigned = original;
  original.Add(Q("1"));
  EXPECT_EQ(original.String(), "1001");
  EXPECT_EQ(copy.String(), "1E3");
  EXPECT_EQ(assigned.String(), "1E3");
  assigned = Q("2");
  EXPECT_EQ(assigned.String(), "2");
}

TEST(Quantity, LongVerbatimTextIsKept) {
  // Leading zeros do not count toward upstream's precision, so any number of them is kept.
  EXPECT_EQ(Q("+000000000000000000000000000001Ki").String(), "+000000000000000000000000000001Ki");
}

TEST(Quantity, LongestCanonicalFormsPrint) {
  EXPECT_EQ(Q("-99999999999999999999999999999.999999999e0").String(),
            "-99999999999999999999999999999999999999e-9");
  EXPECT_EQ(Q("-99999999999999999999999999999.999999999").String(),
            "-99999999999999999999999999999999999999n");
  EXPECT_EQ(Q("99999999999999999999999999999Ki").String(), "9223372036854775807");
}

TEST(Quantity, AddSaturatesAtRangeLimit) {
  Quantity q = Q("99999999999999999999999999999");
  q.Add(q);
  EXPECT_EQ(q.String(), "99999999999999999999999999999999999999n");
  q.Neg();
  q.Sub(Q("99999999999999999999999999999"));
  EXPECT_EQ(q.String(), "-99999999999999999999999999999999999999n");
}

TEST(Quantity, FormatNames) {
  EXPECT_EQ(FormatName(Format::kDecimalSI), "DecimalSI");
  EXPECT_EQ(FormatName(Format::kBinarySI), "BinarySI");
  EXPECT_EQ(FormatName(Format::kDecimalExponent), "DecimalExponent");
}

// Builds texts shaped like upstream's randomized test quantities from a fixed seed.
std::vector<std::string> GeneratedQuantities() {
  std::mt19937_64 rng(20240622);
  const char* suffixes[] = {"",   "n",  "u",  "m",  "k",  "M",  "G",   "T",   "P",  "E",
                            "Ki", "Mi", "Gi", "Ti", "Pi", "Ei", "e-7", "e12", "E3", "e0"};
  std::vector<std::string> out;
  for (int i = 0; i < 4000; ++i) {
    std::string text;
    if (rng() % 4 == 0) text.push_back('-');
    const uint64_t digits = rng() % 20 + 1;
    for (uint64_t d = 0; d < digits; ++d) text.push_back(static_cast<char>('0' + rng() % 10));
    if (rng() % 3 == 0) {
      text.push_back('.');
      const uint64_t frac = rng() % 12;
      for (uint64_t d = 0; d < frac; ++d) text.push_back(static_cast<char>('0' + rng() % 10));
    }
    text += suffixes[rng() % std::size(suffixes)];
    out.push_back(text);
  }
  return out;
}

TEST(Quantity, StringRoundTripsForGeneratedValues) {
  int parsed = 0;
  for (const std::string& text : GeneratedQuantities()) {
    const absl::StatusOr<Quantity> q = Quantity::Parse(text);
    if (!q.ok()) {
      EXPECT_EQ(q.status().code(), absl::StatusCode::kOutOfRange) << text;
      continue;
    }
    ++parsed;
    const Quantity again = Q(q->String());
    EXPECT_EQ(again, *q) << text << " -> " << q->String();
    const Quantity canonical = Q(q->CanonicalString());
    EXPECT_EQ(canonical, *q) << text << " -> " << q->CanonicalString();
    if (q->format() != Format::kBinarySI) {
      // Binary values such as 2000 print without a suffix and come back decimal ("2k").
      EXPECT_EQ(canonical.CanonicalString(), q->CanonicalString()) << text;
    }
  }
  EXPECT_GT(parsed, 3000);
}

TEST(Quantity, CmpIsConsistentWithMilliValue) {
  std::vector<Quantity> values;
  for (const std::string& text : GeneratedQuantities()) {
    const absl::StatusOr<Quantity> q = Quantity::Parse(text);
    if (q.ok() && q->Value() < std::numeric_limits<int64_t>::max() / 1000 &&
        q->Value() > std::numeric_limits<int64_t>::min() / 1000) {
      values.push_back(*q);
    }
    if (values.size() == 300) break;
  }
  for (const Quantity& a : values) {
    for (const Quantity& b : values) {
      if (a.MilliValue() < b.MilliValue()) {
        EXPECT_LT(a, b) << a.String() << " " << b.String();
      }
      if (a.Cmp(b) < 0) {
        EXPECT_LE(a.MilliValue(), b.MilliValue());
      }
      EXPECT_EQ(a.Cmp(b), -b.Cmp(a));
    }
  }
}

TEST(Quantity, AddThenSubRestoresValue) {
  Quantity sum;
  std::vector<Quantity> parts;
  for (const std::string& text : GeneratedQuantities()) {
    const absl::StatusOr<Quantity> q = Quantity::Parse(text);
    if (!q.ok() || q->Value() > int64_t{1} << 50 || q->Value() < -(int64_t{1} << 50)) continue;
    parts.push_back(*q);
    sum.Add(*q);
  }
  for (const Quantity& q : parts) sum.Sub(q);
  EXPECT_TRUE(sum.IsZero()) << sum.String();
}

}  // namespace
}  // namespace karpenter::api
