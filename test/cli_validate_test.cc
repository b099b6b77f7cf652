// `karpenter validate` as a user runs it: exit codes and the `FILE: Kind/name: path: message`
// line format of docs/contracts.md.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "test/cli_runner.h"

namespace {

namespace fs = std::filesystem;

using karpenter::cli_test::CliRun;

CliRun RunCli(const std::string& args) {
  return karpenter::cli_test::RunKarpenterCommandLine(args);
}

std::string Source(const std::string& relative) {
  return karpenter::cli_test::SourcePath(relative);
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
  EXPECT_EQ(run.exit_code, 0) << run.out;
  EXPECT_EQ(run.out, "");
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
  EXPECT_EQ(run.out.rfind(expected_prefix, 0), 0u) << run.out;
}

TEST(CliValidate, YamlSyntaxErrorNamesTheLineAndFails) {
  fs::path file = WriteTemp("syntax.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: [x\n");
  CliRun run = RunCli("validate -f " + file.string());
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.out.find("line "), std::string::npos) << run.out;
}

TEST(CliValidate, MissingFileFails) {
  CliRun run = RunCli("validate -f /nonexistent/file.yaml");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.out.find("cannot open"), std::string::npos) << run.out;
}

TEST(CliValidate, ValidAndInvalidFilesTogetherStillFail) {
  fs::path bad = WriteTemp("badpool.json",
                           R"({"apiVersion":"karpenter.sh/v1","kind":"NodePool",
  "metadata":{"name":"x"},"spec":{"weight":0,"template":{"spec":{
  "nodeClassRef":{"group":"karpenter.k8s.aws","kind":"EC2NodeClass","name":"default"},
  "requirements":[]}}}})");
  CliRun run =
      RunCli("validate -f " + Source("examples/article/nodepool.yaml") + " -f " + bad.string());
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.out.find("NodePool/x: spec.weight"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("NodePool/default"), std::string::npos) << run.out;
}

// An invalid file's lines go to stdout; a write that fails there must not exit 0.
TEST(CliValidate, AFailedWriteIsAnError) {
  CliRun run =
      RunCli("validate -f " + Source("test/validation/malformed/core-pod-port-out-of-range.yaml") +
             " > /dev/full");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.err.find("karpenter: cannot write the output"), std::string::npos) << run.err;
}

// CLI11 exited usage errors with 105, 106, 109 and said "A subcommand is required" for an unknown
// one; kubectl names the command and exits 1.
TEST(CliUsage, UsageErrorsExitOneAndNameTheProblem) {
  CliRun unknown = RunCli("frobnicate");
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_NE(unknown.err.find("unknown command \"frobnicate\" for \"karpenter\""), std::string::npos)
      << unknown.err;
  EXPECT_EQ(RunCli("validate").exit_code, 1);                    // was 106: -f is required
  EXPECT_EQ(RunCli("validate -f x.yaml --bogus").exit_code, 1);  // was 109
  EXPECT_EQ(RunCli("plan -f x.yaml -o yaml").exit_code, 1);      // was 105
  EXPECT_EQ(RunCli("--help").exit_code, 0);
  CliRun nodes = RunCli("bench disruption --nodes -5");
  EXPECT_EQ(nodes.exit_code, 1);
  EXPECT_NE(nodes.err.find("--nodes"), std::string::npos) << nodes.err;
  EXPECT_EQ(RunCli("bench disruption --nodes 10000000").exit_code, 1);
  EXPECT_EQ(RunCli("bench scheduling --pods 10000000").exit_code, 1);
  // Checked without --disruption too, before any file is read.
  CliRun search = RunCli("plan -f x.yaml --consolidation-search bogus");
  EXPECT_EQ(search.exit_code, 1);
  EXPECT_NE(search.err.find("--consolidation-search: want upstream or extended, got \"bogus\""),
            std::string::npos)
      << search.err;
}

