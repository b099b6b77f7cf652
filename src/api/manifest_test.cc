#include "src/api/manifest.h"

#include <gtest/gtest.h>

namespace karpenter::api {
namespace {

constexpr char kPodList[] = R"({"apiVersion":"v1","kind":"List","metadata":{},"items":[
  {"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","namespace":"ns"},
   "spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"250m"}}}]}},
  {"apiVersion":"v1","kind":"Node","metadata":{"name":"n1"},"spec":{"providerID":"aws:///z/i-1"}},
  {"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","namespace":"ns"},"data":{"k":"v"}}
]})";

TEST(DecodeManifests, ExpandsKubectlListOutput) {
  auto manifests = DecodeManifests(kPodList, "list.json");
  ASSERT_TRUE(manifests.ok()) << manifests.status();
  ASSERT_EQ(manifests->size(), 3u);
  const Manifest& pod = (*manifests)[0];
  EXPECT_EQ(pod.Ref(), "Pod/ns/a");
  ASSERT_TRUE(pod.object.has_value());
  const Pod& typed = std::get<Pod>(*pod.object);
  EXPECT_EQ(typed.spec.containers[0].resources.requests.at("cpu").MilliValue(), 250);
  EXPECT_EQ(std::get<Node>(*(*manifests)[1].object).spec.provider_id, "aws:///z/i-1");
  // Kinds the engine does not model are kept by name but carry no object.
  EXPECT_EQ((*manifests)[2].Ref(), "ConfigMap/ns/cm");
  EXPECT_FALSE((*manifests)[2].object.has_value());
  EXPECT_TRUE((*manifests)[2].report.errors.empty());
}

TEST(DecodeManifests, KindMayComeAfterTheBody) {
  auto manifests = DecodeManifests(
      R"({"metadata":{"name":"late"},"spec":{"replicas":2},"kind":"Deployment","apiVersion":"apps/v1"})",
      "late.json");
  ASSERT_TRUE(manifests.ok()) << manifests.status();
  ASSERT_EQ(manifests->size(), 1u);
  const auto& deployment = std::get<Deployment>(*(*manifests)[0].object);
  EXPECT_EQ(deployment.metadata.name, "late");
  EXPECT_EQ(deployment.spec.replicas, 2);
}

TEST(DecodeManifests, TopLevelArrayAndNestedLists) {
  auto manifests = DecodeManifests(
      R"([{"apiVersion":"v1","kind":"PodList","items":[{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"}}]},
          {"apiVersion":"v1","kind":"Node","metadata":{"name":"n"}}])",
      "array.json");
  ASSERT_TRUE(manifests.ok()) << manifests.status();
  ASSERT_EQ(manifests->size(), 2u);
  EXPECT_EQ((*manifests)[0].Ref(), "Pod/p");
  EXPECT_EQ((*manifests)[1].Ref(), "Node/n");
}

TEST(DecodeManifests, MultiDocumentYamlKeepsDocumentLines) {
  auto manifests = DecodeManifests(R"(# leading comment
apiVersion: v1
kind: Node
metadata:
  name: first
---
apiVersion: v1
kind: Node
metadata:
  name: second
)",
                                   "nodes.yaml");
  ASSERT_TRUE(manifests.ok()) << manifests.status();
  ASSERT_EQ(manifests->size(), 2u);
  EXPECT_EQ((*manifests)[0].name, "first");
  EXPECT_EQ((*manifests)[1].name, "second");
  EXPECT_LT((*manifests)[0].line, (*manifests)[1].line);
  EXPECT_EQ((*manifests)[1].source, "nodes.yaml");
}

TEST(DecodeManifests, WrongApiVersionForAKnownKindIsAFieldError) {
  auto manifests = DecodeManifests(
      "apiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata: {name: old}\n", "old.yaml");
  ASSERT_TRUE(manifests.ok()) << manifests.status();
  ASSERT_EQ(manifests->size(), 1u);
  EXPECT_FALSE((*manifests)[0].object.has_value());
  ASSERT_EQ((*manifests)[0].report.errors.size(), 1u);
  EXPECT_EQ((*manifests)[0].report.errors.errors()[0].ToString(),
            "apiVersion: Unsupported value: \"karpenter.sh/v1beta1\": supported values: "
            "\"karpenter.sh/v1\"");
}

TEST(DecodeManifests, MissingKindAndApiVersionAreRequired) {
  auto manifests = DecodeManifests("metadata: {name: x}\n", "x.yaml");
  ASSERT_TRUE(manifests.ok()) << manifests.status();
  EXPECT_TRUE((*manifests)[0].report.errors.Contains("kind"));
  EXPECT_TRUE((*manifests)[0].report.errors.Contains("apiVersion"));
}

