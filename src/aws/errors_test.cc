#include "src/aws/errors.h"

#include "gtest/gtest.h"
#include "src/aws/json.h"

namespace karpenter::aws {
namespace {

TEST(AwsErrors, ReadsEc2XmlErrors) {
  const AwsError error = ParseAwsError(
      {.status = 400,
       .body = "<?xml version=\"1.0\"?><Response><Errors><Error><Code>InvalidInstanceID.NotFound"
               "</Code><Message>The instance ID 'i-1' does not exist</Message></Error></Errors>"
               "<RequestID>req-7</RequestID></Response>"});
  EXPECT_EQ(error.code, "InvalidInstanceID.NotFound");
  EXPECT_EQ(error.message, "The instance ID 'i-1' does not exist");
  EXPECT_EQ(error.request_id, "req-7");
}

TEST(AwsErrors, ReadsIamAndStsXmlErrors) {
  const AwsError error = ParseAwsError(
      {.status = 404,
       .body = "<ErrorResponse xmlns=\"https://iam.amazonaws.com/doc/2010-05-08/\"><Error>"
               "<Type>Sender</Type><Code>NoSuchEntity</Code><Message>gone</Message></Error>"
               "<RequestId>r-2</RequestId></ErrorResponse>"});
  EXPECT_EQ(error.code, "NoSuchEntity");
  EXPECT_EQ(error.request_id, "r-2");
  EXPECT_EQ(ToStatus(error, "GetInstanceProfile").code(), absl::StatusCode::kNotFound);
}

TEST(AwsErrors, ReadsJsonErrorsAndTheErrorTypeHeader) {
  AwsError error = ParseAwsError(
      {.status = 400,
       .body =
           R"({"__type":"com.amazonaws.ssm#ParameterNotFound","message":"no such parameter"})"});
  EXPECT_EQ(error.code, "ParameterNotFound");
  EXPECT_EQ(error.message, "no such parameter");
  error = ParseAwsError({.status = 400,
                         .headers = {{"x-amzn-errortype", "ThrottlingException:http://x/"}},
                         .body = "not json"});
  EXPECT_EQ(error.code, "ThrottlingException");
  error = ParseAwsError({.status = 503, .body = "<html>busy</html>"});
  EXPECT_EQ(error.code, "HTTP503");
  EXPECT_EQ(ClassifyForRetry(error), RetryKind::kTransient);
}

TEST(AwsErrors, ClassifiesLikeUpstream) {
  EXPECT_TRUE(IsNotFoundCode("InvalidLaunchTemplateId.NotFound"));
  EXPECT_TRUE(IsNotFoundCode("QueueDoesNotExist"));
  EXPECT_FALSE(IsNotFoundCode("InvalidParameterValue"));
  EXPECT_TRUE(IsAlreadyExistsCode("EntityAlreadyExists"));
  for (const char* code :
       {"InsufficientInstanceCapacity", "MaxSpotInstanceCountExceeded", "VcpuLimitExceeded",
        "UnfulfillableCapacity", "Unsupported", "InsufficientFreeAddressesInSubnet",
        "MaxFleetCountExceeded", "ReservationCapacityExceeded"}) {
    EXPECT_TRUE(IsUnfulfillableCapacityCode(code)) << code;
    EXPECT_EQ(ToStatus({.http_status = 400, .code = code}, "CreateFleet").code(),
              absl::StatusCode::kResourceExhausted);
  }
  EXPECT_TRUE(IsLaunchTemplateNotFoundCode("InvalidLaunchTemplateName.NotFoundException"));
  EXPECT_TRUE(IsUnauthorizedCode("UnauthorizedOperation"));
  EXPECT_TRUE(IsUnauthorizedCode("AccessDeniedException"));
  EXPECT_TRUE(IsUnauthorizedCode("AuthFailure.ServiceLinkedRoleCreationNotPermitted"));
  EXPECT_TRUE(IsThrottlingCode("RequestLimitExceeded"));
  EXPECT_EQ(ClassifyForRetry({.http_status = 400, .code = "Throttling"}), RetryKind::kThrottle);
  EXPECT_EQ(ClassifyForRetry({.http_status = 400, .code = "InvalidParameterValue"}),
            RetryKind::kNone);
}

TEST(AwsErrors, StatusCarriesTheCode) {
  const absl::Status status = ToStatus(
      {.http_status = 400, .code = "ExpiredToken", .message = "expired"}, "DescribeImages");
  EXPECT_EQ(status.code(), absl::StatusCode::kUnauthenticated);
  EXPECT_EQ(AwsErrorCode(status), "ExpiredToken");
  EXPECT_NE(status.message().find("DescribeImages: ExpiredToken"), absl::string_view::npos);
  EXPECT_EQ(AwsErrorCode(absl::InternalError("x")), std::nullopt);
  EXPECT_EQ(ToStatus({.http_status = 400, .code = "UnauthorizedOperation"}, "x").code(),
            absl::StatusCode::kPermissionDenied);
  EXPECT_EQ(ToStatus({.http_status = 400, .code = "InvalidParameterValue"}, "x").code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ToStatus({.http_status = 500, .code = "InternalError"}, "x").code(),
            absl::StatusCode::kUnavailable);
}

TEST(AwsErrors, LeadingWhitespaceAndLongMessages) {
  const AwsError error =
      ParseAwsError({.status = 400,
                     .body = "\n  <Response><Errors><Error><Code>Unsupported</Code><Message>" +
                             std::string(5000, 'x') + "</Message></Error></Errors></Response>"});
  EXPECT_EQ(error.code, "Unsupported");
  const absl::Status status = ToStatus(error, "CreateFleet");
  EXPECT_LT(status.message().size(), 1200u);
  EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted);
}

TEST(AwsJson, LimitsAndMalformedInput) {
  EXPECT_TRUE(ParseJson(R"({"a":[1,{"b":"[[["}]})").ok());
  EXPECT_EQ(ParseJson("{").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ParseJson(std::string(100, '[') + std::string(100, ']')).status().code(),
            absl::StatusCode::kOutOfRange);
  EXPECT_EQ(ParseJson("[1,2,3]", {.max_bytes = 3}).status().code(), absl::StatusCode::kOutOfRange);
}

}  // namespace
}  // namespace karpenter::aws
