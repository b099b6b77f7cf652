#include "src/aws/imds.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "src/aws/absl_view.h"

namespace karpenter::aws {
namespace {

constexpr int kTokenTtlSeconds = 21600;
// IMDS answers in milliseconds on EC2; off EC2 nothing answers, and the chain must move on fast.
constexpr absl::Duration kTimeout = absl::Seconds(1);
constexpr size_t kMaxAnswerBytes = size_t{64} << 10;

}  // namespace

ImdsClient::ImdsClient(HttpTransport& transport, const Environment& env, Clock& clock)
    : transport_(transport), clock_(clock) {
  endpoint_ =
      env.GetNonEmpty("AWS_EC2_METADATA_SERVICE_ENDPOINT").value_or("http://169.254.169.254");
  while (endpoint_.ends_with('/')) endpoint_.pop_back();
  const std::optional<std::string> disabled = env.Get("AWS_EC2_METADATA_DISABLED");
  disabled_ = disabled.has_value() && absl::AsciiStrToLower(*disabled) == "true";
}

absl::StatusOr<std::string> ImdsClient::Token() {
  absl::MutexLock lock(&mu_);
  // Renew a minute early so a token never expires between our check and IMDS's.
  if (!token_.empty() && clock_.Now() < token_expiry_ - absl::Minutes(1)) return token_;
  HttpRequest request{
      .method = "PUT", .url = absl::StrCat(endpoint_, "/latest/api/token"), .timeout = kTimeout};
  request.SetHeader("X-aws-ec2-metadata-token-ttl-seconds", std::to_string(kTokenTtlSeconds));
  absl::StatusOr<HttpResponse> response = transport_.Send(request);
  if (!response.ok()) {
    return absl::UnavailableError(absl::StrCat("IMDS token: ", response.status().message()));
  }
  if (response->status != 200 || response->body.empty() ||
      response->body.size() > kMaxAnswerBytes) {
    return absl::UnavailableError(absl::StrCat("IMDS token: HTTP ", response->status));
  }
  token_ = response->body;
  token_expiry_ = clock_.Now() + absl::Seconds(kTokenTtlSeconds);
  return token_;
}

absl::StatusOr<std::string> ImdsClient::Get(std::string_view path) {
  if (disabled_)
    return absl::FailedPreconditionError("IMDS: disabled by AWS_EC2_METADATA_DISABLED");
  absl::StatusOr<std::string> token = Token();
  if (!token.ok()) return token.status();
  HttpRequest request{.url = absl::StrCat(endpoint_, AbslView(path)), .timeout = kTimeout};
  request.SetHeader("X-aws-ec2-metadata-token", *token);
  absl::StatusOr<HttpResponse> response = transport_.Send(request);
  if (!response.ok()) {
    return absl::UnavailableError(
        absl::StrCat("IMDS ", AbslView(path), ": ", response.status().message()));
  }
  if (response->status == 401) {
    absl::MutexLock lock(&mu_);
    token_.clear();  // the next call fetches a fresh token
  }
  if (response->status == 404) {
    return absl::NotFoundError(absl::StrCat("IMDS ", AbslView(path), ": not found"));
  }
  if (response->status != 200 || response->body.size() > kMaxAnswerBytes) {
    return absl::UnavailableError(
        absl::StrCat("IMDS ", AbslView(path), ": HTTP ", response->status));
  }
  return response->body;
}

}  // namespace karpenter::aws
