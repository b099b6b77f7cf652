#include "src/kube/server_version.h"

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "src/fakes/fake_clock.h"
#include "src/kube/fake_transport.h"

namespace karpenter::kube {
namespace {

struct Fixture {
  fakes::FakeClock clock;
  testing::FakeTransport* transport = nullptr;
  std::unique_ptr<Client> client;
  Fixture() {
    auto owned = std::make_unique<testing::FakeTransport>();
    transport = owned.get();
    client = std::make_unique<Client>(RestConfig{.server = "https://k", .token = "t"},
                                      ClientLimits{}, clock, std::move(owned));
  }
};

TEST(ServerMinorVersion, ReadsMajorAndMinorWithoutEksPlus) {
  Fixture f;
  f.transport->Answer("GET /version", 200, R"({"major":"1","minor":"33","gitVersion":"v1.33.13"})");
  f.transport->Answer("GET /version", 200,
                      R"({"major":"1","minor":"32+","gitVersion":"v1.32.9-eks-113cf36"})");
  EXPECT_EQ(ServerMinorVersion(*f.client).value_or("error"), "1.33");
  EXPECT_EQ(ServerMinorVersion(*f.client).value_or("error"), "1.32");
}

TEST(ServerMinorVersion, AnAnswerWithoutNumbersNamesTheField) {
  Fixture f;
  f.transport->Answer("GET /version", 200, R"({"major":"1","minor":"latest"})");
  f.transport->Answer("GET /version", 200, R"({"minor":"33"})");
  f.transport->Answer("GET /version", 200, "[]");
  EXPECT_EQ(ServerMinorVersion(*f.client).status().message(),
            "GET /version: minor: \"latest\" is not a number");
  EXPECT_EQ(ServerMinorVersion(*f.client).status().message(), "GET /version: major: missing");
  EXPECT_EQ(ServerMinorVersion(*f.client).status().message(), "GET /version: not a JSON object");
}

TEST(ServerMinorVersion, AFailedCallKeepsItsCode) {
  Fixture f;
  f.transport->Answer("GET /version", 503, R"({"kind":"Status","message":"down"})");
  absl::StatusOr<std::string> version = ServerMinorVersion(*f.client);
  EXPECT_FALSE(version.ok());
  EXPECT_EQ(version.status().code(), absl::StatusCode::kUnavailable) << version.status();
  EXPECT_TRUE(absl::StartsWith(version.status().message(), "GET /version: HTTP 503"))
      << version.status();
}

}  // namespace
}  // namespace karpenter::kube
