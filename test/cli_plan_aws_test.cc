// `karpenter plan --cloud aws` end to end against a moto_server: the binary reads the account
// through the SDK chain (AWS_ENDPOINT_URL, AWS_REGION, key pair in the environment), plans the
// article's NodePool on moto's subnets, zones and instance types, and makes no write call (moto's
// recorder sees every request). Skips when python3 cannot import moto.
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "src/aws/ec2_client.h"
#include "src/aws/query.h"
#include "src/aws/test_fault_proxy.h"
#include "src/aws/test_moto_server.h"
#include "src/aws/url.h"
#include "test/cli_runner.h"

namespace karpenter::cli_test {
namespace {

using aws::AwsClient;
using aws::QueryRequest;
using aws::XmlDocument;

constexpr char kRegion[] = "us-west-2";
constexpr char kDiscovery[] = "production-eks";  // the article's discovery tag

std::string TempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          absl::StrCat("kp_plan_aws_", getpid(), "_", name))
      .string();
}

std::string WriteFile(const std::string& name, const std::string& text) {
  const std::string path = TempPath(name);
  std::ofstream(path) << text;
  return path;
}

// The action of one recorded request: the query form's Action, else the JSON target's operation.
std::string ActionOf(const nlohmann::json& line) {
  std::string body = line.value("body", "");
  if (line.value("body_encoded", false)) {
    std::string decoded;
    if (absl::Base64Unescape(body, &decoded)) body = decoded;
  }
  const std::string url = line.value("url", "");
  const size_t query = url.find('?');
  const std::string form = body + "&" + (query == std::string::npos ? "" : url.substr(query + 1));
  for (absl::string_view pair : absl::StrSplit(form, '&', absl::SkipEmpty())) {
    if (absl::StartsWith(pair, "Action=")) return std::string(pair.substr(7));
  }
  const nlohmann::json& headers = line.value("headers", nlohmann::json::object());
  for (const auto& [key, value] : headers.items()) {
    if (absl::EqualsIgnoreCase(key, "X-Amz-Target") && value.is_string()) {
      const std::string target = value.get<std::string>();
      return target.substr(target.find('.') + 1);
    }
  }
  return "";
}

class CliPlanAws : public testing::Test {
 protected:
  void SetUp() override {
    if (!aws::MotoServer::Available()) GTEST_SKIP() << "python3 cannot import moto";
    recording_ = TempPath("requests.jsonl");
    setenv("MOTO_ENABLE_RECORDING", "True", 1);
    setenv("MOTO_RECORDER_FILEPATH", recording_.c_str(), 1);
    moto_ = std::make_unique<aws::MotoServer>();
    ASSERT_FALSE(moto_->url().empty()) << moto_->error();
    // The child sees exactly the SDK chain's inputs: no profile, no IMDS, this key pair.
    setenv("HOME", std::filesystem::temp_directory_path().c_str(), 1);
    setenv("AWS_CONFIG_FILE", "/nonexistent/config", 1);
    setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/credentials", 1);
    unsetenv("AWS_PROFILE");
    unsetenv("AWS_DEFAULT_REGION");
    setenv("AWS_EC2_METADATA_DISABLED", "true", 1);
    setenv("AWS_REGION", kRegion, 1);
    setenv("AWS_ACCESS_KEY_ID", "AKIDPLAN", 1);
    setenv("AWS_SECRET_ACCESS_KEY", "plan-secret", 1);
    setenv("AWS_ENDPOINT_URL", moto_->url().c_str(), 1);
    MakeWorld();
    // The fixture's own calls are not the plan's.
    auto reset = transport_->Send(
        {.method = "POST", .url = moto_->url() + "/moto-api/recorder/reset-recording"});
    ASSERT_TRUE(reset.ok() && reset->status == 200);
  }

  void TearDown() override {
    std::error_code ignored;
    for (const std::string& path : written_) std::filesystem::remove(path, ignored);
    if (!recording_.empty()) std::filesystem::remove(recording_, ignored);
  }

