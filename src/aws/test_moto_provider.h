// The AWS CloudProvider wired to a moto_server for integration tests: a VPC with three discovery-
// tagged subnets and a security group, the EKS AL2023 AMI parameter (moto has none and refuses to
// store names under /aws/, so a transport in front of it answers them),
// an EC2NodeClass resolved against them in a fake cluster, and a transport that records every
// request, so each test can also check properties over every launch call it caused.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/synchronization/mutex.h"
#include "gtest/gtest.h"
#include "src/aws/aws_cloud_provider.h"
#include "src/aws/fault_transport.h"
#include "src/aws/node_class_resolver.h"
#include "src/aws/ssm_client.h"
#include "src/aws/test_moto_server.h"
#include "src/aws/url.h"
#include "src/fakes/fake_clock.h"
#include "src/fakes/fake_kube_cluster.h"

namespace karpenter::aws {

// Every request passed through, with its query-protocol form decoded.
class RecordingTransport final : public HttpTransport {
 public:
  using Form = std::map<std::string, std::string>;
  explicit RecordingTransport(HttpTransport& inner) : inner_(inner) {}

  absl::StatusOr<HttpResponse> Send(const HttpRequest& request) override {
    Form form;
    for (absl::string_view pair : absl::StrSplit(request.body, '&', absl::SkipEmpty())) {
      std::vector<std::string> kv = absl::StrSplit(pair, absl::MaxSplits('=', 1));
      form[PercentDecode(kv[0])] = kv.size() > 1 ? PercentDecode(kv[1]) : "";
    }
    {
      absl::MutexLock lock(&mu_);
      forms_.push_back(std::move(form));
    }
    return inner_.Send(request);
  }

  // The decoded forms of every request whose Action is `action`.
  std::vector<Form> Calls(const std::string& action) const {
    absl::MutexLock lock(&mu_);
    std::vector<Form> out;
    for (const Form& form : forms_) {
      auto it = form.find("Action");
      if (it != form.end() && it->second == action) out.push_back(form);
    }
    return out;
  }

 private:
  HttpTransport& inner_;
  mutable absl::Mutex mu_;
  std::vector<Form> forms_;
};

// Answers SSM GetParameter for the names under /aws/ (AWS's public parameters, which moto refuses
// to store: "reserved parameter name") from a map, as SSM would: the value, or ParameterNotFound.
// Everything else goes on to `inner`.
class PublicParameterTransport final : public HttpTransport {
 public:
  explicit PublicParameterTransport(HttpTransport& inner) : inner_(inner) {}

  void Put(const std::string& name, const std::string& value) {
    absl::MutexLock lock(&mu_);
    values_[name] = value;
  }

  absl::StatusOr<HttpResponse> Send(const HttpRequest& request) override {
    if (request.Header("X-Amz-Target") != "AmazonSSM.GetParameter") return inner_.Send(request);
    const nlohmann::json body = nlohmann::json::parse(request.body, nullptr, false);
    const std::string name = body.is_object() ? body.value("Name", "") : "";
    if (!name.starts_with("/aws/")) return inner_.Send(request);
    absl::MutexLock lock(&mu_);
    auto it = values_.find(name);
    if (it == values_.end()) {
      return HttpResponse{.status = 400,
                          .body = nlohmann::json{{"__type", "ParameterNotFound"},
                                                 {"message", "Parameter " + name + " not found."}}
                                      .dump()};
    }
    return HttpResponse{
        .status = 200,
        .body =
            nlohmann::json{
                {"Parameter",
                 {{"Name", name}, {"Type", "String"}, {"Value", it->second}, {"Version", 1}}}}
                .dump()};
  }

 private:
  HttpTransport& inner_;
  absl::Mutex mu_;
  std::map<std::string, std::string> values_;
};

// The tags of the form's `prefix`.N.Tag.M specifications, for resource type `type`.
inline std::map<std::string, std::string> TagsFor(const RecordingTransport::Form& form,
                                                  const std::string& prefix,
                                                  const std::string& type) {
  std::map<std::string, std::string> tags;
  for (int n = 1;; ++n) {
    const std::string spec = absl::StrCat(prefix, ".", n);
    auto resource = form.find(spec + ".ResourceType");
    if (resource == form.end()) break;
    if (resource->second != type) continue;
    for (int m = 1;; ++m) {
      auto key = form.find(absl::StrCat(spec, ".Tag.", m, ".Key"));
      if (key == form.end()) break;
      tags[key->second] = form.at(absl::StrCat(spec, ".Tag.", m, ".Value"));
    }
  }
  return tags;
}

class MotoProviderTest : public MotoTest {
 protected:
  static constexpr char kCluster[] = "demo";
  static constexpr char kAl2023Parameter[] =
      "/aws/service/eks/optimized-ami/1.32/amazon-linux-2023/x86_64/standard/recommended/image_id";

