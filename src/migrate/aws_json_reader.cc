#include "src/migrate/aws_json_reader.h"

#include "absl/strings/str_join.h"
#include "fmt/format.h"
#include "src/api/input_file.h"
#include "src/api/nesting_limit.h"

namespace karpenter::migrate {

absl::StatusOr<nlohmann::json> ParseAwsJson(std::string_view text, std::string_view source) {
  if (static_cast<int64_t>(text.size()) > kMaxAwsInputBytes) {
    return absl::InvalidArgumentError(
        fmt::format("{}: {} bytes: larger than the {} MiB an AWS CLI output can be", source,
                    text.size(), kMaxAwsInputBytes >> 20));
  }
  if (absl::Status depth = api::CheckJsonText(text); !depth.ok()) {
    return absl::InvalidArgumentError(fmt::format("{}: {}", source, std::string(depth.message())));
  }
  // nlohmann reports syntax errors by throwing; turned into a Status here.
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    return absl::InvalidArgumentError(
        fmt::format("{}: not the JSON the AWS CLI prints: {}", source, e.what()));
  }
}

absl::StatusOr<std::string> ReadAwsInputFile(const std::string& path) {
  absl::StatusOr<std::string> text = api::ReadInputFile(path);
  if (!text.ok()) {
    return absl::InvalidArgumentError(
        fmt::format("{}: cannot read the file: {}", path, std::string(text.status().message())));
  }
  return text;
}

void AwsFieldReader::Error(const std::string& path, std::string_view why) {
  errors_.push_back(fmt::format("{}: {}: {}", source_, path, why));
}

std::string AwsFieldReader::String(const nlohmann::json& parent, const std::string& key,
                                   const std::string& path, bool required) {
  auto it = parent.find(key);
  if (it == parent.end() || it->is_null()) {
    if (required) Error(path, "required");
    return "";
  }
  if (!it->is_string()) {
    Error(path, "must be a string");
    return "";
  }
  // A required name present but empty names nothing (no subnet, zone or template).
  if (required && it->get_ref<const std::string&>().empty()) Error(path, "must not be empty");
  return it->get<std::string>();
}

int64_t AwsFieldReader::Count(const nlohmann::json& parent, const std::string& key,
                              const std::string& path, int64_t max) {
  auto it = parent.find(key);
  if (it == parent.end() || it->is_null()) return 0;
  if (!it->is_number_integer()) {
    Error(path, "must be a whole number");
    return 0;
  }
  const int64_t value = it->get<int64_t>();
  if (value < 0 || value > max) {
    Error(path, fmt::format("{} is out of range: must be 0..{}", value, max));
    return 0;
  }
  return value;
}

std::vector<std::string> AwsFieldReader::Strings(const nlohmann::json& parent,
                                                 const std::string& key, const std::string& path) {
  std::vector<std::string> values;
  auto it = parent.find(key);
  if (it == parent.end() || it->is_null()) return values;
  if (!it->is_array()) {
    Error(path, "must be a list of strings");
    return values;
  }
  for (size_t i = 0; i < it->size(); ++i) {
    const nlohmann::json& item = (*it)[i];
    if (!item.is_string()) {
      Error(fmt::format("{}[{}]", path, i), "must be a string");
      continue;
    }
    values.push_back(item.get<std::string>());
  }
  return values;
}

std::map<std::string, std::string> AwsFieldReader::StringMap(const nlohmann::json& parent,
                                                             const std::string& key,
                                                             const std::string& path) {
  std::map<std::string, std::string> values;
  auto it = parent.find(key);
  if (it == parent.end() || it->is_null()) return values;
  if (!it->is_object()) {
    Error(path, "must be an object of strings");
    return values;
  }
  for (const auto& [name, value] : it->items()) {
    if (!value.is_string()) {
      Error(fmt::format("{}[{}]", path, name), "must be a string");
      continue;
    }
    values.emplace(name, value.get<std::string>());
  }
  return values;
}

std::vector<const nlohmann::json*> AwsFieldReader::Objects(const nlohmann::json& parent,
                                                           const std::string& key,
                                                           const std::string& path) {
  std::vector<const nlohmann::json*> objects;
  auto it = parent.find(key);
  if (it == parent.end() || it->is_null()) return objects;
  if (!it->is_array()) {
    Error(path, "must be a list");
    return objects;
  }
  for (size_t i = 0; i < it->size(); ++i) {
    if (!(*it)[i].is_object()) {
      Error(fmt::format("{}[{}]", path, i), "must be an object");
      continue;
    }
    objects.push_back(&(*it)[i]);
  }
  return objects;
}

absl::Status AwsFieldReader::Result() const {
  if (errors_.empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrJoin(errors_, "\n"));
}

}  // namespace karpenter::migrate
