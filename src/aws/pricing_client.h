// The AWS Price List API (GetProducts, JSON 1.1): on-demand Linux prices per instance type for a
// region. Every PriceList entry is itself a JSON document in a string, read with the same limits
// as any answer; entries that do not parse or carry no USD price are skipped, not fatal, so one odd
// product cannot hide the rest.
#pragma once

#include <atomic>
#include <map>
#include <string>

#include "absl/status/statusor.h"
#include "src/aws/aws_client.h"

namespace karpenter::aws {

class PricingClient {
 public:
  static constexpr int kMaxPages = 1000;

  explicit PricingClient(AwsClient& client) : client_(client) {}

  // Instance type -> USD per hour, for shared-tenancy Linux without pre-installed software in
  // `region_code` (e.g. "us-west-2"). When a type has several prices, the lowest wins.
  absl::StatusOr<std::map<std::string, double>> OnDemandPrices(const std::string& region_code);

  int pages() const { return pages_.load(); }
  int skipped_entries() const { return skipped_.load(); }

 private:
  AwsClient& client_;
  std::atomic<int> pages_ = 0;
  std::atomic<int> skipped_ = 0;
};

}  // namespace karpenter::aws
