// Typed objects from the API server's JSON: single objects, list pages and watch events. The
// server sends fields the engine does not model (managedFields, new API fields): they are
// skipped, never an error; a modelled field of the wrong type is an error naming its path.
// Every text is checked against the JSON nesting limit before a parser sees it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "karpenter/common/status.h"
#include "src/api/manifest.h"

namespace karpenter::kube {

// Decodes one object of `kind` (a list item carries no kind of its own).
absl::StatusOr<api::Object> DecodeObject(std::string_view kind, std::string_view json);

struct ListPage {
  std::vector<api::Object> items;
  std::string resource_version;
  std::string continue_token;
  // Items that did not decode ("Pod ns/name: spec.x: ..."), left out of `items` so one bad
  // object does not blind the cache to the rest.
  std::vector<std::string> errors;
};
absl::StatusOr<ListPage> DecodeList(std::string_view kind, std::string_view json);

struct WatchEvent {
  std::string type;  // ADDED, MODIFIED, DELETED, BOOKMARK, ERROR
  std::string object_json;
  // For ERROR events: the Status code (410 when the resourceVersion is too old).
  int error_code = 0;
  // For BOOKMARK events (and any other): the object's metadata.resourceVersion.
  std::string resource_version;
};
absl::StatusOr<WatchEvent> DecodeWatchEvent(std::string_view line);

// The message of a metav1.Status answer, or a prefix of the body when it is not one.
std::string StatusMessage(std::string_view body);

}  // namespace karpenter::kube
