// Upstream: awslabs/operatorpkg's client-go metrics adapter (RegisterClientMetrics), which
// Karpenter installs. Every HTTP exchange with the API server is reported to an optional
// observer by a Transport that wraps the real one; `MetricsObserver` turns the reports into
// upstream's series:
//   - client_go_request_total{code,method}: every exchange, watches included; code is the HTTP
//     status, "<error>" when no answer came (as client-go says it);
//   - client_go_request_duration_seconds{verb,group,version,kind,subresource}: every request
//     but watches (client-go does not time those), verb as the adapter rewrites it
//     (POST → CREATE, a GET of no one object → LIST, PUT → UPDATE, or CREATE without a name).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "karpenter/clock.h"
#include "karpenter/metrics.h"
#include "src/kube/transport.h"

namespace karpenter::kube {

struct RequestRecord {
  std::string method;  // GET, POST, ...
  std::string path;    // from the server's root, query included
  int status = 0;      // 0 when no answer came
  // The exchange's duration; none for a watch.
  std::optional<double> seconds;
};

using RequestObserver = std::function<void(const RequestRecord&)>;

// `inner` with every exchange timed on `clock` and reported to `observer` (called on the
// requesting thread).
std::unique_ptr<Transport> ObservedTransport(std::unique_ptr<Transport> inner, const Clock& clock,
                                             RequestObserver observer);

// The duration histogram's labels for a request path, as the adapter parses it
// (/apis/<group>/<version>/[namespaces/<ns>/]<kind>[/<name>[/<subresource>]]); none for a path
// it does not recognize (/version, /healthz).
std::optional<MetricLabels> RequestLatencyLabels(const std::string& method,
                                                 const std::string& path);

// Writes each exchange to `metrics`, which must outlive the observer and be safe to write from
// the client's threads.
RequestObserver MetricsObserver(Metrics& metrics);

}  // namespace karpenter::kube
