#include "src/api/yaml_to_json.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "fmt/format.h"
#include "karpenter/common/status.h"
#include "simdjson.h"
#include "src/api/json_writer.h"
#include "src/api/nesting_limit.h"
#include "src/api/utf8.h"
#include "src/api/yaml_document_scan.h"
#include "src/api/yaml_hang_guard.h"
#include "yaml-cpp/yaml.h"

namespace karpenter::api {
namespace {

bool IsOneOf(std::string_view s, std::initializer_list<std::string_view> options) {
  for (std::string_view o : options) {
    if (s == o) return true;
  }
  return false;
}

bool AllDigits(std::string_view s, int base) {
  if (s.empty()) return false;
  for (char c : s) {
    if (c == '_') continue;
    bool ok = base == 16 ? std::isxdigit(static_cast<unsigned char>(c)) != 0
                         : (c >= '0' && c < static_cast<char>('0' + base));
    if (!ok) return false;
  }
  return true;
}

std::string WithoutUnderscores(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c != '_') out += c;
  }
  return out;
}

// Integer forms of YAML 1.1: [-+]?0b..., [-+]?0..., [-+]?0x..., [-+]?[1-9][0-9_]*.
bool IntegerToJson(std::string_view s, std::string& out) {
  std::string_view body = s;
  bool negative = false;
  if (!body.empty() && (body[0] == '-' || body[0] == '+')) {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  int base = 10;
  if (body.size() > 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X')) {
    base = 16;
    body.remove_prefix(2);
  } else if (body.size() > 2 && body[0] == '0' && (body[1] == 'b' || body[1] == 'B')) {
    base = 2;
    body.remove_prefix(2);
  } else if (body.size() > 1 && body[0] == '0') {
    base = 8;
    body.remove_prefix(1);
  }
  if (!AllDigits(body, base)) return false;
  std::string digits = WithoutUnderscores(body);
  if (digits.empty()) return false;
  errno = 0;
  char* end = nullptr;
  unsigned long long value = digits.size() > 19 ? 0 : std::strtoull(digits.c_str(), &end, base);
  if (digits.size() > 19 || errno != 0 || *end != '\0' || value > 9223372036854775807ULL) {
    // go-yaml reads a decimal integer past int64 as a float, so it stays a number (written out
    // as its digits); other bases become strings.
    if (base != 10) return false;
    out = (negative ? "-" : "") + digits;
    return true;
  }
  out = (negative && value != 0 ? "-" : "") + std::to_string(value);
  return true;
}

// Float forms: [-+]?(\.[0-9]+|[0-9][0-9_]*(\.[0-9_]*)?)([eE][-+][0-9]+)? (exponent sign is
// optional here, as go-yaml accepts it).
bool FloatToJson(std::string_view s, std::string& out) {
  size_t i = 0;
  std::string digits;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) {
    if (s[i] == '-') digits += '-';
    ++i;
  }
  bool int_digits = false;
  bool frac_digits = false;
  std::string mantissa_int;
  while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '_')) {
    if (s[i] != '_') mantissa_int += s[i];
    int_digits = true;
    ++i;
  }
  std::string fraction;
  bool has_dot = false;
  if (i < s.size() && s[i] == '.') {
    has_dot = true;
    ++i;
    while (i < s.size() && (std::isdigit(static_cast<unsigned char>(s[i])) || s[i] == '_')) {
      if (s[i] != '_') fraction += s[i];
      frac_digits = true;
      ++i;
    }
  }
  if (!int_digits && !frac_digits) return false;
  std::string exponent;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '-' || s[i] == '+')) exponent += s[i++];
    size_t start = i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) exponent += s[i++];
    if (i == start) return false;
  }
  if (i != s.size()) return false;
  if (!has_dot && exponent.empty()) return false;  // plain integers are handled elsewhere
  digits += mantissa_int.empty() ? "0" : mantissa_int;
  if (!fraction.empty()) digits += "." + fraction;
  if (!exponent.empty()) digits += "e" + exponent;
  out = digits;
  return true;
}

