// How AwsCloudProvider splits one launch into launch templates, against moto_server: one template
// per max-pods value of the chosen instance types and per AMI, and every CreateFleet override
// under the template of its type (upstream's amifamily resolver and instance provider).
#include <map>
#include <set>
#include <string>
#include <variant>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "src/aws/test_moto_provider.h"

namespace karpenter::aws {
namespace {

class MotoLaunchTemplates : public MotoProviderTest {
 protected:
  api::NodeClaim Launched(CloudOr<api::NodeClaim> result) {
    if (const auto* error = std::get_if<CloudError>(&result)) {
      ADD_FAILURE() << "Create failed: " << error->reason << ": " << error->message;
      return api::NodeClaim();
    }
    return std::get<api::NodeClaim>(std::move(result));
  }

  struct Created {
    std::string image_id;
    std::string user_data;  // decoded
  };
  // Every template CreateLaunchTemplate made, by name.
  std::map<std::string, Created> CreatedTemplates() {
    std::map<std::string, Created> out;
    for (const auto& form : recorder_.Calls("CreateLaunchTemplate")) {
      Created& created = out[form.at("LaunchTemplateName")];
      created.image_id = form.at("LaunchTemplateData.ImageId");
      EXPECT_TRUE(absl::Base64Unescape(form.at("LaunchTemplateData.UserData"), &created.user_data));
    }
    return out;
  }

  struct Override {
    std::string template_name;
    std::string image_id;
  };
  // The overrides of the one CreateFleet call, by instance type (every zone's must agree).
  std::map<std::string, Override> FleetOverrides() {
    const auto fleets = recorder_.Calls("CreateFleet");
    EXPECT_EQ(fleets.size(), 1u);
    std::map<std::string, Override> out;
    if (fleets.empty()) return out;
    const auto& form = fleets[0];
    for (int n = 1;; ++n) {
      const std::string config = absl::StrCat("LaunchTemplateConfigs.", n);
      auto name = form.find(config + ".LaunchTemplateSpecification.LaunchTemplateName");
      if (name == form.end()) break;
      for (int m = 1;; ++m) {
        const std::string prefix = absl::StrCat(config, ".Overrides.", m);
        auto type = form.find(prefix + ".InstanceType");
        if (type == form.end()) break;
        auto image = form.find(prefix + ".ImageId");
        const Override found{name->second, image == form.end() ? "" : image->second};
        auto [it, added] = out.emplace(type->second, found);
        EXPECT_EQ(it->second.template_name, found.template_name) << type->second;
        EXPECT_EQ(it->second.image_id, found.image_id) << type->second;
      }
    }
    return out;
  }

