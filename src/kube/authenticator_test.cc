#include "src/kube/authenticator.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/fakes/fake_clock.h"
#include "src/kube/bounded_file.h"
#include "src/kube/test_files.h"
#include "src/kube/token_bucket.h"

namespace karpenter::kube {
namespace {

using ::testing::HasSubstr;
using testing::MapEnv;
using testing::TestDir;
using testing::WriteFile;

// The fake clock starts at 2023-11-14T22:13:20Z.
constexpr char kPlugin[] = R"(#!/bin/sh
count=$(cat "$DIR/count" 2>/dev/null || echo 0)
count=$((count + 1))
echo $count > "$DIR/count"
echo "$@" > "$DIR/args"
echo "$KUBERNETES_EXEC_INFO" > "$DIR/info"
printf '{"apiVersion":"%s","kind":"ExecCredential","status":{"token":"token-%s","expirationTimestamp":"2023-11-14T22:23:20Z"}}' "$API" "$count"
)";

std::string Kubeconfig(const std::string& dir, const std::string& api_version) {
  return R"(clusters: [{name: c, cluster: {server: "https://k", certificate-authority-data: Y2E=}}]
users:
- name: u
  user:
    exec:
      apiVersion: )" +
         api_version + R"(
      command: ./plugin.sh
      args: [--cluster, demo]
      provideClusterInfo: true
      env: [{name: DIR, value: ")" +
         dir + R"("}, {name: API, value: ")" + api_version + R"("}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
)";
}

std::string Slurp(const std::string& path) { return *ReadBoundedFile(path, "test"); }

TEST(ExecPlugin, RunsWithArgsEnvAndExecInfoAndCachesUntilExpiry) {
  for (const std::string api :
       {"client.authentication.k8s.io/v1", "client.authentication.k8s.io/v1beta1"}) {
    const std::string dir = TestDir();
    WriteFile(dir + "/plugin.sh", kPlugin, /*executable=*/true);
    const std::string path = WriteFile(dir + "/config", Kubeconfig(dir, api));
    absl::StatusOr<RestConfig> config = LoadKubeconfig(MapEnv({{"KUBECONFIG", path}}));
    ASSERT_TRUE(config.ok()) << config.status();
    fakes::FakeClock clock;
    Authenticator auth(*config, clock);

    absl::StatusOr<Credential> first = auth.Current();
    ASSERT_TRUE(first.ok()) << first.status();
    EXPECT_EQ(first->token, "token-1");
    EXPECT_EQ(Slurp(dir + "/args"), "--cluster demo\n");
    EXPECT_THAT(Slurp(dir + "/info"), HasSubstr("\"apiVersion\":\"" + api + "\""));
    EXPECT_THAT(Slurp(dir + "/info"), HasSubstr("\"server\":\"https://k\""));
    EXPECT_THAT(Slurp(dir + "/info"), HasSubstr("\"interactive\":false"));

    clock.Advance(9 * 60'000);
    EXPECT_EQ(auth.Current()->token, "token-1");  // cached
    clock.Advance(60'000);
    EXPECT_EQ(auth.Current()->token, "token-2");  // expired: run again
    auth.Invalidate();                            // the server said 401
    EXPECT_EQ(auth.Current()->token, "token-3");
  }
}

TEST(ExecPlugin, FailuresNameTheKubeconfigEntry) {
  const std::string dir = TestDir();
  WriteFile(dir + "/plugin.sh", "#!/bin/sh\necho '{\"kind\":\"ExecCredential\"}'\n", true);
  const std::string path =
      WriteFile(dir + "/config", Kubeconfig(dir, "client.authentication.k8s.io/v1"));
  absl::StatusOr<RestConfig> config = LoadKubeconfig(MapEnv({{"KUBECONFIG", path}}));
  ASSERT_TRUE(config.ok()) << config.status();
  absl::Status status = RunExecPlugin(*config).status();
  EXPECT_THAT(status.message(), HasSubstr(path + ": users[0].user.exec"));
  EXPECT_THAT(status.message(), HasSubstr("apiVersion"));

  WriteFile(dir + "/plugin.sh", "#!/bin/sh\nexit 3\n", true);
  EXPECT_THAT(RunExecPlugin(*config).status().message(), HasSubstr("exited with status 3"));
  WriteFile(dir + "/plugin.sh", "#!/bin/sh\nhead -c 2000000 /dev/zero\n", true);
  EXPECT_THAT(RunExecPlugin(*config).status().message(), HasSubstr("exceeds"));
}

TEST(ExecPlugin, ParsesCertificateCredentials) {
  absl::StatusOr<Credential> credential = ParseExecCredential(
      R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential",)"
      R"("status":{"clientCertificateData":"CERT","clientKeyData":"KEY"}})",
      "client.authentication.k8s.io/v1");
  ASSERT_TRUE(credential.ok()) << credential.status();
  EXPECT_EQ(credential->client_cert_pem, "CERT");
  EXPECT_FALSE(credential->expires.has_value());
  EXPECT_FALSE(ParseExecCredential(
                   R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential",)"
                   R"("status":{}})",
                   "client.authentication.k8s.io/v1")
                   .ok());
}

TEST(Authenticator, RereadsTheTokenFileForRotation) {
  const std::string dir = TestDir();
  WriteFile(dir + "/token", "one\n");
  fakes::FakeClock clock;
  Authenticator auth(RestConfig{.token_file = dir + "/token"}, clock);
  EXPECT_EQ(auth.Current()->token, "one");
  WriteFile(dir + "/token", "two\n");
  EXPECT_EQ(auth.Current()->token, "one");  // within the minute
  clock.Advance(Authenticator::kTokenFileRefreshMillis);
  EXPECT_EQ(auth.Current()->token, "two");
  WriteFile(dir + "/token", "three\n");
  auth.Invalidate();
  EXPECT_EQ(auth.Current()->token, "three");
}

TEST(TokenBucket, AllowsTheBurstThenPacesAtQps) {
  fakes::FakeClock clock;
  TokenBucket bucket(clock, /*qps=*/10, /*burst=*/3);
  EXPECT_EQ(bucket.Reserve(), 0);
  EXPECT_EQ(bucket.Reserve(), 0);
  EXPECT_EQ(bucket.Reserve(), 0);
  EXPECT_EQ(bucket.Reserve(), 100);  // owed: the next token is 100 ms away
  EXPECT_EQ(bucket.Reserve(), 200);
  clock.Advance(1000);  // refills, but never above the burst
  EXPECT_EQ(bucket.Reserve(), 0);
  EXPECT_EQ(bucket.Reserve(), 0);
  EXPECT_EQ(bucket.Reserve(), 0);
  EXPECT_EQ(bucket.Reserve(), 100);
}

}  // namespace
}  // namespace karpenter::kube
