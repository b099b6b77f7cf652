#include "src/kube/object_codec.h"

#include <variant>

#include "absl/strings/str_cat.h"
#include "src/api/json_list_splitter.h"
#include "src/api/nesting_limit.h"

namespace karpenter::kube {
namespace {

struct ListMeta {
  std::string resource_version;
  std::string continue_token;
  template <class V>
  void Fields(V& v) {
    v("resourceVersion", resource_version);
    v("continue", continue_token);
  }
};

struct ListHead {
  ListMeta metadata;
  template <class V>
  void Fields(V& v) {
    v("metadata", metadata);
    v.Ignore("items");
  }
};

struct ObjectMetaHead {
  std::string resource_version;
  template <class V>
  void Fields(V& v) {
    v("resourceVersion", resource_version);
  }
};

// The parts of a watch event's object read before its kind is known: a Status (ERROR events)
// or any object's resourceVersion.
struct EventObjectHead {
  int32_t code = 0;
  std::string message;
  ObjectMetaHead metadata;
  template <class V>
  void Fields(V& v) {
    v("code", code);
    v("message", message);
    v("metadata", metadata);
  }
};

template <class T>
absl::Status DecodeStrict(std::string_view json, T& out, std::string_view what) {
  api::DecodeReport report;
  if (absl::Status status = api::DecodeJsonText(json, out, report); !status.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(std::string(what), ": ", status.message()));
  }
  if (!report.errors.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(what), ": ", report.errors.errors().front().ToString()));
  }
  return absl::OkStatus();
}

template <size_t I = 0>
absl::StatusOr<api::Object> DecodeAs(std::string_view kind, std::string_view json) {
  if constexpr (I == std::variant_size_v<api::Object>) {
    return absl::InvalidArgumentError(absl::StrCat("kind ", std::string(kind), " is not modelled"));
  } else {
    using T = std::variant_alternative_t<I, api::Object>;
    T typed;
    if (typed.kind != kind) return DecodeAs<I + 1>(kind, json);
    api::DecodeReport report;
    KP_RETURN_IF_ERROR(api::DecodeJsonText(json, typed, report));
    if (!report.errors.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(
          typed.kind, " ", typed.metadata.namespace_, typed.metadata.namespace_.empty() ? "" : "/",
          typed.metadata.name, ": ", report.errors.errors().front().ToString()));
    }
    return api::Object(std::move(typed));
  }
}

}  // namespace

absl::StatusOr<api::Object> DecodeObject(std::string_view kind, std::string_view json) {
  KP_RETURN_IF_ERROR(api::CheckJsonText(json));
  return DecodeAs(kind, json);
}

absl::StatusOr<ListPage> DecodeList(std::string_view kind, std::string_view json) {
  KP_RETURN_IF_ERROR(api::CheckJsonText(json));
  ListHead head;
  KP_RETURN_IF_ERROR(DecodeStrict(json, head, absl::StrCat(std::string(kind), " list")));
  ListPage page{.resource_version = head.metadata.resource_version,
                .continue_token = head.metadata.continue_token};
  std::optional<api::JsonListSplit> split = api::SplitJsonList(json);
  if (!split) return page;  // a list without items (or "items": null)
  page.items.reserve(split->items.size());
  for (std::string_view item : split->items) {
    absl::StatusOr<api::Object> object = DecodeAs(kind, item);
    if (!object.ok()) {
      page.errors.emplace_back(object.status().message());
      continue;
    }
    page.items.push_back(*std::move(object));
  }
  return page;
}

absl::StatusOr<WatchEvent> DecodeWatchEvent(std::string_view line) {
  KP_RETURN_IF_ERROR(api::CheckJsonText(line));
  simdjson::ondemand::parser parser;
  simdjson::padded_string padded(line);
  simdjson::ondemand::document doc;
  WatchEvent event;
  std::string_view type;
  simdjson::ondemand::object object;
  std::string_view raw;
  if (parser.iterate(padded).get(doc) || doc["type"].get_string().get(type) ||
      doc.find_field_unordered("object").get_object().get(object) || object.raw_json().get(raw)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "watch event: not {\"type\": ..., \"object\": {...}}: ", std::string(line.substr(0, 200))));
  }
  event.type = std::string(type);
  event.object_json = std::string(raw);
  EventObjectHead head;
  api::DecodeReport report;
  // Only the head fields matter here; a typed decode of the whole object comes later.
  if (api::DecodeJsonText(event.object_json, head, report).ok()) {
    event.error_code = head.code;
    event.resource_version = head.metadata.resource_version;
  }
  return event;
}

std::string StatusMessage(std::string_view body) {
  EventObjectHead head;
  api::DecodeReport report;
  if (api::CheckJsonText(body).ok() && api::DecodeJsonText(body, head, report).ok() &&
      !head.message.empty()) {
    return head.message;
  }
  return std::string(body.substr(0, 300));
}

}  // namespace karpenter::kube
