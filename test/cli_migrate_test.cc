// `karpenter migrate` run as a user runs it: the article's cluster gives the golden outputs and
// manifests `karpenter validate` accepts; bad inputs exit 1 naming the field, with nothing on
// stdout.
#include <fstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "test/cli_runner.h"
#include "test/migrate_article_args.h"

namespace karpenter::cli_test {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

std::vector<std::string> ArticleArgs(const std::string& output) {
  return ArticleMigrateArgs({"-o", output});
}

TEST(CliMigrate, PrintsTheGoldenOutputsForTheArticlesCluster) {
  for (const std::string format : {"yaml", "json", "txt"}) {
    CliRun run = RunKarpenter(ArticleArgs(format == "txt" ? "text" : format));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.out, ReadTextFile(SourcePath("examples/migrate/article/expected." + format)));
  }
}

TEST(CliMigrate, YamlOutputPassesValidate) {
  CliRun run = RunKarpenter(ArticleArgs("yaml"));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string path = ::testing::TempDir() + "/migrate-plan.yaml";
  std::ofstream(path) << run.out;
  CliRun validate = RunKarpenter({"validate", "-f", path});
  EXPECT_EQ(validate.exit_code, 0) << validate.out;
  EXPECT_THAT(validate.err, HasSubstr("4 object(s) valid"));
}

TEST(CliMigrate, BadNodegroupFileExitsOneNamingTheField) {
  const std::string path = ::testing::TempDir() + "/bad-nodegroup.json";
  std::ofstream(path) << R"({"nodegroup": {"nodegroupName": "x", "taints": [{"key": "a"}]}})";
  CliRun run = RunKarpenter({"migrate", "-f", SourcePath("examples/migrate/article/snapshot.json"),
                             "--nodegroups", path});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.out, "");
  EXPECT_THAT(run.err, HasSubstr(path + ": nodegroup.taints[0].effect: required"));
}

TEST(CliMigrate, SnapshotWithABadObjectExitsOneNamingIt) {
  const std::string path = ::testing::TempDir() + "/bad-snapshot.yaml";
  std::ofstream(path) << "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n  labels: 7\n";
  CliRun run = RunKarpenter({"migrate", "-f", path, "--cluster", "c"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.out, "");
  EXPECT_THAT(run.err, HasSubstr("Node/n1: metadata.labels"));
}

TEST(CliMigrate, WideIsTheRunbookAsEveryCommandTakesIt) {
  CliRun wide = RunKarpenter(ArticleArgs("wide"));
  ASSERT_EQ(wide.exit_code, 0) << wide.err;
  EXPECT_EQ(wide.out, RunKarpenter(ArticleArgs("text")).out);
}

TEST(CliMigrate, UnknownOutputFormatIsAUsageError) {
  CliRun run = RunKarpenter(ArticleArgs("xml"));
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.out, "");
}

TEST(CliMigrate, ClusterAutoscalerFlagsAndPrioritiesReachTheNodePools) {
  const std::string path = ::testing::TempDir() + "/ca.yaml";
  std::ofstream(path) << "apiVersion: apps/v1\nkind: Deployment\n"
                         "metadata: {name: cluster-autoscaler, namespace: kube-system}\n"
                         "spec:\n  template:\n    spec:\n      containers:\n"
                         "      - name: cluster-autoscaler\n"
                         "        command: [./cluster-autoscaler, --expander=priority, "
                         "--scale-down-unneeded-time=3m]\n"
                         "---\napiVersion: v1\nkind: ConfigMap\n"
                         "metadata: {name: cluster-autoscaler-priority-expander}\n"
                         "data:\n  priorities: |-\n    40: [general]\n";
  std::vector<std::string> args = ArticleArgs("yaml");
  args.insert(args.end(), {"--cluster-autoscaler", path});
  CliRun run = RunKarpenter(args);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("weight: 40"));
  EXPECT_THAT(run.out, HasSubstr("consolidateAfter: \"3m\""));
}

TEST(CliMigrate, BadClusterAutoscalerFlagExitsOneNamingTheToken) {
  const std::string path = ::testing::TempDir() + "/bad-ca.yaml";
  std::ofstream(path) << "kind: Deployment\nmetadata: {name: cluster-autoscaler, namespace: "
                         "kube-system}\nspec:\n  template:\n    spec:\n      containers:\n"
                         "      - name: cluster-autoscaler\n"
                         "        command: [./cluster-autoscaler, --v=4, --cloud-provider=aws, "
                         "--scale-down-unneeded-time=ten]\n";
  std::vector<std::string> args = ArticleArgs("yaml");
  args.insert(args.end(), {"--cluster-autoscaler", path});
  CliRun run = RunKarpenter(args);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.out, "");
  EXPECT_THAT(run.err, HasSubstr(path + ": Deployment/kube-system/cluster-autoscaler: "
                                        "spec.template.spec.containers[0].command[3]: "
                                        "--scale-down-unneeded-time=\"ten\""));
}

TEST(CliMigrate, AClusterAutoscalerFileWithNeitherObjectIsRefused) {
  CliRun run = RunKarpenter({"migrate", "-f", SourcePath("examples/migrate/article/snapshot.json"),
                             "--cluster", "c", "--cluster-autoscaler",
                             SourcePath("examples/migrate/article/snapshot.json")});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_THAT(run.err, HasSubstr("neither a Deployment with a cluster-autoscaler container"));
}

