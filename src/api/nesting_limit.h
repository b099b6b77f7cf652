// The nesting limit of manifest input, and the check of JSON text against it before any parser
// sees it. The readers recurse once per level (our manifest reader, yaml-cpp, simdjson's DOM),
// so an input of 40,000 nested `[` would overflow the stack; Kubernetes' own decoders stop at
// 10,000 levels. Ours stop at kMaxNestingDepth, below yaml-cpp's own guard (which only says
// "bad file") so that YAML and JSON input get the same limit and the same message.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "karpenter/common/status.h"

namespace karpenter::api {

// Manifests nest a few dozen levels; a Pod's deepest field is about 15 levels down.
inline constexpr int kMaxNestingDepth = 256;

// One step of the path to a value: a mapping key, or a list index when `key` is unset.
struct NestingStep {
  bool is_index = false;
  std::string key;
  size_t index = 0;
};

// "line L, column C: nested deeper than 256 levels at items[0].spec[0][0]...[0] (257 levels)":
// the path keeps its first and last steps so that a path thousands of steps long stays one line.
absl::Status NestingTooDeep(int line, int column, const std::vector<NestingStep>& path);

// OK unless a `[` or `{` of `json` opens a level deeper than kMaxNestingDepth, or anything but
// white space follows the first top-level value (kubectl's JSON reader takes one value; a second
// object was silently dropped). Strings are skipped, and other syntax errors are left to the
// parser.
absl::Status CheckJsonText(std::string_view json);

}  // namespace karpenter::api
