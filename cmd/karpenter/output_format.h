// kubectl's `-o json|yaml|text|wide` for every command that prints: YAML is the JSON document
// re-written in block style (keys in the JSON's order), so both carry the same fields.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "karpenter/common/status.h"

namespace karpenter::cli {

// The formats `-o` accepts on every printing command.
inline const std::vector<std::string> kOutputFormats = {"json", "yaml", "text", "wide"};

// One JSON document as YAML (ending in a newline); InvalidArgument when `json` does not parse.
absl::StatusOr<std::string> JsonToYaml(std::string_view json);

// Every non-empty line of `json_lines` (one JSON document each) as YAML documents joined by
// "---" lines.
absl::StatusOr<std::string> JsonLinesToYaml(std::string_view json_lines);

}  // namespace karpenter::cli
