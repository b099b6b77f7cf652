#include "src/aws/credential_chain.h"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "src/aws/endpoints.h"
#include "src/aws/test_fakes.h"

namespace karpenter::aws {
namespace {

using Vars = std::map<std::string, std::string, std::less<>>;

std::vector<std::string>& WrittenFiles() {
  static auto* files = new std::vector<std::string>();
  return *files;
}

// Removes every file WriteFile wrote once the process's tests are done.
class RemoveWrittenFiles : public ::testing::Environment {
 public:
  void TearDown() override {
    for (const std::string& path : WrittenFiles()) std::remove(path.c_str());
  }
};
::testing::Environment* const kRemoveWrittenFiles =
    ::testing::AddGlobalTestEnvironment(new RemoveWrittenFiles);

std::string WriteFile(const std::string& name, const std::string& text) {
  // The pid keeps concurrent runs of the suite (other checkouts, ctest -j) apart.
  const std::string path = absl::StrCat(testing::TempDir(), "/", getpid(), "_", name);
  std::ofstream(path) << text;
  WrittenFiles().push_back(path);
  return path;
}

// An environment where nothing is configured and IMDS is off, plus `vars`.
Vars Isolated(Vars vars) {
  vars.emplace("HOME", absl::StrCat(testing::TempDir(), "/no-home"));
  vars.emplace("AWS_EC2_METADATA_DISABLED", "true");
  return vars;
}

HttpResponse Ok(std::string body) { return {.status = 200, .body = std::move(body)}; }

std::string ContainerJson(const std::string& key, const std::string& expiration) {
  return absl::StrCat(R"({"AccessKeyId":")", key,
                      R"(","SecretAccessKey":"secret","Token":"tok","Expiration":")", expiration,
                      R"("})");
}

TEST(CredentialChain, EnvironmentKeysComeFirst) {
  const std::string credentials = WriteFile(
      "env_first_credentials", "[default]\naws_access_key_id = FILE\naws_secret_access_key = S\n");
  MapEnvironment env(Isolated({{"AWS_ACCESS_KEY_ID", "ENV"},
                               {"AWS_SECRET_ACCESS_KEY", "SECRET"},
                               {"AWS_SESSION_TOKEN", "TOKEN"},
                               {"AWS_SHARED_CREDENTIALS_FILE", credentials}}));
  FakeTransport transport;
  FakeClock clock;
  CredentialChain chain(transport, env, clock);
  auto got = chain.Get();
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->access_key_id, "ENV");
  EXPECT_EQ(got->session_token, "TOKEN");
  EXPECT_EQ(got->source, "environment");
  EXPECT_TRUE(transport.requests().empty());
}

TEST(CredentialChain, ProfileFromTheSharedFiles) {
  const std::string config =
      WriteFile("profile_config",
                "# comment\n[default]\nregion = us-east-1\n[profile dev]\nregion = eu-west-1\n"
                "s3 =\n  max_concurrent_requests = 2\n");
  const std::string credentials = WriteFile(
      "profile_credentials",
      "[default]\naws_access_key_id = DEFAULT\naws_secret_access_key = S0\n"
      "[dev]\naws_access_key_id = DEV\naws_secret_access_key = S1\naws_session_token = T1\n");
  MapEnvironment env(Isolated({{"AWS_PROFILE", "dev"},
                               {"AWS_CONFIG_FILE", config},
                               {"AWS_SHARED_CREDENTIALS_FILE", credentials}}));
  FakeTransport transport;
  FakeClock clock;
  CredentialChain chain(transport, env, clock);
  auto got = chain.Get();
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->access_key_id, "DEV");
  EXPECT_EQ(got->session_token, "T1");
  EXPECT_EQ(got->source, "profile dev");
  EXPECT_EQ(ResolveRegion(env, nullptr).value_or(""), "eu-west-1");
}

