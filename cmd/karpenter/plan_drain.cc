#include "cmd/karpenter/plan_drain.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "src/api/selector_match.h"
#include "src/cloudprovider/catalog.h"

namespace karpenter::cli {

absl::StatusOr<std::vector<state::DrainSelector>> ParseDrainSelectors(
    const std::vector<std::string>& values) {
  std::vector<state::DrainSelector> out;
  for (const std::string& value : values) {
    // kubectl drain without a selector takes a node name; an empty selector would drain all.
    if (value.empty()) {
      return absl::InvalidArgumentError("--drain: want a label selector, got an empty one");
    }
    absl::StatusOr<api::LabelSelector> selector = api::ParseSelector(value);
    if (!selector.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--drain \"", value, "\": ", selector.status().message()));
    }
    out.push_back({value, *std::move(selector)});
  }
  return out;
}

absl::Status AttachDrain(state::DrainResult drain, const state::ClusterSnapshot& before,
                         const provisioning::PlanOptions& options, provisioning::PlanResult& plan) {
  cloudprovider::CatalogOptions catalog_options;
  catalog_options.resolve.region = options.region;
  catalog_options.spot = options.spot_prices;
  KP_ASSIGN_OR_RETURN(const cloudprovider::Catalog catalog,
                      cloudprovider::Catalog::LoadEmbedded(catalog_options));
  plan.warnings.insert(plan.warnings.end(), drain.warnings.begin(), drain.warnings.end());
  std::sort(plan.warnings.begin(), plan.warnings.end());
  plan.drain =
      provisioning::PriceDrain(std::move(drain), before, catalog, plan.summary.price_per_hour);
  return absl::OkStatus();
}

}  // namespace karpenter::cli
