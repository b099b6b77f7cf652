#include "src/aws/credential_chain.h"

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "karpenter/common/status.h"
#include "src/aws/absl_view.h"
#include "src/aws/endpoints.h"
#include "src/aws/json.h"
#include "src/aws/query.h"
#include "src/aws/url.h"
#include "src/aws/xml.h"

namespace karpenter::aws {
namespace {

constexpr size_t kMaxTokenBytes = size_t{16} << 10;
constexpr size_t kMaxAnswerBytes = size_t{64} << 10;

absl::StatusOr<absl::Time> ParseExpiration(std::string_view text, std::string_view source) {
  absl::Time out;
  std::string error;
  if (!absl::ParseTime(absl::RFC3339_full, AbslView(text), &out, &error)) {
    return absl::UnavailableError(
        absl::StrCat(AbslView(source), ": bad Expiration '", AbslView(text), "': ", error));
  }
  return out;
}

absl::StatusOr<std::string> ReadToken(const std::string& path, std::string_view what) {
  KP_ASSIGN_OR_RETURN(std::optional<std::string> text, ReadSmallFile(path, kMaxTokenBytes));
  if (!text.has_value() || text->empty()) {
    return absl::UnauthenticatedError(
        absl::StrCat(AbslView(what), ": token file ", path, " is missing or empty"));
  }
  return std::string(absl::StripAsciiWhitespace(*text));
}

std::optional<Credentials> FromEnvironment(const Environment& env) {
  std::optional<std::string> id = env.GetNonEmpty("AWS_ACCESS_KEY_ID");
  std::optional<std::string> secret = env.GetNonEmpty("AWS_SECRET_ACCESS_KEY");
  if (!id.has_value() || !secret.has_value()) return std::nullopt;
  return Credentials{.access_key_id = *id,
                     .secret_access_key = *secret,
                     .session_token = env.GetNonEmpty("AWS_SESSION_TOKEN").value_or(""),
                     .source = "environment"};
}

// Plain-HTTP container endpoints are allowed only where the SDKs allow them: loopback, the ECS
// agent and the EKS Pod Identity agent. Anything else could be a token-stealing redirect.
bool IsAllowedContainerHost(const Url& url) {
  if (url.scheme == "https") return true;
  return url.host == "localhost" || url.host.starts_with("127.") || url.host == "[::1]" ||
         url.host == "169.254.170.2" || url.host == "169.254.170.23" ||
         url.host == "[fd00:ec2::23]";
}

absl::StatusOr<Credentials> CredentialsFromJson(std::string_view body, std::string_view source) {
  KP_ASSIGN_OR_RETURN(const nlohmann::json json, ParseJson(body, {.max_bytes = kMaxAnswerBytes}));
  Credentials out{.access_key_id = JsonString(json, "AccessKeyId"),
                  .secret_access_key = JsonString(json, "SecretAccessKey"),
                  .session_token = JsonString(json, "Token"),
                  .source = std::string(source)};
  if (out.access_key_id.empty() || out.secret_access_key.empty()) {
    return absl::UnavailableError(absl::StrCat(AbslView(source), ": answer has no keys"));
  }
  if (const std::string expiration = JsonString(json, "Expiration"); !expiration.empty()) {
    KP_ASSIGN_OR_RETURN(out.expiration, ParseExpiration(expiration, source));
  }
  return out;
}

absl::StatusOr<Credentials> FromContainer(HttpTransport& transport, const Environment& env) {
  std::string uri = env.GetNonEmpty("AWS_CONTAINER_CREDENTIALS_FULL_URI").value_or("");
  if (uri.empty()) {
    uri = absl::StrCat("http://169.254.170.2",
                       env.GetNonEmpty("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI").value_or("/"));
  }
  KP_ASSIGN_OR_RETURN(const Url url, ParseUrl(uri));
  if (!IsAllowedContainerHost(url)) {
    return absl::PermissionDeniedError(
        absl::StrCat("container credentials: host ", url.host, " is not allowed over http"));
  }
  HttpRequest request{.url = uri, .timeout = absl::Seconds(5)};
  if (std::optional<std::string> file = env.GetNonEmpty("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE")) {
    KP_ASSIGN_OR_RETURN(const std::string token, ReadToken(*file, "container credentials"));
    request.SetHeader("Authorization", token);
  } else if (std::optional<std::string> token =
                 env.GetNonEmpty("AWS_CONTAINER_AUTHORIZATION_TOKEN")) {
    request.SetHeader("Authorization", *token);
  }
  absl::StatusOr<HttpResponse> response = transport.Send(request);
  if (!response.ok()) {
    return absl::UnavailableError(
        absl::StrCat("container credentials: ", response.status().message()));
  }
  if (response->status != 200) {
    return absl::UnavailableError(absl::StrCat("container credentials: HTTP ", response->status));
  }
  return CredentialsFromJson(response->body, "container");
}

absl::StatusOr<Credentials> FromImds(ImdsClient& imds) {
  constexpr std::string_view kRoles = "/latest/meta-data/iam/security-credentials/";
  KP_ASSIGN_OR_RETURN(const std::string roles, imds.Get(kRoles));
  const std::string role(absl::StripAsciiWhitespace(roles.substr(0, roles.find('\n'))));
  if (role.empty()) return absl::UnauthenticatedError("IMDS: the instance has no IAM role");
  KP_ASSIGN_OR_RETURN(const std::string body,
                      imds.Get(absl::StrCat(AbslView(kRoles), UriEncode(role))));
  KP_ASSIGN_OR_RETURN(const nlohmann::json json, ParseJson(body, {.max_bytes = kMaxAnswerBytes}));
  if (const std::string code = JsonString(json, "Code"); !code.empty() && code != "Success") {
    return absl::UnavailableError(absl::StrCat("IMDS role credentials: ", code));
  }
  return CredentialsFromJson(body, "imds");
}

}  // namespace

absl::StatusOr<Credentials> AssumeRoleWithWebIdentity(HttpTransport& transport,
                                                      const Environment& env,
                                                      const std::string& role_arn,
                                                      const std::string& token_file,
                                                      const std::string& session_name,
                                                      const std::string& region, Clock& clock) {
  KP_ASSIGN_OR_RETURN(const std::string token, ReadToken(token_file, "web identity"));
  KP_ASSIGN_OR_RETURN(const ServiceEndpoint endpoint,
                      ResolveEndpoint(env, StsService(), region.empty() ? "us-east-1" : region));
  QueryRequest query("AssumeRoleWithWebIdentity", "2011-06-15");
  query.Set("RoleArn", role_arn)
      .Set("RoleSessionName", session_name.empty()
                                  ? absl::StrCat("karpenter-", absl::ToUnixSeconds(clock.Now()))
                                  : session_name)
      .Set("WebIdentityToken", token);
  HttpRequest request{
      .method = "POST", .url = absl::StrCat(endpoint.url, "/"), .body = query.Encode()};
  request.SetHeader("Content-Type", "application/x-www-form-urlencoded; charset=utf-8");
  absl::StatusOr<HttpResponse> response = transport.Send(request);
  if (!response.ok()) {
    return absl::UnavailableError(
        absl::StrCat("AssumeRoleWithWebIdentity: ", response.status().message()));
  }
  KP_ASSIGN_OR_RETURN(const XmlDocument doc,
                      XmlDocument::Parse(response->body, {.max_bytes = kMaxAnswerBytes}));
  const XmlNode credentials = doc.Root().Path({"AssumeRoleWithWebIdentityResult", "Credentials"});
  if (response->status != 200 || credentials.empty()) {
    const XmlNode error = doc.Root().Child("Error");
    return absl::UnauthenticatedError(absl::StrCat("AssumeRoleWithWebIdentity: HTTP ",
                                                   response->status, " ", error.ChildText("Code"),
                                                   " ", error.ChildText("Message")));
  }
  Credentials out{.access_key_id = credentials.ChildText("AccessKeyId"),
                  .secret_access_key = credentials.ChildText("SecretAccessKey"),
                  .session_token = credentials.ChildText("SessionToken"),
                  .source = "web-identity"};
  KP_ASSIGN_OR_RETURN(out.expiration,
                      ParseExpiration(credentials.ChildText("Expiration"), "web identity"));
  return out;
}

absl::StatusOr<std::string> ResolveRegion(const Environment& env, ImdsClient* imds) {
  if (std::optional<std::string> region = env.GetNonEmpty("AWS_REGION")) return *region;
  if (std::optional<std::string> region = env.GetNonEmpty("AWS_DEFAULT_REGION")) return *region;
  KP_ASSIGN_OR_RETURN(const SharedProfile profile, LoadSharedProfile(env));
  if (std::string region = profile.Value("region"); !region.empty()) return region;
  if (imds != nullptr && !imds->disabled()) {
    absl::StatusOr<std::string> region = imds->Get("/latest/meta-data/placement/region");
    if (region.ok() && !region->empty()) return std::string(absl::StripAsciiWhitespace(*region));
  }
  return absl::NotFoundError(
      "region: set AWS_REGION, AWS_DEFAULT_REGION or the profile's region (IMDS had none)");
}

CredentialChain::CredentialChain(HttpTransport& transport, const Environment& env, Clock& clock,
                                 absl::Duration refresh_window)
    : transport_(transport),
      env_(env),
      clock_(clock),
      refresh_window_(refresh_window),
      imds_(transport, env, clock) {}

absl::StatusOr<Credentials> CredentialChain::Get() {
  absl::MutexLock lock(&mu_);
  const absl::Time now = clock_.Now();
  if (cached_.has_value() &&
      (!cached_->expiration.has_value() || now < *cached_->expiration - refresh_window_)) {
    return *cached_;
  }
  ++resolutions_;
  absl::StatusOr<Credentials> fresh = Resolve();
  if (fresh.ok()) {
    cached_ = *fresh;
    return fresh;
  }
  // A failed early refresh keeps using credentials that still work (static stability).
  if (cached_.has_value() && now < *cached_->expiration) return *cached_;
  return fresh.status();
}

int CredentialChain::resolutions() const {
  absl::MutexLock lock(&mu_);
  return resolutions_;
}

absl::StatusOr<Credentials> CredentialChain::Resolve() {
  if (std::optional<Credentials> credentials = FromEnvironment(env_)) return *credentials;
  KP_ASSIGN_OR_RETURN(const SharedProfile profile, LoadSharedProfile(env_));
  if (!profile.Value("aws_access_key_id").empty()) {
    return Credentials{.access_key_id = profile.Value("aws_access_key_id"),
                       .secret_access_key = profile.Value("aws_secret_access_key"),
                       .session_token = profile.Value("aws_session_token"),
                       .source = absl::StrCat("profile ", profile.name)};
  }
  std::string role_arn = env_.GetNonEmpty("AWS_ROLE_ARN").value_or("");
  std::string token_file = env_.GetNonEmpty("AWS_WEB_IDENTITY_TOKEN_FILE").value_or("");
  if (role_arn.empty() || token_file.empty()) {
    role_arn = profile.Value("role_arn");
    token_file = profile.Value("web_identity_token_file");
  }
  if (!role_arn.empty() && !token_file.empty()) {
    absl::StatusOr<std::string> region = ResolveRegion(env_, nullptr);
    return AssumeRoleWithWebIdentity(transport_, env_, role_arn, token_file,
                                     env_.GetNonEmpty("AWS_ROLE_SESSION_NAME").value_or(""),
                                     region.ok() ? *region : "", clock_);
  }
  if (env_.GetNonEmpty("AWS_CONTAINER_CREDENTIALS_FULL_URI") ||
      env_.GetNonEmpty("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI")) {
    return FromContainer(transport_, env_);
  }
  if (!imds_.disabled()) return FromImds(imds_);
  return absl::UnauthenticatedError(
      "credentials: none in the environment, the shared files, web identity, the container "
      "endpoint, and IMDS is disabled");
}

}  // namespace karpenter::aws
