#include "src/api/field_errors.h"

#include <algorithm>

namespace karpenter::api {

std::string FieldError::ToString() const {
  if (path.empty()) return message;
  return path + ": " + message;
}

std::string ChildPath(std::string_view parent, std::string_view name) {
  if (parent.empty()) return std::string(name);
  std::string out(parent);
  out += '.';
  out += name;
  return out;
}

std::string IndexPath(std::string_view parent, size_t index) {
  return std::string(parent) + "[" + std::to_string(index) + "]";
}

std::string KeyPath(std::string_view parent, std::string_view key) {
  return std::string(parent) + "[" + std::string(key) + "]";
}

std::string Quote(std::string_view value) {
  std::string out = "\"";
  for (char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  out += '"';
  return out;
}

void FieldErrors::Add(std::string path, std::string message) {
  errors_.push_back({std::move(path), std::move(message)});
}

void FieldErrors::Required(std::string path, std::string_view detail) {
  std::string msg = "Required value";
  if (!detail.empty()) msg += ": " + std::string(detail);
  Add(std::move(path), std::move(msg));
}

void FieldErrors::Invalid(std::string path, std::string_view quoted_value,
                          std::string_view detail) {
  std::string msg = "Invalid value: " + std::string(quoted_value);
  if (!detail.empty()) msg += ": " + std::string(detail);
  Add(std::move(path), std::move(msg));
}

void FieldErrors::NotSupported(std::string path, std::string_view value,
                               const std::vector<std::string_view>& supported) {
  std::string msg = "Unsupported value: " + Quote(value);
  if (!supported.empty()) {
    msg += ": supported values: ";
    for (size_t i = 0; i < supported.size(); ++i) {
      if (i > 0) msg += ", ";
      msg += Quote(supported[i]);
    }
  }
  Add(std::move(path), std::move(msg));
}

void FieldErrors::TooMany(std::string path, size_t actual, size_t max) {
  Add(std::move(path), "Too many: " + std::to_string(actual) + ": must have at most " +
                           std::to_string(max) + " items");
}

void FieldErrors::TooLong(std::string path, size_t max) {
  Add(std::move(path), "Too long: may not be longer than " + std::to_string(max));
}

void FieldErrors::Duplicate(std::string path, std::string_view quoted_value) {
  Add(std::move(path), "Duplicate value: " + std::string(quoted_value));
}

void FieldErrors::Forbidden(std::string path, std::string_view detail) {
  Add(std::move(path), "Forbidden: " + std::string(detail));
}

void FieldErrors::Append(const FieldErrors& other) {
  errors_.insert(errors_.end(), other.errors_.begin(), other.errors_.end());
}

bool FieldErrors::Contains(std::string_view path) const {
  return std::any_of(errors_.begin(), errors_.end(),
                     [&](const FieldError& e) { return e.path == path; });
}

}  // namespace karpenter::api