  XmlDocument Call(const QueryRequest& request) {
    auto answer = ec2_endpoint_->CallQuery(request);
    EXPECT_TRUE(answer.ok()) << request.action() << ": " << answer.status();
    return answer.ok() ? *std::move(answer) : XmlDocument();
  }

  void MakeSubnet(const std::string& vpc, const std::string& cidr, const std::string& zone) {
    XmlDocument subnet = Call(QueryRequest("CreateSubnet", aws::Ec2Client::kApiVersion)
                                  .Set("VpcId", vpc)
                                  .Set("CidrBlock", cidr)
                                  .Set("AvailabilityZone", zone));
    const std::string id = subnet.Root().Path({"subnet", "subnetId"}).Text();
    ASSERT_TRUE(ec2_->CreateTags({id}, {{"karpenter.sh/discovery", kDiscovery}}).ok());
  }

  // A VPC with the article's discovery tag on subnets in two of the region's zones and on a
  // security group, and an Amazon x86_64 image for the class to select.
  void MakeWorld() {
    auto env = std::make_unique<aws::MapEnvironment>(
        std::map<std::string, std::string, std::less<>>{{"AWS_ENDPOINT_URL", moto_->url()}});
    auto endpoint = aws::ResolveEndpoint(*env, aws::Ec2Service(), kRegion);
    ASSERT_TRUE(endpoint.ok()) << endpoint.status();
    ec2_endpoint_ = std::make_unique<AwsClient>(
        aws::AwsContext{*transport_, credentials_, clock_, random_, quota_}, *endpoint);
    ec2_ = std::make_unique<aws::Ec2Client>(*ec2_endpoint_, random_);
    XmlDocument vpc = Call(
        QueryRequest("CreateVpc", aws::Ec2Client::kApiVersion).Set("CidrBlock", "10.30.0.0/16"));
    const std::string vpc_id = vpc.Root().Path({"vpc", "vpcId"}).Text();
    MakeSubnet(vpc_id, "10.30.1.0/24", "us-west-2a");
    MakeSubnet(vpc_id, "10.30.2.0/24", "us-west-2b");
    XmlDocument group = Call(QueryRequest("CreateSecurityGroup", aws::Ec2Client::kApiVersion)
                                 .Set("GroupName", "production-nodes")
                                 .Set("GroupDescription", "nodes")
                                 .Set("VpcId", vpc_id));
    ASSERT_TRUE(ec2_->CreateTags({group.Root().ChildText("groupId")},
                                 {{"karpenter.sh/discovery", kDiscovery}})
                    .ok());
    auto images = ec2_->DescribeImages({.owners = {"amazon"}});
    ASSERT_TRUE(images.ok()) << images.status();
    for (const aws::Image& image : *images) {
      if (image.architecture == "x86_64") {
        image_ = image.id;
        break;
      }
    }
    ASSERT_FALSE(image_.empty());
  }

  // The article's EC2NodeClass, with `replace` applied to its text.
  std::string NodeClassFile(const std::vector<std::pair<std::string, std::string>>& replace) {
    std::string text = ReadTextFile(SourcePath("examples/article/ec2nodeclass.yaml"));
    EXPECT_FALSE(text.empty());
    for (const auto& [from, to] : replace) {
      EXPECT_TRUE(absl::StrContains(text, from)) << from;
      absl::StrReplaceAll({{from, to}}, &text);
    }
    written_.push_back(WriteFile(absl::StrCat("class", written_.size(), ".yaml"), text));
    return written_.back();
  }

  // moto refuses to store the EKS AMI parameters (names under /aws/ are reserved), so the
  // plannable class selects moto's image by id instead of `alias: al2023@latest`.
  std::string PlannableNodeClass() {
    return NodeClassFile({{"- alias: al2023@latest", absl::StrCat("- id: ", image_)}});
  }

  CliRun Plan(const std::string& node_class, const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args = {"plan",
                                     "-f",
                                     node_class,
                                     "-f",
                                     SourcePath("examples/article/nodepool.yaml"),
                                     "-f",
                                     SourcePath("examples/article/workload-sample.yaml"),
                                     "--deterministic"};
    args.insert(args.end(), extra.begin(), extra.end());
    return RunKarpenter(args);
  }

