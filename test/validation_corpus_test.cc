// Every file in test/validation/malformed/ breaks exactly one rule and names it on its first
// line: `# expect: <field.path>: <message substring>`. Each must be rejected with that path.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "src/api/manifest.h"
#include "src/api/validation.h"

namespace karpenter::api {
namespace {

namespace fs = std::filesystem;

const fs::path kCorpus = fs::path(KP_SOURCE_DIR) / "test/validation/malformed";
const fs::path kArticle = fs::path(KP_SOURCE_DIR) / "examples/article";

std::vector<std::string> CorpusFiles() {
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(kCorpus)) {
    if (entry.path().extension() == ".yaml" || entry.path().extension() == ".json") {
      files.push_back(entry.path().filename().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

struct Expectation {
  std::string path;
  std::string message;
};

Expectation ReadExpectation(const fs::path& file) {
  std::ifstream in(file);
  std::string first;
  std::getline(in, first);
  const std::string prefix = "# expect: ";
  if (first.rfind(prefix, 0) != 0) return {};
  std::string rest = first.substr(prefix.size());
  size_t split = rest.find(": ");
  if (split == std::string::npos) return {"", rest};
  return {rest.substr(0, split), rest.substr(split + 2)};
}

class MalformedManifest : public testing::TestWithParam<std::string> {};

TEST_P(MalformedManifest, IsRejectedWithItsFieldPath) {
  fs::path file = kCorpus / GetParam();
  Expectation expect = ReadExpectation(file);
  ASSERT_FALSE(expect.message.empty()) << file << " lacks a '# expect: path: message' line";
  auto manifests = LoadManifestFile(file.string());
  ASSERT_TRUE(manifests.ok()) << manifests.status();
  ASSERT_EQ(manifests->size(), 1u) << "one object per corpus file";
  FieldErrors errors = ValidateManifest((*manifests)[0]);
  std::string all;
  bool found = false;
  for (const FieldError& e : errors.errors()) {
    all += "\n  " + e.ToString();
    found = found || (e.path == expect.path && e.message.find(expect.message) != std::string::npos);
  }
  EXPECT_TRUE(found) << "expected `" << expect.path << ": " << expect.message << "`, got:" << all;
}

std::string TestName(const testing::TestParamInfo<std::string>& info) {
  std::string name = fs::path(info.param).stem().string();
  std::replace_if(
      name.begin(), name.end(), [](char c) { return !std::isalnum(c); }, '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(Corpus, MalformedManifest, testing::ValuesIn(CorpusFiles()), TestName);

TEST(MalformedCorpus, CoversAtLeastSixtyRules) { EXPECT_GE(CorpusFiles().size(), 60u); }

TEST(ArticleManifests, DecodeWithoutUnknownFieldsAndValidate) {
  for (const char* name : {"ec2nodeclass.yaml", "nodepool.yaml", "workload-sample.yaml"}) {
    auto manifests = LoadManifestFile((kArticle / name).string());
    ASSERT_TRUE(manifests.ok()) << name << ": " << manifests.status();
    ASSERT_EQ(manifests->size(), 1u) << name;
    const Manifest& m = (*manifests)[0];
    ASSERT_TRUE(m.object.has_value()) << name;
    EXPECT_TRUE(m.report.unknown_fields.empty()) << name << ": " << m.report.unknown_fields[0];
    FieldErrors errors = ValidateManifest(m);
    EXPECT_TRUE(errors.empty()) << name << ": " << errors.errors()[0].ToString();
  }
}

TEST(ArticleManifests, RoundTripThroughJsonIsLossless) {
  for (const char* name : {"ec2nodeclass.yaml", "nodepool.yaml", "workload-sample.yaml"}) {
    auto first = LoadManifestFile((kArticle / name).string());
    ASSERT_TRUE(first.ok()) << first.status();
    std::string json = EncodeObject(*(*first)[0].object);
    auto second = DecodeManifests(json, "roundtrip");
    ASSERT_TRUE(second.ok()) << second.status();
    ASSERT_EQ(second->size(), 1u);
    EXPECT_TRUE((*second)[0].report.errors.empty());
    EXPECT_TRUE((*second)[0].report.unknown_fields.empty());
    EXPECT_EQ(*(*first)[0].object, *(*second)[0].object) << name << "\n" << json;
    EXPECT_EQ(EncodeObject(*(*second)[0].object), json);
  }
}

}  // namespace
}  // namespace karpenter::api
