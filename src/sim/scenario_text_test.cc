#include "src/sim/scenario_text.h"

#include <gtest/gtest.h>

#include <string>

namespace karpenter::sim {
namespace {

TEST(EscapeControlCharacters, KeepsPrintableTextAndEscapesTheRest) {
  EXPECT_EQ(EscapeControlCharacters("unknown field \"é\""), "unknown field \"é\"");
  EXPECT_EQ(EscapeControlCharacters(std::string("a\nb\tc\x01\x7f", 7) + std::string(1, '\0')),
            "a\\nb\\tc\\x01\\x7f\\x00");
}

TEST(PathSegment, QuotesKeysThatWouldNotReadAsOneToken) {
  EXPECT_EQ(PathSegment("karpenter.sh/discovery"), "karpenter.sh/discovery");
  EXPECT_EQ(PathSegment("min_seconds-2"), "min_seconds-2");
  EXPECT_EQ(PathSegment(""), "\"\"");
  EXPECT_EQ(PathSegment("c: d"), "\"c: d\"");
  EXPECT_EQ(PathSegment("a[0]"), "\"a[0]\"");
  EXPECT_EQ(PathSegment("say \"hi\"\\"), "\"say \\\"hi\\\"\\\\\"");
}

}  // namespace
}  // namespace karpenter::sim
