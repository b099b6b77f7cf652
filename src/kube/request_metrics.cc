#include "src/kube/request_metrics.h"

#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/str_split.h"

namespace karpenter::kube {
namespace {

double SecondsBetween(api::Time start, api::Time end) {
  return static_cast<double>((end - start).Nanos()) / 1e9;
}

class Observed : public Transport {
 public:
  Observed(std::unique_ptr<Transport> inner, const Clock& clock, RequestObserver observer)
      : inner_(std::move(inner)), clock_(clock), observer_(std::move(observer)) {}

  absl::StatusOr<Response> Send(const Request& request, const Credential& credential) override {
    const api::Time start = clock_.Now();
    absl::StatusOr<Response> response = inner_->Send(request, credential);
    observer_(RequestRecord{.method = request.method,
                            .path = request.path,
                            .status = response.ok() ? response->status : 0,
                            .seconds = SecondsBetween(start, clock_.Now())});
    return response;
  }

  absl::StatusOr<Response> Stream(const Request& request, const Credential& credential,
                                  const std::function<bool(std::string_view)>& on_line,
                                  const std::atomic<bool>& cancel) override {
    absl::StatusOr<Response> response = inner_->Stream(request, credential, on_line, cancel);
    observer_(RequestRecord{.method = request.method,
                            .path = request.path,
                            .status = response.ok() ? response->status : 0});
    return response;
  }

 private:
  std::unique_ptr<Transport> inner_;
  const Clock& clock_;
  RequestObserver observer_;
};

}  // namespace

std::unique_ptr<Transport> ObservedTransport(std::unique_ptr<Transport> inner, const Clock& clock,
                                             RequestObserver observer) {
  return std::make_unique<Observed>(std::move(inner), clock, std::move(observer));
}

std::optional<MetricLabels> RequestLatencyLabels(const std::string& method,
                                                 const std::string& path) {
  const std::string without_query = path.substr(0, path.find('?'));
  std::vector<std::string> parts = absl::StrSplit(without_query, '/');
  if (parts.empty() || !parts.front().empty()) return std::nullopt;  // not absolute
  parts.erase(parts.begin());
  size_t group = 0;
  if (!parts.empty() && parts[0] == "api") {
    group = 0;
  } else if (!parts.empty() && parts[0] == "apis") {
    group = 1;
  } else {
    return std::nullopt;
  }
  if (parts.size() < group + 3) return std::nullopt;
  const size_t version = group + 1;
  // A namespaced resource other than the namespace itself.
  const bool namespaced = parts[group + 2] == "namespaces" && parts.size() > group + 4;
  const size_t kind = namespaced ? version + 3 : version + 1;
  const bool named = parts.size() > kind + 1;
  std::string verb = method;
  if (method == "POST") {
    verb = "CREATE";
  } else if (method == "GET" && !named) {
    verb = "LIST";
  } else if (method == "PUT") {
    verb = named ? "UPDATE" : "CREATE";
  }
  return MetricLabels{{"verb", verb},
                      {"group", group == 0 ? "" : parts[group]},
                      {"version", parts[version]},
                      {"kind", parts[kind]},
                      {"subresource", parts.size() == kind + 3 ? parts[kind + 2] : ""}};
}

RequestObserver MetricsObserver(Metrics& metrics) {
  return [&metrics](const RequestRecord& request) {
    metrics.Add("client_go_request_total",
                {{"code", request.status == 0 ? "<error>" : std::to_string(request.status)},
                 {"method", request.method}},
                1);
    if (!request.seconds) return;
    if (std::optional<MetricLabels> labels = RequestLatencyLabels(request.method, request.path)) {
      metrics.Observe("client_go_request_duration_seconds", *labels, *request.seconds);
    }
  };
}

}  // namespace karpenter::kube
