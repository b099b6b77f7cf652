#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "src/kube/rest_config.h"
#include "src/kube/test_files.h"

namespace karpenter::kube {
namespace {

using ::testing::HasSubstr;
using testing::MapEnv;
using testing::TestDir;
using testing::WriteFile;

// "Y2EtcGVt" is base64 for "ca-pem".
constexpr char kFirst[] = R"(apiVersion: v1
kind: Config
clusters:
- name: shared
  cluster:
    server: https://first.example:6443/
    certificate-authority-data: Y2EtcGVt
    tls-server-name: api.internal
    proxy-url: http://proxy:3128
- name: local
  cluster:
    server: https://127.0.0.1:6443
    certificate-authority: certs/ca.crt
    insecure-skip-tls-verify: false
users:
- name: admin
  user:
    token: first-token
contexts:
- name: prod
  context: {cluster: shared, user: admin, namespace: team}
- name: dev
  context: {cluster: local, user: cert-user}
)";

constexpr char kSecond[] = R"(apiVersion: v1
kind: Config
current-context: prod
clusters:
- name: shared
  cluster:
    server: https://second.example
users:
- name: admin
  user:
    token: second-token
- name: cert-user
  user:
    client-certificate: client.crt
    client-key-data: a2V5LXBlbQ==
    tokenFile: token
)";

TEST(Kubeconfig, MergesFilesFirstDefinitionWinsAndCurrentContextFromAnyFile) {
  const std::string dir = TestDir();
  const std::string first = WriteFile(dir + "/first", kFirst);
  const std::string second = WriteFile(dir + "/second", kSecond);
  absl::StatusOr<RestConfig> config =
      LoadKubeconfig(MapEnv({{"KUBECONFIG", first + "::" + dir + "/missing:" + second}}));
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->server, "https://first.example:6443");
  EXPECT_EQ(config->ca_pem, "ca-pem");
  EXPECT_EQ(config->tls_server_name, "api.internal");
  EXPECT_EQ(config->proxy_url, "http://proxy:3128");
  EXPECT_EQ(config->token, "first-token");
  EXPECT_EQ(config->namespace_, "team");
}

TEST(Kubeconfig, ExplicitContextAndPathsRelativeToTheirFile) {
  const std::string dir = TestDir();
  ASSERT_EQ(std::system(("mkdir -p " + dir + "/certs " + dir + "/other").c_str()), 0);
  WriteFile(dir + "/certs/ca.crt", "local-ca");
  WriteFile(dir + "/other/client.crt", "client-cert");
  const std::string first = WriteFile(dir + "/first", kFirst);
  const std::string second = WriteFile(dir + "/other/second", kSecond);
  absl::StatusOr<RestConfig> config =
      LoadKubeconfig(MapEnv({{"KUBECONFIG", first + ":" + second}}), "dev");
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->server, "https://127.0.0.1:6443");
  EXPECT_EQ(config->ca_pem, "local-ca");
  EXPECT_EQ(config->client_cert_pem, "client-cert");
  EXPECT_EQ(config->client_key_pem, "key-pem");
  EXPECT_EQ(config->token_file, dir + "/other/token");
}

TEST(Kubeconfig, DefaultsToHomeKubeConfig) {
  EXPECT_EQ(KubeconfigPaths(MapEnv({{"HOME", "/home/me"}})),
            std::vector<std::string>{"/home/me/.kube/config"});
  EXPECT_EQ(KubeconfigPaths(MapEnv({{"HOME", "/home/me"}, {"KUBECONFIG", "/a:/b:/a"}})),
            (std::vector<std::string>{"/a", "/b"}));
  const std::string dir = TestDir();
  ASSERT_EQ(std::system(("mkdir -p " + dir + "/.kube").c_str()), 0);
  WriteFile(dir + "/.kube/config", kFirst);
  absl::StatusOr<RestConfig> config = LoadKubeconfig(MapEnv({{"HOME", dir}}), "prod");
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->token, "first-token");
}

