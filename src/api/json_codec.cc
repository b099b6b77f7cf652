#include "src/api/json_codec.h"

#include <cmath>
#include <limits>

#include "fmt/format.h"

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

std::string_view JsonTypeName(Element e) {
  switch (e.type()) {
    case simdjson::dom::element_type::ARRAY:
      return "array";
    case simdjson::dom::element_type::OBJECT:
      return "object";
    case simdjson::dom::element_type::INT64:
    case simdjson::dom::element_type::UINT64:
      return "integer";
    case simdjson::dom::element_type::DOUBLE:
      return "number";
    case simdjson::dom::element_type::STRING:
      return "string";
    case simdjson::dom::element_type::BOOL:
      return "boolean";
    case simdjson::dom::element_type::NULL_VALUE:
      return "null";
  }
  return "unknown";
}

// The text of a scalar that Kubernetes accepts either quoted or bare (quantities).
bool ScalarText(Element e, std::string& out) {
  std::string_view s;
  if (e.get_string().get(s) == simdjson::SUCCESS) {
    out.assign(s);
    return true;
  }
  int64_t i;
  if (e.get_int64().get(i) == simdjson::SUCCESS) {
    out = std::to_string(i);
    return true;
  }
  uint64_t u;
  if (e.get_uint64().get(u) == simdjson::SUCCESS) {
    out = std::to_string(u);
    return true;
  }
  double d;
  if (e.get_double().get(d) == simdjson::SUCCESS) {
    out = fmt::format("{}", d);
    return true;
  }
  return false;
}

}  // namespace

void Decoder::TypeError(const JsonPath& path, Element e, std::string_view expected) {
  std::string actual(JsonTypeName(e));
  report_.errors.Invalid(path.Render(), Quote(actual),
                         "must be of type " + std::string(expected));
}

void Decoder::ReportUnknown(const JsonPath& path, std::string_view key) {
  ++report_.unknown_count;
  if (report_.unknown_fields.size() >= DecodeReport::kMaxUnknownPaths) return;
  report_.unknown_fields.push_back(path.Field(key).Render());
}

void Decoder::Decode(Element e, const JsonPath& path, std::string& out) {
  std::string_view s;
  if (e.get_string().get(s) != simdjson::SUCCESS) return TypeError(path, e, "string");
  out.assign(s);
}

void Decoder::Decode(Element e, const JsonPath& path, bool& out) {
  if (e.get_bool().get(out) != simdjson::SUCCESS) TypeError(path, e, "boolean");
}

void Decoder::Decode(Element e, const JsonPath& path, int64_t& out) {
  if (e.get_int64().get(out) == simdjson::SUCCESS) return;
  double d;
  // YAML and some clients write integral values as 3.0; accept those, reject fractions.
  if (e.get_double().get(d) == simdjson::SUCCESS && std::floor(d) == d &&
      std::fabs(d) < 9.0e18) {
    out = static_cast<int64_t>(d);
    return;
  }
  TypeError(path, e, "integer");
}

void Decoder::Decode(Element e, const JsonPath& path, int32_t& out) {
  int64_t wide = 0;
  size_t before = report_.errors.size();
  Decode(e, path, wide);
  if (report_.errors.size() != before) return;
  if (wide < std::numeric_limits<int32_t>::min() || wide > std::numeric_limits<int32_t>::max()) {
    report_.errors.Invalid(path.Render(), std::to_string(wide), "must fit in a 32-bit integer");
    return;
  }
  out = static_cast<int32_t>(wide);
}

void Decoder::Decode(Element e, const JsonPath& path, double& out) {
  if (e.get_double().get(out) == simdjson::SUCCESS) return;
  int64_t i;
  if (e.get_int64().get(i) == simdjson::SUCCESS) {
    out = static_cast<double>(i);
    return;
  }
  TypeError(path, e, "number");
}

void Decoder::Decode(Element e, const JsonPath& path, Quantity& out) {
  std::string text;
  if (!ScalarText(e, text)) return TypeError(path, e, "string or number");
  auto parsed = Quantity::Parse(text);
  if (!parsed.ok()) {
    report_.errors.Invalid(path.Render(), Quote(text), std::string(parsed.status().message()));
    return;
  }
  out = *parsed;
}

void Decoder::Decode(Element e, const JsonPath& path, Duration& out) {
  std::string_view s;
  if (e.get_string().get(s) != simdjson::SUCCESS) return TypeError(path, e, "string");
  auto parsed = Duration::Parse(s);
  if (!parsed.ok()) {
    report_.errors.Invalid(path.Render(), Quote(s), std::string(parsed.status().message()));
    return;
  }
  out = *parsed;
}

void Decoder::Decode(Element e, const JsonPath& path, NillableDuration& out) {
  std::string_view s;
  if (e.get_string().get(s) != simdjson::SUCCESS) return TypeError(path, e, "string");
  auto parsed = NillableDuration::Parse(s);
  if (!parsed.ok()) {
    report_.errors.Invalid(path.Render(), Quote(s), std::string(parsed.status().message()));
    return;
  }
  out = *parsed;
}

void Decoder::Decode(Element e, const JsonPath& path, Time& out) {
  std::string_view s;
  if (e.get_string().get(s) != simdjson::SUCCESS) return TypeError(path, e, "string");
  auto parsed = Time::ParseRfc3339(s);
  if (!parsed.ok()) {
    report_.errors.Invalid(path.Render(), Quote(s), std::string(parsed.status().message()));
    return;
  }
  out = *parsed;
}

void Decoder::Decode(Element e, const JsonPath& path, IntOrString& out) {
  std::string_view s;
  if (e.get_string().get(s) == simdjson::SUCCESS) {
    out = IntOrString{.is_int = false, .int_value = 0, .str_value = std::string(s)};
    return;
  }
  int32_t i = 0;
  size_t before = report_.errors.size();
  Decode(e, path, i);
  if (report_.errors.size() == before) out = IntOrString{.is_int = true, .int_value = i, .str_value = {}};
}

}  // namespace codec
}  // namespace karpenter::api
