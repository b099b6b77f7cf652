// The kubeconfig file format (k8s.io/client-go/tools/clientcmd/api/v1) as typed structs, so the
// project's JSON decoder reads it and reports bad values with their field path. Only the fields
// the client acts on are declared; the rest (preferences, extensions, auth-provider) are ignored
// as kubectl ignores fields it does not know.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace karpenter::kube {

struct KubeconfigCluster {
  std::string server;
  std::string certificate_authority;
  std::string certificate_authority_data;
  bool insecure_skip_tls_verify = false;
  std::string tls_server_name;
  std::string proxy_url;
  template <class V>
  void Fields(V& v) {
    v("server", server);
    v("certificate-authority", certificate_authority);
    v("certificate-authority-data", certificate_authority_data);
    v("insecure-skip-tls-verify", insecure_skip_tls_verify);
    v("tls-server-name", tls_server_name);
    v("proxy-url", proxy_url);
  }
};

struct ExecEnvVar {
  std::string name;
  std::string value;
  template <class V>
  void Fields(V& v) {
    v("name", name);
    v("value", value);
  }
};

// A credential plugin (`aws eks get-token`), run to get a token or a client certificate.
struct ExecConfig {
  std::string api_version;
  std::string command;
  std::vector<std::string> args;
  std::vector<ExecEnvVar> env;
  std::string install_hint;
  bool provide_cluster_info = false;
  std::string interactive_mode;
  template <class V>
  void Fields(V& v) {
    v("apiVersion", api_version);
    v("command", command);
    v("args", args);
    v("env", env);
    v("installHint", install_hint);
    v("provideClusterInfo", provide_cluster_info);
    v("interactiveMode", interactive_mode);
  }
};

struct KubeconfigUser {
  std::string client_certificate;
  std::string client_certificate_data;
  std::string client_key;
  std::string client_key_data;
  std::string token;
  std::string token_file;
  std::optional<ExecConfig> exec;
  template <class V>
  void Fields(V& v) {
    v("client-certificate", client_certificate);
    v("client-certificate-data", client_certificate_data);
    v("client-key", client_key);
    v("client-key-data", client_key_data);
    v("token", token);
    v("tokenFile", token_file);
    v("exec", exec);
  }
};

struct KubeconfigContext {
  std::string cluster;
  std::string user;
  std::string namespace_;
  template <class V>
  void Fields(V& v) {
    v("cluster", cluster);
    v("user", user);
    v("namespace", namespace_);
  }
};

struct NamedCluster {
  std::string name;
  KubeconfigCluster cluster;
  template <class V>
  void Fields(V& v) {
    v("name", name);
    v("cluster", cluster);
  }
};

struct NamedUser {
  std::string name;
  KubeconfigUser user;
  template <class V>
  void Fields(V& v) {
    v("name", name);
    v("user", user);
  }
};

struct NamedContext {
  std::string name;
  KubeconfigContext context;
  template <class V>
  void Fields(V& v) {
    v("name", name);
    v("context", context);
  }
};

struct KubeconfigFile {
  std::string api_version;
  std::string kind;
  std::vector<NamedCluster> clusters;
  std::vector<NamedUser> users;
  std::vector<NamedContext> contexts;
  std::string current_context;
  template <class V>
  void Fields(V& v) {
    v("apiVersion", api_version);
    v("kind", kind);
    v("clusters", clusters);
    v("users", users);
    v("contexts", contexts);
    v("current-context", current_context);
  }
};

}  // namespace karpenter::kube
