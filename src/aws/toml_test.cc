#include "src/aws/toml.h"

#include "gtest/gtest.h"

namespace karpenter::aws {
namespace {

TEST(Toml, ReadsTablesDottedKeysAndEveryValueKind) {
  absl::StatusOr<TomlTable> parsed = ParseToml(R"(# a comment
title = "x\ty\u00e9"   # trailing comment
[settings.kubernetes]
"quoted.key" = 'C:\path'
max-pods = 1_10
ratio = 0.5
tiny = -1e-5
enabled = true
list = [ 1, 2,
  3, ]   # multi-line, trailing comma
inline = { a = "b", c.d = false }
[settings.host-containers.admin]
text = """
line one
line two"""
)");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(std::get<std::string>(parsed->at("title").value), "x\ty\xc3\xa9");
  const auto& settings = std::get<TomlTable>(parsed->at("settings").value);
  const auto& kubernetes = std::get<TomlTable>(settings.at("kubernetes").value);
  EXPECT_EQ(std::get<std::string>(kubernetes.at("quoted.key").value), "C:\\path");
  EXPECT_EQ(std::get<int64_t>(kubernetes.at("max-pods").value), 110);
  EXPECT_EQ(std::get<double>(kubernetes.at("ratio").value), 0.5);
  EXPECT_EQ(std::get<double>(kubernetes.at("tiny").value), -1e-5);
  EXPECT_TRUE(std::get<bool>(kubernetes.at("enabled").value));
  EXPECT_EQ(std::get<TomlArray>(kubernetes.at("list").value).size(), 3u);
  const auto& inline_table = std::get<TomlTable>(kubernetes.at("inline").value);
  EXPECT_FALSE(std::get<bool>(std::get<TomlTable>(inline_table.at("c").value).at("d").value));
  const auto& admin = std::get<TomlTable>(
      std::get<TomlTable>(settings.at("host-containers").value).at("admin").value);
  EXPECT_EQ(std::get<std::string>(admin.at("text").value), "line one\nline two");
}

TEST(Toml, WritesWhatItReadsBack) {
  absl::StatusOr<TomlTable> parsed = ParseToml(
      "a = 1\n[b]\n\"k/x\" = \"v \\\"q\\\"\"\nl = [[\"x\"], [\"y\", \"z\"]]\nf = 1.5\n[b.c]\nd = "
      "{e = true}\n");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  const std::string written = WriteToml(*parsed);
  EXPECT_EQ(written,
            "a = 1\n\n[b]\nf = 1.5\n\"k/x\" = \"v \\\"q\\\"\"\nl = [[\"x\"], [\"y\", \"z\"]]\n\n"
            "[b.c]\n\n[b.c.d]\ne = true\n");
  absl::StatusOr<TomlTable> again = ParseToml(written);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(*again, *parsed);
}

TEST(Toml, RefusesWhatItDoesNotReadWithTheLine) {
  for (const auto& [text, message] : std::vector<std::pair<std::string, std::string>>{
           {"a = 1\na = 2\n", "line 2: key a is defined twice"},
           {"[a]\nx = 1\n[a]\n", "line 3: table a is defined twice"},
           {"a = 1\n[a]\n", "line 2: key a is not a table"},
           {"[[servers]]\n", "line 1: arrays of tables are not supported"},
           {"when = 1979-05-27\n", "dates and times are not supported"},
           {"at = 07:32:00\n", "dates and times are not supported"},
           {"huge = 1e999\n", "number out of range"},
           {"a = \"open\n", "newline in a one-line string"},
           {"a = [1, 2\n", "unterminated array"},
           {"a = 1 b\n", "line 1: unexpected 'b' after a value"},
           {"a = \"\\q\"\n", "unknown escape"},
           {"= 1\n", "expected a key"},
       }) {
    absl::StatusOr<TomlTable> parsed = ParseToml(text);
    ASSERT_FALSE(parsed.ok()) << text;
    EXPECT_TRUE(absl::IsInvalidArgument(parsed.status()));
    EXPECT_NE(parsed.status().message().find(message), absl::string_view::npos)
        << text << " -> " << parsed.status();
  }
}

TEST(Toml, DeepNestingIsRefusedNotRecursedInto) {
  const std::string deep = "a = " + std::string(10000, '[');
  absl::StatusOr<TomlTable> parsed = ParseToml(deep);
  ASSERT_FALSE(parsed.ok());
  EXPECT_NE(parsed.status().message().find("nested too deeply"), absl::string_view::npos);
}

}  // namespace
}  // namespace karpenter::aws
