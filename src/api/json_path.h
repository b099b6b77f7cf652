// A field path built on the stack while decoding and rendered to text only when an error
// needs it ("spec.containers[0].resources.requests[cpu]"), so the happy path allocates nothing.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace karpenter::api {

class JsonPath {
 public:
  static JsonPath Root() { return JsonPath(nullptr, Kind::kRoot, {}, 0); }
  JsonPath Field(std::string_view name) const { return JsonPath(this, Kind::kField, name, 0); }
  JsonPath Index(size_t index) const { return JsonPath(this, Kind::kIndex, {}, index); }
  JsonPath Key(std::string_view key) const { return JsonPath(this, Kind::kKey, key, 0); }
  std::string Render() const;

 private:
  enum class Kind { kRoot, kField, kIndex, kKey };
  JsonPath(const JsonPath* parent, Kind kind, std::string_view name, size_t index)
      : parent_(parent), kind_(kind), name_(name), index_(index) {}
  void RenderInto(std::string& out) const;

  const JsonPath* parent_;
  Kind kind_;
  std::string_view name_;
  size_t index_;
};

}  // namespace karpenter::api
