// Finding bytes that are not UTF-8 in text read from the outside world (YAML files, scenarios),
// so they are refused where they are read instead of reaching a report or a Kubernetes object.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "absl/status/status.h"

namespace karpenter::api {

// The offset of the first byte that does not begin or continue a well-formed UTF-8 sequence
// (overlong forms, surrogates and code points past U+10FFFF included), or nullopt.
std::optional<size_t> FindInvalidUtf8(std::string_view text);

// OK, or InvalidArgument "line L, column C: invalid UTF-8 (byte 0xNN)" (1-based, in bytes).
absl::Status CheckUtf8(std::string_view text);

}  // namespace karpenter::api