TEST(CliValidate, ObjectsInTwoRegionsOrAnotherThanTheFlagFailNamingTheField) {
  const std::string node_class = WriteTemp("region_class.yaml", R"(apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata: {name: default}
spec:
  amiSelectorTerms: [{alias: al2023@latest}]
  role: r
  subnetSelectorTerms: [{tags: {k: v}}]
  securityGroupSelectorTerms: [{tags: {k: v}}]
status:
  subnets: [{id: subnet-1, zone: eu-west-1a}]
)")
                                     .string();
  const std::string node = WriteTemp("region_node.yaml", R"(apiVersion: v1
kind: Node
metadata:
  name: n1
  labels: {topology.kubernetes.io/zone: us-east-1a}
)")
                               .string();
  EXPECT_EQ(RunCli("validate -f " + node_class).exit_code, 0);
  EXPECT_EQ(RunCli("validate -f " + node_class + " --region eu-west-1").exit_code, 0);
  CliRun flag = RunCli("validate -f " + node_class + " --region us-west-2");
  EXPECT_EQ(flag.exit_code, 1);
  EXPECT_NE(flag.out.find("region: --region us-west-2 disagrees with the input: "
                          "EC2NodeClass/default: status.subnets[0].zone eu-west-1a"),
            std::string::npos)
      << flag.out;
  CliRun two = RunCli("validate -f " + node_class + " -f " + node);
  EXPECT_EQ(two.exit_code, 1);
  EXPECT_NE(two.out.find("region: the input names two regions"), std::string::npos) << two.out;
  // A file that names no region: the flag alone decides, and is unknown.
  CliRun unknown =
      RunCli("validate -f " + Source("examples/article/nodepool.yaml") + " --region xx-1");
  EXPECT_EQ(unknown.exit_code, 1);
  EXPECT_NE(unknown.out.find("unknown region \"xx-1\"; known regions: af-south-1"),
            std::string::npos)
      << unknown.out;
}

}  // namespace

