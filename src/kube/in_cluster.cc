#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "src/kube/bounded_file.h"
#include "src/kube/rest_config.h"

namespace karpenter::kube {

absl::StatusOr<RestConfig> LoadInClusterConfig(const GetEnv& env, std::string_view dir) {
  const std::optional<std::string> host = env("KUBERNETES_SERVICE_HOST");
  const std::optional<std::string> port = env("KUBERNETES_SERVICE_PORT");
  if (!host || host->empty() || !port || port->empty()) {
    return absl::FailedPreconditionError(
        "in-cluster config: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be set "
        "(not running in a pod?)");
  }
  RestConfig config;
  // An IPv6 service address needs brackets in a URL.
  const bool ipv6 = host->find(':') != std::string::npos;
  config.server = absl::StrCat("https://", ipv6 ? "[" : "", *host, ipv6 ? "]" : "", ":", *port);
  const std::string base(dir);
  config.token_file = base + "/token";
  // The token must be readable now; later reads pick up rotations.
  KP_RETURN_IF_ERROR(ReadBoundedFile(config.token_file, "in-cluster token").status());
  KP_ASSIGN_OR_RETURN(config.ca_pem, ReadBoundedFile(base + "/ca.crt", "in-cluster ca.crt"));
  absl::StatusOr<std::string> ns = ReadBoundedFile(base + "/namespace", "in-cluster namespace");
  if (ns.ok()) config.namespace_ = std::string(absl::StripAsciiWhitespace(*ns));
  return config;
}

}  // namespace karpenter::kube
