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

#include <bitset>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "karpenter/common/status.h"
#include "simdjson.h"
#include "src/api/box.h"
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

// Collects the JSON names a type declares.
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
concept HasFields = requires(T& t, KeyCollector& k) {
  t.Fields(k);
};

// One JSON scalar (string, number, duration, quantity...): neither an object nor a list or map.
template <class T>
concept IsScalarField = !HasFields<T> && !requires {
  typename T::mapped_type;
}
&&!requires(T & t) { t.emplace_back(); };

using Value = simdjson::ondemand::value;
using JsonType = simdjson::ondemand::json_type;

// Walks simdjson's on-demand parser, so memory stays at the input plus the typed result: no
// DOM is built. A structural JSON error stops the walk (`failed()`); type mismatches and bad
// scalars are field errors and decoding goes on.
class Decoder {
 public:
  explicit Decoder(DecodeReport& report) : report_(report) {}

  bool failed() const { return fatal_ != simdjson::SUCCESS; }
  simdjson::error_code fatal() const { return fatal_; }
  // Records a structural error; returns true when `error` is one.
  bool Fail(simdjson::error_code error) {
    if (error == simdjson::SUCCESS) return false;
    if (fatal_ == simdjson::SUCCESS) fatal_ = error;
    return true;
  }

  void Decode(Value v, const JsonPath& path, std::string& out);
  void Decode(Value v, const JsonPath& path, bool& out);
  void Decode(Value v, const JsonPath& path, int32_t& out);
  void Decode(Value v, const JsonPath& path, int64_t& out);
  void Decode(Value v, const JsonPath& path, double& out);
  void Decode(Value v, const JsonPath& path, Quantity& out);
  void Decode(Value v, const JsonPath& path, Duration& out);
  void Decode(Value v, const JsonPath& path, NillableDuration& out);
  void Decode(Value v, const JsonPath& path, WrittenDuration& out);
  void Decode(Value v, const JsonPath& path, Time& out);
  void Decode(Value v, const JsonPath& path, IntOrString& out);

  template <class T>
  void Decode(Value v, const JsonPath& path, std::optional<T>& out) {
    const size_t errors_before = report_.errors.size();
    out.emplace();
    Decode(v, path, *out);
    // A scalar that did not decode stays absent, so validation never judges a default the input
    // did not contain (`weight: 10.5` is not also "0: should be greater than or equal to 1").
    if constexpr (IsScalarField<T>) {
      if (report_.errors.size() != errors_before) out.reset();
    }
  }
  template <class T>
  void Decode(Value v, const JsonPath& path, Box<T>& out) {
    out.emplace();
    Decode(v, path, *out);
  }

  template <class T>
  void Decode(Value v, const JsonPath& path, std::vector<T>& out) {
    simdjson::ondemand::array array;
    if (!Expect(v, path, JsonType::array, "array")) return;
    if (Fail(v.get_array().get(array))) return;
    out.clear();
    size_t index = 0;
    for (auto item_result : array) {
      Value item;
      if (Fail(std::move(item_result).get(item))) return;
      JsonPath item_path = path.Index(index++);
      T& slot = out.emplace_back();
      if (IsNull(item)) continue;
      Decode(item, item_path, slot);
      if (failed()) return;
    }
  }

  template <class T>
  void Decode(Value v, const JsonPath& path, std::map<std::string, T>& out) {
    simdjson::ondemand::object object;
    if (!Expect(v, path, JsonType::object, "object")) return;
    if (Fail(v.get_object().get(object))) return;
    out.clear();
    for (auto field_result : object) {
      simdjson::ondemand::field field;
      if (Fail(std::move(field_result).get(field))) return;
      std::string_view key;
      if (!ReadKey(field, key)) return;
      auto [slot, inserted] = out.try_emplace(std::string(key));
      if (!inserted) ReportDuplicate(path.Key(key));
      T& value = slot->second;
      if (IsNull(field.value())) continue;
      Decode(field.value(), path.Key(key), value);
      if (failed()) return;
    }
  }

  template <HasFields T>
  void Decode(Value v, const JsonPath& path, T& out) {
    simdjson::ondemand::object object;
    if (!Expect(v, path, JsonType::object, "object")) return;
    if (Fail(v.get_object().get(object))) return;
    DecodeFields(object, path, out);
  }

  // Decodes every field of `object` into `out`, reporting keys `T` does not declare.
  template <HasFields T>
  void DecodeFields(simdjson::ondemand::object& object, const JsonPath& path, T& out);

