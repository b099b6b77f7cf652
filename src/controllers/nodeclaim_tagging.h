// Upstream: aws/karpenter-provider-aws pkg/controllers/nodeclaim/tagging. Once a NodeClaim of an
// EC2NodeClass has registered (its node name is known), the instance behind it gets the tags
// that only exist after launch: `Name` = the node's name, `karpenter.sh/nodeclaim` and
// `eks:eks-cluster-name`; tags the instance already carries are left as they are. The claim is
// then annotated `karpenter.k8s.aws/tagged` (and the compatibility annotation) so it happens
// once. CreateTags shares EC2's mutating-call budget with CreateFleet, so at most one is made a
// second. A claim being deleted, or whose instance is gone, is left alone.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "karpenter/clock.h"
#include "karpenter/kube_cluster.h"
#include "src/api/nodeclaim.h"
#include "src/controllers/reconciler.h"

namespace karpenter::controllers {

// Upstream waits a second after every CreateTags.
inline constexpr int64_t kTaggingWriteIntervalMillis = 1000;
// Upstream's instance tag keys.
inline constexpr std::string_view kNameTagKey = "Name";
inline constexpr std::string_view kNodeClaimTagKey = "karpenter.sh/nodeclaim";
inline constexpr std::string_view kEksClusterNameTagKey = "eks:eks-cluster-name";

// Whether the tagging controller still has work on `claim`: it has a node name, is not being
// deleted and lacks one of the two annotations.
bool Taggable(const api::NodeClaim& claim);

class NodeClaimTagging {
 public:
  using InstanceTags = std::map<std::string, std::string>;
  // The provider's tagging of the instance behind `provider_id`: writes those of `tags` the
  // instance does not carry yet and answers whether it made a write. kNotFound when the
  // instance is gone (or is not this cluster's); kInvalidArgument when the provider ID names no
  // instance; anything else is retried.
  using TagInstance =
      std::function<absl::StatusOr<bool>(const std::string& provider_id, const InstanceTags& tags)>;

  NodeClaimTagging(Clock& clock, ClusterReader& reader, ClusterWriter& writer,
                   TagInstance tag_instance, std::string cluster_name);

  void Start();
  absl::StatusOr<ReconcileResult> Reconcile(const std::string& name);

 private:
  Clock& clock_;
  ClusterReader& reader_;
  ClusterWriter& writer_;
  TagInstance tag_instance_;
  std::string cluster_name_;
  // When the next CreateTags may be made (the 1/s limit).
  int64_t next_write_millis_ = 0;
  KeyedController controller_;
};

}  // namespace karpenter::controllers
