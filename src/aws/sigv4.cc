#include "src/aws/sigv4.h"

#include <algorithm>
#include <map>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "karpenter/common/status.h"
#include "src/aws/absl_view.h"
#include "src/aws/crypto.h"
#include "src/aws/url.h"

namespace karpenter::aws {
namespace {

constexpr char kAlgorithm[] = "AWS4-HMAC-SHA256";
// The signing-key cache is small: one entry per (day, region, service, key) in use. Clearing it
// when full is simpler than eviction and costs four HMACs per entry once.
constexpr size_t kMaxCachedKeys = 64;

// Headers a proxy or the HTTP stack may change on the way; signing them would break the signature.
bool IsUnsignedHeader(std::string_view lower_name) {
  static constexpr std::string_view kSkipped[] = {"authorization",
                                                  "connection",
                                                  "expect",
                                                  "keep-alive",
                                                  "proxy-authenticate",
                                                  "proxy-authorization",
                                                  "te",
                                                  "trailer",
                                                  "transfer-encoding",
                                                  "upgrade",
                                                  "user-agent",
                                                  "x-amzn-trace-id"};
  return std::find(std::begin(kSkipped), std::end(kSkipped), lower_name) != std::end(kSkipped);
}

// Trims the value and folds each run of whitespace into one space (SigV4's "Trimall").
std::string TrimAll(std::string_view value) {
  std::vector<absl::string_view> words =
      absl::StrSplit(AbslView(value), absl::ByAnyChar(" \t\r\n\v\f"), absl::SkipEmpty());
  return absl::StrJoin(words, " ");
}

}  // namespace

std::string AmzDate(absl::Time time) {
  return absl::FormatTime("%Y%m%dT%H%M%SZ", time, absl::UTCTimeZone());
}

std::string CanonicalUri(std::string_view wire_path) {
  std::vector<absl::string_view> kept;
  for (absl::string_view segment : absl::StrSplit(AbslView(wire_path), '/')) {
    if (segment.empty() || segment == ".") continue;
    if (segment == "..") {
      if (!kept.empty()) kept.pop_back();
      continue;
    }
    kept.push_back(segment);
  }
  std::string path = absl::StrCat("/", absl::StrJoin(kept, "/"));
  if (!kept.empty() && wire_path.ends_with('/')) path.push_back('/');
  return UriEncode(path, /*keep_slash=*/true);
}

std::string CanonicalQuery(std::string_view wire_query) {
  std::vector<std::pair<std::string, std::string>> pairs;
  if (wire_query.empty()) return {};
  for (absl::string_view piece : absl::StrSplit(AbslView(wire_query), '&')) {
    const size_t equals = piece.find('=');
    const std::string_view key = StdView(piece.substr(0, equals));
    const std::string_view value =
        equals == absl::string_view::npos ? "" : StdView(piece.substr(equals + 1));
    pairs.emplace_back(UriEncode(PercentDecode(key)), UriEncode(PercentDecode(value)));
  }
  std::sort(pairs.begin(), pairs.end());
  return absl::StrJoin(pairs, "&", absl::PairFormatter("="));
}

absl::Status SigV4Signer::Sign(HttpRequest& request, const Credentials& credentials,
                               const SigningScope& scope, absl::Time now) {
  KP_ASSIGN_OR_RETURN(const Url url, ParseUrl(request.url));
  request.SetHeader("Host", url.HostHeader());
  request.SetHeader("X-Amz-Date", AmzDate(now));
  if (credentials.session_token.empty()) {
    // A retry after a switch to long-term keys must not carry the old token.
    std::erase_if(request.headers, [](const auto& header) {
      return absl::EqualsIgnoreCase(header.first, "X-Amz-Security-Token");
    });
  } else {
    request.SetHeader("X-Amz-Security-Token", credentials.session_token);
  }
  KP_ASSIGN_OR_RETURN(const SignatureParts parts, Compute(request, credentials, scope, now));
  request.SetHeader("Authorization", parts.authorization);
  return absl::OkStatus();
}

absl::StatusOr<SignatureParts> SigV4Signer::Compute(const HttpRequest& request,
                                                    const Credentials& credentials,
                                                    const SigningScope& scope, absl::Time now) {
  if (credentials.access_key_id.empty() || credentials.secret_access_key.empty()) {
    return absl::UnauthenticatedError("SigV4: credentials have no access key or secret");
  }
  absl::StatusOr<Url> url = ParseUrl(request.url);
  if (!url.ok()) return url.status();
  // Lower-cased name -> values in request order; std::map gives the sorted order SigV4 wants.
  std::map<std::string, std::vector<std::string>> headers;
  for (const auto& [name, value] : request.headers) {
    std::string lower = absl::AsciiStrToLower(absl::StripAsciiWhitespace(name));
    if (IsUnsignedHeader(lower)) continue;
    headers[lower].push_back(TrimAll(value));
  }
  if (!headers.contains("host")) headers["host"].push_back(url->HostHeader());
  std::string canonical_headers;
  std::vector<absl::string_view> names;
  for (const auto& [name, values] : headers) {
    absl::StrAppend(&canonical_headers, name, ":", absl::StrJoin(values, ","), "\n");
    names.push_back(name);
  }
  SignatureParts parts;
  parts.signed_headers = absl::StrJoin(names, ";");
  parts.canonical_request =
      absl::StrCat(absl::AsciiStrToUpper(request.method), "\n", CanonicalUri(url->path), "\n",
                   CanonicalQuery(url->query), "\n", canonical_headers, "\n", parts.signed_headers,
                   "\n", Sha256Hex(request.body));
  const std::string timestamp = AmzDate(now);
  const std::string date = timestamp.substr(0, 8);
  const std::string credential_scope =
      absl::StrCat(date, "/", scope.region, "/", scope.service, "/aws4_request");
  parts.string_to_sign = absl::StrCat(kAlgorithm, "\n", timestamp, "\n", credential_scope, "\n",
                                      Sha256Hex(parts.canonical_request));
  parts.signature =
      HexEncode(HmacSha256(SigningKey(credentials, date, scope), parts.string_to_sign));
  parts.authorization =
      absl::StrCat(kAlgorithm, " Credential=", credentials.access_key_id, "/", credential_scope,
                   ", SignedHeaders=", parts.signed_headers, ", Signature=", parts.signature);
  return parts;
}

std::string SigV4Signer::SigningKey(const Credentials& credentials, std::string_view date,
                                    const SigningScope& scope) {
  // The secret is part of the key so rotated credentials never reuse a stale derivation.
  const std::string cache_key =
      absl::StrCat(AbslView(date), "\n", scope.region, "\n", scope.service, "\n",
                   credentials.access_key_id, "\n", Sha256Hex(credentials.secret_access_key));
  absl::MutexLock lock(&mu_);
  if (auto it = keys_.find(cache_key); it != keys_.end()) return it->second;
  const std::string k_date = HmacSha256(absl::StrCat("AWS4", credentials.secret_access_key), date);
  const std::string k_region = HmacSha256(k_date, scope.region);
  const std::string k_service = HmacSha256(k_region, scope.service);
  std::string k_signing = HmacSha256(k_service, "aws4_request");
  if (keys_.size() >= kMaxCachedKeys) keys_.clear();
  keys_.emplace(cache_key, k_signing);
  ++derivations_;
  return k_signing;
}

int SigV4Signer::derivations() const {
  absl::MutexLock lock(&mu_);
  return derivations_;
}

}  // namespace karpenter::aws
