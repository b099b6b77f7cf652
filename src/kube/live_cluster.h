// Integration tests against a real API server: the kubeconfig comes from KP_TEST_KUBECONFIG
// (scripts/test.sh exports it once scripts/controlplane.sh has started a control plane); without
// it the tests skip. Each test works in its own namespace, and names its cluster-scoped objects
// after it, so tests share one control plane and may run in parallel.
#pragma once

#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>

#include "gtest/gtest.h"
#include "src/kube/client.h"
#include "src/kube/clock_wait.h"
#include "src/kube/real_clock.h"

namespace karpenter::kube::testing {

inline constexpr char kSkipMessage[] =
    "KP_TEST_KUBECONFIG is not set: start a control plane with "
    "`scripts/controlplane.sh start DIR` and export KP_TEST_KUBECONFIG=DIR/kubeconfig "
    "(scripts/test.sh does this)";

class LiveCluster {
 public:
  // nullptr when KP_TEST_KUBECONFIG is unset (the caller skips); a failed test otherwise.
  static std::unique_ptr<LiveCluster> Connect() {
    const char* path = std::getenv("KP_TEST_KUBECONFIG");
    if (path == nullptr || *path == '\0') return nullptr;
    auto live = std::unique_ptr<LiveCluster>(new LiveCluster());
    const std::string kubeconfig = path;
    absl::StatusOr<RestConfig> config =
        LoadKubeconfig([&](std::string_view name) -> std::optional<std::string> {
          if (name == "KUBECONFIG") return kubeconfig;
          return std::nullopt;
        });
    EXPECT_TRUE(config.ok()) << config.status();
    if (!config.ok()) return nullptr;
    live->client_ =
        std::make_unique<Client>(*config, ClientLimits{}, *live->clock_, NewCurlTransport(*config));
    live->config_ = *config;
    live->ns_ = UniqueName();
    absl::StatusOr<std::string> created = live->client_->Call(
        "POST", "/api/v1/namespaces",
        R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":")" + live->ns_ + R"("}})");
    EXPECT_TRUE(created.ok()) << created.status();
    return live;
  }
  ~LiveCluster() {
    if (client_ != nullptr) {
      client_->Call("DELETE", "/api/v1/namespaces/" + ns_).status().IgnoreError();
    }
  }

  Client& client() { return *client_; }
  Clock& clock() { return *clock_; }
  const RestConfig& config() const { return config_; }
  // The test's namespace, also the prefix of its cluster-scoped objects' names.
  const std::string& ns() const { return ns_; }

  // Polls `done` every 100 ms on the clock for up to 60 s.
  bool WaitFor(const std::function<bool()>& done) {
    for (int i = 0; i < 600; ++i) {
      if (done()) return true;
      WaitOnClock(*clock_, 100);
    }
    return done();
  }

  // Creates a minimal CRD (cluster-scoped, schemaless, with a status subresource) for one of the
  // project's kinds, as the client's tests need until the project's own CRDs exist (issue #26),
  // and waits until it serves. Shared by every test: one that exists already is fine.
  void InstallCrd(const std::string& group, const std::string& kind, const std::string& plural) {
    std::string singular = plural.substr(0, plural.size() - 1);
    if (plural.ends_with("sses")) singular = plural.substr(0, plural.size() - 2);
    absl::StatusOr<std::string> created =
        client_->Call("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
                      R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
            "metadata":{"name":")" +
                          plural + "." + group + R"("},
            "spec":{"group":")" +
                          group + R"(","scope":"Cluster",
              "names":{"plural":")" +
                          plural + R"(","singular":")" + singular + R"(","kind":")" + kind +
                          R"(","listKind":")" + kind + R"(List"},
              "versions":[{"name":"v1","served":true,"storage":true,
                "subresources":{"status":{}},
                "schema":{"openAPIV3Schema":{"type":"object",
                  "x-kubernetes-preserve-unknown-fields":true}}}]}})");
    EXPECT_TRUE(created.ok() || absl::IsAlreadyExists(created.status())) << created.status();
    EXPECT_TRUE(WaitFor([&] {
      return client_->Call("GET", "/apis/" + group + "/v1/" + plural + "?limit=1").ok();
    }));
  }
  void InstallNodeClaimCrd() { InstallCrd("karpenter.sh", "NodeClaim", "nodeclaims"); }

 private:
  LiveCluster() : clock_(NewRealClock()) {}

  static std::string UniqueName() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = "kp-";
    for (char c : std::string(info->name())) {
      if (name.size() >= 40) break;
      name.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    }
    return name + "-" + std::to_string(getpid());
  }

  std::unique_ptr<Clock> clock_;
  std::unique_ptr<Client> client_;
  RestConfig config_;
  std::string ns_;
};

}  // namespace karpenter::kube::testing