// Aliases let a short input name one node many times, and every use is written out in full, so
// a few hundred bytes of nested aliases ("billion laughs") would expand to gigabytes of JSON.
// Without aliases the JSON stays within a few times the YAML's size (quotes around short plain
// scalars, `null` for an empty entry, escapes), so the JSON for one input is capped at
// kJsonBytesPerYamlByte per input byte plus kJsonAllowanceBytes for the aliases a manifest
// reasonably uses. Kubernetes' reader refuses such input too ("excessive aliasing").
constexpr size_t kJsonBytesPerYamlByte = 8;
constexpr size_t kJsonAllowanceBytes = size_t{1} << 20;

// An alias inside the node it names (`&a [*a]`) makes a cycle that would be written out forever,
// and aliases of nested nodes nest deeper than the text does: the JSON written is held to the
// same nesting limit as the input's text.
constexpr int kMaxJsonDepth = kMaxNestingDepth;

std::string Where(const YAML::Node& node) {
  YAML::Mark mark = node.Mark();
  if (mark.is_null()) return "";
  return fmt::format("line {}, column {}: ", mark.line + 1, mark.column + 1);
}

constexpr std::string_view kCoreTagPrefix = "tag:yaml.org,2002:";

// go-yaml's name for the type a plain scalar resolves to, given its JSON form.
std::string_view ResolvedTag(std::string_view json) {
  if (json == "null") return "!!null";
  if (json == "true" || json == "false") return "!!bool";
  if (json.front() == '"') return "!!str";
  return json.find_first_of(".eE") == std::string_view::npos ? "!!int" : "!!float";
}

absl::Status EmitScalar(const YAML::Node& node, JsonWriter& writer) {
  const std::string& text = node.Scalar();
  const std::string& tag = node.Tag();
  // "!" is yaml-cpp's tag for a quoted (non-plain) scalar; explicit !!str also stays a string.
  if (tag == "!" || tag == "tag:yaml.org,2002:str") {
    writer.String(text);
    return absl::OkStatus();
  }
  std::string json = PlainScalarToJson(text);
  // An explicit core tag must fit the value, as in go-yaml (kubectl): `!!int abc` is an error,
  // not the string "abc"; an integer may stand for a !!float.
  if (std::string_view(tag).starts_with(kCoreTagPrefix)) {
    const std::string want = "!!" + tag.substr(kCoreTagPrefix.size());
    const std::string_view got = ResolvedTag(json);
    const bool checked = IsOneOf(want, {"!!int", "!!float", "!!bool", "!!null"});
    if (checked && want != got && !(want == "!!float" && got == "!!int")) {
      return absl::InvalidArgumentError(
          fmt::format("{}cannot decode {} `{}` as a {}", Where(node), got, text, want));
    }
  }
  writer.Raw(json);
  return absl::OkStatus();
}

// `<<` as a plain key (or tagged !!merge) merges mappings into the one that holds it.
bool IsMergeKey(const YAML::Node& key) {
  return key.IsScalar() && key.Scalar() == "<<" &&
         (key.Tag() == "?" || key.Tag() == "tag:yaml.org,2002:merge");
}

// The entries of a mapping after merge keys, in the order of first appearance.
class MapEntries {
 public:
  void Set(const std::string& key, const YAML::Node& value) {
    auto [it, inserted] = index_.try_emplace(key, items_.size());
    if (inserted) {
      items_.emplace_back(key, value);
    } else {
      // reset(), not `=`: assigning a YAML::Node writes into the node it refers to, which
      // would change the merged anchor itself.
      items_[it->second].second.reset(value);
    }
  }
  const std::vector<std::pair<std::string, YAML::Node>>& items() const { return items_; }

 private:
  std::vector<std::pair<std::string, YAML::Node>> items_;
  absl::flat_hash_map<std::string, size_t> index_;
};

// Writes the documents of one input, holding the expansion and depth limits above.
class JsonEmitter {
 public:
  explicit JsonEmitter(size_t yaml_size)
      : limit_(kJsonBytesPerYamlByte * yaml_size + kJsonAllowanceBytes) {}

  absl::StatusOr<std::string> Document(const YAML::Node& root) {
    JsonWriter writer;
    KP_RETURN_IF_ERROR(Emit(root, writer, 1));
    written_before_ += writer.size();
    return writer.Take();
  }

