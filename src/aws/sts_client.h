// STS GetCallerIdentity: which account and principal the resolved credentials belong to (the
// controller logs it at start, and `plan --cloud aws` reports it).
#pragma once

#include <string>

#include "absl/status/statusor.h"
#include "src/aws/aws_client.h"

namespace karpenter::aws {

struct CallerIdentity {
  std::string account;
  std::string arn;
  std::string user_id;
};

class StsClient {
 public:
  explicit StsClient(AwsClient& client) : client_(client) {}
  absl::StatusOr<CallerIdentity> GetCallerIdentity();

 private:
  AwsClient& client_;
};

}  // namespace karpenter::aws
