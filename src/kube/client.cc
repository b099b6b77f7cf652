#include "src/kube/client.h"

#include <cctype>
#include <variant>

#include "absl/strings/str_cat.h"
#include "src/api/nesting_limit.h"
#include "src/kube/merge_diff.h"

namespace karpenter::kube {
namespace {

constexpr char kMergePatch[] = "application/merge-patch+json";
// Update without a resourceVersion re-reads and retries this often when another writer wins.
constexpr int kUpdateAttempts = 5;

// Names and namespaces go into URL paths: anything but a plain segment is refused rather than
// escaped, since no valid Kubernetes name needs escaping.
absl::Status CheckSegment(std::string_view value, std::string_view what) {
  if (value.empty() || value == "." || value == ".." ||
      value.find_first_of("/?#%\\ \t\r\n") != std::string_view::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat(std::string(what), ": not a valid name: \"", std::string(value), "\""));
  }
  return absl::OkStatus();
}

std::string QueryEscape(std::string_view value) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : value) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else {
      out += {'%', kHex[c >> 4], kHex[c & 15]};
    }
  }
  return out;
}

std::string Describe(const ObjectKey& key) {
  return key.namespace_.empty() ? absl::StrCat(key.kind, "/", key.name)
                                : absl::StrCat(key.kind, "/", key.namespace_, "/", key.name);
}

absl::StatusOr<std::string> ObjectUrl(const ObjectKey& key) {
  const Resource* resource = FindResource(key.kind);
  if (resource == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("kind ", key.kind, " is not known to the client"));
  }
  KP_RETURN_IF_ERROR(CheckSegment(key.name, "metadata.name"));
  if (resource->namespaced) KP_RETURN_IF_ERROR(CheckSegment(key.namespace_, "metadata.namespace"));
  return ObjectPath(*resource, resource->namespaced ? key.namespace_ : "", key.name);
}

const api::ObjectMeta& MetaOf(const api::Object& object) {
  return std::visit([](const auto& typed) -> const api::ObjectMeta& { return typed.metadata; },
                    object);
}

// Karpenter's CRDs use metav1.Condition, whose message Go marshals even when empty (no
// omitempty) and the CRDs require; the codec omits empty strings, so it is put back here.
void RequireConditionMessages(std::string_view kind, nlohmann::json& encoded) {
  if (kind != "NodeClaim" && kind != "NodePool" && kind != "EC2NodeClass") return;
  if (!encoded.contains("status") || !encoded["status"].is_object() ||
      !encoded["status"].contains("conditions")) {
    return;
  }
  nlohmann::json& conditions = encoded["status"]["conditions"];
  if (!conditions.is_array()) return;
  for (nlohmann::json& condition : conditions) {
    if (condition.is_object() && !condition.contains("message")) condition["message"] = "";
  }
}

// The part of an encoded object a write may change: status alone, or everything else without
// the fields only the server sets.
nlohmann::json Writable(const api::Object& object, bool status) {
  nlohmann::json full = nlohmann::json::parse(api::EncodeObject(object), nullptr, false);
  RequireConditionMessages(KeyOf(object).kind, full);
  if (status) {
    nlohmann::json out = nlohmann::json::object();
    if (full.contains("status")) out["status"] = full["status"];
    return out;
  }
  full.erase("status");
  full.erase("apiVersion");
  full.erase("kind");
  if (full.contains("metadata")) {
    for (const char* server_owned :
         {"name", "namespace", "generateName", "uid", "resourceVersion", "generation",
          "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds"}) {
      full["metadata"].erase(server_owned);
    }
  }
  return full;
}

}  // namespace

absl::Status ErrorFromResponse(const Response& response, std::string_view what, bool is_create) {
  const std::string message = absl::StrCat(std::string(what), ": HTTP ", response.status, ": ",
                                           StatusMessage(response.body));
  switch (response.status) {
    case 400:
    case 422:
      return absl::InvalidArgumentError(message);
    case 401:
      return absl::UnauthenticatedError(message);
    case 403:
      return absl::PermissionDeniedError(message);
    case 404:
      return absl::NotFoundError(message);
    case 409:
      return is_create ? absl::AlreadyExistsError(message) : absl::AbortedError(message);
    case 410:
      // The resourceVersion asked for is older than the server keeps: list again.
      return absl::OutOfRangeError(message);
    case 429:
      return absl::UnavailableError(message);
    default:
      if (response.status >= 500) return absl::UnavailableError(message);
      return absl::UnknownError(message);
  }
}