namespace {

TEST(CliValidate, V1beta1NodePoolGetsTheV1SpellingOfEachMovedField) {
  fs::path file = WriteTemp("v1beta1_nodepool.yaml", R"(apiVersion: karpenter.sh/v1beta1
kind: NodePool
metadata:
  name: legacy
spec:
  template:
    spec:
      nodeClassRef: {apiVersion: karpenter.k8s.aws/v1beta1, name: default}
      kubelet: {maxPods: 110}
  disruption:
    consolidationPolicy: WhenUnderutilized
    expireAfter: 720h
)");
  CliRun run = RunCli("validate -f " + file.string());
  EXPECT_EQ(run.exit_code, 1);
  const std::string prefix = file.string() + ": NodePool/legacy: ";
  EXPECT_NE(run.out.find(prefix + "apiVersion: Unsupported value: \"karpenter.sh/v1beta1\": "
                                  "Karpenter v1 serves NodePool (karpenter.sh/v1)\n"),
            std::string::npos)
      << run.out;
  EXPECT_NE(
      run.out.find(prefix +
                   "spec.disruption.expireAfter: moved in v1: spec.template.spec.expireAfter\n"),
      std::string::npos)
      << run.out;
  EXPECT_NE(
      run.out.find(prefix + "spec.template.spec.kubelet: moved in v1: EC2NodeClass spec.kubelet"),
      std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find(prefix + "spec.template.spec.nodeClassRef.apiVersion: moved in v1: "
                                  "spec.template.spec.nodeClassRef.group"),
            std::string::npos)
      << run.out;
  EXPECT_EQ(run.out.find("<unnamed>"), std::string::npos) << run.out;
}

TEST(CliValidate, V1alpha5ProvisionerIsInvalidWithItsNodePoolSpelling) {
  fs::path file = WriteTemp("v1alpha5_provisioner.yaml", R"(apiVersion: karpenter.sh/v1alpha5
kind: Provisioner
metadata:
  name: old
spec:
  ttlSecondsAfterEmpty: 30
  ttlSecondsUntilExpired: 2592000
  providerRef: {name: default}
  requirements:
  - {key: karpenter.sh/capacity-type, operator: In, values: [spot]}
)");
  CliRun run = RunCli("validate -f " + file.string());
  EXPECT_EQ(run.exit_code, 1);
  const std::string prefix = file.string() + ": Provisioner/old: ";
  EXPECT_NE(run.out.find(prefix + "spec.ttlSecondsAfterEmpty: moved in v1: NodePool "
                                  "spec.disruption.consolidationPolicy: WhenEmpty"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find(prefix + "spec.ttlSecondsUntilExpired: moved in v1: NodePool "
                                  "spec.template.spec.expireAfter"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find(prefix + "spec.requirements: moved in v1: NodePool "
                                  "spec.template.spec.requirements"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find(prefix + "spec.providerRef: moved in v1: NodePool "
                                  "spec.template.spec.nodeClassRef"),
            std::string::npos)
      << run.out;
}

}  // namespace

namespace {

// The v1 migration guide's changes beyond moved fields: renamed values, fields v1 requires,
// removed annotations, tags and AMI families, and a changed default, each on the object's line.
TEST(CliValidate, V1beta1ObjectsGetTheRenamedRequiredRemovedAndDefaultChanges) {
  fs::path file = WriteTemp("v1beta1_changes.yaml", R"(apiVersion: karpenter.sh/v1beta1
kind: NodePool
metadata:
  name: legacy
spec:
  template:
    metadata:
      annotations: {karpenter.sh/do-not-consolidate: 'true', karpenter.sh/do-not-evict: 'true'}
    spec:
      nodeClassRef: {name: default}
  disruption:
    consolidationPolicy: WhenUnderutilized
---
apiVersion: karpenter.k8s.aws/v1beta1
kind: EC2NodeClass
metadata:
  name: ubuntu
spec:
  amiFamily: Ubuntu
  role: KarpenterNodeRole
  tags: {karpenter.sh/managed-by: my-cluster}
)");
  CliRun run = RunCli("validate -f " + file.string());
  EXPECT_EQ(run.exit_code, 1);
  const std::string pool = file.string() + ": NodePool/legacy: ";
  const std::string node_class = file.string() + ": EC2NodeClass/ubuntu: ";
  for (const std::string& line : {
           pool + "spec.disruption.consolidationPolicy: renamed in v1: WhenEmptyOrUnderutilized\n",
           pool + "spec.disruption.consolidateAfter: required in v1: "
                  "spec.disruption.consolidateAfter (0s keeps",
           pool + "spec.template.metadata.annotations[karpenter.sh/do-not-consolidate]: removed "
                  "in v1: karpenter.sh/do-not-disrupt\n",
           pool + "spec.template.metadata.annotations[karpenter.sh/do-not-evict]: removed in v1: "
                  "karpenter.sh/do-not-disrupt\n",
           node_class + "spec.amiFamily: removed in v1: amiFamily AL2 with spec.amiSelectorTerms",
           node_class + "spec.amiSelectorTerms: required in v1: ",
           node_class + "spec.metadataOptions.httpPutResponseHopLimit: default changed in v1: 1 "
                        "instead of 2",
           node_class + "spec.tags[karpenter.sh/managed-by]: removed in v1: ",
       }) {
    EXPECT_NE(run.out.find(line), std::string::npos) << line << "\n" << run.out;
  }
}

TEST(CliValidate, V1beta1ChangesAreNotReportedWhenTheObjectAlreadyComplies) {
  fs::path file = WriteTemp("v1beta1_compliant.yaml", R"(apiVersion: karpenter.sh/v1beta1
kind: NodePool
metadata:
  name: ready
spec:
  template:
    spec:
      nodeClassRef: {name: default}
  disruption:
    consolidationPolicy: WhenEmpty
    consolidateAfter: 30s
)");
  CliRun run = RunCli("validate -f " + file.string());
  EXPECT_EQ(run.exit_code, 1);  // the apiVersion itself is still unsupported
  EXPECT_EQ(run.out.find("consolidateAfter: required"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("renamed in v1"), std::string::npos) << run.out;
}

TEST(CliValidate, AwsNodeTemplateFieldsMoveToTheEc2NodeClass) {
  fs::path file = WriteTemp("v1alpha1_template.yaml", R"(apiVersion: karpenter.k8s.aws/v1alpha1
kind: AWSNodeTemplate
metadata:
  name: old
spec:
  subnetSelector: {karpenter.sh/discovery: my-cluster}
  userData: echo hi
  blockDeviceMappings: [{deviceName: /dev/xvda}]
  metadataOptions: {httpTokens: required}
  tags: {team: a}
  detailedMonitoring: true
  context: my-context
)");
  CliRun run = RunCli("validate -f " + file.string());
  EXPECT_EQ(run.exit_code, 1);
  const std::string prefix = file.string() + ": AWSNodeTemplate/old: ";
  for (const std::string& line : {
           prefix + "spec.userData: moved in v1: EC2NodeClass spec.userData\n",
           prefix +
               "spec.blockDeviceMappings: moved in v1: EC2NodeClass spec.blockDeviceMappings\n",
           prefix + "spec.metadataOptions: moved in v1: EC2NodeClass spec.metadataOptions",
           prefix + "spec.tags: moved in v1: EC2NodeClass spec.tags\n",
           prefix + "spec.detailedMonitoring: moved in v1: EC2NodeClass spec.detailedMonitoring\n",
           prefix + "spec.context: removed in v1: ",
       }) {
    EXPECT_NE(run.out.find(line), std::string::npos) << line << "\n" << run.out;
  }
}

}  // namespace
