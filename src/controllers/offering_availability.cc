#include "src/controllers/offering_availability.h"

#include <algorithm>

namespace karpenter::controllers {

void MarkUnavailableOfferings(cloudprovider::UnavailableOfferings& unavailable,
                              provisioning::SchedulerInput& input) {
  unavailable.Expire();
  if (unavailable.empty()) return;
  auto refused = [&](const provisioning::InstanceTypeView& type,
                     const provisioning::OfferingView& offering) {
    return unavailable.IsUnavailable(type.name, offering.zone, offering.capacity_type);
  };
  for (provisioning::NodePoolInstanceTypes& pool : input.node_pools) {
    const bool any = std::any_of(
        pool.instance_types.begin(), pool.instance_types.end(),
        [&](const provisioning::InstanceTypeView& type) {
          return std::any_of(type.offerings.begin(), type.offerings.end(),
                             [&](const auto& offering) { return refused(type, offering); });
        });
    if (!any) continue;
    for (provisioning::InstanceTypeView& type : pool.instance_types.Mutable()) {
      for (provisioning::OfferingView& offering : type.offerings) {
        if (refused(type, offering)) offering.available = false;
      }
    }
  }
}

}  // namespace karpenter::controllers
