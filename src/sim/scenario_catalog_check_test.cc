#include "src/sim/scenario_catalog_check.h"

#include <gtest/gtest.h>

#include <string>

#include "src/sim/builtin_scenario.h"
#include "src/sim/scenario_file.h"

namespace karpenter::sim {
namespace {

const cloudprovider::Catalog& TheCatalog() {
  static const cloudprovider::Catalog* catalog =
      new cloudprovider::Catalog(*cloudprovider::Catalog::LoadEmbedded());
  return *catalog;
}

constexpr char kNodeClass[] = R"yaml(
      apiVersion: karpenter.k8s.aws/v1
      kind: EC2NodeClass
      metadata: {name: default}
      spec:
        amiSelectorTerms: [{alias: al2023@latest}]
        role: KarpenterNodeRole
        subnetSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}]
        securityGroupSelectorTerms: [{tags: {karpenter.sh/discovery: demo}}]
)yaml";

constexpr char kNodePool[] = R"yaml(
      apiVersion: karpenter.sh/v1
      kind: NodePool
      metadata: {name: general}
      spec:
        template:
          spec:
            nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: NODECLASS}
            requirements: []
)yaml";

std::string ScenarioYaml(const std::string& zones, const std::string& instance_type,
                         const std::string& node_class_ref, bool with_node_class) {
  std::string pool = kNodePool;
  pool.replace(pool.find("NODECLASS"), 9, node_class_ref);
  return "name: x\ndurationSeconds: 60\nzones: " + zones +
         "\nnodeGroups:\n  - {name: g, instanceType: " + instance_type +
         ", maxSize: 2}\nmanifests: |\n" +
         (with_node_class ? std::string(kNodeClass) + "      ---" : "") + pool;
}

std::string ProblemsOf(const std::string& yaml) {
  absl::StatusOr<sim::Scenario> scenario = ParseScenario(yaml, "s.yaml");
  EXPECT_TRUE(scenario.ok()) << scenario.status();
  if (!scenario.ok()) return "";
  absl::Status status = CheckScenarioAgainstCatalog(*scenario, TheCatalog());
  return status.ok() ? "" : std::string(status.message());
}

TEST(CheckScenarioAgainstCatalog, AcceptsWhatTheCatalogOffers) {
  EXPECT_EQ(ProblemsOf(ScenarioYaml("[us-east-1a, us-east-1b]", "m6i.xlarge", "default", true)),
            "");
  absl::StatusOr<sim::Scenario> builtin = BuiltinScenario();
  ASSERT_TRUE(builtin.ok());
  EXPECT_TRUE(CheckScenarioAgainstCatalog(*builtin, TheCatalog()).ok());
}

// A scenario in eu-west-1 runs on eu-west-1's catalog, and its zones are checked against it; the
// default catalog (us-east-1) is refused for it rather than pricing it at us-east-1's level.
TEST(CheckScenarioAgainstCatalog, TheScenariosRegionPicksTheCatalog) {
  absl::StatusOr<sim::Scenario> scenario =
      ParseScenario("region: eu-west-1\n" +
                        ScenarioYaml("[eu-west-1a, us-east-1a]", "m6i.xlarge", "default", true),
                    "s.yaml");
  ASSERT_TRUE(scenario.ok()) << scenario.status();
  EXPECT_EQ(scenario->region, "eu-west-1");
  cloudprovider::CatalogOptions options;
  options.resolve.region = "eu-west-1";
  absl::StatusOr<cloudprovider::Catalog> eu = cloudprovider::Catalog::LoadEmbedded(options);
  ASSERT_TRUE(eu.ok()) << eu.status();
  absl::Status status = CheckScenarioAgainstCatalog(*scenario, *eu);
  EXPECT_EQ(status.message(),
            "zones[1]: unknown zone \"us-east-1a\": the catalog's eu-west-1 zones are eu-west-1a, "
            "eu-west-1b, eu-west-1c");
  absl::Status wrong = CheckScenarioAgainstCatalog(*scenario, TheCatalog());
  EXPECT_NE(wrong.message().find("region: the scenario is in eu-west-1 but the catalog is "
                                 "us-east-1's"),
            std::string::npos)
      << wrong;
  absl::StatusOr<sim::Scenario> unknown = ParseScenario(
      "region: mars-1\n" + ScenarioYaml("[us-east-1a]", "m6i.xlarge", "default", true), "s.yaml");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("s.yaml: region: unknown region \"mars-1\": the "
                                            "embedded catalog has af-south-1, "),
            std::string::npos)
      << unknown.status();
}

TEST(CheckScenarioAgainstCatalog, NamesUnknownZonesAndInstanceTypes) {
  const std::string problems =
      ProblemsOf(ScenarioYaml("[us-east-1a, mars-1a]", "m6i.huge", "default", true));
  EXPECT_NE(problems.find("zones[1]: unknown zone \"mars-1a\": the catalog's us-east-1 zones are "
                          "us-east-1a"),
            std::string::npos)
      << problems;
  EXPECT_NE(problems.find("nodeGroups[0].instanceType: unknown instance type \"m6i.huge\""),
            std::string::npos)
      << problems;
}

TEST(CheckScenarioAgainstCatalog, NamesNodePoolsWhoseNodeClassNoManifestDefines) {
  const std::string problems =
      ProblemsOf(ScenarioYaml("[us-east-1a]", "m6i.xlarge", "missing", true));
  EXPECT_EQ(problems,
            "manifests: NodePool/general: spec.template.spec.nodeClassRef.name: EC2NodeClass "
            "\"missing\" is defined by no manifest of the scenario, so the pool could launch "
            "nothing");
}

}  // namespace
}  // namespace karpenter::sim
