// The API server's rules for writing an object, for everything that stores objects the way it
// does (the seam's fake, the twin): which fields the server owns, how status and the main
// resource are written apart, how an RFC 7386 merge patch applies, and the errors it answers
// with (codes as karpenter/kube_cluster.h lists them).
#pragma once

#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "karpenter/kube_cluster.h"
#include "src/api/manifest.h"

namespace karpenter::apiserver {

api::ObjectMeta& MetaOf(api::Object& object);
const api::ObjectMeta& MetaOf(const api::Object& object);

// Copies `from`'s status into `to` (the same kind), for kinds that have one.
void CopyStatus(const api::Object& from, api::Object& to);

// What a write of the main resource cannot change: uid and the creation and deletion
// timestamps carry over from `stored`. The resourceVersion is the caller's to move on.
void KeepServerFields(const api::ObjectMeta& stored, api::ObjectMeta& written);

// 409: `key`'s resourceVersion (or UID) is not the one the writer read.
absl::Status ConflictError(const ObjectKey& key);
// 404.
absl::Status NotFoundError(const ObjectKey& key);
// 409 on create.
absl::Status AlreadyExistsError(const ObjectKey& key);

// Whether a write that names `given` (empty: none) may replace an object stored at `stored`.
bool VersionMatches(std::string_view given, std::string_view stored);

// `stored` with the JSON merge `patch` applied to its metadata and spec, the server's fields
// kept. A `metadata.resourceVersion` in the patch is a precondition (ConflictError when it is
// not `stored`'s); a `status` in the patch is ignored, as the main resource ignores it.
// InvalidArgument when the patch is not a JSON object or the result is not a valid object of
// the same kind and name.
absl::StatusOr<api::Object> ApplyMergePatch(const api::Object& stored, std::string_view patch);

}  // namespace karpenter::apiserver
