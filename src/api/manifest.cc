#include "src/api/manifest.h"

#include "fmt/format.h"
#include "src/api/input_file.h"
#include "src/api/json_list_splitter.h"
#include "src/api/nesting_limit.h"
#include "src/api/yaml_to_json.h"

namespace karpenter::api {
namespace {

using simdjson::ondemand::json_type;

// Decodes one object whose fields are still unread; structural errors stay in `decoder`.
template <class T>
void DecodeTyped(codec::Decoder& decoder, simdjson::ondemand::object& object, Manifest& manifest) {
  T typed;
  decoder.DecodeFields(object, JsonPath::Root(), typed);
  if constexpr (requires { ApplyDefaults(typed); }) ApplyDefaults(typed);
  manifest.name = typed.metadata.name;
  manifest.namespace_ = typed.metadata.namespace_;
  manifest.object = std::move(typed);
}

using DecodeFn = void (*)(codec::Decoder&, simdjson::ondemand::object&, Manifest&);

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
    {"storage.k8s.io/v1", "VolumeAttachment", &DecodeTyped<VolumeAttachment>},
};

// Walks documents with the on-demand parser; every structural error aborts the whole input.
class ManifestReader {
 public:
  ManifestReader(std::string_view source, std::vector<Manifest>& out)
      : source_(source), out_(out) {}

  // Returns the first structural error, if any.
  simdjson::error_code ReadDocument(simdjson::ondemand::parser& parser,
                                    simdjson::padded_string_view json, int line) {
    line_ = line;
    simdjson::ondemand::document doc;
    if (auto error = parser.iterate(json).get(doc)) return error;
    simdjson::ondemand::value root;
    auto error = doc.get_value().get(root);
    if (error == simdjson::SCALAR_DOCUMENT_AS_VALUE) {
      NotAnObject();
      return simdjson::SUCCESS;
    }
    if (error) return error;
    return ReadValue(root);
  }

  void Reserve(size_t count) { out_.reserve(out_.size() + count); }

 private:
  simdjson::error_code ReadValue(simdjson::ondemand::value& value) {
    json_type type;
    if (auto error = value.type().get(type)) return error;
    if (type == json_type::array) {
      simdjson::ondemand::array items;
      if (auto error = value.get_array().get(items)) return error;
      // Sizing the result up front keeps a large list from being copied while it grows.
      size_t count = 0;
      if (auto error = items.count_elements().get(count)) return error;
      out_.reserve(out_.size() + count);
      for (auto item_result : items) {
        simdjson::ondemand::value item;
        if (auto error = std::move(item_result).get(item)) return error;
        if (auto error = ReadValue(item)) return error;
      }
      return simdjson::SUCCESS;
    }
    if (type != json_type::object) {
      NotAnObject();
      return simdjson::SUCCESS;
    }
    simdjson::ondemand::object object;
    if (auto error = value.get_object().get(object)) return error;
    return ReadObject(object);
  }

  // Reads a top-level string field, then rewinds so the object can be walked again.
  static simdjson::error_code PeekString(simdjson::ondemand::object& object, std::string_view key,
                                         std::string& out) {
    out.clear();
    simdjson::ondemand::value value;
    auto error = object.find_field_unordered(key).get(value);
    if (error == simdjson::SUCCESS) {
      std::string_view s;
      if (value.get_string().get(s) == simdjson::SUCCESS) out.assign(s);
    } else if (error != simdjson::NO_SUCH_FIELD) {
      return error;
    }
    bool ignored;
    return object.reset().get(ignored);
  }

  simdjson::error_code ReadObject(simdjson::ondemand::object& object) {
    std::string api_version;
    std::string kind;
    if (auto error = PeekString(object, "apiVersion", api_version)) return error;
    if (auto error = PeekString(object, "kind", kind)) return error;
    if (kind.ends_with("List")) {
      simdjson::ondemand::value items;
      auto error = object.find_field_unordered("items").get(items);
      if (error == simdjson::SUCCESS) return ReadValue(items);
      if (error != simdjson::NO_SUCH_FIELD) return error;
      bool ignored;
      if (auto reset_error = object.reset().get(ignored)) return reset_error;
    }
    Manifest& manifest = NewManifest();
    manifest.api_version = api_version;
    manifest.kind = kind;
    if (kind.empty()) manifest.report.errors.Required("kind");
    if (api_version.empty()) manifest.report.errors.Required("apiVersion");
    if (kind.empty() || api_version.empty()) return simdjson::SUCCESS;
    for (const KindInfo& info : kKinds) {
      if (info.kind != kind) continue;
      if (info.api_version != api_version) {
        manifest.report.errors.NotSupported("apiVersion", api_version, {info.api_version});
        return simdjson::SUCCESS;
      }
      codec::Decoder decoder(manifest.report);
      info.decode(decoder, object, manifest);
      return decoder.fatal();
    }
    return ReadUnmodelledMetadata(object, manifest);
  }

