// Fuzzes the AWS provider's JSON answer reader (SSM, SQS, Pricing, the credential endpoints) and
// the JSON side of the error parser. Any crash, sanitizer report or exception is a bug; so is a
// document accepted deeper than the limit, or an error answer without a code.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "src/aws/errors.h"
#include "src/aws/json.h"

namespace {

constexpr karpenter::aws::JsonLimits kLimits{.max_bytes = 1 << 16, .max_depth = 16};

// The nesting depth of a parsed value, without recursion.
int Depth(const nlohmann::json& root) {
  std::vector<std::pair<const nlohmann::json*, int>> stack = {{&root, 1}};
  int deepest = 0;
  while (!stack.empty()) {
    const auto [value, depth] = stack.back();
    stack.pop_back();
    if (!value->is_structured()) continue;
    deepest = std::max(deepest, depth);
    for (const auto& child : *value) stack.emplace_back(&child, depth + 1);
  }
  return deepest;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view body(reinterpret_cast<const char*>(data), size);
  auto json = karpenter::aws::ParseJson(body, kLimits);
  if (json.ok()) {
    if (Depth(*json) > kLimits.max_depth) std::abort();
    (void)karpenter::aws::JsonString(*json, "message");
  }
  const auto error = karpenter::aws::ParseAwsError(
      {.status = 400,
       .headers = {{"x-amzn-errortype", std::string(body.substr(0, 64))}},
       .body = std::string(body)});
  if (error.code.empty()) std::abort();
  return 0;
}
