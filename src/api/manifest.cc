#include "src/api/manifest.h"

#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "fmt/format.h"
#include "src/api/yaml_to_json.h"

namespace karpenter::api {
namespace {

template <class T>
void DecodeTyped(simdjson::dom::element element, Manifest& manifest) {
  T typed;
  DecodeElement(element, typed, manifest.report);
  if constexpr (requires { ApplyDefaults(typed); }) ApplyDefaults(typed);
  manifest.object = std::move(typed);
}

using DecodeFn = void (*)(simdjson::dom::element, Manifest&);

struct KindInfo {
  std::string_view api_version;
  std::string_view kind;
  DecodeFn decode;
};

constexpr KindInfo kKinds[] = {
    {"karpenter.sh/v1", "NodePool", &DecodeTyped<NodePool>},
    {"karpenter.sh/v1", "NodeClaim", &DecodeTyped<NodeClaim>},
    {"karpenter.k8s.aws/v1", "EC2NodeClass", &DecodeTyped<EC2NodeClass>},
    {"v1", "Pod", &DecodeTyped<Pod>},
    {"v1", "Node", &DecodeTyped<Node>},
    {"apps/v1", "DaemonSet", &DecodeTyped<DaemonSet>},
    {"apps/v1", "Deployment", &DecodeTyped<Deployment>},
    {"apps/v1", "ReplicaSet", &DecodeTyped<ReplicaSet>},
    {"apps/v1", "StatefulSet", &DecodeTyped<StatefulSet>},
    {"batch/v1", "Job", &DecodeTyped<Job>},
    {"policy/v1", "PodDisruptionBudget", &DecodeTyped<PodDisruptionBudget>},
    {"v1", "PersistentVolume", &DecodeTyped<PersistentVolume>},
    {"v1", "PersistentVolumeClaim", &DecodeTyped<PersistentVolumeClaim>},
    {"storage.k8s.io/v1", "StorageClass", &DecodeTyped<StorageClass>},
    {"storage.k8s.io/v1", "CSINode", &DecodeTyped<CSINode>},
};

std::string_view StringField(simdjson::dom::element element, std::string_view key) {
  std::string_view value;
  if (element.at_key(key).get_string().get(value) != simdjson::SUCCESS) return {};
  return value;
}

std::string_view MetadataField(simdjson::dom::element element, std::string_view key) {
  simdjson::dom::element metadata;
  if (element.at_key("metadata").get(metadata) != simdjson::SUCCESS) return {};
  return StringField(metadata, key);
}

void DecodeOne(simdjson::dom::element element, std::string_view source, int line,
               std::vector<Manifest>& out) {
  Manifest& manifest = out.emplace_back();
  manifest.source = std::string(source);
  manifest.line = line;
  if (!element.is_object()) {
    manifest.report.errors.Invalid("", "\"" + std::string(source) + "\"",
                                   "each document must be an object with apiVersion and kind");
    return;
  }
  manifest.api_version = std::string(StringField(element, "apiVersion"));
  manifest.kind = std::string(StringField(element, "kind"));
  manifest.name = std::string(MetadataField(element, "name"));
  manifest.namespace_ = std::string(MetadataField(element, "namespace"));
  if (manifest.kind.empty()) manifest.report.errors.Required("kind");
  if (manifest.api_version.empty()) manifest.report.errors.Required("apiVersion");
  if (manifest.kind.empty() || manifest.api_version.empty()) return;
  for (const KindInfo& info : kKinds) {
    if (info.kind != manifest.kind) continue;
    if (info.api_version != manifest.api_version) {
      manifest.report.errors.NotSupported("apiVersion", manifest.api_version,
                                          {info.api_version});
      return;
    }
    info.decode(element, manifest);
    return;
  }
}

// A `kind: List` (or `NodeList`, `PodList`, ...) with `items` expands to its items.
bool ExpandList(simdjson::dom::element element, std::string_view source, int line,
                std::vector<Manifest>& out) {
  std::string_view kind = StringField(element, "kind");
  if (kind.size() < 4 || kind.substr(kind.size() - 4) != "List") return false;
  simdjson::dom::array items;
  if (element.at_key("items").get_array().get(items) != simdjson::SUCCESS) return false;
  out.reserve(out.size() + items.size());
  for (simdjson::dom::element item : items) DecodeOne(item, source, line, out);
  return true;
}

void DecodeRoot(simdjson::dom::element root, std::string_view source, int line,
                std::vector<Manifest>& out) {
  if (root.is_array()) {
    for (simdjson::dom::element item : root.get_array().value_unsafe()) {
      if (!ExpandList(item, source, line, out)) DecodeOne(item, source, line, out);
    }
    return;
  }
  if (!ExpandList(root, source, line, out)) DecodeOne(root, source, line, out);
}

bool LooksLikeJson(std::string_view content) {
  for (char c : content) {
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    return c == '{' || c == '[';
  }
  return false;
}

}  // namespace

std::string Manifest::Ref() const {
  std::string display_name = name.empty() ? "<unnamed>" : name;
  if (namespace_.empty()) return kind + "/" + display_name;
  return kind + "/" + namespace_ + "/" + display_name;
}

std::vector<std::string_view> SupportedKinds() {
  std::vector<std::string_view> kinds;
  for (const KindInfo& info : kKinds) kinds.push_back(info.kind);
  return kinds;
}

absl::StatusOr<std::vector<Manifest>> DecodeManifests(std::string_view content,
                                                      std::string_view source) {
  std::vector<Manifest> out;
  simdjson::dom::parser parser;
  if (LooksLikeJson(content)) {
    // The fast path for `kubectl get -o json`: parse the bytes directly.
    simdjson::padded_string padded(content);
    simdjson::dom::element root;
    if (parser.parse(padded).get(root) == simdjson::SUCCESS) {
      DecodeRoot(root, source, 0, out);
      return out;
    }
    // Not strict JSON (comments, trailing commas): let the YAML reader explain or accept it.
  }
  KP_ASSIGN_OR_RETURN(std::vector<JsonDocument> docs, YamlToJson(content));
  for (const JsonDocument& doc : docs) {
    simdjson::dom::element root;
    if (auto error = parser.parse(doc.json).get(root); error != simdjson::SUCCESS) {
      return absl::InternalError(fmt::format("line {}: converted document is not JSON: {}",
                                             doc.line, simdjson::error_message(error)));
    }
    DecodeRoot(root, source, doc.line, out);
  }
  return out;
}

absl::StatusOr<std::vector<Manifest>> LoadManifestFile(const std::string& path) {
  std::string content;
  if (path == "-") {
    content.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    std::ifstream in(path, std::ios::binary);
    if (!in) return absl::NotFoundError(fmt::format("cannot open {}", path));
    std::ostringstream buffer;
    buffer << in.rdbuf();
    content = std::move(buffer).str();
  }
  return DecodeManifests(content, path == "-" ? "<stdin>" : path);
}

std::string EncodeObject(const Object& object) {
  return std::visit([](const auto& typed) { return EncodeJson(typed); }, object);
}

}  // namespace karpenter::api
