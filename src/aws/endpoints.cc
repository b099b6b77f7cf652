#include "src/aws/endpoints.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "src/aws/absl_view.h"
#include "src/aws/url.h"

namespace karpenter::aws {

const ServiceId& Ec2Service() {
  static const ServiceId kId{.env_suffix = "EC2", .signing_name = "ec2", .endpoint_prefix = "ec2"};
  return kId;
}
const ServiceId& StsService() {
  static const ServiceId kId{.env_suffix = "STS", .signing_name = "sts", .endpoint_prefix = "sts"};
  return kId;
}
const ServiceId& SsmService() {
  static const ServiceId kId{.env_suffix = "SSM", .signing_name = "ssm", .endpoint_prefix = "ssm"};
  return kId;
}
const ServiceId& SqsService() {
  static const ServiceId kId{.env_suffix = "SQS", .signing_name = "sqs", .endpoint_prefix = "sqs"};
  return kId;
}
const ServiceId& IamService() {
  static const ServiceId kId{
      .env_suffix = "IAM", .signing_name = "iam", .endpoint_prefix = "iam", .global = true};
  return kId;
}
const ServiceId& EksService() {
  static const ServiceId kId{.env_suffix = "EKS", .signing_name = "eks", .endpoint_prefix = "eks"};
  return kId;
}
const ServiceId& PricingService() {
  static const ServiceId kId{
      .env_suffix = "PRICING", .signing_name = "pricing", .endpoint_prefix = "api.pricing"};
  return kId;
}

absl::StatusOr<ServiceEndpoint> ResolveEndpoint(const Environment& env, const ServiceId& service,
                                                std::string_view region) {
  if (region.empty()) return absl::InvalidArgumentError("endpoint: no region configured");
  ServiceEndpoint out;
  out.scope = {.region = service.global ? "us-east-1" : std::string(region),
               .service = service.signing_name};
  std::optional<std::string> override_url;
  const std::optional<std::string> ignore = env.Get("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS");
  if (!ignore.has_value() || absl::AsciiStrToLower(*ignore) != "true") {
    override_url = env.GetNonEmpty(absl::StrCat("AWS_ENDPOINT_URL_", service.env_suffix));
    if (!override_url.has_value()) override_url = env.GetNonEmpty("AWS_ENDPOINT_URL");
  }
  if (!override_url.has_value()) {
    out.url = service.global ? absl::StrCat("https://", service.endpoint_prefix, ".amazonaws.com")
                             : absl::StrCat("https://", service.endpoint_prefix, ".",
                                            AbslView(region), ".amazonaws.com");
    return out;
  }
  absl::StatusOr<Url> parsed = ParseUrl(*override_url);
  if (!parsed.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("endpoint override for ", service.env_suffix,
                                                   ": ", parsed.status().message()));
  }
  out.url = *override_url;
  while (out.url.ends_with('/')) out.url.pop_back();
  return out;
}

}  // namespace karpenter::aws
