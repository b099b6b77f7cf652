// IAM instance profiles over the query protocol: the provider creates one per EC2NodeClass `role`
// (upstream's naming, path and tags are the caller's business) and deletes it with the class.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "src/aws/aws_client.h"

namespace karpenter::aws {

struct InstanceProfile {
  std::string name;
  std::string id;
  std::string arn;
  std::string path;
  std::vector<std::string> roles;
  std::map<std::string, std::string> tags;
};

class IamClient {
 public:
  static constexpr char kApiVersion[] = "2010-05-08";

  explicit IamClient(AwsClient& client) : client_(client) {}

  // kAlreadyExists (EntityAlreadyExists) when the name is taken.
  absl::StatusOr<InstanceProfile> CreateInstanceProfile(
      const std::string& name, const std::string& path,
      const std::map<std::string, std::string>& tags);
  // kNotFound (NoSuchEntity) when there is none.
  absl::StatusOr<InstanceProfile> GetInstanceProfile(const std::string& name);
  // Every profile whose path starts with `path_prefix`, all pages.
  absl::StatusOr<std::vector<InstanceProfile>> ListInstanceProfiles(const std::string& path_prefix);
  absl::Status AddRoleToInstanceProfile(const std::string& profile, const std::string& role);
  absl::Status RemoveRoleFromInstanceProfile(const std::string& profile, const std::string& role);
  absl::Status TagInstanceProfile(const std::string& profile,
                                  const std::map<std::string, std::string>& tags);
  absl::Status DeleteInstanceProfile(const std::string& name);

 private:
  AwsClient& client_;
};

}  // namespace karpenter::aws