  // True when `v` has type `expected`; otherwise records a type error (or a structural one).
  bool Expect(Value& v, const JsonPath& path, JsonType expected, std::string_view name);
  // A mismatched value as an error line shows it: numbers, booleans and null as written,
  // strings quoted, containers by type name.
  std::string WrittenValue(Value& v, JsonType type);
  bool IsNull(Value& v);
  // A string value or object key; views the input when it has no escapes. False on a
  // structural error.
  bool ReadString(Value& v, std::string_view& out);
  bool ReadKey(simdjson::ondemand::field& field, std::string_view& out);
  void ReportUnknown(const JsonPath& path, simdjson::ondemand::field& field);
  void ReportDuplicate(const JsonPath& key_path);

  // Declared-field lists are short (PodSpec, the longest, has under 60 entries).
  static constexpr int kMaxDeclaredFields = 128;

 private:
  DecodeReport& report_;
  simdjson::error_code fatal_ = simdjson::SUCCESS;
};

// Offered to a type's `Fields` list for one JSON key: the declared field with that name
// decodes the value. `matched_index()` is the field's position in the list, so the caller can
// notice a key given twice.
class FieldDispatcher {
 public:
  FieldDispatcher(Decoder& decoder, simdjson::ondemand::field& field, const JsonPath& path)
      : decoder_(decoder), field_(field), path_(path) {}

  template <class F>
  void operator()(std::string_view name, F& out) {
    if (!Match(name)) return;
    Value& value = field_.value();
    if (decoder_.IsNull(value)) return;  // null means unset, as in Kubernetes
    decoder_.Decode(value, path_.Field(name), out);
  }
  void Ignore(std::string_view name) { Match(name); }
  bool matched() const { return matched_index_ >= 0; }
  int matched_index() const { return matched_index_; }

 private:
  bool Match(std::string_view name) {
    int index = next_index_++;
    if (matched() || !field_.key().unsafe_is_equal(name)) return false;
    matched_index_ = index;
    return true;
  }

  Decoder& decoder_;
  simdjson::ondemand::field& field_;
  const JsonPath& path_;
  int next_index_ = 0;
  int matched_index_ = -1;
};

template <HasFields T>
void Decoder::DecodeFields(simdjson::ondemand::object& object, const JsonPath& path, T& out) {
  // A key given twice is an error (as in Kubernetes' strict decoding): readers that keep the
  // first copy and readers that keep the last would otherwise see different objects.
  std::bitset<kMaxDeclaredFields> seen;
  for (auto field_result : object) {
    simdjson::ondemand::field field;
    if (Fail(std::move(field_result).get(field))) return;
    FieldDispatcher dispatcher(*this, field, path);
    out.Fields(dispatcher);
    if (failed()) return;
    if (!dispatcher.matched()) {
      ReportUnknown(path, field);
    } else if (dispatcher.matched_index() < kMaxDeclaredFields) {
      if (seen.test(dispatcher.matched_index())) {
        std::string_view key;
        if (!ReadKey(field, key)) return;
        ReportDuplicate(path.Field(key));
      }
      seen.set(dispatcher.matched_index());
    }
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
  // Go's form, as upstream's metav1.Duration marshals it.
  void Encode(const WrittenDuration& value) { writer_.String(value.value.String()); }
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
  void Encode(const Box<T>& value) {
    if (!value.has_value()) return writer_.Null();
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
    if (!kIsOptional && w.size() - value_start == 2 && w.str().compare(value_start, 2, "{}") == 0) {
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

// Parses `json` and decodes it into `out`. Returns InvalidArgument for malformed JSON;
// field-level problems go to `report`.
template <class T>
absl::Status DecodeJsonText(std::string_view json, T& out, DecodeReport& report) {
  simdjson::ondemand::parser parser;
  simdjson::padded_string padded(json);
  simdjson::ondemand::document doc;
  simdjson::ondemand::value root;
  codec::Decoder decoder(report);
  if (!decoder.Fail(parser.iterate(padded).get(doc)) && !decoder.Fail(doc.get_value().get(root))) {
    decoder.Decode(root, JsonPath::Root(), out);
  }
  const char* trailing = nullptr;
  if (!decoder.failed() && doc.current_location().get(trailing) == simdjson::SUCCESS) {
    decoder.Fail(simdjson::TRAILING_CONTENT);
  }
  if (decoder.failed()) {
    return absl::InvalidArgumentError(std::string("invalid JSON: ") +
                                      simdjson::error_message(decoder.fatal()));
  }
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
