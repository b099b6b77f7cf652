#include "cmd/karpenter/plan_catalog.h"

#include <set>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "cmd/karpenter/catalog_option.h"

namespace karpenter::cli {
namespace {

// The first flag given that only the embedded AWS catalog can serve, or empty.
std::string FlagNeedingAwsCatalog(const PlanCommandOptions& options) {
  if (!options.spot_prices.empty()) return "--spot-price";
  if (!options.region.empty()) return "--region";
  if (options.disruption) return "--disruption";
  if (!options.drain.empty()) return "--drain";
  if (absl::StartsWith(options.explain, "node/")) return "--explain node/...";
  return "";
}

}  // namespace

absl::Status ApplyPlanCatalog(const PlanCommandOptions& options,
                              provisioning::PlanOptions& plan_options) {
  if (options.catalog.empty()) return absl::OkStatus();
  if (const std::string flag = FlagNeedingAwsCatalog(options); !flag.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("--catalog: cannot be used with ", flag,
                                                   ", which needs the embedded AWS catalog"));
  }
  KP_ASSIGN_OR_RETURN(provisioning::InstanceTypeFile file, LoadCatalogOption(options.catalog));
  provisioning::DeclareWellKnownLabels(file, plan_options.scheduler.well_known_labels);
  plan_options.instance_types = std::move(file.instance_types);
  return absl::OkStatus();
}

void DescribeCatalogAssumptions(const std::string& catalog,
                                const provisioning::PlanOptions& plan_options,
                                provisioning::PlanAssumptions& assumptions) {
  std::set<std::string> zones;
  if (plan_options.instance_types) {
    for (const provisioning::InstanceTypeView& type : *plan_options.instance_types) {
      for (const provisioning::OfferingView& offering : type.offerings) {
        if (offering.available) zones.insert(offering.zone);
      }
    }
  }
  const std::string source = absl::StrCat("offerings of --catalog ", catalog);
  // The region picks nothing here: the catalog gives zones and prices.
  assumptions.region_source = "not used: --catalog gives the zones and prices";
  assumptions.region_assumed = false;
  assumptions.zones.assign(zones.begin(), zones.end());
  assumptions.zones_source = absl::StrCat("the available ", source);
  assumptions.on_demand_prices = source;
  assumptions.spot_prices = absl::StrCat("from the ", source);
}

}  // namespace karpenter::cli
