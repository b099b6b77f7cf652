#include "src/aws/errors.h"

#include <algorithm>
#include <initializer_list>

#include "absl/strings/cord.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "src/aws/absl_view.h"
#include "src/aws/json.h"
#include "src/aws/xml.h"

namespace karpenter::aws {
namespace {

constexpr char kCodePayload[] = "type.karpenter.sh/aws.ErrorCode";
// Error bodies are short; a long one is not worth parsing.
constexpr size_t kMaxErrorBody = size_t{256} << 10;
constexpr size_t kMaxMessageBytes = 1024;

bool OneOf(std::string_view code, std::initializer_list<std::string_view> codes) {
  return std::find(codes.begin(), codes.end(), code) != codes.end();
}

// JSON services name the shape as "com.amazon.ssm#ParameterNotFound" or "ParameterNotFound:url".
std::string ShapeName(std::string_view type) {
  if (const size_t hash = type.rfind('#'); hash != std::string_view::npos) {
    type = type.substr(hash + 1);
  }
  if (const size_t colon = type.find(':'); colon != std::string_view::npos) {
    type = type.substr(0, colon);
  }
  return std::string(type);
}

bool ReadXmlError(std::string_view body, AwsError& error) {
  absl::StatusOr<XmlDocument> doc = XmlDocument::Parse(body, {.max_bytes = kMaxErrorBody});
  if (!doc.ok()) return false;
  const XmlNode root = doc->Root();
  XmlNode node = root.Path({"Errors", "Error"});  // EC2
  if (node.empty()) node = root.Child("Error");   // IAM, STS, SQS
  if (node.empty() && root.Name() == "Error") node = root;
  if (node.empty()) return false;
  error.code = node.ChildText("Code");
  error.message = node.ChildText("Message");
  error.request_id = root.ChildText("RequestID");
  if (error.request_id.empty()) error.request_id = root.ChildText("RequestId");
  return !error.code.empty();
}

bool ReadJsonError(std::string_view body, AwsError& error) {
  absl::StatusOr<nlohmann::json> json = ParseJson(body, {.max_bytes = kMaxErrorBody});
  if (!json.ok() || !json->is_object()) return false;
  std::string type = JsonString(*json, "__type");
  if (type.empty()) type = JsonString(*json, "code");
  if (type.empty()) type = JsonString(*json, "Code");
  error.code = ShapeName(type);
  error.message = JsonString(*json, "message");
  if (error.message.empty()) error.message = JsonString(*json, "Message");
  return !error.code.empty();
}

}  // namespace

AwsError ParseAwsError(const HttpResponse& response) {
  AwsError error{.http_status = response.status};
  error.request_id = std::string(response.Header("x-amzn-requestid"));
  std::string_view body = response.body;
  const size_t start = body.find_first_not_of(" \t\r\n");
  body = start == std::string_view::npos ? std::string_view() : body.substr(start);
  const bool parsed =
      body.starts_with("<") ? ReadXmlError(body, error) : ReadJsonError(body, error);
  if (!parsed) {
    const std::string header = ShapeName(response.Header("x-amzn-errortype"));
    error.code = header.empty() ? absl::StrCat("HTTP", response.status) : header;
  }
  if (error.request_id.empty()) error.request_id = std::string(response.Header("x-amz-request-id"));
  return error;
}

bool IsNotFoundCode(std::string_view code) {
  return OneOf(code,
               {"InvalidCapacityReservationId.NotFound", "InvalidInstanceID.NotFound",
                "InvalidLaunchTemplateName.NotFoundException", "InvalidLaunchTemplateId.NotFound",
                "QueueDoesNotExist", "AWS.SimpleQueueService.NonExistentQueue", "NoSuchEntity",
                "ParameterNotFound", "ResourceNotFoundException"});
}

bool IsAlreadyExistsCode(std::string_view code) { return code == "EntityAlreadyExists"; }

bool IsUnfulfillableCapacityCode(std::string_view code) {
  return OneOf(code,
               {"InsufficientInstanceCapacity", "MaxSpotInstanceCountExceeded", "VcpuLimitExceeded",
                "UnfulfillableCapacity", "Unsupported", "InsufficientFreeAddressesInSubnet",
                "MaxFleetCountExceeded", "ReservationCapacityExceeded"});
}

bool IsLaunchTemplateNotFoundCode(std::string_view code) {
  return code == "InvalidLaunchTemplateName.NotFoundException";
}

LaunchFailure ClassifyLaunchFailure(std::string_view error_text) {
  auto has = [&](std::string_view needle) {
    return absl::StrContains(AbslView(error_text), AbslView(needle));
  };
  // Checked in upstream's order: the first match names the failure, so the specific
  // authorization cases come before the general one, and capacity errors fall through to the
  // generic reason.
  if (has("AuthFailure.ServiceLinkedRoleCreationNotPermitted")) {
    return {"SpotSLRCreationFailed",
            "not permitted to create the service-linked role spot instances need"};
  }
  if (has("UnauthorizedOperation") || has("AccessDenied") || has("AuthFailure")) {
    if (has("with an explicit deny in a permissions boundary")) {
      return {"Unauthorized", "a permissions boundary denies the launch"};
    }
    if (has("with an explicit deny in a service control policy")) {
      return {"Unauthorized", "a service control policy denies the launch"};
    }
    if (has("Not authorized for images")) {
      return {"AMIAuthorizationFailure", "not authorized to launch the AMI"};
    }
    return {"Unauthorized", "no identity-based policy allows the launch"};
  }
  if (has("InvalidParameter") && has("belong to different networks")) {
    return {"SecurityGroupSubnetVPCMismatch", "security groups and subnets are in different VPCs"};
  }
  struct Known {
    std::string_view needle;
    std::string_view reason;
    std::string_view message;
  };
  static constexpr Known kKnown[] = {
      {"iamInstanceProfile.name is invalid", "InstanceProfileNameInvalid",
       "the instance profile in the EC2NodeClass status does not exist"},
      {"InvalidLaunchTemplateId.NotFound", "LaunchTemplateNotFound",
       "the launch template of the launch was not found"},
      {"User data is limited to", "UserDataSizeLimitExceeded",
       "the user data is larger than EC2 accepts"},
      {"InvalidAMIID.Malformed", "InvalidAMIID", "the AMI id of the launch is malformed"},
      {"InvalidAMIID.NotFound", "AMINotFound", "the AMI does not exist or is not shared with you"},
      {"RequestLimitExceeded", "RequestLimitExceeded", "EC2's request limit was exceeded"},
      {"InternalError", "InternalError", "EC2 answered with an internal error"},
      {"not eligible for Free Tier", "FreeTierIneligible",
       "the instance type is not eligible for the Free Tier"},
      {"MaxFleetCountExceeded", "FleetQuotaExceeded", "the fleet request quota would be exceeded"},
      {"PendingVerification", "AccountPendingVerification",
       "launches in this region are still being verified for the account"},
      {"MaxSpotInstanceCountExceeded", "SpotQuotaExceeded",
       "the spot instance quota would be exceeded"},
      {"VcpuLimitExceeded", "VCPULimitExceeded", "the vCPU quota would be exceeded"},
      {"InsufficientFreeAddressesInSubnet", "InsufficientFreeAddressesInSubnet",
       "the subnet has too few free IP addresses"},
  };
  for (const Known& known : kKnown) {
    if (has(known.needle)) return {std::string(known.reason), std::string(known.message)};
  }
  return {"LaunchFailed", "the instance launch failed"};
}

bool IsUnauthorizedCode(std::string_view code) {
  return code == "UnauthorizedOperation" || absl::StartsWith(AbslView(code), "AccessDenied") ||
         absl::StartsWith(AbslView(code), "AuthFailure");
}

bool IsCredentialCode(std::string_view code) {
  return OneOf(code, {"ExpiredToken", "ExpiredTokenException", "InvalidClientTokenId",
                      "UnrecognizedClientException", "SignatureDoesNotMatch", "RequestExpired",
                      "InvalidAccessKeyId", "IncompleteSignature", "MissingAuthenticationToken"});
}

bool IsThrottlingCode(std::string_view code) {
  return OneOf(
      code, {"Throttling", "ThrottlingException", "ThrottledException", "RequestThrottledException",
             "TooManyRequestsException", "ProvisionedThroughputExceededException",
             "TransactionInProgressException", "RequestLimitExceeded", "BandwidthLimitExceeded",
             "LimitExceededException", "RequestThrottled", "SlowDown", "PriorRequestNotComplete",
             "EC2ThrottledException"});
}

RetryKind ClassifyForRetry(const AwsError& error) {
  if (IsThrottlingCode(error.code)) return RetryKind::kThrottle;
  if (OneOf(error.code, {"RequestTimeout", "RequestTimeoutException", "InternalError",
                         "InternalFailure", "ServiceUnavailable"})) {
    return RetryKind::kTransient;
  }
  const int status = error.http_status;
  if (status == 500 || status == 502 || status == 503 || status == 504)
    return RetryKind::kTransient;
  return RetryKind::kNone;
}

absl::Status ToStatus(const AwsError& error, std::string_view operation) {
  // The service's text is untrusted and ends up in logs and conditions: keep it short.
  const absl::string_view text = absl::string_view(error.message).substr(0, kMaxMessageBytes);
  const std::string message = absl::StrCat(
      AbslView(operation), ": ", error.code, " (HTTP ", error.http_status, ")",
      text.empty() ? "" : ": ", text,
      error.request_id.empty() ? "" : absl::StrCat(" [request ", error.request_id, "]"));
  absl::Status status;
  if (IsNotFoundCode(error.code)) {
    status = absl::NotFoundError(message);
  } else if (IsAlreadyExistsCode(error.code)) {
    status = absl::AlreadyExistsError(message);
  } else if (IsUnfulfillableCapacityCode(error.code)) {
    status = absl::ResourceExhaustedError(message);
  } else if (IsUnauthorizedCode(error.code)) {
    status = absl::PermissionDeniedError(message);
  } else if (IsCredentialCode(error.code)) {
    status = absl::UnauthenticatedError(message);
  } else if (ClassifyForRetry(error) != RetryKind::kNone) {
    status = absl::UnavailableError(message);
  } else if (error.http_status >= 400 && error.http_status < 500) {
    status = absl::InvalidArgumentError(message);
  } else {
    status = absl::InternalError(message);
  }
  status.SetPayload(kCodePayload, absl::Cord(error.code));
  return status;
}

std::optional<std::string> AwsErrorCode(const absl::Status& status) {
  const auto payload = status.GetPayload(kCodePayload);
  if (!payload.has_value()) return std::nullopt;
  return std::string(*payload);
}

}  // namespace karpenter::aws