 private:
  absl::Status Emit(const YAML::Node& node, JsonWriter& writer, int depth) {
    // Checked before every node, so the overshoot is at most one scalar from the input.
    if (written_before_ + writer.size() > limit_) {
      return absl::InvalidArgumentError(
          fmt::format("{}the YAML expands to more than {} bytes of JSON ({} per input byte plus "
                      "{}): excessive aliasing",
                      Where(node), limit_, kJsonBytesPerYamlByte, kJsonAllowanceBytes));
    }
    if (depth > kMaxJsonDepth) {
      return absl::InvalidArgumentError(
          fmt::format("{}nested deeper than {} levels (is an alias inside the node it names?)",
                      Where(node), kMaxJsonDepth));
    }
    switch (node.Type()) {
      case YAML::NodeType::Undefined:
      case YAML::NodeType::Null:
        writer.Null();
        return absl::OkStatus();
      case YAML::NodeType::Scalar:
        return EmitScalar(node, writer);
      case YAML::NodeType::Sequence:
        writer.BeginArray();
        for (const YAML::Node& item : node) KP_RETURN_IF_ERROR(Emit(item, writer, depth + 1));
        writer.EndArray();
        return absl::OkStatus();
      case YAML::NodeType::Map:
        return EmitMap(node, writer, depth);
    }
    return absl::OkStatus();
  }

  absl::Status EmitMap(const YAML::Node& node, JsonWriter& writer, int depth) {
    MapEntries entries;
    KP_RETURN_IF_ERROR(CollectMap(node, entries, depth));
    writer.BeginObject();
    for (const auto& [key, value] : entries.items()) {
      writer.Key(key);
      KP_RETURN_IF_ERROR(Emit(value, writer, depth + 1));
    }
    writer.EndObject();
    return absl::OkStatus();
  }

  // A key given twice would leave two different objects depending on which copy a reader keeps,
  // so it is an error, as in kubectl ("mapping key ... already defined"). Merge keys are applied
  // in order as go-yaml v2 (kubectl's YAML reader) does: each entry, merged or explicit, replaces
  // an earlier one of the same key; in a list of merged mappings the earlier mapping wins.
  absl::Status CollectMap(const YAML::Node& node, MapEntries& entries, int depth) {
    if (depth > kMaxJsonDepth) {
      return absl::InvalidArgumentError(fmt::format(
          "{}merge keys nested deeper than {} levels (is an alias inside the node it names?)",
          Where(node), kMaxJsonDepth));
    }
    absl::flat_hash_set<std::string> seen;
    for (const auto& entry : node) {
      if (IsMergeKey(entry.first)) {
        KP_RETURN_IF_ERROR(Merge(entry.second, entries, depth + 1));
        continue;
      }
      std::string key = entry.first.IsScalar() ? entry.first.Scalar() : YAML::Dump(entry.first);
      if (!seen.insert(key).second) {
        YAML::Mark mark = entry.first.Mark();
        return absl::InvalidArgumentError(
            fmt::format("line {}, column {}: mapping key \"{}\" already defined", mark.line + 1,
                        mark.column + 1, key));
      }
      entries.Set(key, entry.second);
    }
    return absl::OkStatus();
  }

  absl::Status Merge(const YAML::Node& value, MapEntries& entries, int depth) {
    if (value.IsMap()) return CollectMap(value, entries, depth);
    if (value.IsSequence()) {
      const size_t count = value.size();
      for (size_t i = count; i > 0; --i) {
        const YAML::Node item = value[i - 1];
        if (!item.IsMap()) return MergeNeedsMaps(item);
        KP_RETURN_IF_ERROR(CollectMap(item, entries, depth));
      }
      return absl::OkStatus();
    }
    return MergeNeedsMaps(value);
  }

  static absl::Status MergeNeedsMaps(const YAML::Node& node) {
    return absl::InvalidArgumentError(
        fmt::format("{}map merge requires map or sequence of maps as the value", Where(node)));
  }

  size_t limit_;
  size_t written_before_ = 0;  // JSON bytes of the input's earlier documents
};

}  // namespace

std::string PlainScalarToJson(std::string_view s) {
  if (IsOneOf(s, {"", "~", "null", "Null", "NULL"})) return "null";
  if (IsOneOf(s, {"true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON", "y", "Y"})) {
    return "true";
  }
  if (IsOneOf(s, {"false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF", "n", "N"})) {
    return "false";
  }
  std::string number;
  if (IntegerToJson(s, number) || FloatToJson(s, number)) return number;
  std::string quoted;
  AppendJsonString(quoted, s);
  return quoted;
}

