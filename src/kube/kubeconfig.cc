#include <map>
#include <set>

#include "absl/strings/escaping.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "src/api/json_codec.h"
#include "src/api/yaml_to_json.h"
#include "src/kube/bounded_file.h"
#include "src/kube/rest_config.h"

namespace karpenter::kube {
namespace {

// A named entry of one file, with where it came from for relative paths and errors.
template <class T>
struct Sourced {
  const T* entry = nullptr;
  std::string file;
  std::string path;  // "clusters[3]"
};

struct LoadedFile {
  std::string path;
  KubeconfigFile config;
};

std::string Where(std::string_view file, std::string_view field) {
  return absl::StrCat(std::string(file), ": ", std::string(field));
}

absl::StatusOr<KubeconfigFile> ParseKubeconfig(const std::string& path, std::string_view text) {
  KubeconfigFile config;
  absl::StatusOr<std::vector<api::JsonDocument>> converted = api::YamlToJson(text);
  if (!converted.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", converted.status().message()));
  }
  const std::vector<api::JsonDocument>& docs = *converted;
  if (docs.empty()) return config;
  if (docs.size() > 1) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": a kubeconfig is one YAML document, found ", docs.size()));
  }
  api::DecodeReport report;
  if (absl::Status status = api::DecodeJsonText(docs[0].json, config, report); !status.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", status.message()));
  }
  if (!report.errors.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path, ": ", report.errors.errors().front().ToString()));
  }
  return config;
}

std::string DirOf(const std::string& file) {
  const size_t slash = file.rfind('/');
  if (slash == std::string::npos) return ".";
  return file.substr(0, slash == 0 ? 1 : slash);
}

std::string Resolve(const std::string& file, const std::string& path) {
  if (path.empty() || path[0] == '/') return path;
  return absl::StrCat(DirOf(file), "/", path);
}

// Inline base64 data, or the file it names; empty when neither is set.
absl::StatusOr<std::string> DataOrFile(const std::string& data, const std::string& file_path,
                                       const std::string& source, const std::string& field) {
  if (!data.empty()) {
    std::string decoded;
    if (!absl::Base64Unescape(data, &decoded)) {
      return absl::InvalidArgumentError(
          absl::StrCat(Where(source, absl::StrCat(field, "-data")), ": not valid base64"));
    }
    return decoded;
  }
  if (file_path.empty()) return std::string();
  return ReadBoundedFile(Resolve(source, file_path), Where(source, field));
}

template <class T>
void AddFirst(std::map<std::string, Sourced<T>>& into, const std::string& name, const T& entry,
              const std::string& file, std::string path) {
  into.try_emplace(name, Sourced<T>{&entry, file, std::move(path)});
}

struct Merged {
  std::string current_context;
  std::map<std::string, Sourced<KubeconfigCluster>> clusters;
  std::map<std::string, Sourced<KubeconfigUser>> users;
  std::map<std::string, Sourced<KubeconfigContext>> contexts;
};

Merged Merge(const std::vector<LoadedFile>& files) {
  Merged merged;
  for (const LoadedFile& file : files) {
    const KubeconfigFile& c = file.config;
    if (merged.current_context.empty()) merged.current_context = c.current_context;
    for (size_t i = 0; i < c.clusters.size(); ++i) {
      AddFirst(merged.clusters, c.clusters[i].name, c.clusters[i].cluster, file.path,
               absl::StrCat("clusters[", i, "].cluster"));
    }
    for (size_t i = 0; i < c.users.size(); ++i) {
      AddFirst(merged.users, c.users[i].name, c.users[i].user, file.path,
               absl::StrCat("users[", i, "].user"));
    }
    for (size_t i = 0; i < c.contexts.size(); ++i) {
      AddFirst(merged.contexts, c.contexts[i].name, c.contexts[i].context, file.path,
               absl::StrCat("contexts[", i, "].context"));
    }
  }
  return merged;
}

absl::Status ApplyCluster(const Sourced<KubeconfigCluster>& sourced, RestConfig& config) {
  const KubeconfigCluster& cluster = *sourced.entry;
  if (cluster.server.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(Where(sourced.file, sourced.path + ".server"), ": Required value"));
  }
  config.server = cluster.server;
  while (!config.server.empty() && config.server.back() == '/') config.server.pop_back();
  config.insecure_skip_tls_verify = cluster.insecure_skip_tls_verify;
  config.tls_server_name = cluster.tls_server_name;
  config.proxy_url = cluster.proxy_url;
  KP_ASSIGN_OR_RETURN(config.ca_pem,
                      DataOrFile(cluster.certificate_authority_data, cluster.certificate_authority,
                                 sourced.file, sourced.path + ".certificate-authority"));
  return absl::OkStatus();
}

