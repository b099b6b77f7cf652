#include "src/aws/launch_template.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "src/aws/aws_cloud_provider.h"
#include "src/aws/node_class_resolver.h"

namespace karpenter::aws {
namespace {

api::EC2NodeClass NodeClass() {
  api::EC2NodeClass node_class;
  node_class.metadata.name = "default";
  node_class.spec.ami_selector_terms = {{.alias = "al2023@latest"}};
  node_class.status.security_groups = {{.id = "sg-1"}};
  node_class.status.instance_profile = "profile";
  return node_class;
}

api::NodeClaim Claim() {
  api::NodeClaim claim;
  claim.metadata.name = "default-a";
  claim.metadata.labels["karpenter.sh/nodepool"] = "default";
  return claim;
}

const ClusterInfo kCluster{.name = "demo", .endpoint = "https://api", .ca_bundle = "Q0E="};

TEST(AwsLaunchTemplate, Al2023UserDataIsANodeadmNodeConfig) {
  api::EC2NodeClass node_class = NodeClass();
  node_class.spec.user_data = "echo custom";
  node_class.spec.kubelet = api::KubeletConfiguration{.cluster_dns = {"10.0.0.10"}, .max_pods = 50};
  api::NodeClaim claim = Claim();
  claim.spec.startup_taints = {{.key = "init", .value = "", .effect = "NoSchedule"}};
  const std::string data = Al2023UserData(kCluster, node_class, claim);
  for (const char* expected :
       {"Content-Type: application/node.eks.aws", "kind: NodeConfig", "name: demo",
        "apiServerEndpoint: https://api", "certificateAuthority: Q0E=", "maxPods: 50",
        "- 10.0.0.10", "--node-labels=\"karpenter.sh/nodepool=default\"",
        "--register-with-taints=\"init=:NoSchedule\"", "echo custom"}) {
    EXPECT_NE(data.find(expected), std::string::npos) << expected << " in\n" << data;
  }
  // The class's own script runs before nodeadm's part.
  EXPECT_LT(data.find("echo custom"), data.find("kind: NodeConfig"));
}

TEST(AwsLaunchTemplate, NamedByContent) {
  auto a = BuildLaunchTemplate(kCluster, NodeClass(), Claim(), "ami-1");
  auto b = BuildLaunchTemplate(kCluster, NodeClass(), Claim(), "ami-1");
  auto c = BuildLaunchTemplate(kCluster, NodeClass(), Claim(), "ami-2");
  ASSERT_TRUE(a.ok() && b.ok() && c.ok());
  EXPECT_EQ(a->name, b->name);
  EXPECT_NE(a->name, c->name);
  EXPECT_TRUE(a->name.starts_with("karpenter.k8s.aws/"));
  ASSERT_EQ(a->block_devices.size(), 1u);
  EXPECT_EQ(a->block_devices[0].volume_size_gib, 20);
  EXPECT_EQ(a->security_group_ids, std::vector<std::string>{"sg-1"});
  EXPECT_EQ(a->tags.at("kubernetes.io/cluster/demo"), "owned");
}

TEST(AwsLaunchTemplate, TheTargetedModeKeepsLaunchesOutOfOpenReservations) {
  auto open = BuildLaunchTemplate(kCluster, NodeClass(), Claim(), "ami-1");
  auto targeted = BuildLaunchTemplate(kCluster, NodeClass(), Claim(), "ami-1", std::nullopt,
                                      nullptr, LaunchMode::kTargeted);
  const cloudprovider::Offering reservation{.zone = "us-west-2a",
                                            .capacity_type = "reserved",
                                            .reservation_id = "cr-1",
                                            .reservation_type = "default"};
  auto reserved = BuildLaunchTemplate(kCluster, NodeClass(), Claim(), "ami-1", std::nullopt,
                                      &reservation, LaunchMode::kTargeted);
  ASSERT_TRUE(open.ok() && targeted.ok() && reserved.ok());
  EXPECT_EQ(open->capacity_reservation_preference, "");
  EXPECT_EQ(targeted->capacity_reservation_preference, "none");
  EXPECT_EQ(targeted->capacity_reservation_id, "");
  EXPECT_EQ(reserved->capacity_reservation_id, "cr-1");
  // Three contents, three templates (upstream hashes the whole CreateLaunchTemplate input).
  EXPECT_NE(open->name, targeted->name);
  EXPECT_NE(targeted->name, reserved->name);
}

TEST(AwsLaunchTemplate, BlockDeviceMappingsOfTheClass) {
  api::EC2NodeClass node_class = NodeClass();
  api::BlockDevice ebs{.volume_size = *api::Quantity::Parse("100Gi"), .volume_type = "io2"};
  node_class.spec.block_device_mappings = {
      {.device_name = "/dev/xvdb", .ebs = ebs, .root_volume = true}};
  auto spec = BuildLaunchTemplate(kCluster, node_class, Claim(), "ami-1");
  ASSERT_TRUE(spec.ok()) << spec.status();
  ASSERT_EQ(spec->block_devices.size(), 1u);
  EXPECT_EQ(spec->block_devices[0].device_name, "/dev/xvdb");
  EXPECT_EQ(spec->block_devices[0].volume_size_gib, 100);
  EXPECT_EQ(spec->block_devices[0].volume_type, "io2");
}

TEST(AwsLaunchTemplate, AnUnknownFamilyIsRefusedNamingTheField) {
  api::EC2NodeClass node_class = NodeClass();
  node_class.spec.ami_family = "Ubuntu";
  const absl::Status refused = BuildLaunchTemplate(kCluster, node_class, Claim(), "ami-1").status();
  EXPECT_EQ(refused.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StartsWith(refused.message(), "spec.amiFamily: ")) << refused;
  // The alias alone names the family (here Bottlerocket, whose user data is TOML).
  node_class.spec.ami_family.reset();
  node_class.spec.ami_selector_terms = {{.alias = "bottlerocket@latest"}};
  auto bottlerocket = BuildLaunchTemplate(kCluster, node_class, Claim(), "ami-1");
  ASSERT_TRUE(bottlerocket.ok()) << bottlerocket.status();
  EXPECT_NE(bottlerocket->user_data.find("[settings.kubernetes]"), std::string::npos);
}

TEST(AwsAliasParameters, EksParameterNamesPerFamily) {
  auto al2023 = AliasParameters("al2023@latest", "1.32");
  ASSERT_TRUE(al2023.ok());
  ASSERT_EQ(al2023->size(), 5u);  // standard, nvidia and neuron on x86_64; no neuron on arm64
  EXPECT_EQ((*al2023)[3].name,
            "/aws/service/eks/optimized-ami/1.32/amazon-linux-2023/arm64/standard/recommended/"
            "image_id");
  EXPECT_EQ((*al2023)[3].architecture, "arm64");
  auto pinned = AliasParameters("al2023@v20240807", "1.30");
  ASSERT_TRUE(pinned.ok());
  EXPECT_EQ((*pinned)[0].name,
            "/aws/service/eks/optimized-ami/1.30/amazon-linux-2023/x86_64/standard/"
            "amazon-eks-node-al2023-x86_64-standard-1.30-v20240807/image_id");
  auto bottlerocket = AliasParameters("bottlerocket@v1.20.3", "1.32");
  ASSERT_TRUE(bottlerocket.ok());
  EXPECT_EQ((*bottlerocket)[0].name,
            "/aws/service/bottlerocket/aws-k8s-1.32/x86_64/1.20.3/image_id");
  EXPECT_EQ((*AliasParameters("bottlerocket@vv1.20.3", "1.32"))[0].name,
            "/aws/service/bottlerocket/aws-k8s-1.32/x86_64/1.20.3/image_id");
  auto al2 = AliasParameters("al2@latest", "1.29");
  ASSERT_TRUE(al2.ok());
  EXPECT_EQ((*al2)[1].name,
            "/aws/service/eks/optimized-ami/1.29/amazon-linux-2-arm64/recommended/image_id");
  auto windows = AliasParameters("windows2022@latest", "1.32");
  ASSERT_TRUE(windows.ok());
  EXPECT_EQ((*windows)[0].name,
            "/aws/service/ami-windows-latest/Windows_Server-2022-English-Core-EKS_Optimized-1.32/"
            "image_id");
  EXPECT_EQ(AliasParameters("windows2022@v1", "1.32").status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(AliasParameters("ubuntu@latest", "1.32").status().code(),
            absl::StatusCode::kInvalidArgument);
}

// The parameter of each accelerator variant, and the instance types its image serves.
TEST(AwsAliasParameters, EachVariantServesItsOwnInstanceTypes) {
  const RequirementSet standard = {
      {.key = "karpenter.k8s.aws/instance-accelerator-count", .operator_ = "DoesNotExist"},
      {.key = "karpenter.k8s.aws/instance-gpu-count", .operator_ = "DoesNotExist"}};
  const RequirementSet nvidia = {
      {.key = "karpenter.k8s.aws/instance-gpu-count", .operator_ = "Exists"}};
  const RequirementSet neuron = {
      {.key = "karpenter.k8s.aws/instance-accelerator-count", .operator_ = "Exists"}};
  auto served = [](std::string_view alias, std::string_view k8s) {
    std::map<std::string, std::vector<RequirementSet>> out;
    auto parameters = AliasParameters(alias, k8s);
    EXPECT_TRUE(parameters.ok()) << parameters.status();
    if (parameters.ok()) {
      for (const AliasParameter& p : *parameters) out[p.name] = p.requirements;
    }
    return out;
  };
  const std::string al2023 = "/aws/service/eks/optimized-ami/1.32/amazon-linux-2023/";
  EXPECT_EQ(served("al2023@latest", "1.32"),
            (std::map<std::string, std::vector<RequirementSet>>{
                {al2023 + "x86_64/standard/recommended/image_id", {standard}},
                {al2023 + "x86_64/nvidia/recommended/image_id", {nvidia}},
                {al2023 + "x86_64/neuron/recommended/image_id", {neuron}},
                {al2023 + "arm64/standard/recommended/image_id", {standard}},
                {al2023 + "arm64/nvidia/recommended/image_id", {nvidia}}}));
  EXPECT_TRUE(served("al2023@v20250101", "1.32")
                  .contains(al2023 + "x86_64/neuron/amazon-eks-node-al2023-x86_64-neuron-1.32-"
                                     "v20250101/image_id"));
  const std::string al2 = "/aws/service/eks/optimized-ami/1.30/";
  EXPECT_EQ(
      served("al2@v20240807", "1.30"),
      (std::map<std::string, std::vector<RequirementSet>>{
          {al2 + "amazon-linux-2/amazon-eks-node-1.30-v20240807/image_id", {standard}},
          {al2 + "amazon-linux-2-arm64/amazon-eks-arm64-node-1.30-v20240807/image_id", {standard}},
          {al2 + "amazon-linux-2-gpu/amazon-eks-gpu-node-1.30-v20240807/image_id",
           {neuron, nvidia}}}));
  const std::string bottlerocket = "/aws/service/bottlerocket/aws-k8s-1.32";
  EXPECT_EQ(served("bottlerocket@latest", "1.32"),
            (std::map<std::string, std::vector<RequirementSet>>{
                {bottlerocket + "/x86_64/latest/image_id", {standard, neuron}},
                {bottlerocket + "/arm64/latest/image_id", {standard}},
                {bottlerocket + "-nvidia/x86_64/latest/image_id", {nvidia}},
                {bottlerocket + "-nvidia/arm64/latest/image_id", {nvidia}}}));
  const RequirementSet windows = {
      {.key = "kubernetes.io/os", .operator_ = "In", .values = {"windows"}},
      {.key = "node.kubernetes.io/windows-build", .operator_ = "In", .values = {"10.0.20348"}}};
  EXPECT_EQ(served("windows2022@latest", "1.32").begin()->second,
            std::vector<RequirementSet>{windows});
}

// EKS publishes no AL2 images from 1.33 on and no Windows Server 2025 images before 1.35.
TEST(AwsAliasParameters, AliasesEksDoesNotPublishForTheClusterVersionAreRefused) {
  EXPECT_TRUE(AliasParameters("al2@latest", "1.32").ok());
  auto al2 = AliasParameters("al2@latest", "1.33");
  EXPECT_EQ(al2.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(absl::StrContains(al2.status().message(), "spec.amiSelectorTerms[0].alias"));
  EXPECT_EQ(AliasParameters("windows2025@latest", "1.34").status().code(),
            absl::StatusCode::kFailedPrecondition);
  auto windows2025 = AliasParameters("windows2025@latest", "1.35");
  ASSERT_TRUE(windows2025.ok()) << windows2025.status();
  EXPECT_EQ((*windows2025)[0].name,
            "/aws/service/ami-windows-latest/Windows_Server-2025-English-Core-EKS_Optimized-1.35/"
            "image_id");
  EXPECT_EQ((*windows2025)[0].requirements[0][1].values, std::vector<std::string>{"10.0.26100"});
}

TEST(AwsLaunchTemplate, EachFamilyGetsItsOwnUserDataAndDefaultVolumes) {
  api::EC2NodeClass node_class = NodeClass();
  node_class.spec.ami_family = "AL2";
  auto al2 = BuildLaunchTemplate(kCluster, node_class, Claim(), "ami-1");
  ASSERT_TRUE(al2.ok()) << al2.status();
  EXPECT_NE(al2->user_data.find("/etc/eks/bootstrap.sh 'demo'"), std::string::npos);
  ASSERT_EQ(al2->block_devices.size(), 1u);
  EXPECT_EQ(al2->block_devices[0].device_name, "/dev/xvda");

  node_class.spec.ami_family = "Bottlerocket";
  auto bottlerocket = BuildLaunchTemplate(kCluster, node_class, Claim(), "ami-1");
  ASSERT_TRUE(bottlerocket.ok()) << bottlerocket.status();
  EXPECT_TRUE(bottlerocket->user_data.starts_with("[settings]\n")) << bottlerocket->user_data;
  ASSERT_EQ(bottlerocket->block_devices.size(), 2u);
  EXPECT_EQ(bottlerocket->block_devices[0].volume_size_gib, 4);
  EXPECT_EQ(bottlerocket->block_devices[1].device_name, "/dev/xvdb");
  EXPECT_EQ(bottlerocket->block_devices[1].volume_size_gib, 20);

  node_class.spec.ami_family = "Windows2019";
  auto windows = BuildLaunchTemplate(kCluster, node_class, Claim(), "ami-1");
  ASSERT_TRUE(windows.ok()) << windows.status();
  EXPECT_TRUE(windows->user_data.starts_with("<powershell>")) << windows->user_data;
  ASSERT_EQ(windows->block_devices.size(), 1u);
  EXPECT_EQ(windows->block_devices[0].device_name, "/dev/sda1");
  EXPECT_EQ(windows->block_devices[0].volume_size_gib, 50);
  // Different user data, different templates.
  EXPECT_NE(al2->name, bottlerocket->name);
  EXPECT_NE(bottlerocket->name, windows->name);

  node_class.spec.ami_family = "Bottlerocket";
  node_class.spec.user_data = "not = [toml";
  auto refused = BuildLaunchTemplate(kCluster, node_class, Claim(), "ami-1");
  EXPECT_TRUE(absl::IsInvalidArgument(refused.status())) << refused.status();
  EXPECT_TRUE(absl::StartsWith(refused.status().message(), "spec.userData: ")) << refused.status();
}

TEST(AwsLaunchTemplate, TheTypesMaxPodsReachEveryFamilysBootstrap) {
  api::EC2NodeClass node_class = NodeClass();
  const std::vector<std::pair<std::string, std::vector<std::string>>> expected = {
      {"AL2023", {"      maxPods: 29\n"}},
      {"AL2", {"--use-max-pods false", "--max-pods=29"}},
      {"Bottlerocket", {"max-pods = 29\n"}},
      {"Windows2022", {"--max-pods=29"}}};
  for (const auto& [family, parts] : expected) {
    node_class.spec.ami_family = family;
    auto spec = BuildLaunchTemplate(kCluster, node_class, Claim(), "ami-1", 29);
    ASSERT_TRUE(spec.ok()) << family << ": " << spec.status();
    for (const std::string& part : parts) {
      EXPECT_TRUE(absl::StrContains(spec->user_data, part))
          << family << " lacks " << part << " in\n"
          << spec->user_data;
    }
    auto other = BuildLaunchTemplate(kCluster, node_class, Claim(), "ami-1", 58);
    ASSERT_TRUE(other.ok()) << other.status();
    EXPECT_NE(spec->name, other->name) << family << ": another max-pods is another template";
    auto unset = BuildLaunchTemplate(kCluster, node_class, Claim(), "ami-1");
    ASSERT_TRUE(unset.ok()) << unset.status();
    EXPECT_FALSE(absl::StrContains(unset->user_data, "29")) << family << unset->user_data;
  }
}

TEST(AwsLaunchTemplate, TheClassesKubeletMaxPodsWinsOverTheTypes) {
  api::EC2NodeClass node_class = NodeClass();
  node_class.spec.ami_family = "AL2";
  node_class.spec.kubelet = api::KubeletConfiguration{.max_pods = 50};
  auto a = BuildLaunchTemplate(kCluster, node_class, Claim(), "ami-1", 29);
  auto b = BuildLaunchTemplate(kCluster, node_class, Claim(), "ami-1", 58);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_TRUE(absl::StrContains(a->user_data, "--max-pods=50")) << a->user_data;
  EXPECT_FALSE(absl::StrContains(a->user_data, "--max-pods=29")) << a->user_data;
  EXPECT_EQ(a->name, b->name);
}

TEST(AwsLaunchTemplate, AReservedOfferingsTemplateTargetsItsReservation) {
  const cloudprovider::Offering block{.zone = "us-west-2a",
                                      .capacity_type = "reserved",
                                      .reservation_id = "cr-1",
                                      .reservation_type = "capacity-block"};
  auto reserved = BuildLaunchTemplate(kCluster, NodeClass(), Claim(), "ami-1", 29, &block);
  auto open = BuildLaunchTemplate(kCluster, NodeClass(), Claim(), "ami-1", 29);
  ASSERT_TRUE(reserved.ok() && open.ok());
  EXPECT_EQ(reserved->capacity_reservation_id, "cr-1");
  EXPECT_EQ(reserved->market_type, "capacity-block");
  EXPECT_TRUE(open->capacity_reservation_id.empty());
  EXPECT_TRUE(open->market_type.empty());
  EXPECT_NE(reserved->name, open->name);
  cloudprovider::Offering other = block;
  other.reservation_id = "cr-2";
  other.reservation_type = "default";
  auto second = BuildLaunchTemplate(kCluster, NodeClass(), Claim(), "ami-1", 29, &other);
  ASSERT_TRUE(second.ok());
  EXPECT_TRUE(second->market_type.empty());
  EXPECT_NE(second->name, reserved->name);
}

TEST(AwsCloudProvider, InstanceIdOfProviderIds) {
  EXPECT_EQ(InstanceIdOf("aws:///us-west-2a/i-0123"), "i-0123");
  EXPECT_EQ(InstanceIdOf("fake:///us-west-2a/i-0123"), "");
  EXPECT_EQ(InstanceIdOf("aws:///us-west-2a/"), "");
  EXPECT_EQ(InstanceIdOf(""), "");
}

TEST(AwsCloudProvider, NodeClassHashIgnoresSelectorTerms) {
  api::EC2NodeClass a = NodeClass();
  api::EC2NodeClass b = a;
  b.spec.subnet_selector_terms = {{.id = "subnet-1"}};
  EXPECT_EQ(NodeClassHash(a.spec), NodeClassHash(b.spec));
  b.spec.tags["team"] = "x";
  EXPECT_NE(NodeClassHash(a.spec), NodeClassHash(b.spec));
}

}  // namespace
}  // namespace karpenter::aws
