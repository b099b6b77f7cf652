// AWS error answers: parsed from query-protocol XML or JSON-protocol bodies, classified with the
// code lists of upstream Karpenter's aws provider (pkg/errors) and of the SDKs' standard retry
// mode, and carried through `absl::Status` with the AWS code attached as a payload.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "src/aws/http.h"

namespace karpenter::aws {

struct AwsError {
  int http_status = 0;
  std::string code;  // "InvalidInstanceID.NotFound"; the HTTP status text when the body has none
  std::string message;
  std::string request_id;
};

// Reads the error out of a non-2xx answer, whatever its protocol: EC2's
// `<Response><Errors><Error>`, IAM/STS/SQS's `<ErrorResponse><Error>`, JSON's `__type`/`code` plus
// `message`, or the `x-amzn-ErrorType` header. Never fails: an unreadable body leaves the code
// derived from the HTTP status.
AwsError ParseAwsError(const HttpResponse& response);

// Upstream's sets (pkg/errors): "not found" answers callers may treat as gone.
bool IsNotFoundCode(std::string_view code);
bool IsAlreadyExistsCode(std::string_view code);
// Insufficient capacity and the quota errors that mean an offering cannot be launched now.
bool IsUnfulfillableCapacityCode(std::string_view code);
bool IsLaunchTemplateNotFoundCode(std::string_view code);
// Authorization failures (UnauthorizedOperation, AccessDenied*, AuthFailure*).
bool IsUnauthorizedCode(std::string_view code);
// Credentials that are wrong or expired: worth refreshing them, not retrying as they are.
bool IsCredentialCode(std::string_view code);
// The SDKs' throttling codes.
bool IsThrottlingCode(std::string_view code);

// Upstream's reason for a failed launch (pkg/errors ToReasonMessage): the CreateError reason and
// the `reason` label of karpenter_cloudprovider_instance_launch_failures_total, with a sentence
// for people. `error_text` is "Code: message" as EC2 answered.
struct LaunchFailure {
  std::string reason;  // "Unauthorized", "VCPULimitExceeded", ...; "LaunchFailed" otherwise
  std::string message;
};
LaunchFailure ClassifyLaunchFailure(std::string_view error_text);

enum class RetryKind { kNone, kThrottle, kTransient };
// Whether an error answer is worth another attempt: throttling codes, the SDKs' transient codes,
// and HTTP 500/502/503/504.
RetryKind ClassifyForRetry(const AwsError& error);

// The error as a Status for `operation`: kNotFound, kAlreadyExists, kResourceExhausted (capacity),
// kPermissionDenied, kUnauthenticated, kUnavailable (throttling, 5xx), kInvalidArgument (other
// 4xx) or kInternal; the AWS code is attached (`AwsErrorCode`).
absl::Status ToStatus(const AwsError& error, std::string_view operation);

// The AWS error code a Status from `ToStatus` carries, if any.
std::optional<std::string> AwsErrorCode(const absl::Status& status);

}  // namespace karpenter::aws
