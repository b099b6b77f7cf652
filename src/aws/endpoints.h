// Where each AWS service is reached and under which SigV4 scope, with the SDKs' endpoint
// overrides: AWS_ENDPOINT_URL_<SERVICE> first, then AWS_ENDPOINT_URL (both ignored when
// AWS_IGNORE_CONFIGURED_ENDPOINT_URLS is true). The tests point every service at moto this way.
#pragma once

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "src/aws/environment.h"
#include "src/aws/sigv4.h"

namespace karpenter::aws {

struct ServiceId {
  std::string env_suffix;       // AWS_ENDPOINT_URL_<env_suffix>: "EC2", "SSM", "STS"
  std::string signing_name;     // SigV4 service: "ec2"
  std::string endpoint_prefix;  // host prefix: "ec2" -> ec2.<region>.amazonaws.com
  // A global service (IAM) lives at <prefix>.amazonaws.com and signs for us-east-1.
  bool global = false;
};

const ServiceId& Ec2Service();
const ServiceId& StsService();
const ServiceId& SsmService();
const ServiceId& SqsService();
const ServiceId& IamService();
const ServiceId& PricingService();
const ServiceId& EksService();

struct ServiceEndpoint {
  std::string url;  // scheme://host[:port][/base], no trailing '/'
  SigningScope scope;
};

// kInvalidArgument for an empty region or an override that is not an http(s) URL.
absl::StatusOr<ServiceEndpoint> ResolveEndpoint(const Environment& env, const ServiceId& service,
                                                std::string_view region);

}  // namespace karpenter::aws
