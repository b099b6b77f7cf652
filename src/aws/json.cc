#include "src/aws/json.h"

#include "absl/strings/str_cat.h"

namespace karpenter::aws {
namespace {

// The deepest nesting of `[`/`{` outside strings; stops counting once `limit` is passed.
int NestingDepth(std::string_view text, int limit) {
  int depth = 0;
  int deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
      if (deepest > limit) return deepest;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

}  // namespace

absl::StatusOr<nlohmann::json> ParseJson(std::string_view text, const JsonLimits& limits) {
  if (text.size() > limits.max_bytes) {
    return absl::OutOfRangeError(
        absl::StrCat("JSON: ", text.size(), " bytes exceed the limit of ", limits.max_bytes));
  }
  if (NestingDepth(text, limits.max_depth) > limits.max_depth) {
    return absl::OutOfRangeError(absl::StrCat("JSON: nested deeper than ", limits.max_depth));
  }
  nlohmann::json out = nlohmann::json::parse(text.begin(), text.end(), nullptr,
                                             /*allow_exceptions=*/false);
  if (out.is_discarded()) return absl::InvalidArgumentError("JSON: malformed document");
  return out;
}

const nlohmann::json& JsonObject(const nlohmann::json& object, std::string_view key) {
  static const nlohmann::json* const kEmpty = new nlohmann::json(nlohmann::json::object());
  if (!object.is_object()) return *kEmpty;
  auto it = object.find(key);
  if (it == object.end() || !it->is_object()) return *kEmpty;
  return *it;
}

std::string JsonString(const nlohmann::json& object, std::string_view key) {
  if (!object.is_object()) return {};
  auto it = object.find(key);
  if (it == object.end() || !it->is_string()) return {};
  return it->get<std::string>();
}

}  // namespace karpenter::aws
