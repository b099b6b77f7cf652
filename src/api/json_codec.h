// Typed JSON decoding and encoding driven by each type's `Fields(visitor)` list.
//
// Decoding reads a simdjson DOM and reports problems as values: type mismatches and bad
// scalars go to `DecodeReport::errors` with their field path; keys a type does not declare go
// to `DecodeReport::unknown_fields` (never silently dropped). Encoding writes fields in
// declaration order and omits empty ones, like Go's `omitempty`.
//
//   Pod pod;
//   DecodeReport report;
//   KP_RETURN_IF_ERROR(DecodeJsonText(text, pod, report));
//   std::string json = EncodeJson(pod);
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "karpenter/common/status.h"
#include "simdjson.h"
#include "src/api/duration.h"
#include "src/api/field_errors.h"
#include "src/api/json_path.h"
#include "src/api/json_writer.h"
#include "src/api/meta.h"
#include "src/api/quantity.h"
#include "src/api/time.h"

namespace karpenter::api {

struct DecodeReport {
  FieldErrors errors;
  std::vector<std::string> unknown_fields;
  // Objects with many unknown keys (e.g. full `kubectl get -o json` output) keep the first
  // few paths and a count, so memory stays bounded on large lists.
  size_t unknown_count = 0;
  static constexpr size_t kMaxUnknownPaths = 32;
};

namespace codec {

// Collects the JSON names a type declares (used only when an object has unknown keys).
class KeyCollector {
 public:
  template <class F>
  void operator()(std::string_view name, F&) {
    names.push_back(name);
  }
  void Ignore(std::string_view name) { names.push_back(name); }
  std::vector<std::string_view> names;
};

template <class T>
concept HasFields = requires(T& t, KeyCollector& k) { t.Fields(k); };

using Element = simdjson::dom::element;

class Decoder {
 public:
  explicit Decoder(DecodeReport& report) : report_(report) {}

  void Decode(Element e, const JsonPath& path, std::string& out);
  void Decode(Element e, const JsonPath& path, bool& out);
  void Decode(Element e, const JsonPath& path, int32_t& out);
  void Decode(Element e, const JsonPath& path, int64_t& out);
  void Decode(Element e, const JsonPath& path, double& out);
  void Decode(Element e, const JsonPath& path, Quantity& out);
  void Decode(Element e, const JsonPath& path, Duration& out);
  void Decode(Element e, const JsonPath& path, NillableDuration& out);
  void Decode(Element e, const JsonPath& path, Time& out);
  void Decode(Element e, const JsonPath& path, IntOrString& out);

  template <class T>
  void Decode(Element e, const JsonPath& path, std::optional<T>& out) {
    out.emplace();
    Decode(e, path, *out);
  }

  template <class T>
  void Decode(Element e, const JsonPath& path, std::vector<T>& out) {
    simdjson::dom::array array;
    if (e.get_array().get(array) != simdjson::SUCCESS) return TypeError(path, e, "array");
    out.clear();
    out.reserve(array.size());
    size_t index = 0;
    for (Element item : array) {
      JsonPath item_path = path.Index(index++);
      if (item.is_null()) {
        out.emplace_back();
        continue;
      }
      Decode(item, item_path, out.emplace_back());
    }
  }

  template <class T>
  void Decode(Element e, const JsonPath& path, std::map<std::string, T>& out) {
    simdjson::dom::object object;
    if (e.get_object().get(object) != simdjson::SUCCESS) return TypeError(path, e, "object");
    out.clear();
    for (auto field : object) {
      T& value = out[std::string(field.key)];
      if (field.value.is_null()) continue;
      Decode(field.value, path.Key(field.key), value);
    }
  }

  template <HasFields T>
  void Decode(Element e, const JsonPath& path, T& out);

  void TypeError(const JsonPath& path, Element e, std::string_view expected);
  void ReportUnknown(const JsonPath& path, std::string_view key);

 private:
  DecodeReport& report_;
};

class FieldDecoder {
 public:
  FieldDecoder(Decoder& decoder, simdjson::dom::object object, const JsonPath& path)
      : decoder_(decoder), object_(object), path_(path) {}

  template <class F>
  void operator()(std::string_view name, F& field) {
    Element child;
    if (object_.at_key(name).get(child) != simdjson::SUCCESS) return;
    ++matched_;
    if (child.is_null()) return;  // null means unset, as in Kubernetes
    decoder_.Decode(child, path_.Field(name), field);
  }
  void Ignore(std::string_view name) {
    if (object_.at_key(name).error() == simdjson::SUCCESS) ++matched_;
  }
  size_t matched() const { return matched_; }

