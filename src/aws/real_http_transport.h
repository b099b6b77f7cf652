// The production `HttpTransport` on libcurl: one easy handle reused under a mutex so AWS calls
// share a kept-alive connection (and its TLS session) instead of paying a handshake each.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "absl/time/time.h"
#include "src/aws/http.h"

namespace karpenter::aws {

struct HttpTransportOptions {
  absl::Duration connect_timeout = absl::Seconds(10);
  // Upstream's HTTP client waits 4 min; a stuck call should rather fail and be retried
  // (reference/reliability.md R10).
  absl::Duration total_timeout = absl::Seconds(60);
  // A DescribeInstanceTypes page is a few MB; anything far above is hostile or broken.
  size_t max_response_bytes = size_t{64} << 20;
  size_t max_header_bytes = size_t{64} << 10;
  // Hosts that must bypass any proxy from the environment (libcurl's NOPROXY syntax); empty keeps
  // libcurl's own reading of no_proxy/NO_PROXY.
  std::string no_proxy;
};

// Never fails to construct; a failure of libcurl itself shows up on the first `Send`.
std::unique_ptr<HttpTransport> NewRealHttpTransport(HttpTransportOptions options = {});

}  // namespace karpenter::aws
