// YAML → JSON conversion with the typing rules Kubernetes' YAML reader (sigs.k8s.io/yaml over
// go-yaml v2, i.e. YAML 1.1 scalars) applies: unquoted true/false/yes/no/on/off/y/n are
// booleans, ~/null/empty are null, decimal/hex/octal integers and floats are numbers, and
// everything quoted is a string. The typed decoder then works on JSON only.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "karpenter/common/status.h"

namespace karpenter::api {

struct JsonDocument {
  std::string json;
  int line = 0;  // 1-based line where the YAML document starts
};

// Splits a multi-document stream (`---`) and converts each non-empty document. A syntax error
// is InvalidArgument with "line N, column M: ..." (1-based).
absl::StatusOr<std::vector<JsonDocument>> YamlToJson(std::string_view yaml);

// The same, handing each document to `use` as soon as it is converted: only one document's YAML
// tree and JSON text are alive at a time. Stops at the first error, `use`'s included.
absl::Status ForEachYamlDocumentAsJson(std::string_view yaml,
                                       const std::function<absl::Status(JsonDocument&)>& use);

// The JSON text for one unquoted YAML 1.1 scalar: `true`, `null`, `42`, `1.5`, or a string.
std::string PlainScalarToJson(std::string_view scalar);

}  // namespace karpenter::api