 private:
  Decoder& decoder_;
  simdjson::dom::object object_;
  const JsonPath& path_;
  size_t matched_ = 0;
};

template <HasFields T>
void Decoder::Decode(Element e, const JsonPath& path, T& out) {
  simdjson::dom::object object;
  if (e.get_object().get(object) != simdjson::SUCCESS) return TypeError(path, e, "object");
  FieldDecoder fields(*this, object, path);
  out.Fields(fields);
  if (fields.matched() >= object.size()) return;
  KeyCollector known;
  out.Fields(known);
  for (auto field : object) {
    bool declared = false;
    for (std::string_view name : known.names) declared = declared || name == field.key;
    if (!declared) ReportUnknown(path, field.key);
  }
}

template <class T>
bool IsEmptyValue(const T& value) {
  if constexpr (std::is_same_v<T, std::string>) {
    return value.empty();
  } else if constexpr (std::is_same_v<T, bool> || std::is_arithmetic_v<T>) {
    return value == T{};
  } else if constexpr (requires { value.has_value(); }) {
    return !value.has_value();
  } else if constexpr (requires { value.empty(); }) {
    return value.empty();
  } else {
    return false;
  }
}

class Encoder {
 public:
  explicit Encoder(JsonWriter& writer) : writer_(writer) {}

  void Encode(const std::string& value) { writer_.String(value); }
  void Encode(bool value) { writer_.Bool(value); }
  void Encode(int32_t value) { writer_.Int(value); }
  void Encode(int64_t value) { writer_.Int(value); }
  void Encode(double value) { writer_.Double(value); }
  void Encode(const Quantity& value) { writer_.String(value.String()); }
  void Encode(const Duration& value) { writer_.String(value.String()); }
  void Encode(const NillableDuration& value) { writer_.String(value.ToString()); }
  void Encode(const Time& value) { writer_.String(value.Rfc3339()); }
  void Encode(const IntOrString& value) {
    if (value.is_int) return writer_.Int(value.int_value);
    writer_.String(value.str_value);
  }
  template <class T>
  void Encode(const std::optional<T>& value) {
    if (!value) return writer_.Null();
    Encode(*value);
  }
  template <class T>
  void Encode(const std::vector<T>& values) {
    writer_.BeginArray();
    for (const T& v : values) Encode(v);
    writer_.EndArray();
  }
  template <class T>
  void Encode(const std::map<std::string, T>& values) {
    writer_.BeginObject();
    for (const auto& [key, v] : values) {
      writer_.Key(key);
      Encode(v);
    }
    writer_.EndObject();
  }
  template <HasFields T>
  void Encode(const T& value);

  JsonWriter& writer() { return writer_; }

 private:
  JsonWriter& writer_;
};

class FieldEncoder {
 public:
  explicit FieldEncoder(Encoder& encoder) : encoder_(encoder) {}
  template <class F>
  void operator()(std::string_view name, const F& field) {
    if (IsEmptyValue(field)) return;
    JsonWriter& w = encoder_.writer();
    size_t mark = w.size();
    bool was_first = w.at_first_element();
    w.Key(name);
    size_t value_start = w.size();
    encoder_.Encode(field);
    // Plain structs have no natural "empty"; drop ones that encoded to {} as omitempty
    // would. A set optional (`nodeClassRef: {}`) keeps its {} so presence survives a round trip.
    constexpr bool kIsOptional = requires { field.has_value(); };
    if (!kIsOptional && w.size() - value_start == 2 &&
        w.str().compare(value_start, 2, "{}") == 0) {
      w.Truncate(mark, was_first);
    }
  }
  void Ignore(std::string_view) {}

 private:
  Encoder& encoder_;
};

template <HasFields T>
void Encoder::Encode(const T& value) {
  writer_.BeginObject();
  FieldEncoder fields(*this);
  // `Fields` is one list shared by decoding and encoding; the encoder only reads through it.
  const_cast<T&>(value).Fields(fields);
  writer_.EndObject();
}

}  // namespace codec

// Decodes an already-parsed DOM element into `out`.
template <class T>
void DecodeElement(simdjson::dom::element element, T& out, DecodeReport& report) {
  codec::Decoder decoder(report);
  decoder.Decode(element, JsonPath::Root(), out);
}

// Parses `json` and decodes it into `out`. Returns InvalidArgument for malformed JSON;
// field-level problems go to `report`.
template <class T>
absl::Status DecodeJsonText(std::string_view json, T& out, DecodeReport& report) {
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  simdjson::padded_string padded(json);
  if (auto error = parser.parse(padded).get(root); error != simdjson::SUCCESS) {
    return absl::InvalidArgumentError(std::string("invalid JSON: ") +
                                      simdjson::error_message(error));
  }
  DecodeElement(root, out, report);
  return absl::OkStatus();
}

template <class T>
void EncodeJsonTo(const T& value, JsonWriter& writer) {
  codec::Encoder encoder(writer);
  encoder.Encode(value);
}

template <class T>
std::string EncodeJson(const T& value) {
  JsonWriter writer;
  EncodeJsonTo(value, writer);
  return writer.Take();
}

}  // namespace karpenter::api
