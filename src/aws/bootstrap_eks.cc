// Upstream: pkg/providers/amifamily/bootstrap/bootstrap.go (kubelet flags), eksbootstrap.go (AL2),
// windows.go, and amifamily/resolver.go (labels the kubelet may set, the unregistered taint).
#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "src/api/karpenter_labels.h"
#include "src/aws/absl_view.h"
#include "src/aws/bootstrap.h"

namespace karpenter::aws {
namespace {

constexpr char kBoundary[] = "//";
constexpr char kShellScriptType[] = "Content-Type: text/x-shellscript; charset=\"us-ascii\"";

// The kubelet refuses to set labels of these domains on itself (NodeRestriction).
bool KubeletMaySet(absl::string_view key) {
  const size_t slash = key.find('/');
  if (slash == absl::string_view::npos) return true;
  const absl::string_view domain = key.substr(0, slash);
  for (absl::string_view restricted : {"kubernetes.io", "k8s.io"}) {
    if (domain == restricted || absl::EndsWith(domain, absl::StrCat(".", restricted))) {
      return false;
    }
  }
  return true;
}

// corev1.Taint.ToString: key[=value][:effect].
std::string TaintText(const api::Taint& taint) {
  std::string out = taint.key;
  if (!taint.value.empty()) absl::StrAppend(&out, "=", taint.value);
  if (!taint.effect.empty() || !taint.value.empty()) absl::StrAppend(&out, ":", taint.effect);
  return out;
}

// name="k1<sep>v1,k2<sep>v2", or "" for an empty map.
template <class Map, class Text>
std::string JoinedFlag(absl::string_view name, const Map& map, absl::string_view separator,
                       Text text) {
  if (map.empty()) return "";
  std::vector<std::string> pairs;
  for (const auto& [key, value] : map) pairs.push_back(absl::StrCat(key, separator, text(value)));
  return absl::StrCat(name, "=\"", absl::StrJoin(pairs, ","), "\"");
}

bool IsMime(std::string_view user_data) {
  const absl::string_view trimmed = absl::StripLeadingAsciiWhitespace(AbslView(user_data));
  return absl::StartsWith(trimmed, "MIME-Version:") || absl::StartsWith(trimmed, "Content-Type:");
}

std::string Al2BootstrapScript(const BootstrapOptions& options) {
  const ClusterInfo& cluster = options.cluster;
  std::string out = absl::StrCat(
      "#!/bin/bash -xe\n",
      "exec > >(tee /var/log/user-data.log|logger -t user-data -s 2>/dev/console) 2>&1\n",
      // bootstrap.sh takes its parameters without an equals sign.
      "/etc/eks/bootstrap.sh '", cluster.name, "' --apiserver-endpoint '", cluster.endpoint, "'");
  if (!cluster.ca_bundle.empty())
    absl::StrAppend(&out, " --b64-cluster-ca '", cluster.ca_bundle, "'");
  const auto& kubelet = options.kubelet;
  if (kubelet && !kubelet->cluster_dns.empty()) {
    if (kubelet->cluster_dns[0].find(':') != std::string::npos) {
      absl::StrAppend(&out, " \\\n--ip-family ipv6");
    }
    absl::StrAppend(&out, " \\\n--dns-cluster-ip '", kubelet->cluster_dns[0], "'");
  }
  // bootstrap.sh would compute max pods from its ENI table over the flag otherwise.
  if (kubelet && kubelet->max_pods) absl::StrAppend(&out, " \\\n--use-max-pods false");
  if (std::vector<std::string> args = KubeletExtraArgs(options); !args.empty()) {
    absl::StrAppend(&out, " \\\n--kubelet-extra-args '", absl::StrJoin(args, " "), "'");
  }
  if (options.raid0) absl::StrAppend(&out, " \\\n--local-disks raid0");
  return out;
}

}  // namespace

BootstrapOptions BootstrapOptionsFor(const ClusterInfo& cluster,
                                     const api::EC2NodeClass& node_class,
                                     const api::NodeClaim& node_claim) {
  BootstrapOptions options{.cluster = cluster,
                           .kubelet = node_class.spec.kubelet,
                           .custom_user_data = node_class.spec.user_data,
                           .raid0 = node_class.spec.instance_store_policy.value_or("") == "RAID0"};
  for (const auto& [key, value] : node_claim.metadata.labels) {
    if (KubeletMaySet(key)) options.labels[key] = value;
  }
  options.taints = node_claim.spec.taints;
  options.taints.insert(options.taints.end(), node_claim.spec.startup_taints.begin(),
                        node_claim.spec.startup_taints.end());
  const bool unregistered =
      std::any_of(options.taints.begin(), options.taints.end(), [](const api::Taint& taint) {
        return taint.key == api::kUnregisteredTaintKey && taint.effect == "NoExecute";
      });
  if (!unregistered) {
    options.taints.push_back(
        {.key = std::string(api::kUnregisteredTaintKey), .value = "", .effect = "NoExecute"});
  }
  return options;
}

std::vector<std::string> KubeletExtraArgs(const BootstrapOptions& options) {
  std::vector<std::string> args;
  if (!options.labels.empty()) {
    args.push_back(
        JoinedFlag("--node-labels", options.labels, "=", [](const std::string& v) { return v; }));
  }
  std::vector<std::string> taints;
  for (const api::Taint& taint : options.taints) taints.push_back(TaintText(taint));
  args.push_back(absl::StrCat("--register-with-taints=\"", absl::StrJoin(taints, ","), "\""));
  if (!options.kubelet) return args;
  const api::KubeletConfiguration& kubelet = *options.kubelet;
  const auto same = [](const std::string& v) { return v; };
  if (kubelet.max_pods) args.push_back(absl::StrCat("--max-pods=", *kubelet.max_pods));
  if (kubelet.pods_per_core) {
    args.push_back(absl::StrCat("--pods-per-core=", *kubelet.pods_per_core));
  }
  for (std::string flag :
       {JoinedFlag("--system-reserved", kubelet.system_reserved, "=", same),
        JoinedFlag("--kube-reserved", kubelet.kube_reserved, "=", same),
        JoinedFlag("--eviction-hard", kubelet.eviction_hard, "<", same),
        JoinedFlag("--eviction-soft", kubelet.eviction_soft, "<", same),
        JoinedFlag("--eviction-soft-grace-period", kubelet.eviction_soft_grace_period, "=",
                   [](const api::Duration& d) { return d.String(); })}) {
    if (!flag.empty()) args.push_back(std::move(flag));
  }
  if (kubelet.eviction_max_pod_grace_period) {
    args.push_back(
        absl::StrCat("--eviction-max-pod-grace-period=", *kubelet.eviction_max_pod_grace_period));
  }
  if (kubelet.image_gc_high_threshold_percent) {
    args.push_back(
        absl::StrCat("--image-gc-high-threshold=", *kubelet.image_gc_high_threshold_percent));
  }
  if (kubelet.image_gc_low_threshold_percent) {
    args.push_back(
        absl::StrCat("--image-gc-low-threshold=", *kubelet.image_gc_low_threshold_percent));
  }
  if (kubelet.cpu_cfs_quota) {
    args.push_back(absl::StrCat("--cpu-cfs-quota=", *kubelet.cpu_cfs_quota ? "true" : "false"));
  }
  return args;
}

absl::StatusOr<std::vector<MimePart>> SplitMimeParts(std::string_view document) {
  std::vector<absl::string_view> lines = absl::StrSplit(AbslView(document), '\n');
  std::string boundary;
  size_t i = 0;
  for (; i < lines.size(); ++i) {
    const absl::string_view line = absl::StripTrailingAsciiWhitespace(lines[i]);
    if (line.empty()) break;
    if (!absl::StartsWithIgnoreCase(line, "Content-Type:")) continue;
    if (!absl::StrContains(absl::AsciiStrToLower(line), "multipart/")) {
      return absl::InvalidArgumentError("not a multipart MIME document");
    }
    const size_t at = line.find("boundary=");
    if (at == absl::string_view::npos) break;
    absl::string_view value = line.substr(at + 9);
    value = value.substr(0, value.find(';'));
    boundary = std::string(absl::StripSuffix(absl::StripPrefix(value, "\""), "\""));
  }
  if (boundary.empty()) {
    return absl::InvalidArgumentError("a MIME document without a multipart boundary");
  }
  const std::string delimiter = absl::StrCat("--", boundary);
  std::vector<MimePart> parts;
  MimePart* part = nullptr;
  bool in_headers = false;
  for (++i; i < lines.size(); ++i) {
    const absl::string_view line = absl::StripTrailingAsciiWhitespace(lines[i]);
    if (line == delimiter + "--") {
      if (part != nullptr && absl::EndsWith(part->body, "\n")) part->body.pop_back();
      return parts;
    }
    if (line == delimiter) {
      if (part != nullptr && absl::EndsWith(part->body, "\n")) part->body.pop_back();
      part = &parts.emplace_back();
      in_headers = true;
      continue;
    }
    if (part == nullptr) continue;  // the preamble
    if (in_headers) {
      if (line.empty()) {
        in_headers = false;
      } else {
        part->headers.emplace_back(line);
      }
      continue;
    }
    absl::StrAppend(&part->body, absl::StripSuffix(lines[i], "\r"), "\n");
  }
  return absl::InvalidArgumentError(
      absl::StrCat("the MIME document does not end with ", delimiter, "--"));
}

absl::StatusOr<std::string> Al2UserData(const BootstrapOptions& options) {
  std::vector<MimePart> parts;
  const std::string custom = options.custom_user_data.value_or("");
  if (IsMime(custom)) {
    absl::StatusOr<std::vector<MimePart>> split = SplitMimeParts(custom);
    if (!split.ok())
      return absl::InvalidArgumentError(absl::StrCat("spec.userData: ", split.status().message()));
    parts = *std::move(split);
  } else if (!custom.empty()) {
    parts.push_back({.headers = {kShellScriptType}, .body = custom});
  }
  parts.push_back({.headers = {kShellScriptType}, .body = Al2BootstrapScript(options)});
  std::string out = absl::StrCat("MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"",
                                 kBoundary, "\"\n\n");
  for (const MimePart& part : parts) {
    absl::StrAppend(&out, "--", kBoundary, "\n", absl::StrJoin(part.headers, "\n"), "\n\n",
                    part.body, "\n");
  }
  absl::StrAppend(&out, "--", kBoundary, "--\n");
  return out;
}

std::string WindowsUserData(const BootstrapOptions& options) {
  const ClusterInfo& cluster = options.cluster;
  std::string out = "<powershell>\n";
  if (options.custom_user_data && !options.custom_user_data->empty()) {
    absl::StrAppend(&out, *options.custom_user_data, "\n");
  }
  absl::StrAppend(&out,
                  "[string]$EKSBootstrapScriptFile = "
                  "\"$env:ProgramFiles\\Amazon\\EKS\\Start-EKSBootstrap.ps1\"\n",
                  "& $EKSBootstrapScriptFile -EKSClusterName '", cluster.name,
                  "' -APIServerEndpoint '", cluster.endpoint, "'");
  if (!cluster.ca_bundle.empty())
    absl::StrAppend(&out, " -Base64ClusterCA '", cluster.ca_bundle, "'");
  absl::StrAppend(&out, " -KubeletExtraArgs '", absl::StrJoin(KubeletExtraArgs(options), " "), "'");
  if (options.kubelet && !options.kubelet->cluster_dns.empty()) {
    absl::StrAppend(&out, " -DNSClusterIP '", options.kubelet->cluster_dns[0], "'");
  }
  absl::StrAppend(&out, "\n</powershell>");
  return out;
}

}  // namespace karpenter::aws
