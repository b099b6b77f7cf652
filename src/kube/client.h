// The REST side of the Kubernetes client: typed reads and writes against the API server,
// implementing the cluster seam's ClusterWriter with the error codes documented in
// karpenter/kube_cluster.h. Thread-safe: every call is one or a few blocking HTTP requests,
// paced by the KUBE_CLIENT_QPS / KUBE_CLIENT_BURST token bucket.
//
// Updates are merge patches of what changed, not PUTs: the typed objects omit fields the engine
// does not model (and the server adds new ones with every release), so replacing the stored
// object with ours would erase them.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "karpenter/clock.h"
#include "karpenter/kube_cluster.h"
#include "src/kube/authenticator.h"
#include "src/kube/object_codec.h"
#include "src/kube/resources.h"
#include "src/kube/token_bucket.h"
#include "src/kube/transport.h"

namespace karpenter::kube {

class Client : public ClusterWriter {
 public:
  Client(RestConfig config, ClientLimits limits, Clock& clock,
         std::unique_ptr<Transport> transport);

  // --- ClusterWriter ---
  absl::StatusOr<api::Object> Create(const api::Object& object) override;
  // GETs the stored object and patches the difference in metadata and spec, with the object's
  // resourceVersion (else the one just read, retried on conflict) as the precondition.
  absl::StatusOr<api::Object> Update(const api::Object& object) override;
  absl::StatusOr<api::Object> UpdateStatus(const api::Object& object) override;
  absl::StatusOr<api::Object> MergePatch(const ObjectKey& key, std::string_view patch) override;
  using ClusterWriter::Delete;
  absl::Status Delete(const ObjectKey& key, const DeleteOptions& options) override;
  absl::StatusOr<EvictionResult> Evict(const ObjectKey& pod, std::string_view uid) override;

  // --- reads straight from the server ---
  absl::StatusOr<api::Object> Get(const ObjectKey& key);
  // One page of `kind` in every namespace; `continue_token` from the previous page.
  absl::StatusOr<kube::ListPage> List(std::string_view kind, std::string_view continue_token,
                                      int limit = 500);
  // A watch from `resource_version` with bookmarks; `on_event` returns false to stop. OK when the
  // server ends the stream; an ERROR event is handed to `on_event` like the others.
  absl::Status Watch(std::string_view kind, std::string_view resource_version, int timeout_seconds,
                     const std::function<bool(const WatchEvent&)>& on_event,
                     const std::atomic<bool>& cancel);

  // Any request with the client's auth, pacing and error mapping (kinds the engine does not
  // model: Namespaces, Events, Leases, CRDs). Returns the body of a 2xx answer.
  absl::StatusOr<std::string> Call(std::string_view method, std::string path, std::string body = {},
                                   std::string_view content_type = "application/json");

 private:
  // Sends with the current credential; after a 401 asks for a fresh one and tries once more.
  absl::StatusOr<Response> Send(const Request& request);
  absl::StatusOr<api::Object> PatchChanged(const api::Object& object, bool status);

  Authenticator auth_;
  TokenBucket bucket_;
  std::unique_ptr<Transport> transport_;
};

// The seam's code for a non-2xx answer (`verb` tells a create's 409 from a conflict's).
absl::Status ErrorFromResponse(const Response& response, std::string_view what, bool is_create);

}  // namespace karpenter::kube
