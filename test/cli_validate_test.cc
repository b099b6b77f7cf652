// `karpenter validate` as a user runs it: exit codes and the `FILE: Kind/name: path: message`
// line format of DESIGN.md §3.
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

namespace {

namespace fs = std::filesystem;

struct CliRun {
  int exit_code = -1;
  std::string output;
};

CliRun RunCli(const std::string& args) {
  std::string command = std::string(KP_KARPENTER_BIN) + " " + args + " 2>/dev/null";
  CliRun run;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  std::array<char, 4096> buffer;
  size_t n;
  while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) run.output.append(buffer.data(), n);
  int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

std::string Source(const std::string& relative) {
  return (fs::path(KP_SOURCE_DIR) / relative).string();
}

fs::path WriteTemp(const std::string& name, const std::string& content) {
  fs::path path = fs::temp_directory_path() / ("kp_cli_" + name);
  std::ofstream(path) << content;
  return path;
}

TEST(CliValidate, AcceptsTheArticleManifests) {
  CliRun run = RunCli("validate -f " + Source("examples/article/ec2nodeclass.yaml") + " -f " +
                   Source("examples/article/nodepool.yaml") + " -f " +
                   Source("examples/article/workload-sample.yaml"));
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.output, "");
}

TEST(CliValidate, ReportsOneLinePerErrorWithFileKindNameAndPath) {
  fs::path file = WriteTemp("bad.yaml", R"(apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: bad
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
      requirements:
        - key: kubernetes.io/arch
          operator: In
          values: [amd64]
        - key: karpenter.sh/capacity-type
          operator: Foo
          values: [spot]
)");
  CliRun run = RunCli("validate -f " + file.string());
  EXPECT_EQ(run.exit_code, 1);
  std::string expected_prefix = file.string() +
                                ": NodePool/bad: spec.template.spec.requirements[1].operator: "
                                "Unsupported value: \"Foo\"";
  EXPECT_EQ(run.output.rfind(expected_prefix, 0), 0u) << run.output;
}

TEST(CliValidate, YamlSyntaxErrorNamesTheLineAndFails) {
  fs::path file = WriteTemp("syntax.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: [x\n");
  CliRun run = RunCli("validate -f " + file.string());
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.output.find("line "), std::string::npos) << run.output;
}

TEST(CliValidate, MissingFileFails) {
  CliRun run = RunCli("validate -f /nonexistent/file.yaml");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.output.find("cannot open"), std::string::npos) << run.output;
}

TEST(CliValidate, ValidAndInvalidFilesTogetherStillFail) {
  fs::path bad = WriteTemp("badpool.json",
                           R"({"apiVersion":"karpenter.sh/v1","kind":"NodePool",
  "metadata":{"name":"x"},"spec":{"weight":0,"template":{"spec":{
  "nodeClassRef":{"group":"karpenter.k8s.aws","kind":"EC2NodeClass","name":"default"},
  "requirements":[]}}}})");
  CliRun run = RunCli("validate -f " + Source("examples/article/nodepool.yaml") + " -f " +
                   bad.string());
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.output.find("NodePool/x: spec.weight"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("NodePool/default"), std::string::npos) << run.output;
}

}  // namespace