Client::Client(RestConfig config, ClientLimits limits, Clock& clock,
               std::unique_ptr<Transport> transport)
    : auth_(std::move(config), clock),
      bucket_(clock, limits.qps, limits.burst),
      transport_(std::move(transport)) {}

absl::StatusOr<Response> Client::Send(const Request& request) {
  for (int attempt = 0;; ++attempt) {
    bucket_.Wait();
    KP_ASSIGN_OR_RETURN(Credential credential, auth_.Current());
    KP_ASSIGN_OR_RETURN(Response response, transport_->Send(request, credential));
    if (response.status != 401 || attempt > 0) return response;
    auth_.Invalidate();
  }
}

absl::StatusOr<std::string> Client::Call(std::string_view method, std::string path,
                                         std::string body, std::string_view content_type) {
  Request request{.method = std::string(method),
                  .path = std::move(path),
                  .body = std::move(body),
                  .content_type = std::string(content_type)};
  KP_ASSIGN_OR_RETURN(Response response, Send(request));
  if (response.status >= 200 && response.status < 300) return std::move(response.body);
  return ErrorFromResponse(response, absl::StrCat(request.method, " ", request.path),
                           request.method == "POST");
}

absl::StatusOr<api::Object> Client::Get(const ObjectKey& key) {
  KP_ASSIGN_OR_RETURN(std::string url, ObjectUrl(key));
  KP_ASSIGN_OR_RETURN(std::string body, Call("GET", url));
  return DecodeObject(key.kind, body);
}

absl::StatusOr<ListPage> Client::List(std::string_view kind, std::string_view continue_token,
                                      int limit) {
  const Resource* resource = FindResource(kind);
  if (resource == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("kind ", std::string(kind), " is not known"));
  }
  std::string path = absl::StrCat(CollectionPath(*resource, ""), "?limit=", limit);
  if (!continue_token.empty()) absl::StrAppend(&path, "&continue=", QueryEscape(continue_token));
  KP_ASSIGN_OR_RETURN(std::string body, Call("GET", path));
  return DecodeList(kind, body);
}

absl::Status Client::Watch(std::string_view kind, std::string_view resource_version,
                           int timeout_seconds,
                           const std::function<bool(const WatchEvent&)>& on_event,
                           const std::atomic<bool>& cancel) {
  const Resource* resource = FindResource(kind);
  if (resource == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("kind ", std::string(kind), " is not known"));
  }
  Request request{.path = absl::StrCat(CollectionPath(*resource, ""),
                                       "?watch=1&allowWatchBookmarks=true&resourceVersion=",
                                       QueryEscape(resource_version),
                                       "&timeoutSeconds=", timeout_seconds)};
  bucket_.Wait();
  KP_ASSIGN_OR_RETURN(Credential credential, auth_.Current());
  absl::Status decode_error;
  auto on_line = [&](std::string_view line) {
    absl::StatusOr<WatchEvent> event = DecodeWatchEvent(line);
    if (!event.ok()) {
      decode_error = event.status();
      return false;
    }
    return on_event(*event);
  };
  KP_ASSIGN_OR_RETURN(Response response, transport_->Stream(request, credential, on_line, cancel));
  KP_RETURN_IF_ERROR(decode_error);
  if (response.status == 401) auth_.Invalidate();
  if (response.status >= 200 && response.status < 300) return absl::OkStatus();
  return ErrorFromResponse(response, absl::StrCat("watch ", std::string(kind)), false);
}

absl::StatusOr<api::Object> Client::Create(const api::Object& object) {
  const ObjectKey key = KeyOf(object);
  const Resource* resource = FindResource(key.kind);
  if (resource == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat("kind ", key.kind, " is not known"));
  }
  if (resource->namespaced) KP_RETURN_IF_ERROR(CheckSegment(key.namespace_, "metadata.namespace"));
  // The server refuses a resourceVersion on create and assigns the other fields itself; a
  // caller may be re-creating an object it read.
  api::Object fresh = object;
  std::visit(
      [](auto& typed) {
        typed.metadata.resource_version.clear();
        typed.metadata.uid.clear();
        typed.metadata.creation_timestamp.reset();
        typed.metadata.deletion_timestamp.reset();
        typed.metadata.deletion_grace_period_seconds.reset();
        typed.metadata.generation = 0;
      },
      fresh);
  Request request{.method = "POST",
                  .path = CollectionPath(*resource, resource->namespaced ? key.namespace_ : ""),
                  .body = api::EncodeObject(fresh),
                  .content_type = "application/json"};
  KP_ASSIGN_OR_RETURN(Response response, Send(request));
  if (response.status < 200 || response.status >= 300) {
    return ErrorFromResponse(response, absl::StrCat("create ", Describe(key)), true);
  }
  return DecodeObject(key.kind, response.body);
}

