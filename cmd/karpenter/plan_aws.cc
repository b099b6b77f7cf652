#include "cmd/karpenter/plan_aws.h"

#include <algorithm>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "karpenter/clock.h"
#include "karpenter/common/status.h"
#include "src/api/json_writer.h"
#include "src/cloudprovider/reserved_offerings.h"
#include "src/provisioning/node_class_catalog.h"

namespace karpenter::cli {
namespace {

// A plan is one instant: nothing is ever marked unavailable, so the clock of the (empty)
// unavailable-offerings cache is never asked to move or to run a timer.
class PlanInstant final : public karpenter::Clock {
 public:
  int64_t NowMillis() const override { return 0; }
  api::Time Now() const override { return api::Time(); }
  void After(int64_t, std::function<void()>) override {}
};

std::string PriceSourceName(aws::PriceSource source, const std::string& aws_call) {
  switch (source) {
    case aws::PriceSource::kAws:
      return aws_call;
    case aws::PriceSource::kEmbeddedCatalog:
      return "embedded";
    case aws::PriceSource::kNone:
      break;
  }
  return "none";
}

bool UsesAlias(const api::EC2NodeClass& node_class) {
  for (const api::AMISelectorTerm& term : node_class.spec.ami_selector_terms) {
    if (!term.alias.empty()) return true;
  }
  return false;
}

}  // namespace

absl::StatusOr<std::unique_ptr<AccountPlan>> AccountPlan::Open(const std::string& region) {
  KP_ASSIGN_OR_RETURN(std::unique_ptr<aws::AccountReader> reader,
                      aws::AccountReader::Create({.region = region}));
  KP_RETURN_IF_ERROR(reader->CheckCredentials());
  return std::unique_ptr<AccountPlan>(new AccountPlan(
      std::move(reader), region.empty() ? "AWS SDK chain (AWS_REGION, AWS_DEFAULT_REGION, profile, "
                                          "IMDS)"
                                        : "--region"));
}

absl::Status AccountPlan::ResolveNodeClasses(std::vector<api::Manifest>& manifests) {
  for (api::Manifest& manifest : manifests) {
    auto* node_class =
        manifest.object ? std::get_if<api::EC2NodeClass>(&*manifest.object) : nullptr;
    if (node_class == nullptr) continue;
    absl::StatusOr<api::EC2NodeClassStatus> status = reader_->ResolveNodeClass(*node_class);
    if (!status.ok()) {
      return absl::Status(
          status.status().code(),
          absl::StrCat(manifest.source, ": ", manifest.Ref(), ": ", status.status().message()));
    }
    node_class->status = *std::move(status);
    auto& sources = node_class_sources_[node_class->metadata.name];
    sources = {{"subnets", "ec2:DescribeSubnets"},
               {"securityGroups", "ec2:DescribeSecurityGroups"},
               {"amis", UsesAlias(*node_class) ? "ssm:GetParameter,ec2:DescribeImages"
                                               : "ec2:DescribeImages"}};
    if (!node_class->spec.capacity_reservation_selector_terms.empty()) {
      sources["capacityReservations"] = "ec2:DescribeCapacityReservations";
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<provisioning::PlanResult> AccountPlan::Plan(const state::ClusterSnapshot& snapshot,
                                                           const provisioning::PlanOptions& options,
                                                           const provisioning::MillisClock& clock) {
  // Existing nodes and in-flight NodeClaims are sized from the embedded catalog, as the
  // controller's scheduler input is; only what NodePools may launch is read from the account.
  provisioning::CatalogCache catalogs(options.spot_prices, options.region);
  KP_ASSIGN_OR_RETURN(provisioning::SnapshotSchedulerInput input,
                      provisioning::BuildSchedulerInput(snapshot, options, catalogs));
  PlanInstant instant;
  const cloudprovider::UnavailableOfferings none(instant, [] { return int64_t{0}; });
  for (provisioning::NodePoolInstanceTypes& pool : input.input.node_pools) {
    const std::string& class_name = pool.node_pool.spec.template_.spec.node_class_ref->name;
    const api::EC2NodeClass* node_class = snapshot.FindEC2NodeClass(class_name);
    if (node_class == nullptr) continue;  // BuildSchedulerInput left such pools out
    KP_ASSIGN_OR_RETURN(const cloudprovider::ResolveOptions resolve,
                        provisioning::ResolveOptionsFor(*node_class));
    const std::vector<std::string> zones = provisioning::SubnetZones(*node_class);
    absl::StatusOr<std::vector<cloudprovider::InstanceType>> types =
        reader_->InstanceTypes(resolve, std::set<std::string>(zones.begin(), zones.end()), none);
    if (!types.ok()) {
      return absl::Status(types.status().code(),
                          absl::StrCat("EC2NodeClass/", class_name,
                                       ": instance types: ", types.status().message()));
    }
    types_read_ = true;
    // The reservations the class selects, as the controller offers them.
    cloudprovider::AddReservedOfferings(node_class->status.capacity_reservations, *types);
    std::vector<provisioning::InstanceTypeView> views;
    for (const cloudprovider::InstanceType& type : *types) {
      if (auto view = provisioning::ToInstanceTypeView(type, zones)) views.push_back(*view);
    }
    pool.instance_types = std::move(views);
  }
  provisioning::PlanResult plan = provisioning::PlanFromInput(input, clock);
  plan.warnings.insert(plan.warnings.end(), warnings_.begin(), warnings_.end());
  std::sort(plan.warnings.begin(), plan.warnings.end());
  return plan;
}

std::string AccountPlan::SourcesJson() const {
  api::JsonWriter json;
  json.BeginObject();
  if (types_read_) {
    json.Key("instanceTypes");
    json.String("ec2:DescribeInstanceTypes");
  }
  json.Key("nodeClasses");
  json.BeginObject();
  for (const auto& [name, fields] : node_class_sources_) {
    json.Key(name);
    json.BeginObject();
    for (const auto& [field, call] : fields) {
      json.Key(field);
      json.String(call);
    }
    json.EndObject();
  }
  json.EndObject();
  if (types_read_) {
    json.Key("offerings");
    json.String("ec2:DescribeInstanceTypeOfferings");
    json.Key("onDemandPrices");
    json.String(PriceSourceName(reader_->on_demand_source(), "pricing:GetProducts"));
  }
  json.Key("region");
  json.String(region());
  if (types_read_) {
    json.Key("spotPrices");
    json.String(PriceSourceName(reader_->spot_source(), "ec2:DescribeSpotPriceHistory"));
  }
  json.EndObject();
  return json.Take();
}

std::string AccountPlan::WithSources(const std::string& json) const {
  const size_t close = json.find_last_of('}');
  if (close == std::string::npos) return json;
  const bool empty = json.find_first_not_of(" \n{", json.find('{')) == close;
  return absl::StrCat(json.substr(0, close), empty ? "" : ",", "\"sources\":", SourcesJson(),
                      json.substr(close));
}

void AccountPlan::DescribeIn(provisioning::PlanAssumptions& assumptions) const {
  assumptions.region_source = region_source_;
  if (!types_read_) return;
  assumptions.on_demand_prices =
      PriceSourceName(reader_->on_demand_source(), "pricing:GetProducts") == "embedded"
          ? "embedded table (pricing:GetProducts failed)"
          : "pricing:GetProducts";
  assumptions.spot_prices =
      PriceSourceName(reader_->spot_source(), "ec2:DescribeSpotPriceHistory") == "embedded"
          ? "estimated by the model (ec2:DescribeSpotPriceHistory failed)"
          : "ec2:DescribeSpotPriceHistory";
}

std::string AccountPlan::SourcesText() const {
  std::string out = absl::StrCat("sources (--cloud aws, region ", region(), "):\n");
  if (types_read_) {
    absl::StrAppend(&out,
                    "  instance types: ec2:DescribeInstanceTypes, offerings: "
                    "ec2:DescribeInstanceTypeOfferings\n");
    absl::StrAppend(
        &out,
        "  on-demand prices: ", PriceSourceName(reader_->on_demand_source(), "pricing:GetProducts"),
        ", spot prices: ", PriceSourceName(reader_->spot_source(), "ec2:DescribeSpotPriceHistory"),
        "\n");
  }
  for (const auto& [name, fields] : node_class_sources_) {
    absl::StrAppend(&out, "  EC2NodeClass/", name, ":");
    for (const auto& [field, call] : fields) absl::StrAppend(&out, " ", field, " ", call, ";");
    out.back() = '\n';
  }
  return out;
}

}  // namespace karpenter::cli
