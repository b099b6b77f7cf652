#include "src/kube/exec_plugin.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "nlohmann/json.hpp"
#include "src/api/json_codec.h"
#include "src/api/nesting_limit.h"

extern char** environ;  // NOLINT: the process environment handed to the plugin, as kubectl does

namespace karpenter::kube {
namespace {

struct ExecCredentialStatus {
  std::string token;
  std::optional<api::Time> expiration_timestamp;
  std::string client_certificate_data;
  std::string client_key_data;
  template <class V>
  void Fields(V& v) {
    v("token", token);
    v("expirationTimestamp", expiration_timestamp);
    v("clientCertificateData", client_certificate_data);
    v("clientKeyData", client_key_data);
  }
};

struct ExecCredential {
  std::string api_version;
  std::string kind;
  std::optional<ExecCredentialStatus> status;
  template <class V>
  void Fields(V& v) {
    v("apiVersion", api_version);
    v("kind", kind);
    v.Ignore("spec");
    v("status", status);
  }
};

// Closes a file descriptor when it goes out of scope.
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) close(fd);
  }
};

// Reads `fd` to its end, failing once more than `max` bytes arrive.
absl::StatusOr<std::string> ReadAll(int fd, size_t max) {
  std::string out;
  char buffer[4096];
  for (;;) {
    const ssize_t n = read(fd, buffer, sizeof buffer);
    if (n == 0) return out;
    if (n < 0) {
      if (errno == EINTR) continue;
      return absl::UnavailableError(absl::StrCat("reading its output: ", std::strerror(errno)));
    }
    out.append(buffer, static_cast<size_t>(n));
    if (out.size() > max) {
      return absl::InvalidArgumentError(absl::StrCat("its output exceeds ", max, " bytes"));
    }
  }
}

// Runs `argv` with `envp`, returning its standard output and exit status.
absl::StatusOr<std::pair<std::string, int>> Spawn(const std::vector<std::string>& argv,
                                                  const std::vector<std::string>& envp) {
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) {
    return absl::UnavailableError(absl::StrCat("pipe: ", std::strerror(errno)));
  }
  Fd read_end{pipe_fds[0]};
  Fd write_end{pipe_fds[1]};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, write_end.fd, STDOUT_FILENO);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<char*> env;
  for (const std::string& e : envp) env.push_back(const_cast<char*>(e.c_str()));
  env.push_back(nullptr);
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), env.data());
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    return absl::NotFoundError(absl::StrCat("cannot run ", argv[0], ": ", std::strerror(spawned)));
  }
  close(write_end.fd);
  write_end.fd = -1;
  absl::StatusOr<std::string> output = ReadAll(read_end.fd, kMaxExecOutputBytes);
  if (!output.ok()) kill(pid, SIGKILL);
  int wait_status = 0;
  while (waitpid(pid, &wait_status, 0) < 0 && errno == EINTR) {
  }
  if (!output.ok()) return output.status();
  const int code = WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : 128 + WTERMSIG(wait_status);
  return std::make_pair(*std::move(output), code);
}

std::vector<std::string> PluginEnvironment(const RestConfig& config) {
  std::vector<std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) env.emplace_back(*e);
  env.push_back(absl::StrCat("KUBERNETES_EXEC_INFO=", ExecInfo(config)));
  for (const ExecEnvVar& var : config.exec->env)
    env.push_back(absl::StrCat(var.name, "=", var.value));
  return env;
}

}  // namespace

std::string ExecInfo(const RestConfig& config) {
  nlohmann::json info = {{"apiVersion", config.exec->api_version},
                         {"kind", "ExecCredential"},
                         {"spec", {{"interactive", false}}}};
  if (config.exec->provide_cluster_info) {
    nlohmann::json cluster = {{"server", config.server}};
    if (!config.ca_pem.empty()) {
      cluster["certificate-authority-data"] = absl::Base64Escape(config.ca_pem);
    }
    if (config.insecure_skip_tls_verify) cluster["insecure-skip-tls-verify"] = true;
    if (!config.tls_server_name.empty()) cluster["tls-server-name"] = config.tls_server_name;
    if (!config.proxy_url.empty()) cluster["proxy-url"] = config.proxy_url;
    info["spec"]["cluster"] = cluster;
  }
  return info.dump();
}

absl::StatusOr<Credential> ParseExecCredential(std::string_view output,
                                               std::string_view api_version) {
  KP_RETURN_IF_ERROR(api::CheckJsonText(output));
  ExecCredential parsed;
  api::DecodeReport report;
  KP_RETURN_IF_ERROR(api::DecodeJsonText(output, parsed, report));
  if (!report.errors.empty()) {
    return absl::InvalidArgumentError(report.errors.errors().front().ToString());
  }
  if (parsed.kind != "ExecCredential") {
    return absl::InvalidArgumentError(
        absl::StrCat("kind: must be ExecCredential, got \"", parsed.kind, "\""));
  }
  if (parsed.api_version != api_version) {
    return absl::InvalidArgumentError(absl::StrCat("apiVersion: \"", parsed.api_version,
                                                   "\" is not the requested \"",
                                                   std::string(api_version), "\""));
  }
  if (!parsed.status) return absl::InvalidArgumentError("status: Required value");
  Credential credential{.token = parsed.status->token,
                        .client_cert_pem = parsed.status->client_certificate_data,
                        .client_key_pem = parsed.status->client_key_data,
                        .expires = parsed.status->expiration_timestamp};
  if (credential.client_cert_pem.empty() != credential.client_key_pem.empty()) {
    return absl::InvalidArgumentError(
        "status: clientCertificateData and clientKeyData must be given together");
  }
  if (credential.token.empty() && credential.client_cert_pem.empty()) {
    return absl::InvalidArgumentError(
        "status: neither token nor clientCertificateData/clientKeyData is set");
  }
  return credential;
}

absl::StatusOr<Credential> RunExecPlugin(const RestConfig& config) {
  if (!config.exec) return absl::FailedPreconditionError("no exec plugin configured");
  std::vector<std::string> argv = {config.exec->command};
  argv.insert(argv.end(), config.exec->args.begin(), config.exec->args.end());
  absl::StatusOr<std::pair<std::string, int>> ran = Spawn(argv, PluginEnvironment(config));
  const std::string where = absl::StrCat(config.exec_origin, " (", config.exec->command, ")");
  if (!ran.ok()) {
    std::string hint =
        config.exec->install_hint.empty() ? "" : absl::StrCat("; ", config.exec->install_hint);
    return absl::Status(ran.status().code(),
                        absl::StrCat(where, ": ", ran.status().message(), hint));
  }
  if (ran->second != 0) {
    return absl::UnavailableError(absl::StrCat(where, ": exited with status ", ran->second));
  }
  absl::StatusOr<Credential> credential = ParseExecCredential(ran->first, config.exec->api_version);
  if (!credential.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(where, ": ExecCredential: ", credential.status().message()));
  }
  return credential;
}

}  // namespace karpenter::kube
