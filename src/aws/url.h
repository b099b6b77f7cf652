// URL pieces and the percent-encoding rules AWS uses (RFC 3986 unreserved characters stay, every
// other byte becomes %XX with upper-case hex).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"

namespace karpenter::aws {

struct Url {
  std::string scheme;  // "http" or "https", lower case
  std::string host;    // lower case, without port; IPv6 literals keep their brackets
  int port = 0;        // 0 when the URL names none
  std::string path;    // as on the wire (percent-encoded), "/" when empty
  std::string query;   // as on the wire, without '?'

  // `host` plus `:port` when the port is not the scheme's default: the Host header's value.
  std::string HostHeader() const;
};

// Parses an absolute http(s) URL. Rejects user info, other schemes, bad ports and control bytes.
absl::StatusOr<Url> ParseUrl(std::string_view url);

// Percent-encodes every byte outside A-Z a-z 0-9 - _ . ~ (and '/' when `keep_slash`).
std::string UriEncode(std::string_view text, bool keep_slash = false);
// Decodes %XX escapes; a '%' not followed by two hex digits stays as it is.
std::string PercentDecode(std::string_view text);

using QueryPairs = std::vector<std::pair<std::string, std::string>>;
// `k=v&k2=v2` with both sides UriEncoded, in the given order.
std::string EncodeQuery(const QueryPairs& pairs);

}  // namespace karpenter::aws
