#include "src/api/nesting_limit.h"

#include <gtest/gtest.h>

#include <string>

#include "src/api/manifest.h"

namespace karpenter::api {
namespace {

std::string Repeat(std::string_view unit, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += unit;
  return out;
}

// 40,000 levels overflowed the stack of the recursive readers (SIGSEGV) before the limit.
TEST(NestingLimit, DeepJsonArraysAreRefusedWithLineAndPath) {
  const std::string json = Repeat("[", 40000) + Repeat("]", 40000);
  auto manifests = DecodeManifests(json, "deep.json");
  ASSERT_FALSE(manifests.ok());
  EXPECT_EQ(std::string(manifests.status().message()),
            "line 1, column 257: nested deeper than 256 levels at "
            "[0][0][0][0][0][0]...[0][0][0] (257 levels)");
}

TEST(NestingLimit, JsonPathNamesKeysAndIndexes) {
  const std::string json =
      "{\"kind\":\"List\",\"items\":[1,\n{\"spec\":" + Repeat("[", 300) + Repeat("]", 300) + "}]}";
  auto manifests = DecodeManifests(json, "deep.json");
  ASSERT_FALSE(manifests.ok());
  EXPECT_EQ(std::string(manifests.status().message()),
            "line 2, column 262: nested deeper than 256 levels at "
            "items[1].spec[0][0][0]...[0][0][0] (257 levels)");
}

TEST(NestingLimit, JsonAtTheLimitIsRead) {
  // The root object is level 1, `data` opens 255 more.
  const std::string json =
      R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"deep"},"data":)" +
      Repeat("[", 255) + Repeat("]", 255) + "}";
  auto manifests = DecodeManifests(json, "deep.json");
  ASSERT_TRUE(manifests.ok()) << manifests.status();
  EXPECT_EQ((*manifests)[0].Ref(), "ConfigMap/deep");
}

TEST(NestingLimit, StringsDoNotCount) {
  EXPECT_TRUE(CheckJsonText("{\"a\":\"" + Repeat("[", 1000) + "\\\"\"}").ok());
}

// yaml-cpp's own guard answered "bad file" deeper than 500 levels.
TEST(NestingLimit, DeepYamlFlowIsRefusedWithTheSameMessage) {
  const std::string yaml = "x: " + Repeat("[", 40000) + Repeat("]", 40000) + "\n";
  auto manifests = DecodeManifests(yaml, "deep.yaml");
  ASSERT_FALSE(manifests.ok());
  EXPECT_EQ(std::string(manifests.status().message()),
            "line 1, column 259: nested deeper than 256 levels at "
            "x[0][0][0][0][0]...[0][0][0] (257 levels)");
}

TEST(NestingLimit, DeepYamlBlocksAreRefusedWithLineAndPath) {
  std::string yaml = "apiVersion: v1\nkind: ConfigMap\n";
  for (int i = 0; i < 600; ++i) yaml += std::string(static_cast<size_t>(i), ' ') + "k:\n";
  auto manifests = DecodeManifests(yaml, "deep.yaml");
  ASSERT_FALSE(manifests.ok());
  EXPECT_EQ(std::string(manifests.status().message()),
            "line 259, column 257: nested deeper than 256 levels at k.k.k.k.k.k...k.k.k "
            "(257 levels)");
}

}  // namespace
}  // namespace karpenter::api
