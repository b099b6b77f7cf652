#include "src/api/decimal.h"

#include <optional>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace karpenter::api {
namespace {

struct Case {
  std::string input;
  std::optional<int64_t> want;
};

TEST(ParseDecimalInt64, AcceptsSignedDecimals) {
  const std::vector<Case> cases = {
      {"0", 0},
      {"42", 42},
      {"007", 7},
      {"+5", 5},
      {"-3", -3},
      {"-0", 0},
      {"9223372036854775807", INT64_MAX},
      {"-9223372036854775808", INT64_MIN},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.input);
    EXPECT_EQ(ParseDecimalInt64(c.input), c.want);
  }
}

TEST(ParseDecimalInt64, RejectsEverythingElse) {
  for (const char* bad :
       {"", "+", "-", " 1", "1 ", "1.5", "1e3", "0x10", "1_000", "--1", "+-1", "abc",
        "9223372036854775808", "-9223372036854775809", "99999999999999999999"}) {
    SCOPED_TRACE(bad);
    EXPECT_EQ(ParseDecimalInt64(bad), std::nullopt);
  }
}

}  // namespace
}  // namespace karpenter::api