absl::StatusOr<api::Object> Client::Update(const api::Object& object) {
  return PatchChanged(object, /*status=*/false);
}

absl::StatusOr<api::Object> Client::UpdateStatus(const api::Object& object) {
  return PatchChanged(object, /*status=*/true);
}

absl::StatusOr<api::Object> Client::PatchChanged(const api::Object& object, bool status) {
  const ObjectKey key = KeyOf(object);
  const std::string& wanted = MetaOf(object).resource_version;
  KP_ASSIGN_OR_RETURN(std::string url, ObjectUrl(key));
  if (status) url += "/status";
  for (int attempt = 1;; ++attempt) {
    KP_ASSIGN_OR_RETURN(api::Object current, Get(key));
    const std::string& stored = MetaOf(current).resource_version;
    if (!wanted.empty() && wanted != stored) {
      return absl::AbortedError(absl::StrCat("update ", Describe(key), ": resourceVersion ", wanted,
                                             " is not the stored ", stored));
    }
    nlohmann::json patch = MergeDiff(Writable(current, status), Writable(object, status));
    // The precondition: the server refuses the patch with 409 if the object moved on since the
    // version the difference was computed against.
    patch["metadata"]["resourceVersion"] = stored;
    Request request{
        .method = "PATCH", .path = url, .body = patch.dump(), .content_type = kMergePatch};
    KP_ASSIGN_OR_RETURN(Response response, Send(request));
    if (response.status >= 200 && response.status < 300) {
      return DecodeObject(key.kind, response.body);
    }
    absl::Status error = ErrorFromResponse(
        response, absl::StrCat(status ? "update status of " : "update ", Describe(key)), false);
    // Without a resourceVersion of its own the caller asked for "this content": re-read, retry.
    if (!absl::IsAborted(error) || !wanted.empty() || attempt == kUpdateAttempts) return error;
  }
}

absl::StatusOr<api::Object> Client::MergePatch(const ObjectKey& key, std::string_view patch) {
  KP_ASSIGN_OR_RETURN(std::string url, ObjectUrl(key));
  KP_RETURN_IF_ERROR(api::CheckJsonText(patch));
  Request request{
      .method = "PATCH", .path = url, .body = std::string(patch), .content_type = kMergePatch};
  KP_ASSIGN_OR_RETURN(Response response, Send(request));
  if (response.status < 200 || response.status >= 300) {
    return ErrorFromResponse(response, absl::StrCat("patch ", Describe(key)), false);
  }
  return DecodeObject(key.kind, response.body);
}

absl::Status Client::Delete(const ObjectKey& key, const DeleteOptions& options) {
  KP_ASSIGN_OR_RETURN(std::string url, ObjectUrl(key));
  nlohmann::json body = {{"apiVersion", "v1"}, {"kind", "DeleteOptions"}};
  if (!options.uid.empty()) body["preconditions"]["uid"] = options.uid;
  if (options.grace_period_seconds) body["gracePeriodSeconds"] = *options.grace_period_seconds;
  Request request{
      .method = "DELETE", .path = url, .body = body.dump(), .content_type = "application/json"};
  KP_ASSIGN_OR_RETURN(Response response, Send(request));
  if (response.status >= 200 && response.status < 300) return absl::OkStatus();
  return ErrorFromResponse(response, absl::StrCat("delete ", Describe(key)), false);
}

absl::StatusOr<EvictionResult> Client::Evict(const ObjectKey& pod, std::string_view uid) {
  KP_ASSIGN_OR_RETURN(std::string url, ObjectUrl(pod));
  nlohmann::json body = {{"apiVersion", "policy/v1"},
                         {"kind", "Eviction"},
                         {"metadata", {{"name", pod.name}, {"namespace", pod.namespace_}}}};
  if (!uid.empty()) body["deleteOptions"]["preconditions"]["uid"] = std::string(uid);
  Request request{.method = "POST",
                  .path = url + "/eviction",
                  .body = body.dump(),
                  .content_type = "application/json"};
  KP_ASSIGN_OR_RETURN(Response response, Send(request));
  switch (response.status) {
    case 200:
    case 201:
      return EvictionResult::kEvicted;
    case 404:
      return EvictionResult::kNotFound;
    case 409:
      return EvictionResult::kConflict;
    case 429:
      return EvictionResult::kTooManyRequests;
    default:
      return ErrorFromResponse(response, absl::StrCat("evict ", Describe(pod)), false);
  }
}

}  // namespace karpenter::kube