  void SetUp() override {
    MotoTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    ec2_client_ = NewClient(Ec2Service());
    ssm_client_ = NewClient(SsmService());
    pricing_client_ = NewClient(PricingService(), "us-east-1");
    ec2_ = std::make_unique<Ec2Client>(*ec2_client_, random_);
    ssm_ = std::make_unique<SsmClient>(*ssm_client_);
    pricing_ = std::make_unique<PricingClient>(*pricing_client_);
    auto catalog = cloudprovider::Catalog::LoadEmbedded();
    ASSERT_TRUE(catalog.ok()) << catalog.status();
    catalog_ = std::make_unique<cloudprovider::Catalog>(*std::move(catalog));
    instance_types_ =
        std::make_unique<InstanceTypeProvider>(*ec2_, pricing_.get(), clock_, *catalog_,
                                               InstanceTypeProviderOptions{.region = "us-west-2"});
    resolver_ = std::make_unique<NodeClassResolver>(
        *ec2_, *ssm_, clock_, NodeClassResolverOptions{}, nullptr, nullptr, &reservations_);
    provider_ = std::make_unique<AwsCloudProvider>(
        *ec2_, clock_, *instance_types_, cluster_, unavailable_,
        ClusterInfo{.name = kCluster, .endpoint = "https://demo.eks.example", .ca_bundle = "Q0E="},
        nullptr, &reservations_);
    MakeWorld();
  }

  void TearDown() override {
    if (ec2_) CheckLaunchProperties();
  }

  // A query call straight to moto (setting up the world, not the code under test).
  XmlDocument Call(const QueryRequest& request) {
    auto answer = ec2_client_->CallQuery(request);
    EXPECT_TRUE(answer.ok()) << request.action() << ": " << answer.status();
    return answer.ok() ? *std::move(answer) : XmlDocument();
  }

  std::string MakeSubnet(const std::string& vpc, const std::string& cidr, const std::string& zone,
                         const std::string& discovery) {
    XmlDocument subnet = Call(QueryRequest("CreateSubnet", Ec2Client::kApiVersion)
                                  .Set("VpcId", vpc)
                                  .Set("CidrBlock", cidr)
                                  .Set("AvailabilityZone", zone));
    const std::string id = subnet.Root().Path({"subnet", "subnetId"}).Text();
    EXPECT_TRUE(ec2_->CreateTags({id}, {{"karpenter.sh/discovery", discovery}}).ok());
    return id;
  }

  void MakeWorld() {
    XmlDocument vpc =
        Call(QueryRequest("CreateVpc", Ec2Client::kApiVersion).Set("CidrBlock", "10.20.0.0/16"));
    vpc_ = vpc.Root().Path({"vpc", "vpcId"}).Text();
    // The /24 has more free addresses than the /26 in the same zone.
    subnet_a_ = MakeSubnet(vpc_, "10.20.1.0/24", "us-west-2a", kCluster);
    small_subnet_a_ = MakeSubnet(vpc_, "10.20.2.0/26", "us-west-2a", kCluster);
    subnet_b_ = MakeSubnet(vpc_, "10.20.3.0/24", "us-west-2b", kCluster);
    XmlDocument group = Call(QueryRequest("CreateSecurityGroup", Ec2Client::kApiVersion)
                                 .Set("GroupName", "demo-nodes")
                                 .Set("GroupDescription", "nodes")
                                 .Set("VpcId", vpc_));
    group_ = group.Root().ChildText("groupId");
    ASSERT_TRUE(ec2_->CreateTags({group_}, {{"karpenter.sh/discovery", kCluster}}).ok());
    auto images = ec2_->DescribeImages({.owners = {"amazon"}});
    ASSERT_TRUE(images.ok()) << images.status();
    for (const Image& image : *images) {
      if (image.architecture != "x86_64") continue;
      (image_.empty() ? image_ : other_image_) = image.id;
      if (!other_image_.empty()) break;
    }
    ASSERT_FALSE(other_image_.empty());
    PutParameter(kAl2023Parameter, image_);
    node_class_.metadata.name = "default";
    node_class_.spec.ami_selector_terms = {{.alias = "al2023@latest"}};
    node_class_.spec.subnet_selector_terms = {{.tags = {{"karpenter.sh/discovery", kCluster}}}};
    node_class_.spec.security_group_selector_terms = {
        {.tags = {{"karpenter.sh/discovery", kCluster}}}};
    node_class_.spec.instance_profile = "KarpenterNodeInstanceProfile";
    api::ApplyDefaults(node_class_);
    auto status = resolver_->Resolve(node_class_);
    ASSERT_TRUE(status.ok()) << status.status();
    node_class_.status = *status;
    ASSERT_TRUE(cluster_.Create(node_class_).ok());
  }

