#include "src/migrate/kube_documents.h"

#include "fmt/format.h"
#include "src/api/yaml_to_json.h"
#include "src/migrate/aws_json_reader.h"

namespace karpenter::migrate {
namespace {

std::string StringAt(const nlohmann::json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

void Append(const nlohmann::json& value, std::string_view source, std::vector<KubeDocument>& out) {
  if (!value.is_object()) return;
  if (StringAt(value, "kind") == "List") {
    auto items = value.find("items");
    if (items == value.end() || !items->is_array()) return;
    for (const nlohmann::json& item : *items) Append(item, source, out);
    return;
  }
  KubeDocument document;
  document.kind = StringAt(value, "kind");
  if (auto metadata = value.find("metadata"); metadata != value.end() && metadata->is_object()) {
    document.name = StringAt(*metadata, "name");
    document.namespace_ = StringAt(*metadata, "namespace");
  }
  document.where =
      document.namespace_.empty()
          ? fmt::format("{}: {}/{}", source, document.kind, document.name)
          : fmt::format("{}: {}/{}/{}", source, document.kind, document.namespace_, document.name);
  document.object = value;
  out.push_back(std::move(document));
}

bool LooksLikeJson(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && (text[first] == '{' || text[first] == '[');
}

}  // namespace

absl::StatusOr<std::vector<KubeDocument>> ParseKubeDocuments(std::string_view text,
                                                             std::string_view source) {
  std::vector<KubeDocument> out;
  if (LooksLikeJson(text)) {
    KP_ASSIGN_OR_RETURN(nlohmann::json value, ParseAwsJson(text, source));
    Append(value, source, out);
    return out;
  }
  if (static_cast<int64_t>(text.size()) > kMaxAwsInputBytes) {
    return absl::InvalidArgumentError(fmt::format("{}: {} bytes: larger than {} MiB", source,
                                                  text.size(), kMaxAwsInputBytes >> 20));
  }
  absl::StatusOr<std::vector<api::JsonDocument>> documents = api::YamlToJson(text);
  if (!documents.ok()) {
    return absl::InvalidArgumentError(
        fmt::format("{}: {}", source, std::string(documents.status().message())));
  }
  for (const api::JsonDocument& document : *documents) {
    KP_ASSIGN_OR_RETURN(nlohmann::json value, ParseAwsJson(document.json, source));
    Append(value, source, out);
  }
  return out;
}

absl::StatusOr<std::vector<KubeDocument>> LoadKubeDocumentsFile(const std::string& path) {
  KP_ASSIGN_OR_RETURN(std::string text, ReadAwsInputFile(path));
  return ParseKubeDocuments(text, path);
}

const nlohmann::json* ContainersOf(const KubeDocument& document) {
  const nlohmann::json* node = &document.object;
  for (const char* key : {"spec", "template", "spec", "containers"}) {
    if (!node->is_object()) return nullptr;
    auto it = node->find(key);
    if (it == node->end()) return nullptr;
    node = &*it;
  }
  return node->is_array() ? node : nullptr;
}

}  // namespace karpenter::migrate
