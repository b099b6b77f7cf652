// Reading the small files the client is configured with (kubeconfigs, certificates, keys,
// service-account tokens) with a size limit, so a path pointing at a device or a huge file is a
// clear error instead of an unbounded read.
#pragma once

#include <cstddef>
#include <string>

#include "karpenter/common/status.h"

namespace karpenter::kube {

// Kubeconfigs of large fleets run to a few hundred KB; certificates and tokens to a few KB.
inline constexpr size_t kMaxConfigFileBytes = size_t{4} << 20;

// The content of the regular file `path`, at most `max_bytes` long. `what` names the file's role
// in errors ("kubeconfig", "users[0].user.client-key").
absl::StatusOr<std::string> ReadBoundedFile(const std::string& path, std::string_view what,
                                            size_t max_bytes = kMaxConfigFileBytes);

}  // namespace karpenter::kube
