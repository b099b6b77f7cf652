#include "src/api/yaml_document_scan.h"

#include <gtest/gtest.h>

#include <string>

#include "src/api/manifest.h"
#include "src/api/yaml_hang_guard.h"
#include "src/api/yaml_to_json.h"

namespace karpenter::api {
namespace {

// decode_validate_fuzz (fuzz/corpus/decode_validate_fuzz/flow-comment-comma-*): yaml-cpp takes
// `#` right after `{` as a comment, so the flow map closes before the last `,`, which then starts
// empty documents forever. The character-level guard reads `#{` as text and lets it through.
constexpr std::string_view kCommentedFlowMapThenComma = "{#{\nt,\"\":{}},";

TEST(YamlDocumentScan, RefusesADocumentThatDoesNotAdvance) {
  ASSERT_TRUE(CheckNoTopLevelFlowEntry(kCommentedFlowMapThenComma).ok());
  EXPECT_EQ(CheckYamlDocumentsAdvance(kCommentedFlowMapThenComma).message(),
            "line 2, column 9: unexpected ',' at the top level of a document");
  absl::StatusOr<std::vector<JsonDocument>> docs = YamlToJson(kCommentedFlowMapThenComma);
  ASSERT_FALSE(docs.ok());
  EXPECT_EQ(docs.status().message(),
            "line 2, column 9: unexpected ',' at the top level of a document");
  // The same input as a manifest file: it looks like JSON, fails as JSON, then as YAML.
  EXPECT_FALSE(DecodeManifests(kCommentedFlowMapThenComma, "in.yaml").ok());
}

TEST(YamlDocumentScan, CatchesTheTopLevelCommasTheGuardAlsoRefuses) {
  for (std::string_view input : {"[x],", "{},", "\"s\",", "a: 1\n---\n{},\n", "&a [x],"}) {
    absl::Status status = CheckYamlDocumentsAdvance(input);
    EXPECT_NE(status.message().find("unexpected ',' at the top level"), std::string_view::npos)
        << input << ": " << status;
  }
}

TEST(YamlDocumentScan, AcceptsMultiDocumentStreams) {
  for (std::string_view input :
       {"", "# only a comment\n", "a: 1\n---\nb: 2\n---\n---\n[x]\n", "--- a\n...\n--- b\n",
        "%YAML 1.2\n---\na: [x, {y: z}]\n", "x\n---\n", "- a\n- b\n"}) {
    EXPECT_TRUE(CheckYamlDocumentsAdvance(input).ok()) << input;
  }
}

TEST(YamlDocumentScan, SyntaxErrorNamesTheLine) {
  EXPECT_EQ(CheckYamlDocumentsAdvance("a: 1\nb: [x\n").message(),
            "line 3, column 1: end of sequence flow not found");
}

}  // namespace
}  // namespace karpenter::api
