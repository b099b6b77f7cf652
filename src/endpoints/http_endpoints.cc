#include "src/endpoints/http_endpoints.h"

#include <sys/socket.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <utility>

#include "absl/strings/str_cat.h"
#include "httplib.h"

namespace karpenter::endpoints {
namespace {

// Scrapes and probes are small GETs: nothing needs a body, and a slow or idle client must not
// hold a worker for long.
constexpr size_t kMaxRequestBody = 0;
constexpr time_t kReadTimeoutSeconds = 5;
constexpr size_t kMaxKeepAliveRequests = 100;
constexpr size_t kWorkers = 4;

void Harden(httplib::Server& server) {
  server.set_payload_max_length(kMaxRequestBody);
  server.set_read_timeout(kReadTimeoutSeconds, 0);
  server.set_write_timeout(kReadTimeoutSeconds, 0);
  server.set_keep_alive_max_count(kMaxKeepAliveRequests);
  server.set_keep_alive_timeout(kReadTimeoutSeconds);
  server.new_task_queue = [] { return new httplib::ThreadPool(kWorkers); };
  // httplib's default also sets SO_REUSEPORT, which lets a second process bind the same port
  // silently: a port in use must be an error.
  server.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });
}

void Probe(httplib::Server& server, const std::string& path, std::function<bool()> check,
           const std::string& name) {
  server.Get(path, [check = std::move(check), name](const httplib::Request&,
                                                    httplib::Response& response) {
    if (check && !check()) {
      response.status = 500;
      response.set_content(absl::StrCat("[-]", name, " failed: not ", name, "\n"), "text/plain");
      return;
    }
    response.set_content("ok", "text/plain");
  });
}

absl::StatusOr<int> Bind(httplib::Server& server, const std::string& host, int port,
                         std::string_view what) {
  const int bound = port == 0 ? server.bind_to_any_port(host.c_str())
                              : (server.bind_to_port(host.c_str(), port) ? port : -1);
  if (bound < 0) {
    return absl::UnavailableError(
        absl::StrCat("cannot listen on ", host, ":", port, " (", std::string(what), ")"));
  }
  return bound;
}

}  // namespace

struct HttpEndpoints::Servers {
  httplib::Server metrics;
  httplib::Server health;
  std::thread metrics_thread;
  std::thread health_thread;
  std::mutex mutex;
  std::condition_variable finished_changed;
  int finished = 0;  // server threads that returned from listening

  void Serve(httplib::Server& server) {
    server.listen_after_bind();
    std::lock_guard<std::mutex> lock(mutex);
    ++finished;
    finished_changed.notify_all();
  }
};

absl::StatusOr<std::unique_ptr<HttpEndpoints>> HttpEndpoints::Start(const Ports& ports,
                                                                    Handlers handlers) {
  std::unique_ptr<HttpEndpoints> endpoints(new HttpEndpoints());
  endpoints->servers_ = std::make_unique<Servers>();
  Servers& servers = *endpoints->servers_;
  Harden(servers.metrics);
  Harden(servers.health);
  servers.metrics.Get("/metrics", [metrics = handlers.metrics](const httplib::Request&,
                                                               httplib::Response& response) {
    response.set_content(metrics ? metrics() : std::string(),
                         "text/plain; version=0.0.4; charset=utf-8");
  });
  Probe(servers.health, "/healthz", std::move(handlers.healthy), "healthz");
  Probe(servers.health, "/readyz", std::move(handlers.ready), "readyz");
  absl::StatusOr<int> metrics_port =
      Bind(servers.metrics, ports.host, ports.metrics, "METRICS_PORT");
  if (!metrics_port.ok()) return metrics_port.status();
  absl::StatusOr<int> health_port =
      Bind(servers.health, ports.host, ports.health, "HEALTH_PROBE_PORT");
  if (!health_port.ok()) return health_port.status();
  endpoints->metrics_port_ = *metrics_port;
  endpoints->health_port_ = *health_port;
  servers.metrics_thread = std::thread([&servers] { servers.Serve(servers.metrics); });
  servers.health_thread = std::thread([&servers] { servers.Serve(servers.health); });
  return endpoints;
}

HttpEndpoints::~HttpEndpoints() {
  if (!servers_) return;
  const int threads =
      (servers_->metrics_thread.joinable() ? 1 : 0) + (servers_->health_thread.joinable() ? 1 : 0);
  // httplib stops only a running server (a stop before its thread enters the accept loop does
  // nothing), and a second stop of one trips its assertion: each is stopped once, when running.
  bool stopped[2] = {false, false};
  httplib::Server* servers[2] = {&servers_->metrics, &servers_->health};
  std::unique_lock<std::mutex> lock(servers_->mutex);
  while (servers_->finished < threads) {
    for (int i = 0; i < 2; ++i) {
      if (!stopped[i] && servers[i]->is_running()) {
        servers[i]->stop();
        stopped[i] = true;
      }
    }
    servers_->finished_changed.wait_for(lock, std::chrono::milliseconds(10));
  }
  lock.unlock();
  if (servers_->metrics_thread.joinable()) servers_->metrics_thread.join();
  if (servers_->health_thread.joinable()) servers_->health_thread.join();
}

}  // namespace karpenter::endpoints
