#include "src/api/json_codec.h"

#include <cmath>
#include <limits>

#include "fmt/format.h"
#include "src/api/duration_patterns.h"
#include "src/api/template_validation.h"

namespace karpenter::api {

void JsonPath::RenderInto(std::string& out) const {
  if (parent_ != nullptr) parent_->RenderInto(out);
  switch (kind_) {
    case Kind::kRoot:
      return;
    case Kind::kField:
      if (!out.empty()) out += '.';
      out += name_;
      return;
    case Kind::kIndex:
      out += '[';
      out += std::to_string(index_);
      out += ']';
      return;
    case Kind::kKey:
      out += '[';
      out += name_;
      out += ']';
      return;
  }
}

std::string JsonPath::Render() const {
  std::string out;
  RenderInto(out);
  return out;
}

namespace codec {
namespace {

std::string_view JsonTypeName(JsonType type) {
  switch (type) {
    case JsonType::array:
      return "array";
    case JsonType::object:
      return "object";
    case JsonType::number:
      return "number";
    case JsonType::string:
      return "string";
    case JsonType::boolean:
      return "boolean";
    case JsonType::null:
      return "null";
  }
  return "unknown";
}

std::string_view TrimToken(std::string_view token) {
  while (!token.empty() && (token.back() == ' ' || token.back() == '\n' || token.back() == '\r' ||
                            token.back() == '\t')) {
    token.remove_suffix(1);
  }
  return token;
}

}  // namespace

bool Decoder::ReadString(Value& v, std::string_view& out) {
  // Most strings have no escapes: view them in the input instead of unescaping into the
  // parser's buffer, which would otherwise grow with every string of a large list.
  std::string_view token = TrimToken(v.raw_json_token());
  if (token.size() >= 2 && token.front() == '"' && token.back() == '"' &&
      token.find('\\') == std::string_view::npos) {
    out = token.substr(1, token.size() - 2);
    return true;
  }
  return !Fail(v.get_string().get(out));
}

bool Decoder::ReadKey(simdjson::ondemand::field& field, std::string_view& out) {
  const char* start = field.key().raw();
  const char* end = start;
  while (*end != '"' && *end != '\\') ++end;  // the input is padded and quotes are balanced
  if (*end == '"') {
    out = std::string_view(start, static_cast<size_t>(end - start));
    return true;
  }
  return !Fail(field.unescaped_key().get(out));
}

bool Decoder::Expect(Value& v, const JsonPath& path, JsonType expected, std::string_view name) {
  JsonType actual;
  if (Fail(v.type().get(actual))) return false;
  if (actual == expected) return true;
  report_.errors.Invalid(path.Render(), WrittenValue(v, actual),
                         "must be of type " + std::string(name));
  return false;
}

std::string Decoder::WrittenValue(Value& v, JsonType type) {
  // A container cannot be quoted whole: name its type, as the API server does.
  if (type == JsonType::array || type == JsonType::object) {
    return Quote(JsonTypeName(type));
  }
  std::string_view token = TrimToken(v.raw_json_token());
  if (type != JsonType::string) return std::string(token);  // numbers, booleans, null verbatim
  std::string_view s;
  if (ReadString(v, s)) return Quote(s);
  return std::string(token);
}

bool Decoder::IsNull(Value& v) {
  JsonType type;
  if (Fail(v.type().get(type))) return true;
  return type == JsonType::null;
}

void Decoder::ReportUnknown(const JsonPath& path, simdjson::ondemand::field& field) {
  ++report_.unknown_count;
  if (report_.unknown_fields.size() >= DecodeReport::kMaxUnknownPaths) return;
  std::string_view key;
  if (!ReadKey(field, key)) return;
  report_.unknown_fields.push_back(path.Field(key).Render());
}

void Decoder::ReportDuplicate(const JsonPath& key_path) {
  report_.errors.Add(key_path.Render(), "duplicate field");
}

void Decoder::Decode(Value v, const JsonPath& path, std::string& out) {
  if (!Expect(v, path, JsonType::string, "string")) return;
  std::string_view s;
  if (ReadString(v, s)) out.assign(s);
}

void Decoder::Decode(Value v, const JsonPath& path, bool& out) {
  if (!Expect(v, path, JsonType::boolean, "boolean")) return;
  Fail(v.get_bool().get(out));
}

void Decoder::Decode(Value v, const JsonPath& path, int64_t& out) {
  if (!Expect(v, path, JsonType::number, "integer")) return;
  const std::string_view text = TrimToken(v.raw_json_token());
  simdjson::ondemand::number number;
  if (v.get_number().get(number) != simdjson::SUCCESS) {
    // simdjson refuses integers past 64 bits and exponents past a double's range; Go's decoder
    // reads both as numbers that do not fit, so they are field errors, not broken JSON.
    report_.errors.Invalid(path.Render(), std::string(text), "must fit in a 64-bit integer");
    return;
  }
  if (number.is_int64()) {
    out = number.get_int64();
    return;
  }
  double d = number.as_double();
  // YAML and some clients write integral values as 3.0; accept those, reject fractions.
  if (!number.is_uint64() && std::floor(d) == d && std::fabs(d) < 9.0e18) {
    out = static_cast<int64_t>(d);
    return;
  }
  const bool integral = std::isfinite(d) && std::floor(d) == d;
  report_.errors.Invalid(
      path.Render(), std::string(text),
      number.is_uint64() || integral ? "must fit in a 64-bit integer" : "must be of type integer");
}

void Decoder::Decode(Value v, const JsonPath& path, int32_t& out) {
  int64_t wide = 0;
  size_t before = report_.errors.size();
  Decode(v, path, wide);
  if (failed() || report_.errors.size() != before) return;
  if (wide < std::numeric_limits<int32_t>::min() || wide > std::numeric_limits<int32_t>::max()) {
    report_.errors.Invalid(path.Render(), std::to_string(wide), "must fit in a 32-bit integer");
    return;
  }
  out = static_cast<int32_t>(wide);
}

void Decoder::Decode(Value v, const JsonPath& path, double& out) {
  if (!Expect(v, path, JsonType::number, "number")) return;
  simdjson::ondemand::number number;
  if (v.get_number().get(number) != simdjson::SUCCESS) {
    report_.errors.Invalid(path.Render(), std::string(TrimToken(v.raw_json_token())),
                           "must fit in a 64-bit floating-point number");
    return;
  }
  out = number.as_double();
}

void Decoder::Decode(Value v, const JsonPath& path, Quantity& out) {
  JsonType type;
  if (Fail(v.type().get(type))) return;
  std::string text;
  if (type == JsonType::number) {
    // Kubernetes parses a bare number's own digits ("0.5", "1e3"), never a float rendering.
    text.assign(TrimToken(v.raw_json_token()));
  } else {
    if (!Expect(v, path, JsonType::string, "string or number")) return;
    std::string_view s;
    if (!ReadString(v, s)) return;
    text.assign(s);
  }
  auto parsed = Quantity::Parse(text);
  if (!parsed.ok()) {
    report_.errors.Invalid(path.Render(), Quote(text), std::string(parsed.status().message()));
    return;
  }
  out = *std::move(parsed);
}

namespace {

// Shared by the string-encoded scalar types: read the string, then parse it.
template <class T, class ParseFn>
void DecodeParsedString(Decoder& decoder, Value& v, const JsonPath& path, T& out, ParseFn parse,
                        FieldErrors& errors) {
  if (!decoder.Expect(v, path, JsonType::string, "string")) return;
  std::string_view s;
  if (!decoder.ReadString(v, s)) return;
  auto parsed = parse(s);
  if (!parsed.ok()) {
    errors.Invalid(path.Render(), Quote(s), std::string(parsed.status().message()));
    return;
  }
  out = *std::move(parsed);
}

// The API server matches a Karpenter duration field's pattern against the text before Go ever
// parses it, so text failing both is refused with the pattern, as `kubectl apply` words it ("1d"
// reads "should match ..." rather than Go's "unknown unit"). Text the pattern admits but Go cannot
// read (an overflow) keeps Go's error.
template <class T>
void DecodeDurationField(Decoder& decoder, Value& v, const JsonPath& path, T& out,
                         FieldErrors& errors) {
  if (!decoder.Expect(v, path, JsonType::string, "string")) return;
  std::string_view s;
  if (!decoder.ReadString(v, s)) return;
  absl::StatusOr<T> parsed = T::Parse(s);
  if (parsed.ok()) {
    out = *std::move(parsed);
    return;
  }
  const std::string rendered = path.Render();
  const std::string_view field = std::string_view(rendered).substr(rendered.rfind('.') + 1);
  const DurationPattern* pattern = DurationPatternOf(field);
  if (pattern != nullptr && !pattern->matches(s)) {
    errors.Invalid(rendered, Quote(s), PatternDetail(pattern->regex));
    return;
  }
  errors.Invalid(rendered, Quote(s), std::string(parsed.status().message()));
}

}  // namespace

void Decoder::Decode(Value v, const JsonPath& path, Duration& out) {
  DecodeParsedString(*this, v, path, out, &Duration::Parse, report_.errors);
}

void Decoder::Decode(Value v, const JsonPath& path, NillableDuration& out) {
  DecodeDurationField(*this, v, path, out, report_.errors);
}

void Decoder::Decode(Value v, const JsonPath& path, WrittenDuration& out) {
  DecodeDurationField(*this, v, path, out, report_.errors);
}

void Decoder::Decode(Value v, const JsonPath& path, Time& out) {
  DecodeParsedString(*this, v, path, out, &Time::ParseRfc3339, report_.errors);
}

void Decoder::Decode(Value v, const JsonPath& path, IntOrString& out) {
  JsonType type;
  if (Fail(v.type().get(type))) return;
  if (type == JsonType::string) {
    std::string_view s;
    if (!ReadString(v, s)) return;
    out = IntOrString{.is_int = false, .int_value = 0, .str_value = std::string(s)};
    return;
  }
  int32_t i = 0;
  size_t before = report_.errors.size();
  Decode(v, path, i);
  if (!failed() && report_.errors.size() == before) {
    out = IntOrString{.is_int = true, .int_value = i, .str_value = {}};
  }
}

}  // namespace codec
}  // namespace karpenter::api
