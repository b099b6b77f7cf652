// Splits a `kind: List` JSON document (what `kubectl get -o json` prints) into the byte ranges
// of its items without indexing the whole document, so each item can be parsed on its own and
// memory stays near the input size for lists of tens of thousands of objects.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace karpenter::api {

struct JsonListSplit {
  std::vector<std::string_view> items;         // each a complete JSON value, in order
  std::vector<std::string_view> other_values;  // the list's other member values (metadata, ...)
};

// Returns the split when `json` is one object whose "kind" ends in "List" and which has an
// "items" array; nullopt otherwise (including malformed nesting or unterminated strings, which
// callers then report through the full parser). Items are not validated here.
std::optional<JsonListSplit> SplitJsonList(std::string_view json);

}  // namespace karpenter::api
