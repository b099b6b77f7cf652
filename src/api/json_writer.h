// A small streaming JSON writer (RFC 8259 escaping, no pretty-printing), used by the typed
// encoder and by command output. Commas are inserted automatically.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace karpenter::api {

class JsonWriter {
 public:
  void BeginObject();
  void EndObject();
  void BeginArray();
  void EndArray();
  void Key(std::string_view key);
  void String(std::string_view value);
  void Int(int64_t value);
  void Double(double value);
  void Bool(bool value);
  void Null();
  // Inserts already-encoded JSON as one value.
  void Raw(std::string_view json);

  const std::string& str() const { return out_; }
  std::string Take() { return std::move(out_); }
  size_t size() const { return out_.size(); }
  // Drops everything written after `size` (used to omit a value that turned out empty).
  void Truncate(size_t size, bool restore_first);
  bool at_first_element() const { return first_.empty() || first_.back(); }

 private:
  void BeforeValue();

  std::string out_;
  std::vector<bool> first_;  // per open container: no element written yet
  bool after_key_ = false;
};

// Appends `value` to `out` as a quoted JSON string.
void AppendJsonString(std::string& out, std::string_view value);

}  // namespace karpenter::api
