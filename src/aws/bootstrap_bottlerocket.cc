// Upstream: pkg/providers/amifamily/bootstrap/bottlerocket.go and bottlerocketsettings.go.
// Karpenter's settings win over the class's own: the cluster, labels (merged, Karpenter's win),
// taints (replaced), and the kubelet settings the class sets; everything else the class wrote
// under `settings` is kept as it was.
#include "absl/strings/str_cat.h"
#include "karpenter/common/status.h"
#include "src/aws/absl_view.h"
#include "src/aws/bootstrap.h"
#include "src/aws/toml.h"

namespace karpenter::aws {
namespace {

// The table under `key`, made when missing; kInvalidArgument when `key` holds something else.
absl::StatusOr<TomlTable*> TableAt(TomlTable& parent, const std::string& key,
                                   std::string_view path) {
  auto [it, inserted] = parent.try_emplace(key, TomlValue{TomlTable{}});
  auto* table = std::get_if<TomlTable>(&it->second.value);
  if (table == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("spec.userData: ", AbslView(path), " is not a TOML table"));
  }
  return table;
}

TomlValue StringTable(const std::map<std::string, std::string>& values) {
  TomlTable table;
  for (const auto& [key, value] : values) table[key] = TomlValue{value};
  return TomlValue{std::move(table)};
}

void WriteKubelet(const api::KubeletConfiguration& kubelet, TomlTable& kubernetes) {
  if (!kubelet.cluster_dns.empty()) kubernetes["cluster-dns-ip"] = {kubelet.cluster_dns[0]};
  if (kubelet.max_pods) kubernetes["max-pods"] = {int64_t{*kubelet.max_pods}};
  if (!kubelet.system_reserved.empty()) {
    kubernetes["system-reserved"] = StringTable(kubelet.system_reserved);
  }
  if (!kubelet.kube_reserved.empty()) {
    kubernetes["kube-reserved"] = StringTable(kubelet.kube_reserved);
  }
  if (!kubelet.eviction_hard.empty()) {
    kubernetes["eviction-hard"] = StringTable(kubelet.eviction_hard);
  }
  if (!kubelet.eviction_soft.empty()) {
    kubernetes["eviction-soft"] = StringTable(kubelet.eviction_soft);
  }
  if (!kubelet.eviction_soft_grace_period.empty()) {
    std::map<std::string, std::string> periods;
    for (const auto& [signal, period] : kubelet.eviction_soft_grace_period) {
      periods[signal] = period.String();
    }
    kubernetes["eviction-soft-grace-period"] = StringTable(periods);
  }
  if (kubelet.eviction_max_pod_grace_period) {
    kubernetes["eviction-max-pod-grace-period"] = {int64_t{*kubelet.eviction_max_pod_grace_period}};
  }
  // Bottlerocket takes the image GC thresholds as strings.
  if (kubelet.image_gc_high_threshold_percent) {
    kubernetes["image-gc-high-threshold-percent"] = {
        absl::StrCat(*kubelet.image_gc_high_threshold_percent)};
  }
  if (kubelet.image_gc_low_threshold_percent) {
    kubernetes["image-gc-low-threshold-percent"] = {
        absl::StrCat(*kubelet.image_gc_low_threshold_percent)};
  }
  if (kubelet.cpu_cfs_quota) kubernetes["cpu-cfs-quota-enforced"] = {*kubelet.cpu_cfs_quota};
}

// Instance stores as one RAID0 array for containerd, the kubelet and pod logs.
TomlValue MountInstanceStorage() {
  auto words = [](std::initializer_list<const char*> list) {
    TomlArray out;
    for (const char* word : list) out.push_back({std::string(word)});
    return TomlValue{std::move(out)};
  };
  TomlTable command;
  command["commands"] = {
      TomlArray{words({"apiclient", "ephemeral-storage", "init"}),
                words({"apiclient", "ephemeral-storage", "bind", "--dirs", "/var/lib/containerd",
                       "/var/lib/kubelet", "/var/log/pods"})}};
  command["mode"] = {std::string("always")};
  command["essential"] = {true};
  return TomlValue{std::move(command)};
}

}  // namespace

absl::StatusOr<std::string> BottlerocketUserData(const BootstrapOptions& options) {
  TomlTable root;
  if (options.custom_user_data) {
    absl::StatusOr<TomlTable> parsed = ParseToml(*options.custom_user_data);
    if (!parsed.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("spec.userData: ", parsed.status().message()));
    }
    root = *std::move(parsed);
  }
  KP_ASSIGN_OR_RETURN(TomlTable * settings, TableAt(root, "settings", "settings"));
  KP_ASSIGN_OR_RETURN(TomlTable * kubernetes,
                      TableAt(*settings, "kubernetes", "settings.kubernetes"));
  (*kubernetes)["cluster-name"] = {options.cluster.name};
  (*kubernetes)["api-server"] = {options.cluster.endpoint};
  if (!options.cluster.ca_bundle.empty()) {
    (*kubernetes)["cluster-certificate"] = {options.cluster.ca_bundle};
  }
  KP_ASSIGN_OR_RETURN(TomlTable * labels,
                      TableAt(*kubernetes, "node-labels", "settings.kubernetes.node-labels"));
  for (const auto& [key, value] : options.labels) (*labels)[key] = {value};
  if (labels->empty()) kubernetes->erase("node-labels");
  if (options.kubelet) WriteKubelet(*options.kubelet, *kubernetes);
  TomlTable taints;
  for (const api::Taint& taint : options.taints) {
    TomlValue& values = taints.try_emplace(taint.key, TomlValue{TomlArray{}}).first->second;
    std::get<TomlArray>(values.value).push_back({absl::StrCat(taint.value, ":", taint.effect)});
  }
  (*kubernetes)["node-taints"] = {std::move(taints)};
  if (options.raid0) {
    KP_ASSIGN_OR_RETURN(TomlTable * commands,
                        TableAt(*settings, "bootstrap-commands", "settings.bootstrap-commands"));
    (*commands)["000-mount-instance-storage"] = MountInstanceStorage();
  }
  return WriteToml(root);
}

}  // namespace karpenter::aws