  // Kinds the engine does not model still get a name for messages.
  static simdjson::error_code ReadUnmodelledMetadata(simdjson::ondemand::object& object,
                                                     Manifest& manifest) {
    simdjson::ondemand::object metadata;
    auto error = object.find_field_unordered("metadata").get_object().get(metadata);
    if (error == simdjson::NO_SUCH_FIELD || error == simdjson::INCORRECT_TYPE) {
      return simdjson::SUCCESS;
    }
    if (error) return error;
    if (auto peek = PeekString(metadata, "name", manifest.name)) return peek;
    return PeekString(metadata, "namespace", manifest.namespace_);
  }

  void NotAnObject() {
    NewManifest().report.errors.Invalid("", Quote(source_),
                                        "each document must be an object with apiVersion and kind");
  }

  Manifest& NewManifest() {
    Manifest& manifest = out_.emplace_back();
    manifest.source = std::string(source_);
    manifest.line = line_;
    return manifest;
  }

  std::string_view source_;
  std::vector<Manifest>& out_;
  int line_ = 0;
};

bool LooksLikeJson(std::string_view content) {
  for (char c : content) {
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
    return c == '{' || c == '[';
  }
  return false;
}

absl::Status JsonError(simdjson::error_code error, int line) {
  if (line > 0) {
    return absl::InvalidArgumentError(
        fmt::format("line {}: invalid document: {}", line, simdjson::error_message(error)));
  }
  return absl::InvalidArgumentError(
      fmt::format("invalid JSON: {}", simdjson::error_message(error)));
}

// Validates the list's own members and decodes each item; false on any malformed JSON.
bool DecodeListItems(const JsonListSplit& split, simdjson::padded_string_view content,
                     simdjson::ondemand::parser& parser, ManifestReader& reader) {
  simdjson::dom::parser validator;
  for (std::string_view value : split.other_values) {
    simdjson::dom::element ignored;
    if (validator.parse(value.data(), value.size(), true).get(ignored)) return false;
  }
  reader.Reserve(split.items.size());
  for (std::string_view item : split.items) {
    // The item lies inside the padded input, so the bytes after it are readable padding.
    size_t offset = static_cast<size_t>(item.data() - content.data());
    simdjson::padded_string_view view(item.data(), item.size(), content.capacity() - offset);
    if (reader.ReadDocument(parser, view, 0) != simdjson::SUCCESS) return false;
  }
  return true;
}

absl::StatusOr<std::vector<Manifest>> DecodeYaml(std::string_view content,
                                                 std::string_view source) {
  std::vector<Manifest> out;
  simdjson::ondemand::parser parser;
  ManifestReader reader(source, out);
  // Document by document: each one's YAML tree and JSON are gone before the next is read, so
  // memory holds the input and the decoded objects (README: "Exit codes, input files and
  // limits").
  KP_RETURN_IF_ERROR(ForEachYamlDocumentAsJson(content, [&](JsonDocument& doc) {
    doc.json.reserve(doc.json.size() + simdjson::SIMDJSON_PADDING);
    simdjson::padded_string_view view(doc.json.data(), doc.json.size(), doc.json.capacity());
    if (auto error = reader.ReadDocument(parser, view, doc.line)) return JsonError(error, doc.line);
    return absl::OkStatus();
  }));
  return out;
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

absl::StatusOr<std::vector<Manifest>> DecodeManifests(simdjson::padded_string_view content,
                                                      std::string_view source) {
  if (LooksLikeJson(content)) {
    // Before any parser: every reader below recurses once per level, and the JSON readers stop
    // after the first value.
    KP_RETURN_IF_ERROR(CheckJsonText(content));
    std::vector<Manifest> out;
    simdjson::ondemand::parser parser;
    ManifestReader reader(source, out);
    // `kubectl get -o json` lists are parsed item by item, so the parser's index covers one
    // object at a time rather than the whole snapshot.
    if (auto split = SplitJsonList(content);
        split && DecodeListItems(*split, content, parser, reader)) {
      return out;
    }
    out.clear();
    if (reader.ReadDocument(parser, content, 0) == simdjson::SUCCESS) return out;
    // Not strict JSON (comments, trailing commas): let the YAML reader explain or accept it.
  }
  return DecodeYaml(content, source);
}

absl::StatusOr<std::vector<Manifest>> DecodeManifests(std::string_view content,
                                                      std::string_view source) {
  simdjson::padded_string padded(content);
  return DecodeManifests(simdjson::padded_string_view(padded), source);
}

absl::StatusOr<std::vector<Manifest>> LoadManifestFile(const std::string& path) {
  if (IsStandardInput(path)) {
    KP_ASSIGN_OR_RETURN(std::string content, ReadInputFile(path));
    return DecodeManifests(content, "<stdin>");
  }
  KP_RETURN_IF_ERROR(CheckRegularFile(path));
  // Read straight into a padded buffer: no second copy of large snapshots.
  simdjson::padded_string content;
  if (simdjson::padded_string::load(path).get(content) != simdjson::SUCCESS) {
    return absl::NotFoundError(fmt::format("cannot open {}", path));
  }
  return DecodeManifests(simdjson::padded_string_view(content), path);
}

std::string EncodeObject(const Object& object) {
  return std::visit([](const auto& typed) { return EncodeJson(typed); }, object);
}

}  // namespace karpenter::api
