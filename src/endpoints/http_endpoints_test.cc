#include "src/endpoints/http_endpoints.h"

#include <atomic>
#include <string>

#include "gtest/gtest.h"
#include "httplib.h"

namespace karpenter::endpoints {
namespace {

struct Served {
  std::atomic<bool> healthy{true};
  std::atomic<bool> ready{false};
  std::unique_ptr<HttpEndpoints> endpoints;

  Served() {
    absl::StatusOr<std::unique_ptr<HttpEndpoints>> started = HttpEndpoints::Start(
        Ports{.host = "127.0.0.1", .metrics = 0, .health = 0},
        Handlers{.metrics = [] { return std::string("karpenter_nodes_created_total 3\n"); },
                 .healthy = [this] { return healthy.load(); },
                 .ready = [this] { return ready.load(); }});
    EXPECT_TRUE(started.ok()) << started.status();
    if (started.ok()) endpoints = *std::move(started);
  }
};

httplib::Result Get(int port, const std::string& path) {
  httplib::Client client("127.0.0.1", port);
  client.set_connection_timeout(5, 0);
  client.set_read_timeout(5, 0);
  return client.Get(path);
}

TEST(HttpEndpoints, ServesMetricsInPrometheusTextFormat) {
  Served served;
  ASSERT_NE(served.endpoints, nullptr);
  httplib::Result result = Get(served.endpoints->metrics_port(), "/metrics");
  ASSERT_TRUE(result);
  EXPECT_EQ(result->status, 200);
  EXPECT_EQ(result->body, "karpenter_nodes_created_total 3\n");
  EXPECT_EQ(result->get_header_value("Content-Type"), "text/plain; version=0.0.4; charset=utf-8");
  // Probes live on their own port only.
  httplib::Result elsewhere = Get(served.endpoints->metrics_port(), "/healthz");
  ASSERT_TRUE(elsewhere);
  EXPECT_EQ(elsewhere->status, 404);
}

TEST(HttpEndpoints, ProbesFollowTheirChecks) {
  Served served;
  ASSERT_NE(served.endpoints, nullptr);
  const int port = served.endpoints->health_port();
  EXPECT_EQ(Get(port, "/healthz")->status, 200);
  httplib::Result not_ready = Get(port, "/readyz");
  ASSERT_TRUE(not_ready);
  EXPECT_EQ(not_ready->status, 500);
  EXPECT_EQ(not_ready->body, "[-]readyz failed: not readyz\n");
  served.ready = true;
  EXPECT_EQ(Get(port, "/readyz")->status, 200);
  EXPECT_EQ(Get(port, "/readyz")->body, "ok");
  served.healthy = false;
  EXPECT_EQ(Get(port, "/healthz")->status, 500);
}

TEST(HttpEndpoints, ABusyPortIsAnErrorNamingIt) {
  Served first;
  ASSERT_NE(first.endpoints, nullptr);
  absl::StatusOr<std::unique_ptr<HttpEndpoints>> second = HttpEndpoints::Start(
      Ports{.host = "127.0.0.1", .metrics = first.endpoints->metrics_port(), .health = 0},
      Handlers{});
  ASSERT_FALSE(second.ok());
  EXPECT_NE(std::string(second.status().message()).find("METRICS_PORT"), std::string::npos)
      << second.status();
}

TEST(HttpEndpoints, ARequestWithABodyIsRefused) {
  Served served;
  ASSERT_NE(served.endpoints, nullptr);
  httplib::Client client("127.0.0.1", served.endpoints->health_port());
  httplib::Result result = client.Post("/healthz", std::string(4096, 'x'), "text/plain");
  ASSERT_TRUE(result);
  EXPECT_NE(result->status, 200);
}

}  // namespace
}  // namespace karpenter::endpoints