absl::Status ApplyUser(const Sourced<KubeconfigUser>& sourced, RestConfig& config) {
  const KubeconfigUser& user = *sourced.entry;
  KP_ASSIGN_OR_RETURN(config.client_cert_pem,
                      DataOrFile(user.client_certificate_data, user.client_certificate,
                                 sourced.file, sourced.path + ".client-certificate"));
  KP_ASSIGN_OR_RETURN(config.client_key_pem,
                      DataOrFile(user.client_key_data, user.client_key, sourced.file,
                                 sourced.path + ".client-key"));
  if (config.client_cert_pem.empty() != config.client_key_pem.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(Where(sourced.file, sourced.path),
                     ": client-certificate and client-key must be given together"));
  }
  config.token = user.token;
  config.token_file = Resolve(sourced.file, user.token_file);
  if (user.exec) {
    const std::string where = Where(sourced.file, sourced.path + ".exec");
    if (user.exec->command.empty()) {
      return absl::InvalidArgumentError(absl::StrCat(where, ".command: Required value"));
    }
    if (user.exec->api_version != "client.authentication.k8s.io/v1" &&
        user.exec->api_version != "client.authentication.k8s.io/v1beta1") {
      return absl::InvalidArgumentError(
          absl::StrCat(where, ".apiVersion: Unsupported value: \"", user.exec->api_version,
                       "\": supported values: \"client.authentication.k8s.io/v1\", "
                       "\"client.authentication.k8s.io/v1beta1\""));
    }
    config.exec = *user.exec;
    // A command with a slash is relative to the kubeconfig, as in kubectl.
    if (config.exec->command.find('/') != std::string::npos) {
      config.exec->command = Resolve(sourced.file, config.exec->command);
    }
    config.exec_origin = where;
  }
  return absl::OkStatus();
}

absl::StatusOr<RestConfig> Resolve(const Merged& merged, std::string_view context_override,
                                   const std::string& files) {
  const std::string context_name =
      context_override.empty() ? merged.current_context : std::string(context_override);
  if (context_name.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat("kubeconfig (", files, "): current-context is not set"));
  }
  auto context = merged.contexts.find(context_name);
  if (context == merged.contexts.end()) {
    return absl::NotFoundError(
        absl::StrCat("kubeconfig (", files, "): context \"", context_name, "\" not found"));
  }
  const Sourced<KubeconfigContext>& ctx = context->second;
  auto cluster = merged.clusters.find(ctx.entry->cluster);
  if (cluster == merged.clusters.end()) {
    return absl::NotFoundError(absl::StrCat(Where(ctx.file, ctx.path + ".cluster"), ": cluster \"",
                                            ctx.entry->cluster, "\" not found"));
  }
  RestConfig config;
  config.namespace_ = ctx.entry->namespace_;
  KP_RETURN_IF_ERROR(ApplyCluster(cluster->second, config));
  if (ctx.entry->user.empty()) return config;
  auto user = merged.users.find(ctx.entry->user);
  if (user == merged.users.end()) {
    return absl::NotFoundError(absl::StrCat(Where(ctx.file, ctx.path + ".user"), ": user \"",
                                            ctx.entry->user, "\" not found"));
  }
  KP_RETURN_IF_ERROR(ApplyUser(user->second, config));
  return config;
}

}  // namespace

std::vector<std::string> KubeconfigPaths(const GetEnv& env) {
  std::vector<std::string> paths;
  if (std::optional<std::string> list = env("KUBECONFIG"); list && !list->empty()) {
    std::set<std::string> seen;
    for (absl::string_view part : absl::StrSplit(*list, ':', absl::SkipEmpty())) {
      if (seen.insert(std::string(part)).second) paths.emplace_back(part);
    }
    return paths;
  }
  if (std::optional<std::string> home = env("HOME"); home && !home->empty()) {
    paths.push_back(absl::StrCat(*home, "/.kube/config"));
  }
  return paths;
}

absl::StatusOr<RestConfig> LoadKubeconfig(const GetEnv& env, std::string_view context) {
  const std::vector<std::string> paths = KubeconfigPaths(env);
  std::vector<LoadedFile> files;
  for (const std::string& path : paths) {
    absl::StatusOr<std::string> text = ReadBoundedFile(path, "kubeconfig");
    // kubectl skips listed files that do not exist; any other failure is the user's to see.
    if (absl::IsNotFound(text.status())) continue;
    if (!text.ok()) return text.status();
    KP_ASSIGN_OR_RETURN(KubeconfigFile parsed, ParseKubeconfig(path, *text));
    files.push_back(LoadedFile{path, std::move(parsed)});
  }
  const std::string listed = paths.empty() ? "no file" : absl::StrJoin(paths, ":");
  if (files.empty()) {
    return absl::NotFoundError(absl::StrCat("kubeconfig: none of ", listed, " exists"));
  }
  return Resolve(Merge(files), context, listed);
}

absl::StatusOr<ClientLimits> LoadClientLimits(const GetEnv& env) {
  ClientLimits limits;
  if (std::optional<std::string> qps = env("KUBE_CLIENT_QPS"); qps && !qps->empty()) {
    if (!absl::SimpleAtod(*qps, &limits.qps) || !(limits.qps > 0)) {
      return absl::InvalidArgumentError(
          absl::StrCat("KUBE_CLIENT_QPS: must be a positive number, got \"", *qps, "\""));
    }
  }
  if (std::optional<std::string> burst = env("KUBE_CLIENT_BURST"); burst && !burst->empty()) {
    if (!absl::SimpleAtoi(*burst, &limits.burst) || limits.burst < 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("KUBE_CLIENT_BURST: must be a positive integer, got \"", *burst, "\""));
    }
  }
  return limits;
}

}  // namespace karpenter::kube
