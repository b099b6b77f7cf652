// Upstream: aws/karpenter-provider-aws pkg/providers/amifamily/bootstrap (eksbootstrap.go,
// bottlerocket.go, windows.go, bootstrap.go) and the per-family UserData of amifamily. The user
// data that joins a node to the cluster for the AMI families other than AL2023 (nodeadm, in
// launch_template.cc) and Custom (the class's userData as is):
//   - AL2: a MIME multi-part document, the class's own parts first (a plain script becomes a
//     shell-script part), then a script calling /etc/eks/bootstrap.sh;
//   - Bottlerocket: TOML, the class's own settings with Karpenter's `settings.kubernetes`
//     written over them;
//   - Windows: a <powershell> block, the class's own lines first, then Start-EKSBootstrap.ps1.
// The node's labels are the NodeClaim's minus the domains the kubelet may not set
// (kubernetes.io, k8s.io); its taints are the claim's taints and startup taints plus
// karpenter.sh/unregistered:NoExecute, which Karpenter removes once the node registers.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "src/api/ec2nodeclass.h"
#include "src/api/nodeclaim.h"
#include "src/aws/launch_template.h"

namespace karpenter::aws {

struct BootstrapOptions {
  ClusterInfo cluster;
  std::map<std::string, std::string> labels;
  std::vector<api::Taint> taints;
  std::optional<api::KubeletConfiguration> kubelet;
  std::optional<std::string> custom_user_data;
  bool raid0 = false;  // instanceStorePolicy RAID0
};

BootstrapOptions BootstrapOptionsFor(const ClusterInfo& cluster,
                                     const api::EC2NodeClass& node_class,
                                     const api::NodeClaim& node_claim);

// The kubelet flags AL2 and Windows pass through: node labels, taints, then the class's kubelet
// settings, maps sorted by key.
std::vector<std::string> KubeletExtraArgs(const BootstrapOptions& options);

// kInvalidArgument naming spec.userData when the class's user data claims to be MIME and is not.
absl::StatusOr<std::string> Al2UserData(const BootstrapOptions& options);
// kInvalidArgument naming spec.userData when the class's user data is not TOML this reads.
absl::StatusOr<std::string> BottlerocketUserData(const BootstrapOptions& options);
std::string WindowsUserData(const BootstrapOptions& options);

// One part of a MIME multi-part document: its header lines as written, and its body.
struct MimePart {
  std::vector<std::string> headers;
  std::string body;
};
// The parts of a multipart/* MIME document (the boundary from its Content-Type header).
absl::StatusOr<std::vector<MimePart>> SplitMimeParts(std::string_view document);

}  // namespace karpenter::aws
