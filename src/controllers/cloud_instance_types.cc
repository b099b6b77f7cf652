#include "src/controllers/cloud_instance_types.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "src/provisioning/node_class_catalog.h"

namespace karpenter::controllers {

void UseCloudInstanceTypes(CloudProvider* cloud, Logger* logger, std::string_view controller,
                           const state::ClusterSnapshot& snapshot,
                           provisioning::SnapshotSchedulerInput& input) {
  if (cloud == nullptr) return;
  std::vector<provisioning::NodePoolInstanceTypes> usable;
  for (provisioning::NodePoolInstanceTypes& pool : input.input.node_pools) {
    CloudOr<std::vector<cloudprovider::InstanceType>> types =
        cloud->GetInstanceTypes(pool.node_pool);
    if (const auto* error = std::get_if<CloudError>(&types)) {
      input.warnings.push_back(
          absl::StrCat("nodepool \"", pool.node_pool.metadata.name,
                       "\": skipping, unable to resolve instance types: ", error->message));
      if (logger != nullptr) {
        logger->Info("skipping, unable to resolve instance types",
                     {{"controller", std::string(controller)},
                      {"NodePool", pool.node_pool.metadata.name},
                      {"error", error->message}});
      }
      continue;
    }
    // The zones the class launches into, as the catalog's views are cut.
    const auto& ref = pool.node_pool.spec.template_.spec.node_class_ref;
    const api::EC2NodeClass* node_class = ref ? snapshot.FindEC2NodeClass(ref->name) : nullptr;
    const std::vector<std::string> zones =
        node_class != nullptr ? provisioning::SubnetZones(*node_class) : std::vector<std::string>{};
    std::vector<provisioning::InstanceTypeView> views;
    for (const cloudprovider::InstanceType& type :
         std::get<std::vector<cloudprovider::InstanceType>>(types)) {
      if (std::optional<provisioning::InstanceTypeView> view =
              provisioning::ToInstanceTypeView(type, zones)) {
        views.push_back(*std::move(view));
      }
    }
    pool.instance_types = std::move(views);
    usable.push_back(std::move(pool));
  }
  input.input.node_pools = std::move(usable);
}

}  // namespace karpenter::controllers