  // moto refuses names under /aws/ (see PublicParameterTransport); others go to moto.
  void PutParameter(const std::string& name, const std::string& value) {
    if (name.starts_with("/aws/")) return parameters_.Put(name, value);
    auto put = ssm_client_->CallJson("AmazonSSM.PutParameter",
                                     {{"Name", name}, {"Value", value}, {"Type", "String"}},
                                     "application/x-amz-json-1.1");
    ASSERT_TRUE(put.ok()) << put.status();
  }

  // Replaces the stored node class with `node_class_` as edited by the test.
  void StoreNodeClass() {
    ASSERT_TRUE(cluster_.Update(node_class_).ok());
    ASSERT_TRUE(cluster_.UpdateStatus(node_class_).ok());
  }

  static api::NodeClaim Claim(const std::string& name, std::vector<std::string> types,
                              std::string capacity_type = "on-demand") {
    api::NodeClaim claim;
    claim.metadata.name = name;
    claim.metadata.labels["karpenter.sh/nodepool"] = "default";
    claim.spec.node_class_ref = api::NodeClassReference{
        .kind = "EC2NodeClass", .name = "default", .group = "karpenter.k8s.aws"};
    // As the provisioner writes them: the NodePool's own label is a requirement too.
    claim.spec.requirements = {
        {.key = "node.kubernetes.io/instance-type", .operator_ = "In", .values = std::move(types)},
        {.key = "karpenter.sh/capacity-type", .operator_ = "In", .values = {capacity_type}},
        {.key = "karpenter.sh/nodepool", .operator_ = "In", .values = {"default"}}};
    return claim;
  }

  // Properties of every launch call the test caused: IMDSv2 required, every volume encrypted,
  // ownership tags on templates and on everything CreateFleet launches.
  void CheckLaunchProperties() {
    const std::string cluster_tag = absl::StrCat("kubernetes.io/cluster/", kCluster);
    for (const auto& form : recorder_.Calls("CreateLaunchTemplate")) {
      ++launch_template_calls_;
      EXPECT_EQ(form.at("LaunchTemplateData.MetadataOptions.HttpTokens"), "required");
      int volumes = 0;
      for (const auto& [key, value] : form) {
        if (!key.ends_with(".Ebs.Encrypted")) continue;
        ++volumes;
        EXPECT_EQ(value, "true") << key;
      }
      EXPECT_GE(volumes, 1) << "a launch template without a root volume";
      auto tags = TagsFor(form, "TagSpecification", "launch-template");
      EXPECT_EQ(tags[cluster_tag], "owned");
      EXPECT_EQ(tags["eks:eks-cluster-name"], kCluster);
      EXPECT_FALSE(tags["karpenter.k8s.aws/ec2nodeclass"].empty());
    }
    for (const auto& form : recorder_.Calls("CreateFleet")) {
      ++fleet_calls_;
      for (const char* type : {"instance", "volume"}) {
        auto tags = TagsFor(form, "TagSpecification", type);
        EXPECT_EQ(tags[cluster_tag], "owned") << type;
        EXPECT_EQ(tags["eks:eks-cluster-name"], kCluster) << type;
        for (const char* key : {"karpenter.sh/nodepool", "karpenter.sh/nodeclaim",
                                "karpenter.k8s.aws/ec2nodeclass"}) {
          EXPECT_FALSE(tags[key].empty()) << type << " lacks " << key;
        }
      }
    }
  }

  // A client whose requests pass the recorder and the fault injector on their way to moto.
  std::unique_ptr<AwsClient> NewClient(const ServiceId& service,
                                       const std::string& region = "us-west-2") {
    auto endpoint = ResolveEndpoint(*env_, service, region);
    EXPECT_TRUE(endpoint.ok()) << endpoint.status();
    return std::make_unique<AwsClient>(AwsContext{recorder_, credentials_, clock_, random_, quota_},
                                       *endpoint);
  }

  FaultInjectingTransport faults_{*transport_};
  PublicParameterTransport parameters_{faults_};
  RecordingTransport recorder_{parameters_};
  fakes::FakeClock controller_clock_;
  fakes::FakeKubeCluster cluster_{controller_clock_};
  cloudprovider::UnavailableOfferings unavailable_{controller_clock_,
                                                   [] { return int64_t{3 * 60 * 1000}; }};
  ReservationAvailability reservations_{clock_};
  std::unique_ptr<AwsClient> ec2_client_, ssm_client_, pricing_client_;
  std::unique_ptr<Ec2Client> ec2_;
  std::unique_ptr<SsmClient> ssm_;
  std::unique_ptr<PricingClient> pricing_;
  std::unique_ptr<cloudprovider::Catalog> catalog_;
  std::unique_ptr<InstanceTypeProvider> instance_types_;
  std::unique_ptr<NodeClassResolver> resolver_;
  std::unique_ptr<AwsCloudProvider> provider_;
  api::EC2NodeClass node_class_;
  std::string vpc_, subnet_a_, small_subnet_a_, subnet_b_, group_, image_, other_image_;
  int launch_template_calls_ = 0;
  int fleet_calls_ = 0;
};

}  // namespace karpenter::aws
