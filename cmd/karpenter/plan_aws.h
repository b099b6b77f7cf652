// `karpenter plan --cloud aws`: the plan made against the user's account instead of the embedded
// catalog. Each EC2NodeClass's subnets, security groups and AMIs come from its selector terms
// (EC2 and SSM, read only), and the instance types, offerings and prices from the same
// InstanceTypeProvider the controller uses (embedded prices only where Pricing or
// DescribeSpotPriceHistory fail). The document output gains a `sources` object saying where each
// fact came from; the text output a `sources:` block.
#pragma once

#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "src/api/manifest.h"
#include "src/aws/account_reader.h"
#include "src/provisioning/plan.h"
#include "src/state/snapshot.h"

namespace karpenter::cli {

class AccountPlan {
 public:
  // The account the process environment names (`region` overrides the SDK chain's when set).
  // Fails with one line when the region, an endpoint or the credentials cannot be had.
  static absl::StatusOr<std::unique_ptr<AccountPlan>> Open(const std::string& region);

  const std::string& region() const { return reader_->region(); }

  // Replaces the status of every EC2NodeClass in `manifests` with what its selector terms
  // resolve to. The first class that cannot be resolved fails it, naming the class and field.
  absl::Status ResolveNodeClasses(std::vector<api::Manifest>& manifests);

  // The snapshot's scheduler input with each NodePool's instance types read from the account,
  // solved. Fails naming the class whose types cannot be read.
  absl::StatusOr<provisioning::PlanResult> Plan(const state::ClusterSnapshot& snapshot,
                                                const provisioning::PlanOptions& options,
                                                const provisioning::MillisClock& clock);

  // `{"region":..,"instanceTypes":..,..,"nodeClasses":{..}}`, keys sorted.
  std::string SourcesJson() const;
  // `json` (a plan document, one object) with `"sources":SourcesJson()` as its last key.
  std::string WithSources(const std::string& json) const;
  // The same facts for -o text and wide.
  std::string SourcesText() const;
  // Points the plan's assumptions at the account: where the region came from and which source
  // priced the offerings (the embedded catalog's defaults say otherwise).
  void DescribeIn(provisioning::PlanAssumptions& assumptions) const;

 private:
  AccountPlan(std::unique_ptr<aws::AccountReader> reader, std::string region_source)
      : reader_(std::move(reader)), region_source_(std::move(region_source)) {}

  std::unique_ptr<aws::AccountReader> reader_;
  std::string region_source_;
  // Per class: its field ("subnets") → the call that answered it.
  std::map<std::string, std::map<std::string, std::string>> node_class_sources_;
  bool types_read_ = false;
  // Added to the plan's warnings.
  std::vector<std::string> warnings_;
};

}  // namespace karpenter::cli
