#include "src/kube/request_metrics.h"

#include <map>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "src/fakes/fake_clock.h"
#include "src/fakes/recording_metrics.h"

namespace karpenter::kube {
namespace {

// Answers every request with `status` after `millis` on the fake clock; watches end at once.
class SlowTransport : public Transport {
 public:
  SlowTransport(fakes::FakeClock& clock, int status, int64_t millis)
      : clock_(clock), status_(status), millis_(millis) {}
  absl::StatusOr<Response> Send(const Request&, const Credential&) override {
    clock_.Advance(millis_);
    if (status_ == 0) return absl::UnavailableError("connection refused");
    return Response{status_, "{}"};
  }
  absl::StatusOr<Response> Stream(const Request&, const Credential&,
                                  const std::function<bool(std::string_view)>&,
                                  const std::atomic<bool>&) override {
    clock_.Advance(millis_);
    return Response{status_, ""};
  }

 private:
  fakes::FakeClock& clock_;
  int status_;
  int64_t millis_;
};

TEST(RequestMetrics, EveryExchangeIsCountedAndRequestsButWatchesTimed) {
  fakes::FakeClock clock;
  fakes::RecordingMetrics metrics;
  std::unique_ptr<Transport> transport = ObservedTransport(
      std::make_unique<SlowTransport>(clock, 201, 250), clock, MetricsObserver(metrics));
  ASSERT_TRUE(transport
                  ->Send(Request{.method = "POST", .path = "/apis/karpenter.sh/v1/nodeclaims"},
                         Credential{})
                  .ok());
  std::atomic<bool> cancel = false;
  ASSERT_TRUE(transport
                  ->Stream(
                      Request{.path = "/api/v1/pods?watch=true"}, Credential{},
                      [](std::string_view) { return true; }, cancel)
                  .ok());
  EXPECT_EQ(metrics.counters["client_go_request_total code=201 method=POST"], 1);
  EXPECT_EQ(metrics.counters["client_go_request_total code=201 method=GET"], 1);
  EXPECT_EQ(metrics.observed["client_go_request_duration_seconds verb=CREATE group=karpenter.sh "
                             "version=v1 kind=nodeclaims subresource="],
            std::vector<double>{0.25});
  EXPECT_EQ(metrics.observed.size(), 1u) << "the watch is not timed";

  fakes::FakeClock other;
  fakes::RecordingMetrics failed;
  std::unique_ptr<Transport> refused = ObservedTransport(
      std::make_unique<SlowTransport>(other, 0, 5), other, MetricsObserver(failed));
  EXPECT_FALSE(refused->Send(Request{.path = "/api/v1/nodes"}, Credential{}).ok());
  EXPECT_EQ(failed.counters["client_go_request_total code=<error> method=GET"], 1);
}

TEST(RequestMetrics, PathsAreParsedAsTheAdapterDoes) {
  const auto labels = [](const std::string& method, const std::string& path) {
    std::optional<MetricLabels> parsed = RequestLatencyLabels(method, path);
    return parsed ? fakes::RecordingMetrics::Key("", *parsed) : std::string("none");
  };
  EXPECT_EQ(labels("GET", "/api/v1/namespaces/default/pods?limit=500"),
            " verb=LIST group= version=v1 kind=pods subresource=");
  EXPECT_EQ(labels("GET", "/api/v1/nodes/ip-10-0-0-1"),
            " verb=GET group= version=v1 kind=nodes subresource=");
  EXPECT_EQ(labels("PUT", "/apis/karpenter.sh/v1/nodeclaims/default-x/status"),
            " verb=UPDATE group=karpenter.sh version=v1 kind=nodeclaims subresource=status");
  EXPECT_EQ(labels("PUT",
                   "/apis/coordination.k8s.io/v1/namespaces/karpenter/leases/"
                   "karpenter-leader-election"),
            " verb=UPDATE group=coordination.k8s.io version=v1 kind=leases subresource=");
  EXPECT_EQ(labels("POST", "/api/v1/namespaces/default/pods/web-0/eviction"),
            " verb=CREATE group= version=v1 kind=pods subresource=eviction");
  EXPECT_EQ(labels("GET", "/api/v1/namespaces/default"),
            " verb=GET group= version=v1 kind=namespaces subresource=");
  EXPECT_EQ(labels("PATCH", "/api/v1/nodes/n"),
            " verb=PATCH group= version=v1 kind=nodes subresource=");
  EXPECT_EQ(labels("GET", "/version"), "none");
}

}  // namespace
}  // namespace karpenter::kube
