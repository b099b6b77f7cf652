#include "src/api/yaml_to_json.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace karpenter::api {
namespace {

TEST(YamlToJson, ScalarTypingFollowsYaml11) {
  EXPECT_EQ(PlainScalarToJson("true"), "true");
  EXPECT_EQ(PlainScalarToJson("yes"), "true");
  EXPECT_EQ(PlainScalarToJson("Off"), "false");
  // go-yaml v2 (what kubectl's YAML reader uses) resolves y/n as booleans too.
  EXPECT_EQ(PlainScalarToJson("y"), "true");
  EXPECT_EQ(PlainScalarToJson("N"), "false");
  EXPECT_EQ(PlainScalarToJson("~"), "null");
  EXPECT_EQ(PlainScalarToJson("42"), "42");
  EXPECT_EQ(PlainScalarToJson("-0"), "0");
  EXPECT_EQ(PlainScalarToJson("+7"), "7");
  EXPECT_EQ(PlainScalarToJson("0x1F"), "31");
  EXPECT_EQ(PlainScalarToJson("010"), "8");
  EXPECT_EQ(PlainScalarToJson("1_000"), "1000");
  EXPECT_EQ(PlainScalarToJson("1.5"), "1.5");
  EXPECT_EQ(PlainScalarToJson(".5"), "0.5");
  EXPECT_EQ(PlainScalarToJson("1e3"), "1e3");
  EXPECT_EQ(PlainScalarToJson("2.5E-3"), "2.5e-3");
  EXPECT_EQ(PlainScalarToJson("500m"), "\"500m\"");
  EXPECT_EQ(PlainScalarToJson("720h"), "\"720h\"");
  EXPECT_EQ(PlainScalarToJson("1.2.3"), "\"1.2.3\"");
  // go-yaml reads a decimal integer past 64 bits as a float: a number, not a string.
  EXPECT_EQ(PlainScalarToJson("99999999999999999999"), "99999999999999999999");
  EXPECT_EQ(PlainScalarToJson("al2023@latest"), "\"al2023@latest\"");
}

TEST(YamlToJson, QuotedScalarsStayStrings) {
  auto docs = YamlToJson("a: \"5\"\nb: 'true'\nc: 5\nd: true\ne:\n");
  ASSERT_TRUE(docs.ok()) << docs.status();
  ASSERT_EQ(docs->size(), 1u);
  EXPECT_EQ((*docs)[0].json, R"({"a":"5","b":"true","c":5,"d":true,"e":null})");
}

TEST(YamlToJson, SplitsDocumentsAndSkipsEmptyOnes) {
  auto docs = YamlToJson("---\na: 1\n---\n---\n# only a comment\n---\nb: [x, z]\n");
  ASSERT_TRUE(docs.ok()) << docs.status();
  ASSERT_EQ(docs->size(), 2u);
  EXPECT_EQ((*docs)[0].json, R"({"a":1})");
  EXPECT_EQ((*docs)[1].json, R"({"b":["x","z"]})");
  EXPECT_EQ((*docs)[1].line, 7);
}

// Documents are built one at a time from their own text; lines still count from the input's
// start.
TEST(YamlToJson, ProblemsInLaterDocumentsNameTheirLineInTheInput) {
  auto tagged = YamlToJson("a: 1\n---\nb: 1\n---\n# note\nc: !!int abc\n");
  ASSERT_FALSE(tagged.ok());
  EXPECT_EQ(tagged.status().message(), "line 6, column 4: cannot decode !!str `abc` as a !!int");
  auto duplicate = YamlToJson("a: 1\n---\nb: 1\nb: 2\n");
  ASSERT_FALSE(duplicate.ok());
  EXPECT_EQ(duplicate.status().message(), "line 4, column 1: mapping key \"b\" already defined");
  std::vector<std::string> seen;
  ASSERT_TRUE(ForEachYamlDocumentAsJson("x: 1\n---\ny: 2\n...\nz: 3\n", [&](JsonDocument& doc) {
                seen.push_back(doc.json + "@" + std::to_string(doc.line));
                return absl::OkStatus();
              }).ok());
  EXPECT_EQ(seen, (std::vector<std::string>{R"({"x":1}@1)", R"({"y":2}@3)", R"({"z":3}@5)"}));
}

TEST(YamlToJson, DecimalIntegersPastInt64StayNumbers) {
  auto docs = YamlToJson(
      "big: 12345678901234567890123\nneg: -99999999999999999999\nhex: 0xFFFFFFFFFFFFFFFFFF\n");
  ASSERT_TRUE(docs.ok()) << docs.status();
  EXPECT_EQ(
      (*docs)[0].json,
      R"({"big":12345678901234567890123,"neg":-99999999999999999999,"hex":"0xFFFFFFFFFFFFFFFFFF"})");
}

TEST(YamlToJson, SyntaxErrorNamesTheLine) {
  auto docs = YamlToJson("a: 1\nb: [unclosed\nc: 2\n");
  ASSERT_FALSE(docs.ok());
  EXPECT_NE(docs.status().message().find("line "), std::string::npos) << docs.status();
  auto tabs = YamlToJson("a:\n  b: 1\n c: 2\n");
  ASSERT_FALSE(tabs.ok());
  EXPECT_NE(tabs.status().message().find("line 3"), std::string::npos) << tabs.status();
}

TEST(YamlToJson, AnchorsAndBlockScalars) {
  auto docs = YamlToJson("base: &b {x: 1}\ncopy: *b\ntext: |\n  line1\n  line2\n");
  ASSERT_TRUE(docs.ok()) << docs.status();
  EXPECT_EQ((*docs)[0].json, R"({"base":{"x":1},"copy":{"x":1},"text":"line1\nline2\n"})");
}

// Nine levels of nine aliases each ("billion laughs"): about 500 bytes of YAML name 9^10 leaves.
std::string NestedAliases() {
  std::string yaml = "l0: &l0 [x, x, x, x, x, x, x, x, x]\n";
  for (int level = 1; level < 10; ++level) {
    yaml += "l" + std::to_string(level) + ": &l" + std::to_string(level) + " [";
    for (int use = 0; use < 9; ++use) {
      yaml += (use == 0 ? "*l" : ", *l") + std::to_string(level - 1);
    }
    yaml += "]\n";
  }
  return yaml;
}

TEST(YamlToJson, RefusesExcessiveAliasing) {
  auto docs = YamlToJson(NestedAliases());
  ASSERT_FALSE(docs.ok());
  EXPECT_NE(docs.status().message().find("excessive aliasing"), std::string::npos) << docs.status();
  // It stops inside the innermost list, which every alias ends up naming.
  EXPECT_EQ(docs.status().message().rfind("line 1, column ", 0), 0) << docs.status();
  // A few levels of the same aliases stay well within the allowance.
  std::string shallow = NestedAliases();
  shallow.resize(shallow.find("l4:"));
  EXPECT_TRUE(YamlToJson(shallow).ok());
}

// decode_validate_fuzz (fuzz/corpus/decode_validate_fuzz/alias-cycle-stack-overflow): an alias
// inside the node it names is a cycle, which overflowed the stack when written out.
TEST(YamlToJson, RefusesAnAliasInsideTheNodeItNames) {
  for (std::string_view input : {"a: &a [x, *a]\n", "&m {k: *m}", "- &s\n  - *s\n"}) {
    auto docs = YamlToJson(input);
    ASSERT_FALSE(docs.ok()) << input;
    EXPECT_NE(docs.status().message().find("nested deeper than 256 levels"), std::string::npos)
        << docs.status();
  }
  // Everything up to the nesting limit converts (yaml-cpp's own guard is at 500 levels).
  std::string deep = std::string(256, '[') + std::string(256, ']');
  auto docs = YamlToJson(deep);
  ASSERT_TRUE(docs.ok()) << docs.status();
  EXPECT_EQ((*docs)[0].json, deep);
  EXPECT_FALSE(YamlToJson("[" + deep + "]").ok());
}

// The cap only bites through aliases: YAML whose JSON is several times longer still converts,
// however long it is. Each `\0` escape (2 bytes) becomes `\u0000` (6 bytes).
TEST(YamlToJson, LargeInputWithoutAliasesIsNotCapped) {
  std::string yaml = "\"";
  for (int i = 0; i < 300000; ++i) yaml += "\\0";
  yaml += "\"";
  auto docs = YamlToJson(yaml);
  ASSERT_TRUE(docs.ok()) << docs.status();
  // More JSON than the allowance plus one byte per input byte: the per-byte share is needed.
  EXPECT_GT((*docs)[0].json.size(), yaml.size() + (size_t{1} << 20));
}

TEST(YamlToJson, DuplicateKeyNamesTheKeyAndLine) {
  // Found by decode_validate_fuzz: with two apiVersion keys the typed object and its re-encoding
  // disagreed about which one counts.
  auto docs = YamlToJson("apiVersion: apps/v1\nkind: Deployment\napiVersion: karpenter.sh/v1\n");
  ASSERT_FALSE(docs.ok());
  EXPECT_EQ(docs.status().message(),
            "line 3, column 1: mapping key \"apiVersion\" already defined");
  auto nested = YamlToJson("spec:\n  a: 1\n  b: [{x: 1, x: 2}]\n");
  ASSERT_FALSE(nested.ok());
  EXPECT_NE(nested.status().message().find("line 3"), std::string::npos) << nested.status();
}

TEST(YamlToJson, RejectsInvalidUtf8BeforeParsing) {
  auto docs = YamlToJson("a: \"\xff\xfe\"\n");
  ASSERT_FALSE(docs.ok());
  EXPECT_NE(docs.status().message().find("UTF-8"), std::string::npos);
}

// kubectl reads YAML with go-yaml v2, which applies merge keys; they were written out as a key
// "<<" (an unknown field).
TEST(YamlToJson, AppliesMergeKeysAsKubectl) {
  auto docs = YamlToJson(
      "base: &b {cpu: 1, memory: 2Gi}\n"
      "extra: &e {memory: 4Gi, pods: 3}\n"
      "one: {<<: *b, cpu: 2}\n"
      "list: {<<: [*e, *b]}\n");
  ASSERT_TRUE(docs.ok()) << docs.status();
  EXPECT_EQ((*docs)[0].json,
            R"({"base":{"cpu":1,"memory":"2Gi"},"extra":{"memory":"4Gi","pods":3},)"
            R"("one":{"cpu":2,"memory":"2Gi"},"list":{"cpu":1,"memory":"4Gi","pods":3}})");
  // A quoted "<<" is an ordinary key.
  auto quoted = YamlToJson("\"<<\": 1\n");
  ASSERT_TRUE(quoted.ok()) << quoted.status();
  EXPECT_EQ((*quoted)[0].json, R"({"<<":1})");
  auto scalar = YamlToJson("a: {<<: 5}\n");
  ASSERT_FALSE(scalar.ok());
  EXPECT_EQ(scalar.status().message(),
            "line 1, column 9: map merge requires map or sequence of maps as the value");
}

TEST(YamlToJson, ExplicitCoreTagsMustFitTheValue) {
  auto docs = YamlToJson("a: !!int 12\nb: !!float 3\nc: !!str 5\nd: !!bool yes\n");
  ASSERT_TRUE(docs.ok()) << docs.status();
  EXPECT_EQ((*docs)[0].json, R"({"a":12,"b":3,"c":"5","d":true})");
  auto word = YamlToJson("replicas: !!int many\n");
  ASSERT_FALSE(word.ok());
  EXPECT_EQ(word.status().message(), "line 1, column 11: cannot decode !!str `many` as a !!int");
  auto fraction = YamlToJson("replicas: !!int 1.5\n");
  ASSERT_FALSE(fraction.ok());
  EXPECT_EQ(fraction.status().message(),
            "line 1, column 11: cannot decode !!float `1.5` as a !!int");
}

}  // namespace
}  // namespace karpenter::api