  // Every action moto answered since the reset, in order.
  std::vector<std::string> RecordedActions() {
    std::vector<std::string> actions;
    std::ifstream in(recording_);
    for (std::string line; std::getline(in, line);) {
      const nlohmann::json parsed = nlohmann::json::parse(line, nullptr, false);
      if (!parsed.is_object()) continue;
      if (absl::StrContains(parsed.value("url", ""), "/moto-api/")) continue;
      actions.push_back(ActionOf(parsed));
    }
    return actions;
  }

  std::string recording_;
  std::vector<std::string> written_;
  std::unique_ptr<aws::MotoServer> moto_;
  std::unique_ptr<aws::HttpTransport> transport_ = aws::NewRealHttpTransport({.no_proxy = "*"});
  aws::StaticCredentialsProvider credentials_{
      aws::Credentials{.access_key_id = "AKIDFIXTURE", .secret_access_key = "fixture-secret"}};
  aws::FakeClock clock_;
  aws::FakeRandom random_;
  aws::RetryQuota quota_;
  std::unique_ptr<AwsClient> ec2_endpoint_;
  std::unique_ptr<aws::Ec2Client> ec2_;
  std::string image_;
};

TEST_F(CliPlanAws, PlansTheArticlesNodePoolOnMotosZonesAndTypesWithoutWriting) {
  const CliRun run = Plan(PlannableNodeClass(), {"--cloud", "aws", "-o", "json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json plan = nlohmann::json::parse(run.out, nullptr, false);
  ASSERT_TRUE(plan.is_object()) << run.out;
  ASSERT_FALSE(plan["nodeClaims"].empty()) << run.out;
  EXPECT_TRUE(plan["unschedulable"].empty()) << run.out;

  // Every launch is into a zone of the discovery-tagged subnets, as a type moto offers there.
  auto offerings = ec2_->DescribeInstanceTypeOfferings();
  ASSERT_TRUE(offerings.ok()) << offerings.status();
  std::set<std::pair<std::string, std::string>> offered;
  for (const aws::InstanceTypeOffering& offering : *offerings) {
    offered.emplace(offering.instance_type, offering.location);
  }
  for (const nlohmann::json& claim : plan["nodeClaims"]) {
    const std::string zone = claim["launch"]["zone"];
    EXPECT_TRUE(zone == "us-west-2a" || zone == "us-west-2b") << zone;
    for (const nlohmann::json& allowed : claim["zones"]) {
      EXPECT_TRUE(allowed == "us-west-2a" || allowed == "us-west-2b") << allowed;
    }
    EXPECT_TRUE(offered.contains({claim["launch"]["instanceType"], zone})) << claim.dump();
  }

  const nlohmann::json& sources = plan["sources"];
  EXPECT_EQ(sources["region"], kRegion);
  EXPECT_EQ(sources["instanceTypes"], "ec2:DescribeInstanceTypes");
  EXPECT_EQ(sources["offerings"], "ec2:DescribeInstanceTypeOfferings");
  // moto does not serve the Pricing API: the embedded prices stand in, and say so.
  EXPECT_EQ(sources["onDemandPrices"], "embedded");
  EXPECT_EQ(sources["nodeClasses"]["default"]["subnets"], "ec2:DescribeSubnets");
  EXPECT_EQ(sources["nodeClasses"]["default"]["securityGroups"], "ec2:DescribeSecurityGroups");
  EXPECT_EQ(sources["nodeClasses"]["default"]["amis"], "ec2:DescribeImages");

  // The assumptions say so too: moto answers DescribeSpotPriceHistory (every price 0.00001).
  const nlohmann::json& assumptions = plan["assumptions"];
  EXPECT_EQ(assumptions["spotPrices"], "ec2:DescribeSpotPriceHistory");
  EXPECT_EQ(assumptions["onDemandPrices"], "embedded table (pricing:GetProducts failed)");
  EXPECT_TRUE(absl::StartsWith(assumptions["regionSource"].get<std::string>(), "AWS SDK chain"));
  EXPECT_EQ(sources["spotPrices"], "ec2:DescribeSpotPriceHistory");

  const std::vector<std::string> actions = RecordedActions();
  const std::set<std::string> seen(actions.begin(), actions.end());
  for (const char* read : {"DescribeSubnets", "DescribeSecurityGroups", "DescribeImages",
                           "DescribeInstanceTypes", "DescribeInstanceTypeOfferings"}) {
    EXPECT_TRUE(seen.contains(read)) << read << " was not called";
  }
  for (const std::string& action : actions) {
    EXPECT_TRUE(absl::StartsWith(action, "Describe") || absl::StartsWith(action, "Get") ||
                absl::StartsWith(action, "List"))
        << "plan made the call " << action;
  }
}

TEST_F(CliPlanAws, TextOutputListsTheSources) {
  const CliRun run = Plan(PlannableNodeClass(), {"--cloud", "aws"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_TRUE(absl::StrContains(run.out, "sources (--cloud aws, region us-west-2):")) << run.out;
  EXPECT_TRUE(absl::StrContains(run.out, "subnets ec2:DescribeSubnets")) << run.out;
}

TEST_F(CliPlanAws, EmbeddedStaysTheDefaultAndCallsNothing) {
  const CliRun run = Plan(PlannableNodeClass(), {"-o", "json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const nlohmann::json plan = nlohmann::json::parse(run.out, nullptr, false);
  ASSERT_TRUE(plan.is_object()) << run.out;
  EXPECT_FALSE(plan.contains("sources"));
  EXPECT_TRUE(RecordedActions().empty());
}

TEST_F(CliPlanAws, AnAliasMotoCannotResolveFailsNamingTheClassAndField) {
  // The article's class verbatim: moto has no EKS AMI parameter for al2023@latest.
  const CliRun run = Plan(NodeClassFile({}), {"--cloud", "aws", "-o", "json"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_TRUE(run.out.empty()) << run.out;
  EXPECT_TRUE(absl::StrContains(run.err,
                                "EC2NodeClass/default: spec.amiSelectorTerms: no AMI "
                                "matches the selector terms"))
      << run.err;
}

TEST_F(CliPlanAws, SubnetSelectorsMatchingNothingFailNamingTheField) {
  const CliRun run =
      Plan(NodeClassFile({{"- alias: al2023@latest", absl::StrCat("- id: ", image_)},
                          {"subnetSelectorTerms:\n    - tags:\n        karpenter.sh/discovery: "
                           "\"production-eks\"",
                           "subnetSelectorTerms:\n    - tags:\n        karpenter.sh/discovery: "
                           "\"nobody\""}}),
           {"--cloud", "aws"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_TRUE(absl::StrContains(
      run.err, "EC2NodeClass/default: spec.subnetSelectorTerms: no subnet matches"))
      << run.err;
}

TEST_F(CliPlanAws, MissingCredentialsFailBeforeAnyCall) {
  unsetenv("AWS_ACCESS_KEY_ID");
  unsetenv("AWS_SECRET_ACCESS_KEY");
  const CliRun run = Plan(PlannableNodeClass(), {"--cloud", "aws"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_TRUE(run.out.empty()) << run.out;
  EXPECT_TRUE(absl::StrContains(run.err, "plan --cloud aws: no AWS credentials")) << run.err;
  EXPECT_TRUE(RecordedActions().empty());
}

TEST_F(CliPlanAws, AnUnreachableEndpointFailsNamingTheClassItWasReading) {
  setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:1", 1);
  const CliRun run = Plan(PlannableNodeClass(), {"--cloud", "aws"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_TRUE(run.out.empty()) << run.out;
  EXPECT_TRUE(absl::StrContains(run.err, "EC2NodeClass/default: spec.subnetSelectorTerms:"))
      << run.err;
}

// The class's capacity reservations are read (DescribeCapacityReservations, which moto lacks, is
// answered by the fault proxy in front of it) and planned as reserved offerings, first choice
// while they have room, as the controller would launch them.
TEST_F(CliPlanAws, CapacityReservationsArePlannedAsReservedOfferings) {
  aws::FaultProxy proxy(moto_->url());
  ASSERT_FALSE(proxy.url().empty()) << proxy.error();
  setenv("AWS_ENDPOINT_URL", proxy.url().c_str(), 1);
  proxy.Add({.operation = "DescribeCapacityReservations",
             .kind = "respond",
             .body = "<DescribeCapacityReservationsResponse xmlns=\"http://ec2.amazonaws.com/doc/"
                     "2016-11-15/\"><capacityReservationSet><item><capacityReservationId>"
                     "cr-0123456789abcdef0</capacityReservationId><ownerId>123456789012"
                     "</ownerId><instanceType>m6i.xlarge</instanceType><availabilityZone>"
                     "us-west-2a</availabilityZone><availableInstanceCount>2"
                     "</availableInstanceCount><totalInstanceCount>2</totalInstanceCount><state>"
                     "active</state><instanceMatchCriteria>targeted</instanceMatchCriteria>"
                     "<reservationType>default</reservationType></item></capacityReservationSet>"
                     "</DescribeCapacityReservationsResponse>"});
  std::string pool = ReadTextFile(SourcePath("examples/article/nodepool.yaml"));
  ASSERT_TRUE(absl::StrContains(pool, R"(values: ["spot", "on-demand"])"));
  absl::StrReplaceAll(
      {{R"(values: ["spot", "on-demand"])", R"(values: ["reserved", "spot", "on-demand"])"}},
      &pool);
  written_.push_back(WriteFile("reserved-pool.yaml", pool));
  const std::string pool_file = written_.back();
  const std::string node_class =
      NodeClassFile({{"- alias: al2023@latest", absl::StrCat("- id: ", image_)},
                     {"  amiSelectorTerms:",
                      "  capacityReservationSelectorTerms:\n    - id: cr-0123456789abcdef0\n"
                      "  amiSelectorTerms:"}});
  const CliRun run = RunKarpenter({"plan", "-f", node_class, "-f", pool_file, "-f",
                                   SourcePath("examples/article/workload-sample.yaml"),
                                   "--deterministic", "--cloud", "aws", "-o", "json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_FALSE(absl::StrContains(run.err, "capacityReservationSelectorTerms")) << run.err;
  const nlohmann::json plan = nlohmann::json::parse(run.out, nullptr, false);
  ASSERT_TRUE(plan.is_object()) << run.out;
  EXPECT_EQ(plan["sources"]["nodeClasses"]["default"]["capacityReservations"],
            "ec2:DescribeCapacityReservations");
  int reserved = 0;
  for (const nlohmann::json& claim : plan.value("nodeClaims", nlohmann::json::array())) {
    if (claim.dump().find("\"reserved\"") == std::string::npos) continue;
    ++reserved;
    EXPECT_NE(claim.dump().find("m6i.xlarge"), std::string::npos) << claim.dump();
  }
  EXPECT_GE(reserved, 1) << run.out;
  EXPECT_LE(reserved, 2) << run.out;  // the reservation's two instances
  bool asked = false;
  for (const aws::ProxiedRequest& request : proxy.Log()) {
    asked = asked || request.operation == "DescribeCapacityReservations";
  }
  EXPECT_TRUE(asked);
}

TEST_F(CliPlanAws, DisruptionWithTheAccountIsRefused) {
  const CliRun run = Plan(PlannableNodeClass(), {"--cloud", "aws", "--disruption"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_TRUE(absl::StrContains(run.err, "drop --cloud aws")) << run.err;
}

TEST_F(CliPlanAws, ACatalogFileWithTheAccountIsRefused) {
  const CliRun run = Plan(PlannableNodeClass(), {"--cloud", "aws", "--catalog", "fake400"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_TRUE(run.out.empty()) << run.out;
  EXPECT_TRUE(absl::StrContains(run.err, "--catalog and --cloud aws")) << run.err;
  EXPECT_TRUE(RecordedActions().empty());
}

}  // namespace
}  // namespace karpenter::cli_test
