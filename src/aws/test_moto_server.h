// A `moto_server` (the AWS emulator from the moto package) for integration tests: started on
// 127.0.0.1 with a port of its own choosing, ready once it says where it listens and answers
// /moto-api/, and killed with its process group when the fixture ends (and by the kernel if the
// test process dies first). Tests skip cleanly when python3 cannot import moto.
#pragma once

#include <chrono>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "src/aws/aws_client.h"
#include "src/aws/ec2_client.h"
#include "src/aws/endpoints.h"
#include "src/aws/environment.h"
#include "src/aws/real_http_transport.h"
#include "src/aws/test_child_process.h"
#include "src/aws/test_fakes.h"

namespace karpenter::aws {

class MotoServer {
 public:
  // Starts moto; `error()` says why when `url()` is empty.
  MotoServer() { Start(); }
  MotoServer(const MotoServer&) = delete;
  MotoServer& operator=(const MotoServer&) = delete;

  static bool Available() { return std::system("python3 -c 'import moto' >/dev/null 2>&1") == 0; }

  const std::string& url() const { return url_; }
  const std::string& error() const { return error_; }

 private:
  void Start() {
    // A cold python imports moto in 1-3 s; a minute means something is wrong, not slow.
    process_ = std::make_unique<TestChildProcess>(
        std::vector<std::string>{"python3", "-m", "moto.server", "-H", "127.0.0.1", "-p", "0"},
        "Running on (http://127\\.0\\.0\\.1:[0-9]+)", std::chrono::seconds(60));
    if (process_->address().empty()) {
      error_ = absl::StrCat("moto_server: ", process_->error());
      return;
    }
    auto transport = NewRealHttpTransport({.no_proxy = "*"});
    auto answer = transport->Send({.url = absl::StrCat(process_->address(), "/moto-api/")});
    if (!answer.ok() || answer->status != 200) {
      error_ = "moto_server does not answer /moto-api/";
      return;
    }
    url_ = process_->address();
  }

  std::unique_ptr<TestChildProcess> process_;
  std::string url_;
  std::string error_;
};

// One moto per test (ctest runs every test in its own process), plus clients pointed at it through
// AWS_ENDPOINT_URL exactly as a user would point the provider at another endpoint.
class MotoTest : public testing::Test {
 protected:
  void SetUp() override {
    if (!MotoServer::Available()) GTEST_SKIP() << "python3 cannot import moto";
    moto_ = std::make_unique<MotoServer>();
    ASSERT_FALSE(moto_->url().empty()) << moto_->error();
    env_ = std::make_unique<MapEnvironment>(
        std::map<std::string, std::string, std::less<>>{{"AWS_ENDPOINT_URL", moto_->url()}});
  }

  AwsClient Client(const ServiceId& service, const std::string& region = "us-west-2") {
    auto endpoint = ResolveEndpoint(*env_, service, region);
    EXPECT_TRUE(endpoint.ok()) << endpoint.status();
    return AwsClient(AwsContext{*transport_, credentials_, clock_, random_, quota_}, *endpoint);
  }

  std::unique_ptr<MotoServer> moto_;
  std::unique_ptr<MapEnvironment> env_;
  std::unique_ptr<HttpTransport> transport_ = NewRealHttpTransport({.no_proxy = "*"});
  StaticCredentialsProvider credentials_{
      Credentials{.access_key_id = "AKIDMOTO", .secret_access_key = "moto-secret"}};
  FakeClock clock_;
  FakeRandom random_;
  RetryQuota quota_;
};

// Makes a VPC with one subnet in us-west-2b in moto; returns the subnet id.
inline std::string MakeVpcWithSubnet(AwsClient& client) {
  auto vpc = client.CallQuery(
      QueryRequest("CreateVpc", Ec2Client::kApiVersion).Set("CidrBlock", "10.2.0.0/16"));
  EXPECT_TRUE(vpc.ok()) << vpc.status();
  if (!vpc.ok()) return "";
  auto subnet = client.CallQuery(QueryRequest("CreateSubnet", Ec2Client::kApiVersion)
                                     .Set("VpcId", vpc->Root().Path({"vpc", "vpcId"}).Text())
                                     .Set("CidrBlock", "10.2.1.0/24")
                                     .Set("AvailabilityZone", "us-west-2b"));
  EXPECT_TRUE(subnet.ok()) << subnet.status();
  return subnet.ok() ? subnet->Root().Path({"subnet", "subnetId"}).Text() : "";
}

}  // namespace karpenter::aws