TEST(CredentialChain, BadSharedFileIsAnError) {
  const std::string credentials = WriteFile("bad_credentials", "aws_access_key_id = X\n");
  MapEnvironment env(Isolated({{"AWS_SHARED_CREDENTIALS_FILE", credentials}}));
  FakeTransport transport;
  FakeClock clock;
  CredentialChain chain(transport, env, clock);
  EXPECT_EQ(chain.Get().status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(CredentialChain, WebIdentityAssumesTheRoleWithTheTokenFile) {
  const std::string token = WriteFile("web_identity_token", "eyJ.token.sig\n");
  MapEnvironment env(Isolated({{"AWS_ROLE_ARN", "arn:aws:iam::123456789012:role/karpenter"},
                               {"AWS_WEB_IDENTITY_TOKEN_FILE", token},
                               {"AWS_ROLE_SESSION_NAME", "kp"},
                               {"AWS_REGION", "us-west-2"},
                               {"AWS_ENDPOINT_URL_STS", "http://127.0.0.1:1/"}}));
  FakeTransport transport;
  transport.Push(
      Ok("<AssumeRoleWithWebIdentityResponse><AssumeRoleWithWebIdentityResult><Credentials>"
         "<AccessKeyId>ASIA1</AccessKeyId><SecretAccessKey>s</SecretAccessKey>"
         "<SessionToken>st</SessionToken><Expiration>2027-01-15T08:00:00Z</Expiration>"
         "</Credentials></AssumeRoleWithWebIdentityResult></AssumeRoleWithWebIdentityResponse>"));
  FakeClock clock;
  CredentialChain chain(transport, env, clock);
  auto got = chain.Get();
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->access_key_id, "ASIA1");
  EXPECT_EQ(got->source, "web-identity");
  EXPECT_EQ(got->expiration,
            absl::FromCivil(absl::CivilSecond(2027, 1, 15, 8, 0, 0), absl::UTCTimeZone()));
  ASSERT_EQ(transport.requests().size(), 1u);
  const HttpRequest& sent = transport.requests()[0];
  EXPECT_EQ(sent.url, "http://127.0.0.1:1/");
  EXPECT_EQ(sent.Header("Authorization"), "");
  EXPECT_TRUE(absl::StrContains(sent.body, "Action=AssumeRoleWithWebIdentity"));
  EXPECT_TRUE(absl::StrContains(sent.body, "WebIdentityToken=eyJ.token.sig&") ||
              absl::EndsWith(sent.body, "WebIdentityToken=eyJ.token.sig"));
  EXPECT_TRUE(absl::StrContains(sent.body, "RoleSessionName=kp"));
}

TEST(CredentialChain, WebIdentityFailureDoesNotFallThrough) {
  MapEnvironment env(Isolated({{"AWS_ROLE_ARN", "arn:aws:iam::1:role/x"},
                               {"AWS_WEB_IDENTITY_TOKEN_FILE", "/nonexistent/token"},
                               {"AWS_CONTAINER_CREDENTIALS_FULL_URI", "http://127.0.0.1:1/"}}));
  FakeTransport transport;
  FakeClock clock;
  CredentialChain chain(transport, env, clock);
  EXPECT_EQ(chain.Get().status().code(), absl::StatusCode::kUnauthenticated);
  EXPECT_TRUE(transport.requests().empty());
}

TEST(CredentialChain, PodIdentitySendsTheTokenFromItsFile) {
  const std::string token = WriteFile("pod_identity_token", "pod-token");
  MapEnvironment env(
      Isolated({{"AWS_CONTAINER_CREDENTIALS_FULL_URI", "http://169.254.170.23/v1/credentials"},
                {"AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE", token}}));
  FakeTransport transport;
  transport.Push(Ok(ContainerJson("ASIAPOD", "2030-01-01T00:00:00Z")));
  FakeClock clock;
  CredentialChain chain(transport, env, clock);
  auto got = chain.Get();
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->access_key_id, "ASIAPOD");
  EXPECT_EQ(got->session_token, "tok");
  EXPECT_EQ(transport.requests()[0].url, "http://169.254.170.23/v1/credentials");
  EXPECT_EQ(transport.requests()[0].Header("Authorization"), "pod-token");
}

