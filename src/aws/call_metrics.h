// Upstream: the aws-sdk-go-v2 Prometheus middleware Karpenter's AWS provider installs
// (jonathan-innis/aws-sdk-go-prometheus, through the SDK's metric middlewares). Every AWS call is
// reported once it is over, with each attempt it took, to an optional observer; `MetricsObserver`
// turns the reports into upstream's series, labelled service (the SDK's service ID: "EC2",
// "SSM", ...), action (the operation: "CreateFleet") and code (the HTTP status; 0 when no answer
// came):
//   - aws_sdk_go_request_total and aws_sdk_go_request_duration_seconds per call,
//   - aws_sdk_go_request_retry_count: the attempts after the first,
//   - aws_sdk_go_request_attempt_total and aws_sdk_go_request_attempt_duration_seconds per attempt
//     (the total by the attempt's own code, the duration by the call's, as the middleware does).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "karpenter/metrics.h"

namespace karpenter::aws {

struct CallAttempt {
  int status = 0;  // HTTP status; 0 when the attempt got no answer
  double seconds = 0;
};

struct CallRecord {
  std::string service;  // "EC2"
  std::string action;   // "CreateFleet"
  int status = 0;       // the last attempt's
  double seconds = 0;   // the whole call, backoff between attempts included
  std::vector<CallAttempt> attempts;
};

using CallObserver = std::function<void(const CallRecord&)>;

// The SDK's service ID for a SigV4 signing name: "ec2" → "EC2", "pricing" → "Pricing".
std::string SdkServiceId(std::string_view signing_name);

// The operation of a query action ("CreateFleet") or a JSON target ("AmazonSSM.GetParameter").
std::string ActionOf(std::string_view operation);

// Writes each call to `metrics`, which must outlive the observer; safe from any thread when
// `metrics` is.
CallObserver MetricsObserver(Metrics& metrics);

}  // namespace karpenter::aws