namespace {

absl::Status YamlError(const YAML::Exception& e, int line_offset) {
  return absl::InvalidArgumentError(fmt::format(
      "line {}, column {}: {}", e.mark.line + 1 + line_offset, e.mark.column + 1, e.msg));
}

// Moves the "line N, column M: " that starts an error of one document's text to its line in
// the whole input.
absl::Status ShiftLine(const absl::Status& status, int line_offset) {
  constexpr std::string_view kLine = "line ";
  const std::string_view message(status.message().data(), status.message().size());
  const size_t comma = message.find(',');
  if (line_offset == 0 || !message.starts_with(kLine) || comma == std::string_view::npos) {
    return status;
  }
  int line = 0;
  const char* first = message.data() + kLine.size();
  const char* last = message.data() + comma;
  if (std::from_chars(first, last, line).ptr != last) return status;
  return absl::Status(status.code(),
                      fmt::format("line {}{}", line + line_offset, message.substr(comma)));
}

}  // namespace

absl::Status ForEachYamlDocumentAsJson(std::string_view yaml,
                                       const std::function<absl::Status(JsonDocument&)>& use) {
  // Manifests are UTF-8; yaml-cpp can loop on malformed sequences, so refuse them up front.
  if (!simdjson::validate_utf8(yaml.data(), yaml.size())) {
    KP_RETURN_IF_ERROR(CheckUtf8(yaml));  // names the line and column
    return absl::InvalidArgumentError("input is not valid UTF-8");
  }
  KP_RETURN_IF_ERROR(CheckNoTopLevelFlowEntry(yaml));
  // The parse-only pass checks the whole stream and says where each document starts.
  KP_ASSIGN_OR_RETURN(std::vector<size_t> offsets, YamlDocumentOffsets(yaml));
  // yaml-cpp counts a byte order mark in no position; read such a stream whole.
  const bool by_offsets = !yaml.starts_with("\xEF\xBB\xBF") &&
                          std::is_sorted(offsets.begin(), offsets.end()) &&
                          (offsets.empty() || offsets.back() <= yaml.size());
  if (!by_offsets) offsets = {0};
  JsonEmitter emitter(yaml.size());
  int line_offset = 0;  // lines of the input before the current document's text
  size_t counted_to = 0;
  for (size_t i = 0; i < offsets.size(); ++i) {
    // One document's text at a time: yaml-cpp's node tree costs tens of bytes per input byte,
    // and only this document's tree is alive.
    const size_t begin = i == 0 ? 0 : offsets[i];
    const size_t end = i + 1 < offsets.size() && by_offsets ? offsets[i + 1] : yaml.size();
    const std::string_view text = yaml.substr(begin, end - begin);
    line_offset += static_cast<int>(std::count(yaml.begin() + static_cast<ptrdiff_t>(counted_to),
                                               yaml.begin() + static_cast<ptrdiff_t>(begin), '\n'));
    counted_to = begin;
    std::vector<YAML::Node> nodes;
    try {
      // Each text holds one document, possibly followed by the next one's `---`.
      nodes = by_offsets ? std::vector<YAML::Node>{YAML::Load(std::string(text))}
                         : YAML::LoadAll(std::string(text));
    } catch (const YAML::Exception& e) {
      return YamlError(e, line_offset);
    }
    for (const YAML::Node& node : nodes) {
      if (node.IsNull()) continue;
      absl::StatusOr<std::string> json;
      try {
        json = emitter.Document(node);
      } catch (const YAML::Exception& e) {
        return YamlError(e, line_offset);
      }
      if (!json.ok()) return ShiftLine(json.status(), line_offset);
      JsonDocument doc{*std::move(json), node.Mark().line + 1 + line_offset};
      KP_RETURN_IF_ERROR(use(doc));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<JsonDocument>> YamlToJson(std::string_view yaml) {
  std::vector<JsonDocument> docs;
  KP_RETURN_IF_ERROR(ForEachYamlDocumentAsJson(yaml, [&docs](JsonDocument& doc) {
    docs.push_back(std::move(doc));
    return absl::OkStatus();
  }));
  return docs;
}

}  // namespace karpenter::api
