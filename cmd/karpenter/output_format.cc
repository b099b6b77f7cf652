#include "cmd/karpenter/output_format.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "nlohmann/json.hpp"

namespace karpenter::cli {
namespace {

using Json = nlohmann::ordered_json;

// Plain YAML scalars that another type could be read from are quoted (kubectl does the same).
bool NeedsQuotes(const std::string& text) {
  if (text.empty()) return true;
  static const char* const kReserved[] = {"true", "false", "null", "yes",   "no",   "on",
                                          "off",  "y",     "n",    "~",     "True", "False",
                                          "Null", "NULL",  "TRUE", "FALSE", "Yes",  "No"};
  for (const char* reserved : kReserved) {
    if (text == reserved) return true;
  }
  const char first = text.front();
  if ((first >= '0' && first <= '9') || first == '-' || first == '+' || first == '.') return true;
  for (const char c : text) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '-' || c == '_' || c == '.' || c == '/';
    if (!plain) return true;
  }
  return false;
}

std::string Scalar(const Json& value) {
  if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    return NeedsQuotes(text) ? Json(text).dump() : text;  // a JSON string is a YAML one too
  }
  return value.dump();
}

bool IsEmptyCollection(const Json& value) {
  return (value.is_object() || value.is_array()) && value.empty();
}

void Emit(const Json& value, size_t indent, std::string& out);

std::string Inline(const Json& value) {
  if (IsEmptyCollection(value)) return value.is_object() ? "{}" : "[]";
  return Scalar(value);
}

// A mapping's value after "key:", in kubectl's layout: a sequence at the key's own indent, a
// mapping two deeper, anything else on the same line.
void EmitAfterKey(const Json& value, size_t indent, std::string& out) {
  if (!value.is_structured() || IsEmptyCollection(value)) {
    out += " " + Inline(value) + "\n";
    return;
  }
  out += "\n";
  Emit(value, value.is_array() ? indent : indent + 2, out);
}

// `value` as a block whose lines start at column `indent`.
void Emit(const Json& value, size_t indent, std::string& out) {
  const std::string pad(indent, ' ');
  if (value.is_object()) {
    for (auto it = value.begin(); it != value.end(); ++it) {
      out += pad + (NeedsQuotes(it.key()) ? Json(it.key()).dump() : it.key()) + ":";
      EmitAfterKey(it.value(), indent, out);
    }
    return;
  }
  for (const Json& item : value) {
    if (!item.is_structured() || IsEmptyCollection(item)) {
      out += pad + "- " + Inline(item) + "\n";
      continue;
    }
    // The item's first line follows the dash: "- key: value", then its other keys below it.
    std::string block;
    Emit(item, indent + 2, block);
    out += pad + "- " + block.substr(indent + 2);
  }
}

}  // namespace

absl::StatusOr<std::string> JsonToYaml(std::string_view json) {
  const Json document = Json::parse(std::string(json), nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded()) {
    return absl::InvalidArgumentError("the output is not one JSON document");
  }
  std::string out;
  if (!document.is_structured() || IsEmptyCollection(document)) return Inline(document) + "\n";
  Emit(document, 0, out);
  return out;
}

absl::StatusOr<std::string> JsonLinesToYaml(std::string_view json_lines) {
  std::string out;
  // Debian's Abseil has a string_view of its own: split a std::string.
  const std::string text(json_lines);
  for (const std::string& line :
       std::vector<std::string>(absl::StrSplit(text, '\n', absl::SkipWhitespace()))) {
    KP_ASSIGN_OR_RETURN(std::string yaml, JsonToYaml(line));
    if (!out.empty()) out += "---\n";
    out += yaml;
  }
  return out;
}

}  // namespace karpenter::cli