TEST(CredentialChain, ContainerEndpointOnAnotherHostIsRefused) {
  MapEnvironment env(
      Isolated({{"AWS_CONTAINER_CREDENTIALS_FULL_URI", "http://203.0.113.9/creds"}}));
  FakeTransport transport;
  FakeClock clock;
  CredentialChain chain(transport, env, clock);
  EXPECT_EQ(chain.Get().status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_TRUE(transport.requests().empty());
}

// Answers like IMDS: a token for the PUT, then the role and its credentials for that token only.
class FakeImds {
 public:
  explicit FakeImds(FakeTransport& transport) {
    transport.SetHandler([this](const HttpRequest& r) -> absl::StatusOr<HttpResponse> {
      if (r.method == "PUT" && absl::EndsWith(r.url, "/latest/api/token")) {
        if (r.Header("X-aws-ec2-metadata-token-ttl-seconds").empty()) return HttpResponse{400};
        return Ok("imds-token");
      }
      if (r.Header("X-aws-ec2-metadata-token") != "imds-token") return HttpResponse{401};
      if (absl::EndsWith(r.url, "/security-credentials/")) return Ok("node-role\n");
      if (absl::EndsWith(r.url, "/security-credentials/node-role")) {
        ++fetches;
        return Ok(ContainerJson(absl::StrCat("ASIAIMDS", fetches), expiration));
      }
      if (absl::EndsWith(r.url, "/placement/region")) return Ok("ap-south-1");
      return HttpResponse{404};
    });
  }
  int fetches = 0;
  std::string expiration = "2027-01-15T08:10:00Z";
};

TEST(CredentialChain, ImdsV2TokenThenRoleCredentials) {
  MapEnvironment env(
      Vars{{"HOME", "/nonexistent"}, {"AWS_EC2_METADATA_SERVICE_ENDPOINT", "http://127.0.0.1:1"}});
  FakeTransport transport;
  FakeImds imds(transport);
  FakeClock clock;
  CredentialChain chain(transport, env, clock);
  auto got = chain.Get();
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(got->access_key_id, "ASIAIMDS1");
  EXPECT_EQ(got->source, "imds");
  EXPECT_EQ(transport.requests()[0].method, "PUT");
  ImdsClient client(transport, env, clock);
  EXPECT_EQ(ResolveRegion(env, &client).value_or(""), "ap-south-1");
}

TEST(CredentialChain, RefreshesAheadOfExpiryAndKeepsWorkingCredentialsOnFailure) {
  MapEnvironment env(
      Vars{{"HOME", "/nonexistent"}, {"AWS_EC2_METADATA_SERVICE_ENDPOINT", "http://127.0.0.1:1"}});
  FakeTransport transport;
  FakeImds imds(transport);
  const absl::Time expiry =
      absl::FromCivil(absl::CivilSecond(2027, 1, 15, 8, 10, 0), absl::UTCTimeZone());
  FakeClock clock(expiry - absl::Minutes(20));
  CredentialChain chain(transport, env, clock);
  EXPECT_EQ(chain.Get()->access_key_id, "ASIAIMDS1");
  clock.Advance(absl::Minutes(10));  // 10 min left: still outside the 5 min window
  EXPECT_EQ(chain.Get()->access_key_id, "ASIAIMDS1");
  EXPECT_EQ(chain.resolutions(), 1);
  clock.Advance(absl::Minutes(6));  // 4 min left: refresh
  imds.expiration = "2027-01-15T09:10:00Z";
  EXPECT_EQ(chain.Get()->access_key_id, "ASIAIMDS2");
  EXPECT_EQ(chain.resolutions(), 2);
  // IMDS is gone when the refresh comes due 3 min before the new credentials expire: they keep
  // being used until they do.
  clock.Advance(absl::Minutes(61));
  transport.SetHandler([](const HttpRequest&) -> absl::StatusOr<HttpResponse> {
    return absl::UnavailableError("down");
  });
  EXPECT_EQ(chain.Get()->access_key_id, "ASIAIMDS2");
  EXPECT_EQ(chain.resolutions(), 3);
  clock.Advance(absl::Minutes(5));
  EXPECT_EQ(chain.Get().status().code(), absl::StatusCode::kUnavailable);
}

TEST(CredentialChain, NothingConfiguredIsUnauthenticated) {
  MapEnvironment env(Isolated({}));
  FakeTransport transport;
  FakeClock clock;
  CredentialChain chain(transport, env, clock);
  EXPECT_EQ(chain.Get().status().code(), absl::StatusCode::kUnauthenticated);
  EXPECT_EQ(ResolveRegion(env, nullptr).status().code(), absl::StatusCode::kNotFound);
}

TEST(CredentialChain, RegionPrefersAwsRegionOverDefaultRegion) {
  MapEnvironment env(Isolated({{"AWS_REGION", "us-west-2"}, {"AWS_DEFAULT_REGION", "eu-west-1"}}));
  EXPECT_EQ(ResolveRegion(env, nullptr).value_or(""), "us-west-2");
  MapEnvironment fallback(Isolated({{"AWS_REGION", ""}, {"AWS_DEFAULT_REGION", "eu-west-1"}}));
  EXPECT_EQ(ResolveRegion(fallback, nullptr).value_or(""), "eu-west-1");
}

TEST(AwsEndpoints, ServiceOverrideBeatsTheGeneralOne) {
  MapEnvironment env(Vars{{"AWS_ENDPOINT_URL", "http://127.0.0.1:4566/"},
                          {"AWS_ENDPOINT_URL_SQS", "http://127.0.0.1:9324"}});
  EXPECT_EQ(ResolveEndpoint(env, SqsService(), "us-west-2")->url, "http://127.0.0.1:9324");
  EXPECT_EQ(ResolveEndpoint(env, Ec2Service(), "us-west-2")->url, "http://127.0.0.1:4566");
  EXPECT_EQ(ResolveEndpoint(env, Ec2Service(), "us-west-2")->scope.region, "us-west-2");
  MapEnvironment none(Vars{});
  EXPECT_EQ(ResolveEndpoint(none, Ec2Service(), "eu-west-1")->url,
            "https://ec2.eu-west-1.amazonaws.com");
  EXPECT_EQ(ResolveEndpoint(none, IamService(), "eu-west-1")->url, "https://iam.amazonaws.com");
  EXPECT_EQ(ResolveEndpoint(none, IamService(), "eu-west-1")->scope.region, "us-east-1");
  MapEnvironment ignored(Vars{{"AWS_ENDPOINT_URL", "http://127.0.0.1:4566"},
                              {"AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "true"}});
  EXPECT_EQ(ResolveEndpoint(ignored, SsmService(), "us-east-1")->url,
            "https://ssm.us-east-1.amazonaws.com");
  MapEnvironment bad(Vars{{"AWS_ENDPOINT_URL", "ftp://x"}});
  EXPECT_EQ(ResolveEndpoint(bad, SsmService(), "us-east-1").status().code(),
            absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace karpenter::aws
