// Upstream: pkg/apis/crds/karpenter.sh_nodeclaims.yaml (defaults)
#include "src/api/nodeclaim.h"

namespace karpenter::api {

NillableDuration DefaultExpireAfter() {
  return NillableDuration{.duration = Duration::FromHours(720),
                          .raw = std::string(kDefaultExpireAfter)};
}

void ApplyDefaults(NodeClaim& node_claim) {
  if (!node_claim.spec.expire_after) node_claim.spec.expire_after = DefaultExpireAfter();
}

}  // namespace karpenter::api