TEST(Kubeconfig, ErrorsNameTheFileAndTheFieldPath) {
  const std::string dir = TestDir();
  const std::string bad_base64 = WriteFile(dir + "/bad64", R"(clusters:
- name: c
  cluster: {server: https://x, certificate-authority-data: "!!!"}
contexts: [{name: x, context: {cluster: c}}]
current-context: x
)");
  absl::Status status = LoadKubeconfig(MapEnv({{"KUBECONFIG", bad_base64}})).status();
  EXPECT_THAT(status.message(),
              HasSubstr(bad_base64 + ": clusters[0].cluster.certificate-authority-data"));

  const std::string no_server = WriteFile(dir + "/noserver", R"(clusters:
- name: c
  cluster: {insecure-skip-tls-verify: true}
contexts: [{name: x, context: {cluster: c}}]
current-context: x
)");
  status = LoadKubeconfig(MapEnv({{"KUBECONFIG", no_server}})).status();
  EXPECT_THAT(status.message(), HasSubstr(no_server + ": clusters[0].cluster.server: Required"));

  const std::string wrong_type = WriteFile(dir + "/wrongtype", R"(clusters:
- name: c
  cluster: {server: https://x, insecure-skip-tls-verify: [1]}
)");
  status = LoadKubeconfig(MapEnv({{"KUBECONFIG", wrong_type}})).status();
  EXPECT_THAT(status.message(),
              HasSubstr(wrong_type + ": clusters[0].cluster.insecure-skip-tls-verify"));

  const std::string missing_user =
      WriteFile(dir + "/nouser", R"(clusters: [{name: c, cluster: {server: https://x}}]
contexts: [{name: x, context: {cluster: c, user: ghost}}]
current-context: x
)");
  status = LoadKubeconfig(MapEnv({{"KUBECONFIG", missing_user}})).status();
  EXPECT_THAT(status.message(), HasSubstr(missing_user + ": contexts[0].context.user"));

  const std::string bad_exec =
      WriteFile(dir + "/badexec", R"(clusters: [{name: c, cluster: {server: https://x}}]
users: [{name: u, user: {exec: {apiVersion: client.authentication.k8s.io/v1alpha1, command: x}}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
)");
  status = LoadKubeconfig(MapEnv({{"KUBECONFIG", bad_exec}})).status();
  EXPECT_THAT(status.message(), HasSubstr(bad_exec + ": users[0].user.exec.apiVersion"));

  status = LoadKubeconfig(MapEnv({{"KUBECONFIG", bad_exec}}), "nope").status();
  EXPECT_THAT(status.message(), HasSubstr("context \"nope\" not found"));
}

TEST(Kubeconfig, RejectsFilesAboveTheSizeAndNestingLimits) {
  const std::string dir = TestDir();
  const std::string huge = WriteFile(dir + "/huge", std::string(5 << 20, '#'));
  absl::Status status = LoadKubeconfig(MapEnv({{"KUBECONFIG", huge}})).status();
  EXPECT_THAT(status.message(), HasSubstr("larger than"));
  const std::string deep =
      WriteFile(dir + "/deep", "clusters: " + std::string(300, '[') + std::string(300, ']'));
  status = LoadKubeconfig(MapEnv({{"KUBECONFIG", deep}})).status();
  EXPECT_THAT(status.message(), HasSubstr("nested deeper"));
  EXPECT_THAT(status.message(), HasSubstr(deep));
}

TEST(InClusterConfig, ReadsServiceEnvironmentTokenFileAndCa) {
  const std::string dir = TestDir();
  WriteFile(dir + "/token", "sa-token\n");
  WriteFile(dir + "/ca.crt", "cluster-ca");
  WriteFile(dir + "/namespace", "karpenter\n");
  absl::StatusOr<RestConfig> config = LoadInClusterConfig(
      MapEnv({{"KUBERNETES_SERVICE_HOST", "fd00::1"}, {"KUBERNETES_SERVICE_PORT", "443"}}), dir);
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->server, "https://[fd00::1]:443");
  EXPECT_EQ(config->token_file, dir + "/token");
  EXPECT_EQ(config->ca_pem, "cluster-ca");
  EXPECT_EQ(config->namespace_, "karpenter");
  EXPECT_FALSE(LoadInClusterConfig(MapEnv({}), dir).ok());
}

TEST(ClientLimits, UpstreamDefaultsAndOverrides) {
  absl::StatusOr<ClientLimits> limits = LoadClientLimits(MapEnv({}));
  ASSERT_TRUE(limits.ok());
  EXPECT_EQ(limits->qps, 200);
  EXPECT_EQ(limits->burst, 300);
  limits = LoadClientLimits(MapEnv({{"KUBE_CLIENT_QPS", "50.5"}, {"KUBE_CLIENT_BURST", "60"}}));
  ASSERT_TRUE(limits.ok());
  EXPECT_EQ(limits->qps, 50.5);
  EXPECT_EQ(limits->burst, 60);
  EXPECT_THAT(LoadClientLimits(MapEnv({{"KUBE_CLIENT_QPS", "fast"}})).status().message(),
              HasSubstr("KUBE_CLIENT_QPS"));
  EXPECT_THAT(LoadClientLimits(MapEnv({{"KUBE_CLIENT_BURST", "0"}})).status().message(),
              HasSubstr("KUBE_CLIENT_BURST"));
}

}  // namespace
}  // namespace karpenter::kube
