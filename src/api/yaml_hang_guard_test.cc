#include "src/api/yaml_hang_guard.h"

#include <gtest/gtest.h>

#include <string>

#include "src/api/yaml_to_json.h"

namespace karpenter::api {
namespace {

// Every one of these made yaml-cpp 0.7 loop forever (found by decode_validate_fuzz).
TEST(YamlHangGuard, RefusesTopLevelCommas) {
  for (std::string_view input :
       {",", " ,", "[x],", "{},", "[x] ,", "[x]\n,", "[[x]],", "\"s\",", "'s',", "---\n[x],",
        "--- [x],", "a: 1\n---\n{},\n", "!t [x],", "&a [x],", "[x]\n...\n,", "[x] # c\n,", "&\",",
        "!t,", " verbat/v1\n J\n#\n,\"items\":[]\n", "'it''s', no",
        R"({"":[{"":{"":{}}}],"":[{}]},)",
        // A quote inside a plain scalar does not open a quoted scalar.
        R"([a"b, "c"],)", R"({k:"v"},)", R"([!t "]"],)"}) {
    absl::Status status = CheckNoTopLevelFlowEntry(input);
    EXPECT_FALSE(status.ok()) << input;
    EXPECT_NE(status.message().find("unexpected ','"), std::string_view::npos) << input;
    EXPECT_FALSE(YamlToJson(input).ok()) << input;
  }
}

// yaml-cpp ran out of memory on `\0, "on-dem` (decode_validate_fuzz); YAML allows no such byte.
TEST(YamlHangGuard, RefusesControlCharacters) {
  using std::string_literals::operator""s;
  for (const std::string& input :
       {"\0, \"on-dem"s, "a: 1\nb: \x01\n"s, "a: \x7f"s, "\x1b[31m: x"s}) {
    absl::Status status = CheckNoTopLevelFlowEntry(input);
    EXPECT_FALSE(status.ok()) << input;
    EXPECT_NE(status.message().find("control characters are not allowed"), std::string_view::npos)
        << status.message();
    EXPECT_FALSE(YamlToJson(input).ok());
  }
  EXPECT_EQ(CheckNoTopLevelFlowEntry("a: 1\nb: \x01\n").message(),
            "line 2, column 4: control characters are not allowed");
  EXPECT_TRUE(CheckNoTopLevelFlowEntry("a:\t1\r\nb: \"\\x01\"\n").ok());
}

TEST(YamlHangGuard, NamesTheLineAndColumn) {
  EXPECT_EQ(CheckNoTopLevelFlowEntry("a: 1\n---\n[x]\n  ,").message(),
            "line 4, column 3: unexpected ',' at the top level of a document");
}

TEST(YamlHangGuard, AcceptsCommasYamlAllows) {
  for (std::string_view input : {"a: x, y", "[a, b]", "{a: 1, b: 2}", "a: [x, y]\nb: {c: d}", "x,",
                                 "\"a\\\",\" ", "a: |\n  [x],\n", "[x, \"],\"]", "[x] # a, comment",
                                 "{\"a\": 1}", "---\n- a, b\n---\n{a: 1}\n", "[x]",
                                 // The quote after `xists` is plain text, so the map ends at the
                                 // first `}` and yaml-cpp reports the stray `]` itself.
                                 R"({"kind":xists"}]},"s":1}]}"d",)"}) {
    EXPECT_TRUE(CheckNoTopLevelFlowEntry(input).ok()) << input;
  }
}

}  // namespace
}  // namespace karpenter::api
