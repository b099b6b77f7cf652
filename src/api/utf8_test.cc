#include "src/api/utf8.h"

#include <gtest/gtest.h>

#include <string>

namespace karpenter::api {
namespace {

TEST(Utf8, AcceptsWellFormedText) {
  for (const char* text : {"", "plain ascii", "caf\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80",
                           "\xF4\x8F\xBF\xBF", "\xED\x9F\xBF"}) {
    EXPECT_FALSE(FindInvalidUtf8(text).has_value()) << text;
    EXPECT_TRUE(CheckUtf8(text).ok()) << text;
  }
}

TEST(Utf8, FindsTheFirstBadByte) {
  EXPECT_EQ(FindInvalidUtf8("ab\xFF"), 2u);
  EXPECT_EQ(FindInvalidUtf8("\x80"), 0u);                  // a lone continuation byte
  EXPECT_EQ(FindInvalidUtf8("x\xC3"), 1u);                 // cut short
  EXPECT_EQ(FindInvalidUtf8("\xC0\xAF"), 0u);              // overlong '/'
  EXPECT_EQ(FindInvalidUtf8("\xE0\x80\xAF"), 0u);          // overlong
  EXPECT_EQ(FindInvalidUtf8("\xED\xA0\x80"), 0u);          // a surrogate
  EXPECT_EQ(FindInvalidUtf8("\xF4\x90\x80\x80"), 0u);      // past U+10FFFF
  EXPECT_EQ(FindInvalidUtf8("ok \xC3\xA9 \xE2\x82"), 6u);  // a truncated euro sign
}

TEST(Utf8, CheckNamesLineAndColumn) {
  absl::Status status = CheckUtf8("name: x\nnote: \"a\xFE\"\n");
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "line 2, column 9: invalid UTF-8 (byte 0xfe)");
}

}  // namespace
}  // namespace karpenter::api
