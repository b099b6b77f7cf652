// Running a kubeconfig exec credential plugin (client.authentication.k8s.io v1 / v1beta1) and
// reading the ExecCredential it prints.
#pragma once

#include <optional>
#include <string>

#include "karpenter/common/status.h"
#include "src/api/time.h"
#include "src/kube/rest_config.h"

namespace karpenter::kube {

struct Credential {
  std::string token;
  std::string client_cert_pem;
  std::string client_key_pem;
  // Absent: valid until the server answers 401.
  std::optional<api::Time> expires;
};

// An ExecCredential is a few KB (a token, maybe a certificate).
inline constexpr size_t kMaxExecOutputBytes = size_t{1} << 20;

// Runs `config.exec` with the process environment plus its `env` entries and
// KUBERNETES_EXEC_INFO, stdin closed and stderr passed through, and parses what it prints.
// Errors name `config.exec_origin`.
absl::StatusOr<Credential> RunExecPlugin(const RestConfig& config);

// Parses a plugin's output; `api_version` is the one the kubeconfig asked for.
absl::StatusOr<Credential> ParseExecCredential(std::string_view output,
                                               std::string_view api_version);

// The KUBERNETES_EXEC_INFO value handed to the plugin.
std::string ExecInfo(const RestConfig& config);

}  // namespace karpenter::kube
