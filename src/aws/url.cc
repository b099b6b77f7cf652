#include "src/aws/url.h"

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "src/aws/absl_view.h"

namespace karpenter::aws {
namespace {

bool IsUnreserved(unsigned char c) {
  return absl::ascii_isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~';
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string Url::HostHeader() const {
  const bool default_port =
      port == 0 || (scheme == "http" && port == 80) || (scheme == "https" && port == 443);
  return default_port ? host : absl::StrCat(host, ":", port);
}

absl::StatusOr<Url> ParseUrl(std::string_view url) {
  for (const unsigned char c : url) {
    if (c <= 0x20 || c >= 0x7f) {
      return absl::InvalidArgumentError("URL: contains a space, control or non-ASCII byte");
    }
  }
  Url out;
  const size_t scheme_end = url.find("://");
  if (scheme_end == std::string_view::npos) return absl::InvalidArgumentError("URL: no scheme");
  out.scheme = absl::AsciiStrToLower(AbslView(url.substr(0, scheme_end)));
  if (out.scheme != "http" && out.scheme != "https") {
    return absl::InvalidArgumentError(absl::StrCat("URL: unsupported scheme ", out.scheme));
  }
  std::string_view rest = url.substr(scheme_end + 3);
  if (const size_t hash = rest.find('#'); hash != std::string_view::npos)
    rest = rest.substr(0, hash);
  const size_t authority_end = rest.find_first_of("/?");
  std::string_view authority = rest.substr(0, authority_end);
  rest = authority_end == std::string_view::npos ? std::string_view() : rest.substr(authority_end);
  if (authority.find('@') != std::string_view::npos) {
    return absl::InvalidArgumentError("URL: user info is not allowed");
  }
  std::string_view port_text;
  if (!authority.empty() && authority.front() == '[') {
    const size_t close = authority.find(']');
    if (close == std::string_view::npos) return absl::InvalidArgumentError("URL: bad IPv6 host");
    out.host = std::string(authority.substr(0, close + 1));
    std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return absl::InvalidArgumentError("URL: bad IPv6 host");
      port_text = after.substr(1);
    }
  } else {
    const size_t colon = authority.find(':');
    out.host = std::string(authority.substr(0, colon));
    if (colon != std::string_view::npos) port_text = authority.substr(colon + 1);
  }
  out.host = absl::AsciiStrToLower(out.host);
  if (out.host.empty()) return absl::InvalidArgumentError("URL: no host");
  if (!port_text.empty() || authority.ends_with(':')) {
    if (!absl::SimpleAtoi(AbslView(port_text), &out.port) || out.port <= 0 || out.port > 65535) {
      return absl::InvalidArgumentError("URL: bad port");
    }
  }
  const size_t question = rest.find('?');
  out.path = std::string(rest.substr(0, question));
  if (out.path.empty()) out.path = "/";
  if (question != std::string_view::npos) out.query = std::string(rest.substr(question + 1));
  return out;
}

std::string UriEncode(std::string_view text, bool keep_slash) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (const unsigned char c : text) {
    if (IsUnreserved(c) || (keep_slash && c == '/')) {
      out.push_back(static_cast<char>(c));
      continue;
    }
    out.push_back('%');
    out.push_back(kHex[c >> 4]);
    out.push_back(kHex[c & 0xf]);
  }
  return out;
}

std::string PercentDecode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && HexValue(text[i + 1]) >= 0 &&
        HexValue(text[i + 2]) >= 0) {
      out.push_back(static_cast<char>(HexValue(text[i + 1]) * 16 + HexValue(text[i + 2])));
      i += 2;
      continue;
    }
    out.push_back(text[i]);
  }
  return out;
}

std::string EncodeQuery(const QueryPairs& pairs) {
  std::string out;
  for (const auto& [key, value] : pairs) {
    if (!out.empty()) out.push_back('&');
    absl::StrAppend(&out, UriEncode(key), "=", UriEncode(value));
  }
  return out;
}

}  // namespace karpenter::aws
