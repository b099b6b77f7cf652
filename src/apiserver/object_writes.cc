#include "src/apiserver/object_writes.h"

#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"

namespace karpenter::apiserver {

api::ObjectMeta& MetaOf(api::Object& object) {
  return std::visit([](auto& typed) -> api::ObjectMeta& { return typed.metadata; }, object);
}

const api::ObjectMeta& MetaOf(const api::Object& object) {
  return std::visit([](const auto& typed) -> const api::ObjectMeta& { return typed.metadata; },
                    object);
}

void CopyStatus(const api::Object& from, api::Object& to) {
  std::visit(
      [&](auto& typed) {
        using T = std::decay_t<decltype(typed)>;
        if constexpr (requires { typed.status; }) typed.status = std::get<T>(from).status;
      },
      to);
}

void KeepServerFields(const api::ObjectMeta& stored, api::ObjectMeta& written) {
  written.uid = stored.uid;
  written.creation_timestamp = stored.creation_timestamp;
  written.deletion_timestamp = stored.deletion_timestamp;
}

absl::Status ConflictError(const ObjectKey& key) {
  return absl::AbortedError(absl::StrCat("Operation cannot be fulfilled on ", key.kind, " \"",
                                         key.name,
                                         "\": the object has been modified; please apply your "
                                         "changes to the latest version and try again"));
}

absl::Status NotFoundError(const ObjectKey& key) {
  return absl::NotFoundError(absl::StrCat(key.kind, " \"", key.name, "\" not found"));
}

absl::Status AlreadyExistsError(const ObjectKey& key) {
  return absl::AlreadyExistsError(absl::StrCat(key.kind, " \"", key.name, "\" already exists"));
}

bool VersionMatches(std::string_view given, std::string_view stored) {
  return given.empty() || given == stored;
}

absl::StatusOr<api::Object> ApplyMergePatch(const api::Object& stored, std::string_view patch) {
  nlohmann::json patch_json = nlohmann::json::parse(patch, nullptr, /*allow_exceptions=*/false);
  if (patch_json.is_discarded() || !patch_json.is_object()) {
    return absl::InvalidArgumentError("the patch is not a JSON object");
  }
  const ObjectKey key = KeyOf(stored);
  if (auto meta = patch_json.find("metadata"); meta != patch_json.end() && meta->is_object()) {
    if (auto version = meta->find("resourceVersion"); version != meta->end()) {
      if (!version->is_string() || version->get<std::string>() != MetaOf(stored).resource_version) {
        return ConflictError(key);
      }
    }
  }
  patch_json.erase("status");
  nlohmann::json document =
      nlohmann::json::parse(api::EncodeObject(stored), nullptr, /*allow_exceptions=*/false);
  if (document.is_discarded()) return absl::InternalError("the stored object does not encode");
  document.merge_patch(patch_json);
  absl::StatusOr<std::vector<api::Manifest>> decoded =
      api::DecodeManifests(document.dump(), "merge patch");
  if (!decoded.ok()) return decoded.status();
  if (decoded->size() != 1 || !(*decoded)[0].object || !(*decoded)[0].report.errors.empty() ||
      KeyOf(*(*decoded)[0].object) != key) {
    return absl::InvalidArgumentError("the patched object is invalid");
  }
  api::Object patched = std::move(*(*decoded)[0].object);
  KeepServerFields(MetaOf(stored), MetaOf(patched));
  // The main resource keeps the stored status whatever the patch's document decoded to.
  CopyStatus(stored, patched);
  return patched;
}

}  // namespace karpenter::apiserver
