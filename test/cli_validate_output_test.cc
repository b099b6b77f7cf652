// `karpenter validate -o json|yaml`: the same verdicts as the text lines, as one document a tool
// can read (every object with its verdict, field errors and v1 migrations; input problems), and
// the same exit code.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "nlohmann/json.hpp"
#include "test/cli_runner.h"

namespace {

namespace fs = std::filesystem;

using karpenter::cli_test::CliRun;
using karpenter::cli_test::RunKarpenter;
using karpenter::cli_test::SourcePath;
using Json = nlohmann::json;

fs::path WriteTemp(const std::string& name, const std::string& content) {
  fs::path path = fs::temp_directory_path() / ("kp_cli_output_" + name);
  std::ofstream(path) << content;
  return path;
}

Json ParseOut(const CliRun& run) {
  Json document = Json::parse(run.out, nullptr, /*allow_exceptions=*/false);
  EXPECT_FALSE(document.is_discarded()) << run.out;
  return document;
}

// A NodePool with one bad requirement, a v1beta1 NodePool with a moved field, a ConfigMap the
// validator does not model, and a valid EC2NodeClass, in one stream.
constexpr char kMixed[] = R"(apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: bad
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
      requirements:
        - key: karpenter.sh/capacity-type
          operator: Foo
          values: [spot]
---
apiVersion: karpenter.sh/v1beta1
kind: NodePool
metadata:
  name: old
spec:
  disruption:
    expireAfter: 720h
  template:
    spec:
      nodeClassRef: {apiVersion: karpenter.k8s.aws/v1beta1, kind: EC2NodeClass, name: default}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: karpenter
data: {a: b}
)";

TEST(CliValidateOutput, JsonCarriesEachObjectsVerdictErrorsAndMigrations) {
  fs::path file = WriteTemp("mixed.yaml", kMixed);
  CliRun run = RunKarpenter({"validate", "-f", file.string(), "-f",
                             SourcePath("examples/article/ec2nodeclass.yaml"), "-o", "json"});
  EXPECT_EQ(run.exit_code, 1);
  Json document = ParseOut(run);
  EXPECT_EQ(document["valid"], false);
  EXPECT_EQ(document["summary"],
            Json({{"objects", 4}, {"valid", 1}, {"invalid", 2}, {"skipped", 1}}));
  const Json& objects = document["objects"];
  ASSERT_EQ(objects.size(), 4u) << run.out;

  EXPECT_EQ(objects[0]["name"], "bad");
  EXPECT_EQ(objects[0]["verdict"], "invalid");
  EXPECT_EQ(objects[0]["source"], file.string());
  EXPECT_EQ(objects[0]["line"], 1);
  ASSERT_EQ(objects[0]["errors"].size(), 1u);
  EXPECT_EQ(objects[0]["errors"][0]["field"], "spec.template.spec.requirements[0].operator");
  EXPECT_EQ(
      objects[0]["errors"][0]["message"].get<std::string>().rfind("Unsupported value: \"Foo\"", 0),
      0u)
      << objects[0];

  EXPECT_EQ(objects[1]["apiVersion"], "karpenter.sh/v1beta1");
  EXPECT_EQ(objects[1]["verdict"], "invalid");
  EXPECT_EQ(objects[1]["errors"][0]["field"], "apiVersion");
  bool moved = false;
  for (const Json& migration : objects[1]["migrations"]) {
    moved |= migration["field"] == "spec.disruption.expireAfter" &&
             migration["v1"].get<std::string>().find("spec.template.spec.expireAfter") !=
                 std::string::npos;
  }
  EXPECT_TRUE(moved) << objects[1];

  EXPECT_EQ(objects[2]["kind"], "ConfigMap");
  EXPECT_EQ(objects[2]["namespace"], "karpenter");
  EXPECT_EQ(objects[2]["verdict"], "skipped");
  EXPECT_NE(objects[2]["reason"].get<std::string>().find("not validated"), std::string::npos);

  EXPECT_EQ(objects[3]["kind"], "EC2NodeClass");
  EXPECT_EQ(objects[3]["verdict"], "valid");
  EXPECT_TRUE(objects[3]["errors"].empty());
  EXPECT_TRUE(document["inputErrors"].empty());
  // stdout is the document alone; the summary stays on stderr.
  EXPECT_NE(run.err.find("2 of 4 object(s) invalid"), std::string::npos) << run.err;
}

