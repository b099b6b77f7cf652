// Field-path errors in the shape Kubernetes reports them
// (`spec.template.spec.requirements[2].operator: Unsupported value: "Foo": ...`).
// Decoding and validation append to a `FieldErrors`; nothing is thrown.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace karpenter::api {

struct FieldError {
  std::string path;     // e.g. "spec.limits[cpu]"; empty for whole-object errors
  std::string message;  // e.g. "Required value"
  bool operator==(const FieldError&) const = default;
  std::string ToString() const;  // "path: message" (or just message when path is empty)
};

// Path builders, mirroring k8s.io/apimachinery field.Path rendering.
std::string ChildPath(std::string_view parent, std::string_view name);  // a.b
std::string IndexPath(std::string_view parent, size_t index);           // a[3]
std::string KeyPath(std::string_view parent, std::string_view key);     // a[key]

// Renders a value the way field.Invalid quotes it: strings quoted, others verbatim.
std::string Quote(std::string_view value);

class FieldErrors {
 public:
  void Add(std::string path, std::string message);
  void Required(std::string path, std::string_view detail = {});
  void Invalid(std::string path, std::string_view quoted_value, std::string_view detail);
  void NotSupported(std::string path, std::string_view value,
                    const std::vector<std::string_view>& supported);
  void TooMany(std::string path, size_t actual, size_t max);
  void TooLong(std::string path, size_t max);
  void Duplicate(std::string path, std::string_view quoted_value);
  void Forbidden(std::string path, std::string_view detail);
  void Append(const FieldErrors& other);

  bool empty() const { return errors_.empty(); }
  size_t size() const { return errors_.size(); }
  const std::vector<FieldError>& errors() const { return errors_; }
  bool Contains(std::string_view path) const;

 private:
  std::vector<FieldError> errors_;
};

}  // namespace karpenter::api
