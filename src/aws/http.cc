#include "src/aws/http.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "src/aws/absl_view.h"

namespace karpenter::aws {
namespace {

std::string_view FindHeader(const HttpHeaders& headers, std::string_view name) {
  for (const auto& [key, value] : headers) {
    if (absl::EqualsIgnoreCase(key, AbslView(name))) return value;
  }
  return {};
}

}  // namespace

std::string_view HttpRequest::Header(std::string_view name) const {
  return FindHeader(headers, name);
}

void HttpRequest::SetHeader(std::string_view name, std::string_view value) {
  std::erase_if(headers, [&](const auto& header) {
    return absl::EqualsIgnoreCase(header.first, AbslView(name));
  });
  headers.emplace_back(std::string(name), std::string(value));
}

std::string_view HttpResponse::Header(std::string_view name) const {
  return FindHeader(headers, name);
}

}  // namespace karpenter::aws
