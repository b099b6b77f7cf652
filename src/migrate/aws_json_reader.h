// Reading what the AWS CLI prints (`aws eks describe-nodegroup`, `aws ec2 describe-subnets`):
// the whole file under a size and nesting limit, then typed fields with every problem collected
// as "SOURCE: Field.Path: why", so one run names all of them.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "karpenter/common/status.h"
#include "nlohmann/json.hpp"

namespace karpenter::migrate {

// An AWS CLI describe output of a large account is a few MiB; more is not such an output.
inline constexpr int64_t kMaxAwsInputBytes = 32 << 20;

// The parsed JSON of `text`, after the size and nesting checks; InvalidArgument naming `source`.
absl::StatusOr<nlohmann::json> ParseAwsJson(std::string_view text, std::string_view source);
// The text of a file ("-" is standard input); InvalidArgument naming the path.
absl::StatusOr<std::string> ReadAwsInputFile(const std::string& path);

// Typed access to fields; a wrong type records an error and yields the empty value. A missing
// field is empty unless the accessor says it is required; a required string must not be empty.
class AwsFieldReader {
 public:
  explicit AwsFieldReader(std::string source) : source_(std::move(source)) {}

  void Error(const std::string& path, std::string_view why);
  std::string String(const nlohmann::json& parent, const std::string& key, const std::string& path,
                     bool required = false);
  int64_t Count(const nlohmann::json& parent, const std::string& key, const std::string& path,
                int64_t max);
  std::vector<std::string> Strings(const nlohmann::json& parent, const std::string& key,
                                   const std::string& path);
  std::map<std::string, std::string> StringMap(const nlohmann::json& parent, const std::string& key,
                                               const std::string& path);
  // The list at `key` (empty when missing), each item required to be an object.
  std::vector<const nlohmann::json*> Objects(const nlohmann::json& parent, const std::string& key,
                                             const std::string& path);
  // OK, or every error joined one per line.
  absl::Status Result() const;

 private:
  std::string source_;
  std::vector<std::string> errors_;
};

}  // namespace karpenter::migrate