std::vector<std::string> MixedArgs(const std::string& output) {
  const std::string dir = SourcePath("examples/migrate/mixed/");
  return {"migrate",
          "-f",
          dir + "snapshot.json",
          "--nodegroups",
          dir + "nodegroup-od-general.json," + dir + "nodegroup-spot-compute.json," + dir +
              "nodegroup-system.json",
          "--subnets",
          dir + "subnets.json",
          "--launch-templates",
          dir + "launch-templates.json",
          "--cluster-autoscaler",
          dir + "cluster-autoscaler.yaml",
          "--asgs",
          dir + "asgs.json",
          "-o",
          output};
}

// The second cluster: on-demand and spot groups under the priority expander, a launch template,
// aws-node with WARM_IP_TARGET, and the CA Deployment and ConfigMap in their own file.
TEST(CliMigrate, PrintsTheGoldenOutputsForTheMixedPriorityCluster) {
  for (const std::string format : {"yaml", "json", "txt"}) {
    CliRun run = RunKarpenter(MixedArgs(format == "txt" ? "text" : format));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.out, ReadTextFile(SourcePath("examples/migrate/mixed/expected." + format)));
  }
}

TEST(CliMigrate, MixedClusterManifestsPassValidateAndDiversifyFixesSpotDiversity) {
  std::vector<std::string> args = MixedArgs("yaml");
  args.push_back("--diversify");
  CliRun run = RunKarpenter(args);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("[pass] spot-diversity"));
  EXPECT_THAT(run.out, HasSubstr("# Widened (--diversify): spot-compute: c5.xlarge"));
  const std::string path = ::testing::TempDir() + "/migrate-mixed.yaml";
  std::ofstream(path) << run.out;
  CliRun validate = RunKarpenter({"validate", "-f", path});
  EXPECT_EQ(validate.exit_code, 0) << validate.out;
}

TEST(CliMigrate, BadLaunchTemplateFieldExitsOneNamingIt) {
  const std::string path = ::testing::TempDir() + "/bad-lt.json";
  std::ofstream(path) << R"({"LaunchTemplateVersions": [{"LaunchTemplateId": "lt-1",
      "LaunchTemplateData": {"MetadataOptions": {"HttpTokens": "sometimes"}}}]})";
  std::vector<std::string> args = MixedArgs("yaml");
  args[8] = path;
  CliRun run = RunKarpenter(args);
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.out, "");
  EXPECT_THAT(run.err, HasSubstr(path + ": LaunchTemplateVersions[0].LaunchTemplateData."
                                        "MetadataOptions.HttpTokens: \"sometimes\""));
}

std::vector<std::string> GpuWindowsArgs(const std::string& output) {
  const std::string dir = SourcePath("examples/migrate/gpu-windows/");
  return {
      "migrate",
      "-f",
      dir + "snapshot.json",
      "--nodegroups",
      dir + "nodegroup-gpu.json," + dir + "nodegroup-windows.json," + dir + "nodegroup-system.json",
      "--subnets",
      dir + "subnets.json",
      "-o",
      output};
}

// The third cluster: an NVIDIA GPU group and a Windows group next to the static system group; a
// PDB with maxUnavailable 0, do-not-disrupt trainers and a short zone make checks fail or warn.
TEST(CliMigrate, PrintsTheGoldenOutputsForTheGpuAndWindowsCluster) {
  for (const std::string format : {"yaml", "json", "txt"}) {
    CliRun run = RunKarpenter(GpuWindowsArgs(format == "txt" ? "text" : format));
    ASSERT_EQ(run.exit_code, 0) << run.err;
    EXPECT_EQ(run.out, ReadTextFile(SourcePath("examples/migrate/gpu-windows/expected." + format)));
  }
  CliRun yaml = RunKarpenter(GpuWindowsArgs("yaml"));
  EXPECT_THAT(yaml.out, HasSubstr("alias: \"windows2022@latest\""));
  EXPECT_THAT(yaml.out, HasSubstr("key: \"kubernetes.io/os\""));
  EXPECT_THAT(yaml.out, HasSubstr("[fail] pdb-blocking"));
}

TEST(CliMigrate, DiversifyKeepsTheGpuGroupOnAcceleratedFamilies) {
  std::vector<std::string> args = GpuWindowsArgs("yaml");
  args.push_back("--diversify");
  CliRun run = RunKarpenter(args);
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_THAT(run.out, HasSubstr("# Widened (--diversify): gpu: g5.2xlarge, g5.xlarge -> "));
  const size_t gpu = run.out.find("# Widened (--diversify): gpu:");
  const std::string line = run.out.substr(gpu, run.out.find('\n', gpu) - gpu);
  EXPECT_THAT(line, Not(HasSubstr(" m5,")));
  const std::string path = ::testing::TempDir() + "/migrate-gpu.yaml";
  std::ofstream(path) << run.out;
  EXPECT_EQ(RunKarpenter({"validate", "-f", path}).exit_code, 0);
}

}  // namespace
}  // namespace karpenter::cli_test
