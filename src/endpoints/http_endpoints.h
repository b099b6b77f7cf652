// The controller's HTTP endpoints, as upstream's controller-runtime manager serves them:
// Prometheus metrics on METRICS_PORT (/metrics) and probes on HEALTH_PROBE_PORT (/healthz,
// /readyz: 200 "ok", or 500 naming the failed check). Each port has its own server thread
// pool; handlers are called on those threads and must be thread-safe.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "karpenter/common/status.h"

namespace karpenter::endpoints {

struct Handlers {
  // The exposition text of every metric (Prometheus text format 0.0.4).
  std::function<std::string()> metrics;
  // Liveness: false once the process can no longer make progress.
  std::function<bool()> healthy;
  // Readiness: caches synced, and for the leader, its controllers started.
  std::function<bool()> ready;
};

struct Ports {
  std::string host = "0.0.0.0";
  int metrics = 8080;  // 0: any free port (tests)
  int health = 8081;
};

class HttpEndpoints {
 public:
  // Binds both ports and starts serving; an error names the port that could not be bound.
  static absl::StatusOr<std::unique_ptr<HttpEndpoints>> Start(const Ports& ports,
                                                              Handlers handlers);
  // Stops both servers and waits for their threads.
  ~HttpEndpoints();
  HttpEndpoints(const HttpEndpoints&) = delete;
  HttpEndpoints& operator=(const HttpEndpoints&) = delete;

  int metrics_port() const { return metrics_port_; }
  int health_port() const { return health_port_; }

 private:
  struct Servers;
  HttpEndpoints() = default;

  std::unique_ptr<Servers> servers_;
  int metrics_port_ = 0;
  int health_port_ = 0;
};

}  // namespace karpenter::endpoints