TEST(DecodeManifests, SyntaxErrorFailsTheWholeInput) {
  auto yaml = DecodeManifests("apiVersion: v1\nkind: Node\n---\nkind: [unclosed\n", "bad.yaml");
  ASSERT_FALSE(yaml.ok());
  EXPECT_NE(yaml.status().message().find("line 5"), std::string::npos) << yaml.status();
  auto json = DecodeManifests(R"({"apiVersion":"v1","kind":"Node","metadata":{"name":)", "b.json");
  ASSERT_FALSE(json.ok());
}

TEST(DecodeManifests, ScalarDocumentIsReportedNotDropped) {
  auto manifests = DecodeManifests("just a string\n", "scalar.yaml");
  ASSERT_TRUE(manifests.ok()) << manifests.status();
  ASSERT_EQ(manifests->size(), 1u);
  EXPECT_FALSE((*manifests)[0].report.errors.empty());
}

TEST(DecodeManifests, EscapedStringsAreUnescaped) {
  auto manifests = DecodeManifests(
      R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","annotations":{"a\"b":"line\nnext \u00e9"}}})",
      "esc.json");
  ASSERT_TRUE(manifests.ok()) << manifests.status();
  const Pod& pod = std::get<Pod>(*(*manifests)[0].object);
  EXPECT_EQ(pod.metadata.annotations.at("a\"b"), "line\nnext \xc3\xa9");
}

TEST(DecodeManifests, UnknownFieldsAreReportedWithPaths) {
  auto manifests = DecodeManifests(
      "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: p}\nspec:\n  surprise: 1\n",
      "unknown.yaml");
  ASSERT_TRUE(manifests.ok()) << manifests.status();
  EXPECT_EQ((*manifests)[0].report.unknown_fields, (std::vector<std::string>{"spec.surprise"}));
}

TEST(LoadManifestFile, MissingFileIsNotFound) {
  auto manifests = LoadManifestFile("/nonexistent/snapshot.yaml");
  ASSERT_FALSE(manifests.ok());
  EXPECT_EQ(manifests.status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace karpenter::api

namespace karpenter::api {
namespace {

TEST(DecodeManifests, MalformedListFailsTheWholeList) {
  // Unbalanced in JSON and in YAML alike: nothing of the list may come back.
  auto manifests = DecodeManifests(
      R"({"apiVersion":"v1","kind":"List","items":[
          {"apiVersion":"v1","kind":"Node","metadata":{"name":"n"}},
          {"apiVersion":"v1","kind":"Node","metadata":{"name":"m"})",
      "bad.json");
  EXPECT_FALSE(manifests.ok());
}

TEST(DecodeManifests, ListItemsAreDecodedOneByOneWithTheSameResult) {
  // The per-item path (a kubectl List) and the whole-document path (a bare array) agree.
  auto list = DecodeManifests(kPodList, "list.json");
  std::string array = std::string(kPodList);
  array = array.substr(array.find('['));
  array = array.substr(0, array.rfind(']') + 1);
  auto bare = DecodeManifests(array, "list.json");
  ASSERT_TRUE(list.ok() && bare.ok());
  ASSERT_EQ(list->size(), bare->size());
  for (size_t i = 0; i < list->size(); ++i) {
    EXPECT_EQ((*list)[i].Ref(), (*bare)[i].Ref());
    EXPECT_EQ((*list)[i].object, (*bare)[i].object);
  }
}

// simdjson's on-demand reader stopped after the first value: a second object was dropped.
TEST(DecodeManifests, JsonContentAfterTheFirstValueIsAnError) {
  const std::string node = R"({"apiVersion":"v1","kind":"Node","metadata":{"name":"a"}})";
  for (const std::string& input : {node + node, node + "\n garbage", node + "\n]"}) {
    auto manifests = DecodeManifests(input, "two.json");
    ASSERT_FALSE(manifests.ok()) << input;
    EXPECT_NE(manifests.status().message().find("unexpected content after the JSON document"),
              std::string::npos)
        << manifests.status();
  }
  auto concatenated = DecodeManifests(node + node, "two.json");
  EXPECT_EQ(concatenated.status().message().rfind("line 1, column 58: ", 0), 0u)
      << concatenated.status();
  EXPECT_TRUE(DecodeManifests(node + "\n\n", "one.json").ok());
}

}  // namespace
}  // namespace karpenter::api
