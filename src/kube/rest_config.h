// How to reach and authenticate to an API server, resolved from a kubeconfig (kubectl's loading
// rules) or from the pod's service account (in-cluster), plus the client's request-rate limits.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "karpenter/common/status.h"
#include "src/kube/kubeconfig_types.h"

namespace karpenter::kube {

// The process environment as a lookup, so tests hand in a map.
using GetEnv = std::function<std::optional<std::string>(std::string_view)>;

struct RestConfig {
  std::string server;  // "https://host:port", no trailing slash
  std::string ca_pem;  // empty: the system's roots
  bool insecure_skip_tls_verify = false;
  std::string tls_server_name;
  std::string proxy_url;
  std::string client_cert_pem;
  std::string client_key_pem;
  // A fixed token, or a file re-read so a rotated token is picked up (in-cluster tokens rotate
  // hourly).
  std::string token;
  std::string token_file;
  std::optional<ExecConfig> exec;
  // Where `exec` came from ("FILE: users[2].user.exec"), for the plugin's errors.
  std::string exec_origin;
  std::string namespace_;
};

// The kubeconfig files in effect: $KUBECONFIG split on ':' (empty entries and repeats dropped),
// else $HOME/.kube/config.
std::vector<std::string> KubeconfigPaths(const GetEnv& env);

// Merges the files as kubectl does (the first file to name a cluster, user or context wins; the
// first non-empty current-context wins; relative paths resolve against the file that holds
// them; a listed file that does not exist is skipped) and resolves `context` (empty: the
// current-context). Errors name the file and the field path.
absl::StatusOr<RestConfig> LoadKubeconfig(const GetEnv& env, std::string_view context = {});

inline constexpr std::string_view kServiceAccountDir =
    "/var/run/secrets/kubernetes.io/serviceaccount";

// A pod's own config: KUBERNETES_SERVICE_HOST/PORT, `dir`/token (as a token file, re-read) and
// `dir`/ca.crt; `dir`/namespace when present.
absl::StatusOr<RestConfig> LoadInClusterConfig(const GetEnv& env,
                                               std::string_view dir = kServiceAccountDir);

// KUBE_CLIENT_QPS / KUBE_CLIENT_BURST, upstream Karpenter's settings and defaults.
struct ClientLimits {
  double qps = 200;
  int burst = 300;
};
absl::StatusOr<ClientLimits> LoadClientLimits(const GetEnv& env);

}  // namespace karpenter::kube
