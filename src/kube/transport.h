// The HTTP seam of the Kubernetes client: the REST client and the informers hand requests to a
// `Transport`, so they are tested against a scripted fake; real_transport.cc speaks HTTPS with
// libcurl.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "karpenter/common/status.h"
#include "src/kube/exec_plugin.h"
#include "src/kube/rest_config.h"

namespace karpenter::kube {

struct Request {
  std::string method = "GET";
  std::string path;  // from the server's root, query included: "/api/v1/pods?limit=500"
  std::string body;
  std::string content_type;  // of `body`
};

struct Response {
  int status = 0;
  std::string body;
};

// One JSON object of a watch stream, at most this long (a large Node or CRD is ~100 KB).
inline constexpr size_t kMaxWatchEventBytes = size_t{16} << 20;
// One answer (a list page of 500 objects is a few MB).
inline constexpr size_t kMaxResponseBytes = size_t{64} << 20;

class Transport {
 public:
  virtual ~Transport() = default;
  // Sends `request` with `credential`; any HTTP status is an answer. Errors are for no answer:
  // kUnavailable (connection failed or cut), kDeadlineExceeded, kOutOfRange (answer too large).
  virtual absl::StatusOr<Response> Send(const Request& request, const Credential& credential) = 0;
  // Opens a streaming GET (a watch) and calls `on_line` with each newline-terminated line of a
  // 2xx answer until the server ends it, `on_line` returns false, or `cancel` becomes true (an OK
  // status with the HTTP status). A non-2xx answer's body is returned whole instead.
  virtual absl::StatusOr<Response> Stream(const Request& request, const Credential& credential,
                                          const std::function<bool(std::string_view)>& on_line,
                                          const std::atomic<bool>& cancel) = 0;
};

// libcurl over TLS with the config's CA, client certificate, server name and proxy.
std::unique_ptr<Transport> NewCurlTransport(const RestConfig& config);

}  // namespace karpenter::kube
