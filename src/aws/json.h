// A bounded reader for the JSON answers of the JSON-protocol services (SSM, SQS, Pricing) and the
// credential endpoints: size and nesting depth are checked before nlohmann parses (its parser
// recurses, so depth is what keeps a hostile body from exhausting the stack), and parsing never
// throws.
#pragma once

#include <cstddef>
#include <string_view>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"

namespace karpenter::aws {

struct JsonLimits {
  size_t max_bytes = size_t{64} << 20;
  int max_depth = 64;
};

// kInvalidArgument for malformed JSON, kOutOfRange when a limit is exceeded.
absl::StatusOr<nlohmann::json> ParseJson(std::string_view text, const JsonLimits& limits = {});

// The object at `key` of an object, or an empty object when absent or not an object (nlohmann's
// value() throws on type mismatches, which this never does).
const nlohmann::json& JsonObject(const nlohmann::json& object, std::string_view key);

// The string at `key` of an object, or "" when absent or not a string.
std::string JsonString(const nlohmann::json& object, std::string_view key);

}  // namespace karpenter::aws
