// Upstream: pkg/providers/launchtemplate/launchtemplate.go,
// pkg/providers/amifamily/bootstrap/nodeadm.go, amifamily/resolver.go (default block devices).
#include "src/aws/launch_template.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "karpenter/common/status.h"
#include "src/api/karpenter_labels.h"
#include "src/aws/absl_view.h"
#include "src/aws/bootstrap.h"
#include "src/aws/crypto.h"

namespace karpenter::aws {
namespace {

constexpr char kBoundary[] = "//";

// The volumes when the class names no block device mappings, as upstream's families: 20 GiB gp3 on
// /dev/xvda (AL2, AL2023, Custom); Bottlerocket a 4 GiB OS volume and a 20 GiB data volume on
// /dev/xvdb; Windows 50 GiB on /dev/sda1.
std::vector<BlockDevice> DefaultBlockDevices(std::string_view family) {
  if (family == api::kAMIFamilyBottlerocket) {
    return {BlockDevice{.volume_size_gib = 4}, BlockDevice{.device_name = "/dev/xvdb"}};
  }
  if (family.starts_with("Windows")) {
    return {BlockDevice{.device_name = "/dev/sda1", .volume_size_gib = 50}};
  }
  return {BlockDevice{}};
}

std::vector<BlockDevice> BlockDevices(const api::EC2NodeClass& node_class,
                                      std::string_view family) {
  std::vector<BlockDevice> out;
  for (const api::BlockDeviceMapping& mapping : node_class.spec.block_device_mappings) {
    BlockDevice device;
    device.device_name = mapping.device_name.value_or("/dev/xvda");
    if (mapping.ebs) {
      const api::BlockDevice& ebs = *mapping.ebs;
      if (ebs.volume_size) {
        // Whole GiB: the CRD only admits Gi/G/Ti/T sizes.
        device.volume_size_gib = (ebs.volume_size->Value() + (int64_t{1} << 30) - 1) >> 30;
      }
      device.volume_type = ebs.volume_type.value_or("gp3");
      device.iops = ebs.iops.value_or(0);
      device.throughput = ebs.throughput.value_or(0);
      device.delete_on_termination = ebs.delete_on_termination.value_or(true);
      device.kms_key_id = ebs.kms_key_id.value_or("");
    }
    out.push_back(std::move(device));
  }
  if (out.empty()) return DefaultBlockDevices(family);
  return out;
}

std::string TaintFlag(const std::vector<api::Taint>& taints) {
  std::vector<std::string> parts;
  for (const api::Taint& taint : taints) {
    parts.push_back(absl::StrCat(taint.key, "=", taint.value, ":", taint.effect));
  }
  return absl::StrJoin(parts, ",");
}

// A canonical rendering of everything that makes two templates differ.
std::string Canonical(const LaunchTemplateSpec& spec) {
  std::string out =
      absl::StrCat(spec.image_id, "\n", spec.user_data, "\n",
                   absl::StrJoin(spec.security_group_ids, ","), "\n", spec.instance_profile_name,
                   "\n", spec.metadata_hop_limit, "\n", spec.metadata_ipv6 ? "ipv6" : "ipv4", "\n");
  for (const BlockDevice& device : spec.block_devices) {
    absl::StrAppend(&out, device.device_name, ":", device.volume_size_gib, ":", device.volume_type,
                    ":", device.iops, ":", device.throughput, ":", device.delete_on_termination,
                    ":", device.kms_key_id, "\n");
  }
  for (const auto& [key, value] : spec.tags) absl::StrAppend(&out, key, "=", value, "\n");
  // Kept out of the text of templates without a reservation, so their names stay as they were.
  if (!spec.capacity_reservation_id.empty() || !spec.market_type.empty()) {
    absl::StrAppend(&out, "reservation=", spec.capacity_reservation_id, ":", spec.market_type,
                    "\n");
  }
  if (!spec.capacity_reservation_preference.empty()) {
    absl::StrAppend(&out, "reservation-preference=", spec.capacity_reservation_preference, "\n");
  }
  return out;
}

}  // namespace

std::string Al2023UserData(const ClusterInfo& cluster, const api::EC2NodeClass& node_class,
                           const api::NodeClaim& node_claim) {
  std::string out = absl::StrCat("MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"",
                                 kBoundary, "\"\n\n");
  if (node_class.spec.user_data && !node_class.spec.user_data->empty()) {
    absl::StrAppend(&out, "--", kBoundary,
                    "\nContent-Type: text/x-shellscript; charset=\"us-ascii\"", "\n\n",
                    *node_class.spec.user_data, "\n");
  }
  absl::StrAppend(&out, "--", kBoundary, "\nContent-Type: application/node.eks.aws\n\n",
                  "apiVersion: node.eks.aws/v1alpha1\nkind: NodeConfig\nspec:\n  cluster:\n",
                  "    name: ", cluster.name, "\n    apiServerEndpoint: ", cluster.endpoint,
                  "\n    certificateAuthority: ", cluster.ca_bundle,
                  "\n    cidr: ", cluster.service_cidr, "\n  kubelet:\n    config:\n");
  const auto& kubelet = node_class.spec.kubelet;
  if (kubelet && kubelet->max_pods)
    absl::StrAppend(&out, "      maxPods: ", *kubelet->max_pods, "\n");
  if (kubelet && !kubelet->cluster_dns.empty()) {
    absl::StrAppend(&out, "      clusterDNS:\n");
    for (const std::string& dns : kubelet->cluster_dns)
      absl::StrAppend(&out, "      - ", dns, "\n");
  }
  std::vector<std::string> labels;
  for (const auto& [key, value] : node_claim.metadata.labels) {
    // Only the NodePool's own labels: the instance's facts are labelled by the kubelet and
    // Karpenter after registration.
    if (key == api::kNodePoolLabelKey) labels.push_back(absl::StrCat(key, "=", value));
  }
  absl::StrAppend(&out, "    flags:\n    - --node-labels=\"", absl::StrJoin(labels, ","), "\"\n");
  std::vector<api::Taint> taints = node_claim.spec.taints;
  taints.insert(taints.end(), node_claim.spec.startup_taints.begin(),
                node_claim.spec.startup_taints.end());
  if (!taints.empty()) {
    absl::StrAppend(&out, "    - --register-with-taints=\"", TaintFlag(taints), "\"\n");
  }
  absl::StrAppend(&out, "--", kBoundary, "--\n");
  return out;
}

Tags LaunchTemplateTags(const ClusterInfo& cluster, const api::EC2NodeClass& node_class) {
  Tags tags(node_class.spec.tags.begin(), node_class.spec.tags.end());
  tags["karpenter.k8s.aws/cluster"] = cluster.name;
  tags[std::string(api::kLabelNodeClass)] = node_class.metadata.name;
  tags["eks:eks-cluster-name"] = cluster.name;
  tags[absl::StrCat("kubernetes.io/cluster/", cluster.name)] = "owned";
  return tags;
}

absl::StatusOr<LaunchTemplateSpec> BuildLaunchTemplate(
    const ClusterInfo& cluster, const api::EC2NodeClass& given_class,
    const api::NodeClaim& node_claim, const std::string& image_id, std::optional<int32_t> max_pods,
    const cloudprovider::Offering* reserved, LaunchMode mode) {
  // The bootstrap of every family reads the kubelet settings from the class: fill in max pods
  // there, on a copy.
  api::EC2NodeClass node_class = given_class;
  if (max_pods && !(node_class.spec.kubelet && node_class.spec.kubelet->max_pods)) {
    if (!node_class.spec.kubelet) node_class.spec.kubelet.emplace();
    node_class.spec.kubelet->max_pods = *max_pods;
  }
  const std::string family = api::ResolvedAMIFamily(node_class.spec);
  LaunchTemplateSpec spec;
  if (family == "AL2023") {
    spec.user_data = Al2023UserData(cluster, node_class, node_claim);
  } else if (family == api::kAMIFamilyCustom) {
    spec.user_data = node_class.spec.user_data.value_or("");
  } else if (family == api::kAMIFamilyAL2) {
    KP_ASSIGN_OR_RETURN(spec.user_data,
                        Al2UserData(BootstrapOptionsFor(cluster, node_class, node_claim)));
  } else if (family == api::kAMIFamilyBottlerocket) {
    KP_ASSIGN_OR_RETURN(spec.user_data,
                        BottlerocketUserData(BootstrapOptionsFor(cluster, node_class, node_claim)));
  } else if (family.starts_with("Windows")) {
    spec.user_data = WindowsUserData(BootstrapOptionsFor(cluster, node_class, node_claim));
  } else {
    return absl::InvalidArgumentError(absl::StrCat("spec.amiFamily: unknown family ", family));
  }
  spec.image_id = image_id;
  for (const api::SecurityGroup& group : node_class.status.security_groups) {
    spec.security_group_ids.push_back(group.id);
  }
  spec.instance_profile_name = node_class.status.instance_profile;
  spec.block_devices = BlockDevices(node_class, family);
  if (const auto& metadata = node_class.spec.metadata_options) {
    spec.metadata_hop_limit = static_cast<int>(metadata->http_put_response_hop_limit.value_or(1));
    spec.metadata_ipv6 = metadata->http_protocol_ipv6.value_or("disabled") == "enabled";
  }
  spec.tags = LaunchTemplateTags(cluster, node_class);
  if (reserved != nullptr) {
    spec.capacity_reservation_id = reserved->reservation_id;
    if (reserved->reservation_type == "capacity-block") {
      spec.market_type = "capacity-block";
    } else if (reserved->reservation_interruptible) {
      spec.market_type = "interruptible-capacity-reservation";
    }
  } else if (mode == LaunchMode::kTargeted) {
    spec.capacity_reservation_preference = "none";
  }
  spec.name =
      absl::StrCat(AbslView(kLaunchTemplateNamePrefix), Sha256Hex(Canonical(spec)).substr(0, 20));
  return spec;
}

}  // namespace karpenter::aws