  // The image moto launched the claim's instance with.
  std::string LaunchedImage(const api::NodeClaim& claim) {
    auto instances = ec2_->DescribeInstances({InstanceIdOf(claim.status.provider_id)}, {});
    EXPECT_TRUE(instances.ok() && instances->size() == 1) << instances.status();
    return instances.ok() && instances->size() == 1 ? (*instances)[0].image_id : "";
  }
};

TEST_F(MotoLaunchTemplates, EachMaxPodsValueGetsItsOwnTemplateAndTheOverridesPointAtIt) {
  // ENI-limited pods: m5.large and c5.large 3 × (10 − 1) + 2 = 29, m5.xlarge 4 × (15 − 1) + 2 = 58.
  const api::NodeClaim claim =
      Launched(provider_->Create(Claim("default-a", {"m5.large", "c5.large", "m5.xlarge"})));
  const auto templates = CreatedTemplates();
  ASSERT_EQ(templates.size(), 2u);
  const auto overrides = FleetOverrides();
  ASSERT_EQ(overrides.size(), 3u);
  const std::map<std::string, std::string> max_pods = {
      {"m5.large", "maxPods: 29\n"}, {"c5.large", "maxPods: 29\n"}, {"m5.xlarge", "maxPods: 58\n"}};
  for (const auto& [type, pods] : max_pods) {
    ASSERT_TRUE(overrides.contains(type)) << type;
    const Override& o = overrides.at(type);
    ASSERT_TRUE(templates.contains(o.template_name)) << type << " names " << o.template_name;
    const Created& created = templates.at(o.template_name);
    EXPECT_TRUE(absl::StrContains(created.user_data, pods)) << type << ":\n" << created.user_data;
    EXPECT_EQ(o.image_id, image_) << type;
    EXPECT_EQ(created.image_id, image_) << type;
  }
  EXPECT_EQ(overrides.at("m5.large").template_name, overrides.at("c5.large").template_name);
  EXPECT_NE(overrides.at("m5.large").template_name, overrides.at("m5.xlarge").template_name);
  // moto launches the first override; the cheapest type's template is listed first.
  EXPECT_EQ(claim.metadata.labels.at("node.kubernetes.io/instance-type"), "c5.large");
  EXPECT_EQ(LaunchedImage(claim), image_);

  // Both templates exist now: a second launch over the same types creates nothing.
  Launched(provider_->Create(Claim("default-b", {"m5.large", "c5.large", "m5.xlarge"})));
  EXPECT_EQ(recorder_.Calls("CreateLaunchTemplate").size(), 2u);
}

TEST_F(MotoLaunchTemplates, TheClassesMaxPodsServesEveryTypeFromOneTemplate) {
  node_class_.spec.kubelet = api::KubeletConfiguration{.max_pods = 20};
  StoreNodeClass();
  Launched(provider_->Create(Claim("default-a", {"m5.large", "m5.xlarge"})));
  const auto templates = CreatedTemplates();
  ASSERT_EQ(templates.size(), 1u);
  EXPECT_TRUE(absl::StrContains(templates.begin()->second.user_data, "maxPods: 20\n"))
      << templates.begin()->second.user_data;
  const auto overrides = FleetOverrides();
  ASSERT_EQ(overrides.size(), 2u);
  EXPECT_EQ(overrides.at("m5.xlarge").template_name, templates.begin()->first);
}

TEST_F(MotoLaunchTemplates, AnAl2TemplatePerMaxPodsTellsBootstrapShNotToComputeIt) {
  node_class_.spec.ami_family = "AL2";
  node_class_.spec.ami_selector_terms = {{.id = image_}};
  auto status = resolver_->Resolve(node_class_);
  ASSERT_TRUE(status.ok()) << status.status();
  node_class_.status = *status;
  StoreNodeClass();
  Launched(provider_->Create(Claim("default-a", {"m5.large", "m5.xlarge"})));
  const auto overrides = FleetOverrides();
  const auto templates = CreatedTemplates();
  ASSERT_EQ(templates.size(), 2u);
  for (const auto& [type, flag] : std::map<std::string, std::string>{
           {"m5.large", "--max-pods=29"}, {"m5.xlarge", "--max-pods=58"}}) {
    const std::string& user_data = templates.at(overrides.at(type).template_name).user_data;
    EXPECT_TRUE(absl::StrContains(user_data, flag)) << type << ":\n" << user_data;
    EXPECT_TRUE(absl::StrContains(user_data, "--use-max-pods false")) << user_data;
  }
}

// The class's alias resolving to an x86_64 and an arm64 image (moto holds one of each).
class MotoTwoImages : public MotoLaunchTemplates {
 protected:
  void SetUp() override {
    MotoLaunchTemplates::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    auto images = ec2_->DescribeImages({});
    ASSERT_TRUE(images.ok()) << images.status();
    for (const Image& image : *images) {
      if (image.architecture == "arm64") arm_image_ = image.id;
    }
    ASSERT_FALSE(arm_image_.empty()) << "moto has no arm64 image";
    PutParameter(
        "/aws/service/eks/optimized-ami/1.32/amazon-linux-2023/arm64/standard/recommended/image_id",
        arm_image_);
    auto status = resolver_->Resolve(node_class_);
    ASSERT_TRUE(status.ok()) << status.status();
    node_class_.status = *status;
    ASSERT_EQ(node_class_.status.amis.size(), 2u);
    StoreNodeClass();
  }
  std::string arm_image_;
};

TEST_F(MotoTwoImages, EachTypeLaunchesFromTheTemplateOfItsArchitecturesImage) {
  // m6g.large (arm64) is the cheapest; m5.large and c5.large run the x86_64 image.
  const api::NodeClaim claim =
      Launched(provider_->Create(Claim("default-a", {"m5.large", "c5.large", "m6g.large"})));
  const auto templates = CreatedTemplates();
  ASSERT_EQ(templates.size(), 2u);
  const auto overrides = FleetOverrides();
  ASSERT_EQ(overrides.size(), 3u);
  for (const auto& [type, image] : std::map<std::string, std::string>{
           {"m5.large", image_}, {"c5.large", image_}, {"m6g.large", arm_image_}}) {
    const Override& o = overrides.at(type);
    EXPECT_EQ(o.image_id, image) << type;
    ASSERT_TRUE(templates.contains(o.template_name)) << type;
    EXPECT_EQ(templates.at(o.template_name).image_id, image) << type;
  }
  EXPECT_EQ(claim.metadata.labels.at("node.kubernetes.io/instance-type"), "m6g.large");
  EXPECT_EQ(claim.metadata.labels.at("kubernetes.io/arch"), "arm64");
  EXPECT_EQ(claim.status.image_id, arm_image_);
  EXPECT_EQ(LaunchedImage(claim), arm_image_);
}

TEST_F(MotoTwoImages, AClaimThatRulesOutOneArchitectureGetsOneTemplate) {
  api::NodeClaim amd64 = Claim("default-a", {"m5.large", "c5.large", "m6g.large"});
  amd64.spec.requirements.push_back(
      {.key = "kubernetes.io/arch", .operator_ = "In", .values = {"amd64"}});
  const api::NodeClaim claim = Launched(provider_->Create(amd64));
  const auto templates = CreatedTemplates();
  ASSERT_EQ(templates.size(), 1u);
  EXPECT_EQ(templates.begin()->second.image_id, image_);
  EXPECT_FALSE(FleetOverrides().contains("m6g.large"));
  EXPECT_EQ(claim.status.image_id, image_);
  EXPECT_EQ(LaunchedImage(claim), image_);
}

// The al2023 alias with its NVIDIA and Neuron variants published too (three x86_64 images).
class MotoAcceleratedImages : public MotoLaunchTemplates {
 protected:
  void SetUp() override {
    MotoLaunchTemplates::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    auto images = ec2_->DescribeImages({.owners = {"amazon"}});
    ASSERT_TRUE(images.ok()) << images.status();
    for (const Image& image : *images) {
      if (image.architecture != "x86_64" || image.id == image_) continue;
      (nvidia_image_.empty() ? nvidia_image_ : neuron_image_) = image.id;
      if (!neuron_image_.empty()) break;
    }
    ASSERT_FALSE(neuron_image_.empty()) << "moto has fewer than three x86_64 images";
    const std::string base = "/aws/service/eks/optimized-ami/1.32/amazon-linux-2023/x86_64/";
    PutParameter(base + "nvidia/recommended/image_id", nvidia_image_);
    PutParameter(base + "neuron/recommended/image_id", neuron_image_);
    auto status = resolver_->Resolve(node_class_);
    ASSERT_TRUE(status.ok()) << status.status();
    node_class_.status = *status;
    StoreNodeClass();
  }
  std::string nvidia_image_;
  std::string neuron_image_;
};

TEST_F(MotoAcceleratedImages, TheStatusListsOneImagePerVariant) {
  std::map<std::string, std::vector<api::NodeSelectorRequirement>> by_image;
  for (const api::AMI& ami : node_class_.status.amis) by_image[ami.id] = ami.requirements;
  const api::NodeSelectorRequirement amd64{
      .key = "kubernetes.io/arch", .operator_ = "In", .values = {"amd64"}};
  EXPECT_EQ(
      by_image,
      (std::map<std::string, std::vector<api::NodeSelectorRequirement>>{
          {image_,
           {amd64,
            {.key = "karpenter.k8s.aws/instance-gpu-count", .operator_ = "DoesNotExist"},
            {.key = "karpenter.k8s.aws/instance-accelerator-count", .operator_ = "DoesNotExist"}}},
          {nvidia_image_,
           {amd64, {.key = "karpenter.k8s.aws/instance-gpu-count", .operator_ = "Exists"}}},
          {neuron_image_,
           {amd64,
            {.key = "karpenter.k8s.aws/instance-accelerator-count", .operator_ = "Exists"}}}}));
}

// A GPU type launches from the NVIDIA image and an Inferentia type from the Neuron image, each
// through its own template; a type with neither keeps the standard image. (minValues keeps the
// accelerated types in the fleet beside m5.large; without it they would be left out as exotic.)
TEST_F(MotoAcceleratedImages, EachTypeLaunchesFromTheImageOfItsAccelerators) {
  api::NodeClaim mixed = Claim("default-a", {"m5.large", "g4dn.xlarge", "inf1.xlarge"});
  mixed.spec.requirements[0].min_values = 3;
  const api::NodeClaim claim = Launched(provider_->Create(mixed));
  const auto overrides = FleetOverrides();
  ASSERT_EQ(overrides.size(), 3u);
  const auto templates = CreatedTemplates();
  EXPECT_EQ(templates.size(), 3u);
  for (const auto& [type, image] : std::map<std::string, std::string>{
           {"m5.large", image_}, {"g4dn.xlarge", nvidia_image_}, {"inf1.xlarge", neuron_image_}}) {
    const Override& o = overrides.at(type);
    EXPECT_EQ(o.image_id, image) << type;
    ASSERT_TRUE(templates.contains(o.template_name)) << type;
    EXPECT_EQ(templates.at(o.template_name).image_id, image) << type;
  }
  EXPECT_EQ(claim.status.image_id, LaunchedImage(claim));
}

}  // namespace
}  // namespace karpenter::aws
