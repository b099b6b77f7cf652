// The HTTP seam of the AWS provider: every AWS call is one `HttpRequest` handed to an
// `HttpTransport`, so the signer, the retryer and the service clients are tested with fakes and the
// only code that touches sockets is real_http_transport.cc.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace karpenter::aws {

using HttpHeaders = std::vector<std::pair<std::string, std::string>>;

struct HttpRequest {
  std::string method = "GET";
  // Absolute URL as it goes on the wire: path and query already percent-encoded.
  std::string url;
  HttpHeaders headers;
  std::string body;
  // Overrides the transport's total timeout when positive (IMDS wants about a second).
  absl::Duration timeout = absl::ZeroDuration();

  // The first header named `name` (case-insensitive), or "" when absent.
  std::string_view Header(std::string_view name) const;
  // Replaces every header named `name` (case-insensitive) with one `name: value`.
  void SetHeader(std::string_view name, std::string_view value);
};

struct HttpResponse {
  int status = 0;
  // Names are lower-cased by the transport.
  HttpHeaders headers;
  std::string body;

  std::string_view Header(std::string_view name) const;
};

class HttpTransport {
 public:
  virtual ~HttpTransport() = default;
  // Sends `request` and returns the answer whatever its status code. An error means there was no
  // complete answer: kUnavailable when the connection failed or was cut (worth retrying),
  // kDeadlineExceeded on timeout, kOutOfRange when the answer is larger than the transport accepts,
  // kInvalidArgument for a request that cannot be sent (bad URL or scheme).
  virtual absl::StatusOr<HttpResponse> Send(const HttpRequest& request) = 0;
};

}  // namespace karpenter::aws