TEST(CliValidateOutput, TheTextLinesAreTheSameErrorsAsTheDocument) {
  fs::path file = WriteTemp("mixed_text.yaml", kMixed);
  CliRun text = RunKarpenter({"validate", "-f", file.string()});
  CliRun json = RunKarpenter({"validate", "-f", file.string(), "-o", "json"});
  EXPECT_EQ(text.exit_code, json.exit_code);
  size_t lines = 0;
  const Json document = ParseOut(json);
  for (const Json& object : document["objects"]) {
    lines += object["errors"].size() + object.value("migrations", Json::array()).size();
    for (const Json& error : object["errors"]) {
      const std::string field = error["field"];
      EXPECT_NE(text.out.find(field + ": " + error["message"].get<std::string>()),
                std::string::npos)
          << field;
    }
  }
  EXPECT_EQ(static_cast<size_t>(std::count(text.out.begin(), text.out.end(), '\n')), lines)
      << text.out;
}

TEST(CliValidateOutput, UnreadableFilesAndRegionConflictsAreInputErrors) {
  CliRun missing = RunKarpenter({"validate", "-f", "/nonexistent/nodepool.yaml", "-f",
                                 SourcePath("examples/article/nodepool.yaml"), "-o", "json"});
  EXPECT_EQ(missing.exit_code, 1);
  Json document = ParseOut(missing);
  EXPECT_EQ(document["valid"], false);
  ASSERT_EQ(document["inputErrors"].size(), 1u) << missing.out;
  EXPECT_EQ(document["inputErrors"][0]["source"], "/nonexistent/nodepool.yaml");
  EXPECT_EQ(document["summary"]["valid"], 1);

  fs::path node = WriteTemp("node_us_west_2.yaml", R"(apiVersion: v1
kind: Node
metadata:
  name: ip-10-0-1-5.us-west-2.compute.internal
  labels: {topology.kubernetes.io/zone: us-west-2a, topology.kubernetes.io/region: us-west-2}
)");
  CliRun conflict =
      RunKarpenter({"validate", "-f", node.string(), "--region", "eu-west-1", "-o", "json"});
  EXPECT_EQ(conflict.exit_code, 1);
  Json by_conflict = ParseOut(conflict);
  ASSERT_EQ(by_conflict["inputErrors"].size(), 1u) << conflict.out;
  EXPECT_EQ(by_conflict["inputErrors"][0]["source"], "region");
}

TEST(CliValidateOutput, InputWithoutAnyObjectFailsAsKubectlApplyDoes) {
  fs::path empty = WriteTemp("empty.yaml", "# nothing here\n---\n");
  CliRun run = RunKarpenter({"validate", "-f", empty.string()});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.out, "no objects passed to validate\n");
  CliRun json = RunKarpenter({"validate", "-f", empty.string(), "-o", "json"});
  EXPECT_EQ(json.exit_code, 1);
  EXPECT_EQ(ParseOut(json)["inputErrors"][0]["message"], "no objects passed to validate");
}

TEST(CliValidateOutput, ADocumentThatCannotBeWrittenIsAnError) {
  for (const char* format : {"json", "yaml"}) {
    CliRun run = karpenter::cli_test::RunKarpenterCommandLine(
        "validate -f " + SourcePath("examples/article/nodepool.yaml") + " -o " + format +
        " > /dev/full");
    EXPECT_EQ(run.exit_code, 1) << format;
    EXPECT_NE(run.err.find("karpenter: cannot write the output"), std::string::npos)
        << format << ": " << run.err;
  }
}

TEST(CliValidateOutput, YamlIsTheSameDocument) {
  fs::path file = WriteTemp("mixed_yaml.yaml", kMixed);
  CliRun yaml = RunKarpenter({"validate", "-f", file.string(), "-o", "yaml"});
  EXPECT_EQ(yaml.exit_code, 1);
  EXPECT_EQ(yaml.out.rfind("valid: false\nsummary:\n  objects: 3\n", 0), 0u) << yaml.out;
  EXPECT_NE(yaml.out.find("  verdict: skipped\n"), std::string::npos) << yaml.out;
  EXPECT_NE(yaml.out.find("  - field: spec.disruption.expireAfter\n"), std::string::npos)
      << yaml.out;
}

TEST(CliValidateOutput, AnUnknownFormatIsAUsageError) {
  CliRun run =
      RunKarpenter({"validate", "-f", SourcePath("examples/article/nodepool.yaml"), "-o", "xml"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("xml"), std::string::npos) << run.err;
}

}  // namespace
