// SSM GetParameter over the JSON 1.1 protocol: how AMI aliases resolve (the EKS-optimized AMI
// parameters under /aws/service/...).
#pragma once

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "src/aws/aws_client.h"

namespace karpenter::aws {

struct Parameter {
  std::string name;
  std::string type;
  std::string value;
  int64_t version = 0;
};

class SsmClient {
 public:
  explicit SsmClient(AwsClient& client) : client_(client) {}
  // kNotFound (code ParameterNotFound) when the parameter does not exist.
  absl::StatusOr<Parameter> GetParameter(const std::string& name);

 private:
  AwsClient& client_;
};

}  // namespace karpenter::aws
