// Requests of the AWS query protocol (EC2, STS, IAM, SQS's older form): `Action`, `Version` and
// parameters flattened into `Name.N.Member` keys, sent as an application/x-www-form-urlencoded
// body.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "src/aws/url.h"

namespace karpenter::aws {

// An EC2 `Filter.N` entry: `Filter.N.Name` and `Filter.N.Value.M`.
struct Filter {
  std::string name;
  std::vector<std::string> values;
};

class QueryRequest {
 public:
  QueryRequest(std::string action, std::string version);

  QueryRequest& Set(std::string key, std::string value);
  // `prefix.1`, `prefix.2`, ... one per value (EC2's lists, e.g. `InstanceId.1`). Lists of other
  // query services use `prefix.member.N`: pass "Name.member" as the prefix.
  QueryRequest& SetList(std::string_view prefix, const std::vector<std::string>& values);
  // `Filter.N.Name` and `Filter.N.Value.M`, numbered from 1 in the given order.
  QueryRequest& SetFilters(const std::vector<Filter>& filters);

  const std::string& action() const { return action_; }
  const QueryPairs& params() const { return params_; }
  // The form body: every key and value percent-encoded, in insertion order.
  std::string Encode() const { return EncodeQuery(params_); }

 private:
  std::string action_;
  QueryPairs params_;
};

}  // namespace karpenter::aws
