#include "src/migrate/migration_plan.h"

#include <fstream>
#include <sstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/migrate/plan_output.h"
#include "src/migrate/plan_validation.h"

namespace karpenter::migrate {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using Json = nlohmann::ordered_json;

const std::string kArticle = std::string(KP_SOURCE_DIR) + "/examples/migrate/article/";

const cloudprovider::Catalog& TestCatalog() {
  static const cloudprovider::Catalog* catalog =
      new cloudprovider::Catalog(*cloudprovider::Catalog::LoadEmbedded());
  return *catalog;
}

MigrationInputs ArticleInputs(bool with_aws) {
  MigrationInputs inputs;
  inputs.snapshot = *api::LoadManifestFile(kArticle + "snapshot.json");
  if (!with_aws) return inputs;
  for (const char* group : {"system", "general-workers", "spot-batch"}) {
    inputs.nodegroups.push_back(
        *LoadEksNodegroupFile(kArticle + "nodegroup-" + std::string(group) + ".json"));
  }
  inputs.nodegroups_given = true;
  inputs.subnets = *LoadSubnetsFile(kArticle + "subnets.json");
  inputs.subnets_given = true;
  return inputs;
}

const Json* PoolNamed(const MigrationPlan& plan, const std::string& name) {
  for (const Json& pool : plan.node_pools) {
    if (pool["metadata"]["name"] == name) return &pool;
  }
  return nullptr;
}

const Check* CheckNamed(const MigrationPlan& plan, const std::string& id) {
  for (const Check& check : plan.checks) {
    if (check.id == id) return &check;
  }
  return nullptr;
}

TEST(MigrationPlan, KeepsTheGroupRunningCriticalAddonsStatic) {
  absl::StatusOr<MigrationPlan> plan = PlanMigration(ArticleInputs(true), TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_EQ(plan->static_groups.size(), 1u);
  EXPECT_EQ(plan->static_groups[0].name, "system");
  EXPECT_THAT(plan->static_groups[0].addons,
              ElementsAre(HasSubstr("aws-load-balancer-controller"), HasSubstr("coredns"),
                          HasSubstr("coredns")));
  EXPECT_EQ(PoolNamed(*plan, "system"), nullptr);
  EXPECT_NE(PoolNamed(*plan, "general-workers"), nullptr);
  EXPECT_NE(PoolNamed(*plan, "spot-batch"), nullptr);
}

TEST(MigrationPlan, KeepsEachGroupsTypesZonesCapacityTypeAndTaints) {
  absl::StatusOr<MigrationPlan> plan = PlanMigration(ArticleInputs(true), TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  const Json& spec = (*PoolNamed(*plan, "spot-batch"))["spec"]["template"]["spec"];
  EXPECT_EQ(spec["requirements"][0],
            Json::parse(R"({"key": "node.kubernetes.io/instance-type", "operator": "In",
                            "values": ["c5.2xlarge", "c5a.2xlarge"]})"));
  EXPECT_EQ(spec["requirements"][1]["values"], Json::parse(R"(["us-east-1a", "us-east-1b"])"));
  EXPECT_EQ(spec["requirements"][2]["values"], Json::parse(R"(["spot"])"));
  EXPECT_EQ(spec["taints"],
            Json::parse(R"([{"key": "dedicated", "value": "batch", "effect": "NoSchedule"}])"));
  EXPECT_EQ((*PoolNamed(*plan, "spot-batch"))["spec"]["template"]["metadata"]["labels"],
            Json::parse(R"({"workload-type": "batch"})"));
}

TEST(MigrationPlan, LimitsAreMaxSizeTimesTheLargestType) {
  absl::StatusOr<MigrationPlan> plan = PlanMigration(ArticleInputs(true), TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  // maxSize 10 of m5.xlarge / m5a.xlarge: 4 vCPUs and 16 GiB each.
  EXPECT_EQ((*PoolNamed(*plan, "general-workers"))["spec"]["limits"],
            Json::parse(R"({"cpu": "40", "memory": "163840Mi"})"));
}

TEST(MigrationPlan, NodeClassesCarryTheDiscoveryTagRoleAndPinnedAmi) {
  absl::StatusOr<MigrationPlan> plan = PlanMigration(ArticleInputs(true), TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_FALSE(plan->node_classes.empty());
  const Json& spec = plan->node_classes[0]["spec"];
  EXPECT_EQ(spec["subnetSelectorTerms"],
            Json::parse(R"([{"tags": {"karpenter.sh/discovery": "production-eks"}}])"));
  EXPECT_EQ(spec["securityGroupSelectorTerms"], spec["subnetSelectorTerms"]);
  EXPECT_EQ(spec["role"], "eks-production-node-role");
  EXPECT_EQ(spec["amiSelectorTerms"][0]["alias"], "al2023@v20240917");
}

TEST(MigrationPlan, SizesTheVolumeEachAmiFamilyKeepsItsDataOn) {
  MigrationInputs inputs = ArticleInputs(true);
  for (EksNodegroup& group : inputs.nodegroups) {
    if (group.name == "general-workers") group.ami_type = "BOTTLEROCKET_x86_64";
  }
  absl::StatusOr<MigrationPlan> plan = PlanMigration(inputs, TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  const Json& spec = plan->node_classes[0]["spec"];
  EXPECT_EQ(spec["amiSelectorTerms"][0]["alias"], "bottlerocket@latest");
  EXPECT_EQ(spec["blockDeviceMappings"][0]["deviceName"], "/dev/xvdb");
  EXPECT_EQ(spec["blockDeviceMappings"][0]["ebs"]["volumeSize"], "50Gi");
  EXPECT_TRUE(ValidatePlanManifests(*plan).ok()) << ValidatePlanManifests(*plan);
}

TEST(MigrationPlan, GroupsWhoseNamesCollideGetDistinctObjectNames) {
  MigrationInputs inputs = ArticleInputs(false);
  inputs.cluster = "production-eks";
  for (api::Manifest& manifest : inputs.snapshot) {
    auto* node = manifest.object ? std::get_if<api::Node>(&*manifest.object) : nullptr;
    if (node == nullptr) continue;
    std::string& group = node->metadata.labels[kNodeGroupLabel];
    if (group == "general-workers") group = "Batch_1";
    if (group == "spot-batch") group = "batch-1";
  }
  absl::StatusOr<MigrationPlan> plan = PlanMigration(inputs, TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_EQ(plan->node_pools.size(), 2u);
  EXPECT_EQ(plan->node_pools[0]["metadata"]["name"], "batch-1");
  EXPECT_EQ(plan->node_pools[1]["metadata"]["name"], "batch-1-2");
}

TEST(MigrationPlan, GroupsThatAgreeShareOneNodeClass) {
  MigrationInputs inputs = ArticleInputs(true);
  for (EksNodegroup& group : inputs.nodegroups) {
    group.launch_template.clear();
    group.disk_size_gib = 50;
  }
  absl::StatusOr<MigrationPlan> plan = PlanMigration(inputs, TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_EQ(plan->node_classes.size(), 1u);
  for (const Json& pool : plan->node_pools) {
    EXPECT_EQ(pool["spec"]["template"]["spec"]["nodeClassRef"]["name"], "default");
  }
}

TEST(MigrationPlan, ListsEveryLossyMappingWithItsReason) {
  absl::StatusOr<MigrationPlan> plan = PlanMigration(ArticleInputs(true), TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  std::vector<std::string> losses;
  for (const LossyMapping& loss : plan->lossy_mappings) {
    losses.push_back(loss.group + " " + loss.field);
  }
  EXPECT_THAT(losses, ElementsAre("general-workers minSize", "spot-batch launchTemplate"));
  EXPECT_THAT(plan->lossy_mappings[1].reason, HasSubstr("pass --launch-templates"));
}

TEST(MigrationPlan, GeneratedManifestsPassValidation) {
  for (bool with_aws : {true, false}) {
    MigrationInputs inputs = ArticleInputs(with_aws);
    inputs.cluster = "production-eks";
    absl::StatusOr<MigrationPlan> plan = PlanMigration(inputs, TestCatalog());
    ASSERT_TRUE(plan.ok()) << plan.status();
    EXPECT_TRUE(ValidatePlanManifests(*plan).ok()) << ValidatePlanManifests(*plan);
  }
}

TEST(MigrationPlan, DropsALabelANodePoolCannotSetAndSaysWhy) {
  MigrationInputs inputs = ArticleInputs(true);
  for (EksNodegroup& group : inputs.nodegroups) {
    group.labels["karpenter.sh/nodepool"] = "legacy";
    group.labels["node-restriction.kubernetes.io/team"] = "payments";
  }
  absl::StatusOr<MigrationPlan> plan = PlanMigration(inputs, TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  const Json& labels =
      (*PoolNamed(*plan, "general-workers"))["spec"]["template"]["metadata"]["labels"];
  EXPECT_FALSE(labels.contains("karpenter.sh/nodepool"));
  EXPECT_EQ(labels["node-restriction.kubernetes.io/team"], "payments");
  bool reported = false;
  for (const LossyMapping& loss : plan->lossy_mappings) {
    reported |= loss.group == "general-workers" && loss.field == "labels[karpenter.sh/nodepool]";
  }
  EXPECT_TRUE(reported);
  EXPECT_TRUE(ValidatePlanManifests(*plan).ok()) << ValidatePlanManifests(*plan);
}

TEST(MigrationPlan, ValidationCatchesAManifestTheApiWouldReject) {
  absl::StatusOr<MigrationPlan> plan = PlanMigration(ArticleInputs(true), TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  plan->node_pools[0]["spec"]["template"]["spec"]["requirements"][0]["operator"] = "Near";
  absl::Status valid = ValidatePlanManifests(*plan);
  ASSERT_FALSE(valid.ok());
  EXPECT_THAT(valid.message(), HasSubstr("requirements[0].operator"));
}

TEST(MigrationPlan, WithoutAwsInputsSaysWhatIsMissingAndSetsNoLimits) {
  MigrationInputs inputs = ArticleInputs(false);
  inputs.cluster = "production-eks";
  absl::StatusOr<MigrationPlan> plan = PlanMigration(inputs, TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(plan->missing_inputs.size(), 4u);
  EXPECT_FALSE((*PoolNamed(*plan, "general-workers"))["spec"].contains("limits"));
  EXPECT_EQ(plan->node_classes[0]["spec"]["amiSelectorTerms"][0]["alias"], "al2023@latest");
  EXPECT_EQ(plan->node_classes[0]["spec"]["role"], "KarpenterNodeRole-production-eks");
}

TEST(MigrationPlan, TakesBoundsFromTheAutoScalingGroupWithoutDescribeNodegroup) {
  MigrationInputs inputs = ArticleInputs(false);
  inputs.cluster = "production-eks";
  inputs.asgs = {{"eks-general-workers-0ac6f1d2", "general-workers", 1, 5, {}}};
  inputs.asgs_given = true;
  absl::StatusOr<MigrationPlan> plan = PlanMigration(inputs, TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ((*PoolNamed(*plan, "general-workers"))["spec"]["limits"]["cpu"], "20");
}

TEST(MigrationPlan, SaysWhatAMixedInstancesPolicyLoses) {
  MigrationInputs inputs = ArticleInputs(false);
  inputs.cluster = "production-eks";
  AsgBounds asg{"eks-general-workers-0ac6f1d2", "general-workers", 0, 4, {}};
  asg.override_types = {"m5.xlarge", "m5.2xlarge"};
  asg.weights = {"m5.xlarge=1", "m5.2xlarge=2"};
  asg.on_demand_percentage = 25;
  inputs.asgs = {asg};
  inputs.asgs_given = true;
  absl::StatusOr<MigrationPlan> plan = PlanMigration(inputs, TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  std::vector<std::string> fields;
  std::string weights_reason;
  for (const LossyMapping& loss : plan->lossy_mappings) {
    if (loss.group != "general-workers") continue;
    fields.push_back(loss.field);
    if (loss.field.ends_with("WeightedCapacity")) weights_reason = loss.reason;
  }
  EXPECT_THAT(fields,
              ElementsAre("MixedInstancesPolicy.LaunchTemplate.Overrides[].WeightedCapacity",
                          "MixedInstancesPolicy.InstancesDistribution"));
  EXPECT_THAT(weights_reason, HasSubstr("m5.2xlarge=2"));
  const Json& requirements =
      (*PoolNamed(*plan, "general-workers"))["spec"]["template"]["spec"]["requirements"];
  EXPECT_EQ(requirements[0]["values"], Json::parse(R"(["m5.2xlarge", "m5.xlarge", "m5a.xlarge"])"));
  EXPECT_EQ(requirements[2]["values"], Json::parse(R"(["on-demand", "spot"])"));
}

TEST(MigrationPlan, EqualWeightsAndAWholeCapacityTypeLoseNothing) {
  MigrationInputs inputs = ArticleInputs(false);
  inputs.cluster = "production-eks";
  AsgBounds asg{"eks-general-workers-0ac6f1d2", "general-workers", 0, 4, {}};
  asg.override_types = {"m5.xlarge", "m5a.xlarge"};
  asg.weights = {"m5.xlarge=1", "m5a.xlarge=1"};
  inputs.asgs = {asg};
  inputs.asgs_given = true;
  absl::StatusOr<MigrationPlan> plan = PlanMigration(inputs, TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  for (const LossyMapping& loss : plan->lossy_mappings) {
    EXPECT_FALSE(loss.field.starts_with("MixedInstancesPolicy")) << loss.field;
  }
}

TEST(MigrationPlan, CarriesPriorityWeightsAndScaleDownTimeOfClusterAutoscaler) {
  MigrationInputs inputs = ArticleInputs(true);
  inputs.autoscaler_given = true;
  ClusterAutoscalerConfig& config = inputs.autoscaler;
  config.deployment_found = true;
  config.deployment_namespace = "autoscaling";
  config.deployment_name = "ca";
  config.expanders = {"priority"};
  config.scale_down_unneeded_time = api::Duration::FromMinutes(7);
  config.set_flags = {"expander", "scale-down-unneeded-time"};
  config.priorities_found = true;
  config.priorities = {{30, {"^eks-general-workers-"}}, {5, {"spot"}}};
  absl::StatusOr<MigrationPlan> plan = PlanMigration(inputs, TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ((*PoolNamed(*plan, "general-workers"))["spec"]["weight"], 30);
  EXPECT_EQ((*PoolNamed(*plan, "spot-batch"))["spec"]["weight"], 5);
  EXPECT_EQ((*PoolNamed(*plan, "spot-batch"))["spec"]["disruption"]["consolidateAfter"], "7m");
  EXPECT_THAT(PlanRunbook(*plan), HasSubstr("kubectl scale deployment ca -n autoscaling "
                                            "--replicas=0"));
  EXPECT_TRUE(ValidatePlanManifests(*plan).ok()) << ValidatePlanManifests(*plan);
}

TEST(MigrationPlan, DiversifyWidensTypesAndSaysSo) {
  MigrationInputs inputs = ArticleInputs(true);
  inputs.diversify = true;
  absl::StatusOr<MigrationPlan> plan = PlanMigration(inputs, TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  const Json& requirements =
      (*PoolNamed(*plan, "spot-batch"))["spec"]["template"]["spec"]["requirements"];
  EXPECT_EQ(requirements[0]["key"], "kubernetes.io/arch");
  EXPECT_EQ(requirements[1]["key"], "karpenter.k8s.aws/instance-family");
  EXPECT_EQ(requirements[2]["values"], Json::parse(R"(["8"])"));
  EXPECT_EQ(requirements[4]["values"], Json::parse(R"(["spot"])"));
  ASSERT_EQ(plan->widened.size(), 2u);
  EXPECT_THAT(plan->widened[1], HasSubstr("spot-batch: c5.2xlarge, c5a.2xlarge -> "));
  EXPECT_EQ(CheckNamed(*plan, "spot-diversity")->verdict, Verdict::kPass);
  EXPECT_TRUE(ValidatePlanManifests(*plan).ok()) << ValidatePlanManifests(*plan);
}

TEST(MigrationPlan, WithoutDiversifyTypesStayAsTheGroupHadThem) {
  absl::StatusOr<MigrationPlan> plan = PlanMigration(ArticleInputs(true), TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_TRUE(plan->widened.empty());
  EXPECT_EQ(CheckNamed(*plan, "spot-diversity")->verdict, Verdict::kWarn);
}

constexpr char kSpotBatchTemplate[] = R"({"LaunchTemplateVersions": [
  {"LaunchTemplateId": "lt-0f1e2d3c4b5a69788", "LaunchTemplateName": "spot-batch-lt",
   "VersionNumber": 2, "DefaultVersion": true, "LaunchTemplateData": {"ImageId": "ami-old"}},
  {"LaunchTemplateId": "lt-0f1e2d3c4b5a69788", "LaunchTemplateName": "spot-batch-lt",
   "VersionNumber": 3, "DefaultVersion": false, "LaunchTemplateData": {
     "ImageId": "ami-0abc1234def567890", "UserData": "IyEvYmluL2Jhc2g=",
     "SecurityGroupIds": ["sg-0b"], "NetworkInterfaces": [{"Groups": ["sg-0a"]}],
     "BlockDeviceMappings": [{"DeviceName": "/dev/xvda", "Ebs": {"VolumeSize": 100,
       "VolumeType": "gp3", "Iops": 4000, "Encrypted": true}}, {"DeviceName": "/dev/sdb",
       "VirtualName": "ephemeral0"}],
     "MetadataOptions": {"HttpTokens": "required", "HttpPutResponseHopLimit": 2}}}]})";

TEST(MigrationPlan, CarriesTheLaunchTemplateVersionTheGroupNames) {
  MigrationInputs inputs = ArticleInputs(true);
  inputs.launch_templates = *ParseLaunchTemplateVersions(kSpotBatchTemplate, "lt.json");
  inputs.launch_templates_given = true;
  absl::StatusOr<MigrationPlan> plan = PlanMigration(inputs, TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  const Json& spec = plan->node_classes[1]["spec"];
  EXPECT_EQ(spec["amiFamily"], "AL2023");
  EXPECT_EQ(spec["amiSelectorTerms"], Json::parse(R"([{"id": "ami-0abc1234def567890"}])"));
  EXPECT_EQ(spec["securityGroupSelectorTerms"],
            Json::parse(R"([{"id": "sg-0a"}, {"id": "sg-0b"}])"));
  EXPECT_EQ(spec["blockDeviceMappings"],
            Json::parse(R"([{"deviceName": "/dev/xvda", "ebs": {"volumeSize": "100Gi",
                            "volumeType": "gp3", "iops": 4000, "encrypted": true}}])"));
  EXPECT_EQ(spec["metadataOptions"]["httpPutResponseHopLimit"], 2);
  EXPECT_EQ(spec["metadataOptions"]["httpEndpoint"], "enabled");
  std::vector<std::string> fields;
  for (const LossyMapping& loss : plan->lossy_mappings) fields.push_back(loss.field);
  EXPECT_THAT(fields, ElementsAre("minSize", "launchTemplate.ImageId", "launchTemplate.UserData"));
  EXPECT_THAT(plan->lossy_mappings[1].reason, HasSubstr("an alias (al2023@v20240917)"));
  EXPECT_TRUE(ValidatePlanManifests(*plan).ok()) << ValidatePlanManifests(*plan);
}

TEST(MigrationPlan, SaysWhenTheNamedLaunchTemplateVersionIsMissing) {
  MigrationInputs inputs = ArticleInputs(true);
  inputs.launch_templates = *ParseLaunchTemplateVersions(kSpotBatchTemplate, "lt.json");
  inputs.launch_templates.pop_back();
  inputs.launch_templates_given = true;
  absl::StatusOr<MigrationPlan> plan = PlanMigration(inputs, TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_THAT(plan->lossy_mappings.back().reason,
              HasSubstr("spot-batch-lt version 3 is not in --launch-templates"));
  EXPECT_EQ(plan->node_classes[1]["spec"]["amiSelectorTerms"][0]["alias"], "al2023@v20240917");
}

TEST(MigrationPlan, RequiresTheClusterName) {
  absl::StatusOr<MigrationPlan> plan = PlanMigration(ArticleInputs(false), TestCatalog());
  ASSERT_FALSE(plan.ok());
  EXPECT_THAT(plan.status().message(), HasSubstr("--cluster: required"));
}

TEST(MigrationPlan, NamesTheNodeLabelAGroupNeeds) {
  MigrationInputs inputs = ArticleInputs(true);
  std::get<api::Node>(*inputs.snapshot[0].object)
      .metadata.labels.erase("topology.kubernetes.io/zone");
  absl::StatusOr<MigrationPlan> plan = PlanMigration(inputs, TestCatalog());
  ASSERT_FALSE(plan.ok());
  EXPECT_THAT(plan.status().message(),
              HasSubstr("Node/ip-10-0-1-10.ec2.internal: metadata.labels[topology.kubernetes.io/"
                        "zone]: required"));
}

TEST(PreflightChecks, FlagTheArticlesGotchasOnItsCluster) {
  absl::StatusOr<MigrationPlan> plan = PlanMigration(ArticleInputs(true), TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(CheckNamed(*plan, "critical-addons")->verdict, Verdict::kPass);
  EXPECT_EQ(CheckNamed(*plan, "pdb-coverage")->verdict, Verdict::kWarn);
  EXPECT_THAT(CheckNamed(*plan, "pdb-coverage")->objects,
              ElementsAre("StatefulSet/batch/report-builder"));
  EXPECT_EQ(CheckNamed(*plan, "pdb-blocking")->verdict, Verdict::kFail);
  EXPECT_THAT(CheckNamed(*plan, "pdb-blocking")->objects,
              ElementsAre("PodDisruptionBudget/payments/ledger"));
  EXPECT_THAT(CheckNamed(*plan, "do-not-disrupt")->objects,
              ElementsAre("Pod/batch/report-builder-00"));
  EXPECT_EQ(CheckNamed(*plan, "pinned-to-group")->verdict, Verdict::kFail);
  EXPECT_THAT(CheckNamed(*plan, "pinned-to-group")->objects,
              ElementsAre("Deployment/payments/ledger"));
  EXPECT_EQ(CheckNamed(*plan, "local-storage")->verdict, Verdict::kWarn);
  EXPECT_THAT(CheckNamed(*plan, "local-storage")->objects,
              ElementsAre("Pod/batch/report-builder-00", "Pod/batch/report-builder-01"));
  EXPECT_THAT(CheckNamed(*plan, "spot-diversity")->objects,
              ElementsAre("NodePool/spot-batch (2 types)"));
  EXPECT_THAT(CheckNamed(*plan, "discovery-tags")->objects,
              ElementsAre("Subnet/subnet-0c3c3c3c3c3c3c3c3 (us-east-1c)"));
}

TEST(PreflightChecks, FailWhenACriticalAddonRunsOutsideEveryGroup) {
  MigrationInputs inputs = ArticleInputs(true);
  for (api::Manifest& manifest : inputs.snapshot) {
    auto* pod = manifest.object ? std::get_if<api::Pod>(&*manifest.object) : nullptr;
    if (pod != nullptr && pod->metadata.name.starts_with("coredns")) {
      pod->spec.node_name = "fargate-ip-10-0-9-9.ec2.internal";
    }
  }
  absl::StatusOr<MigrationPlan> plan = PlanMigration(inputs, TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(CheckNamed(*plan, "critical-addons")->verdict, Verdict::kFail);
  EXPECT_EQ(CheckNamed(*plan, "critical-addons")->objects.size(), 2u);
}

TEST(PreflightChecks, PassWhenEveryWorkloadHasAnOpenBudget) {
  MigrationInputs inputs = ArticleInputs(true);
  std::erase_if(inputs.snapshot, [](const api::Manifest& manifest) {
    return manifest.kind == "StatefulSet" || manifest.name == "ledger" ||
           manifest.name.starts_with("report-builder");
  });
  absl::StatusOr<MigrationPlan> plan = PlanMigration(inputs, TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(CheckNamed(*plan, "pdb-coverage")->verdict, Verdict::kPass);
  EXPECT_EQ(CheckNamed(*plan, "pdb-blocking")->verdict, Verdict::kPass);
  EXPECT_EQ(CheckNamed(*plan, "do-not-disrupt")->verdict, Verdict::kPass);
  EXPECT_EQ(CheckNamed(*plan, "pinned-to-group")->verdict, Verdict::kPass);
  EXPECT_EQ(CheckNamed(*plan, "local-storage")->verdict, Verdict::kPass);
}

TEST(PreflightChecks, SubnetCapacityPassesWithRoomAndWarnsWhenAZoneIsShort) {
  absl::StatusOr<MigrationPlan> roomy = PlanMigration(ArticleInputs(true), TestCatalog());
  ASSERT_TRUE(roomy.ok()) << roomy.status();
  EXPECT_EQ(CheckNamed(*roomy, "subnet-capacity")->verdict, Verdict::kPass);

  MigrationInputs inputs = ArticleInputs(true);
  for (Subnet& subnet : inputs.subnets) {
    if (subnet.zone == "us-east-1c") subnet.available_ips = 10;
  }
  absl::StatusOr<MigrationPlan> plan = PlanMigration(inputs, TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  const Check& check = *CheckNamed(*plan, "subnet-capacity");
  EXPECT_EQ(check.verdict, Verdict::kWarn);
  // us-east-1c holds one m5.xlarge of general-workers running two workload-sample replicas
  // (aws-node and kube-proxy use the host's network). Under WARM_ENI_TARGET=1 the CNI keeps the
  // ENI in use and one spare attached, each with its 15 addresses (a primary and 14 for pods).
  ASSERT_EQ(check.objects.size(), 1u);
  EXPECT_EQ(check.objects[0], "us-east-1c: 10 free addresses, Phase 4 needs about 30");
  EXPECT_THAT(check.summary, HasSubstr("set WARM_IP_TARGET"));
}

TEST(PreflightChecks, SubnetCapacityFollowsTheAwsNodeSettings) {
  MigrationInputs inputs = ArticleInputs(true);
  for (Subnet& subnet : inputs.subnets) {
    if (subnet.zone == "us-east-1c") subnet.available_ips = 20;
  }
  inputs.cni.found = true;
  inputs.cni.warm_ip_target = 2;
  absl::StatusOr<MigrationPlan> plan = PlanMigration(inputs, TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(CheckNamed(*plan, "subnet-capacity")->verdict, Verdict::kPass);
  EXPECT_THAT(CheckNamed(*plan, "subnet-capacity")->summary,
              HasSubstr("aws-node: WARM_IP_TARGET=2"));

  inputs.cni.warm_ip_target.reset();
  inputs.cni.prefix_delegation = true;  // two /28 prefixes (one warm) and the primary: 33
  plan = PlanMigration(inputs, TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_THAT(CheckNamed(*plan, "subnet-capacity")->objects,
              ElementsAre("us-east-1c: 20 free addresses, Phase 4 needs about 33"));
  EXPECT_THAT(CheckNamed(*plan, "subnet-capacity")->summary, HasSubstr("/28 blocks"));
}

TEST(PreflightChecks, TypeOfferingsWarnsForAZoneWithoutTheType) {
  absl::StatusOr<MigrationPlan> offered = PlanMigration(ArticleInputs(true), TestCatalog());
  ASSERT_TRUE(offered.ok()) << offered.status();
  EXPECT_EQ(CheckNamed(*offered, "type-offerings")->verdict, Verdict::kPass);

  MigrationInputs inputs = ArticleInputs(true);
  inputs.subnets[0].zone = "us-east-1z";
  absl::StatusOr<MigrationPlan> plan = PlanMigration(inputs, TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(CheckNamed(*plan, "type-offerings")->verdict, Verdict::kWarn);
  EXPECT_THAT(CheckNamed(*plan, "type-offerings")->objects,
              testing::Contains("NodePool/spot-batch: c5.2xlarge in us-east-1z"));

  inputs.subnets[0].zone = "eu-west-1a";
  plan = PlanMigration(inputs, TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_THAT(CheckNamed(*plan, "type-offerings")->summary, HasSubstr("not checked"));
}

TEST(PreflightChecks, ASpotGroupOfFifteenTypesIsDiverseEnough) {
  MigrationInputs inputs = ArticleInputs(true);
  for (EksNodegroup& group : inputs.nodegroups) {
    if (group.name != "spot-batch") continue;
    group.instance_types = {"c5.2xlarge",  "c5a.2xlarge", "c5d.2xlarge",  "c5n.2xlarge",
                            "c6a.2xlarge", "c6i.2xlarge", "c6id.2xlarge", "c6in.2xlarge",
                            "m5.2xlarge",  "m5a.2xlarge", "m5d.2xlarge",  "m6a.2xlarge",
                            "m6i.2xlarge", "r5.2xlarge",  "r6i.2xlarge"};
  }
  absl::StatusOr<MigrationPlan> plan = PlanMigration(inputs, TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(CheckNamed(*plan, "spot-diversity")->verdict, Verdict::kPass);
}

TEST(PreflightChecks, AWorkloadPinnedToTheStaticGroupIsNotFlagged) {
  MigrationInputs inputs = ArticleInputs(true);
  for (api::Manifest& manifest : inputs.snapshot) {
    auto* deployment = manifest.object ? std::get_if<api::Deployment>(&*manifest.object) : nullptr;
    if (deployment != nullptr && manifest.name == "ledger") {
      deployment->spec.template_.spec.node_selector[kNodeGroupLabel] = "system";
    }
  }
  absl::StatusOr<MigrationPlan> plan = PlanMigration(inputs, TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(CheckNamed(*plan, "pinned-to-group")->verdict, Verdict::kPass);
}

TEST(PlanOutput, RunbookCreatesTheControllerRoleWithRollbacks) {
  absl::StatusOr<MigrationPlan> plan = PlanMigration(ArticleInputs(true), TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  const std::string runbook = PlanRunbook(*plan);
  EXPECT_THAT(runbook, HasSubstr("aws iam create-policy --policy-name "
                                 "KarpenterControllerPolicy-production-eks"));
  EXPECT_THAT(runbook, HasSubstr("docs/iam/controller-policy.json"));
  EXPECT_THAT(runbook, HasSubstr("rollback: aws iam delete-role --role-name "
                                 "KarpenterControllerRole-production-eks"));
  EXPECT_THAT(runbook, HasSubstr("aws eks create-pod-identity-association --cluster-name "
                                 "production-eks --namespace karpenter"));
  EXPECT_THAT(runbook, HasSubstr("sts:AssumeRoleWithWebIdentity"));  // the IRSA alternative
  EXPECT_THAT(runbook, HasSubstr("node role eks-production-node-role"));
  EXPECT_THAT(runbook, Not(HasSubstr("aws eks create-access-entry")));
}

TEST(PlanOutput, RunbookCreatesTheNodeRoleThePlanInvented) {
  MigrationInputs inputs = ArticleInputs(false);
  inputs.cluster = "production-eks";
  absl::StatusOr<MigrationPlan> plan = PlanMigration(inputs, TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  const std::string runbook = PlanRunbook(*plan);
  EXPECT_THAT(runbook,
              HasSubstr("aws iam create-role --role-name KarpenterNodeRole-production-eks"));
  EXPECT_THAT(runbook, HasSubstr("policy/AmazonEKSWorkerNodePolicy"));
  EXPECT_THAT(runbook, HasSubstr("rollback: aws eks delete-access-entry --cluster-name "
                                 "production-eks"));
}

std::string ReadGolden(const std::string& name) {
  std::ifstream in(kArticle + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(PlanOutput, MatchesTheGoldenFilesOfTheArticlesCluster) {
  absl::StatusOr<MigrationPlan> plan = PlanMigration(ArticleInputs(true), TestCatalog());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(PlanYaml(*plan), ReadGolden("expected.yaml"));
  EXPECT_EQ(PlanJson(*plan), ReadGolden("expected.json"));
  EXPECT_EQ(PlanRunbook(*plan), ReadGolden("expected.txt"));
}

}  // namespace
}  // namespace karpenter::migrate
