// Checks the embedded on-demand prices against the list of real us-east-1 prices that the
// development machines carry outside the repository (../shared/data/aws-on-demand-prices.csv),
// and against upstream's generated initial-pricing table in the local mirror of
// aws/karpenter-provider-aws. Both are checks only: read here and never copied into the project.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "src/cloudprovider/catalog.h"
#include "src/cloudprovider/region_catalog.h"

namespace karpenter::cloudprovider {
namespace {

constexpr char kPriceList[] = KP_SOURCE_DIR "/../shared/data/aws-on-demand-prices.csv";

// region,instance_type,usd_per_hour rows for us-east-1, by type.
std::map<std::string, double> ReadPriceList(std::ifstream& in) {
  std::map<std::string, double> prices;
  std::string line;
  while (std::getline(in, line)) {
    std::stringstream row(line);
    std::string region, type, price;
    if (!std::getline(row, region, ',') || !std::getline(row, type, ',') ||
        !std::getline(row, price)) {
      continue;
    }
    if (region != "us-east-1") continue;
    char* end = nullptr;
    double value = std::strtod(price.c_str(), &end);
    if (end != price.c_str()) prices[type] = value;
  }
  return prices;
}

TEST(OnDemandPriceCheck, AtLeast95PercentOfListedTypesWithinOnePercent) {
  std::ifstream in(kPriceList);
  if (!in) GTEST_SKIP() << "no price list at " << kPriceList;
  std::map<std::string, double> listed = ReadPriceList(in);
  ASSERT_FALSE(listed.empty());
  absl::StatusOr<Catalog> catalog = Catalog::LoadEmbedded();
  ASSERT_TRUE(catalog.ok()) << catalog.status();

  int compared = 0;
  int close = 0;
  std::vector<std::string> off;
  for (const InstanceType& type : catalog->Types()) {
    auto want = listed.find(type.name);
    if (want == listed.end()) continue;
    ++compared;
    std::optional<double> got = catalog->OnDemandPrice(type.name);
    if (got && std::abs(*got - want->second) <= 0.01 * want->second) {
      ++close;
    } else if (off.size() < 20) {
      off.push_back(type.name);
    }
  }
  ASSERT_GT(compared, 0);
  double share = 100.0 * close / compared;
  std::cout << "on-demand price check: " << close << " of " << compared
            << " catalog types within 1% (" << share << "%)\n";
  RecordProperty("within_one_percent", std::to_string(share));
  EXPECT_GE(share, 95.0) << "first types off: " << testing::PrintToString(off);
}

// The bare git directory of the upstream mirror; KP_UPSTREAM_AWS_MIRROR overrides.
std::string UpstreamMirror() {
  const char* env = std::getenv("KP_UPSTREAM_AWS_MIRROR");
  return env != nullptr ? env : "/work/.mirror/aws+karpenter-provider-aws/repo";
}

// Upstream's initial on-demand prices by region and type, read from the Go map literal
// (`"us-east-1": {` opens a region; `"m5.large": 0.096000,` is a price). Empty without a mirror.
std::map<std::string, std::map<std::string, double>> ReadUpstreamPrices() {
  std::map<std::string, std::map<std::string, double>> prices;
  std::string command = "git --git-dir='" + UpstreamMirror() +
                        "' show HEAD:pkg/providers/pricing/zz_generated.pricing_aws.go 2>/dev/null";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return prices;
  std::string text;
  char buffer[4096];
  for (size_t n; (n = fread(buffer, 1, sizeof(buffer), pipe)) > 0;) text.append(buffer, n);
  pclose(pipe);
  std::string region;
  for (size_t quote = text.find('"'); quote != std::string::npos; quote = text.find('"', quote)) {
    size_t close = text.find('"', quote + 1);
    if (close == std::string::npos) break;
    std::string key = text.substr(quote + 1, close - quote - 1);
    size_t after = text.find_first_not_of(' ', close + 1);
    quote = close + 1;
    if (after == std::string::npos || text[after] != ':') continue;
    size_t value = text.find_first_not_of(' ', after + 1);
    if (value == std::string::npos) break;
    if (text[value] == '{') {
      region = key;
      continue;
    }
    char* end = nullptr;
    double price = std::strtod(text.c_str() + value, &end);
    if (end != text.c_str() + value && !region.empty()) prices[region][key] = price;
  }
  return prices;
}

// Every embedded region upstream's table also covers: us-east-1 (the table's exact source) must
// agree within 1% for 99% of its types; another region (priced by the region-level factor) within
// 10% for 80%. Upstream's commercial table only covers us-east-1 today.
TEST(OnDemandPriceCheck, EmbeddedRegionsAgreeWithUpstreamsInitialPrices) {
  std::map<std::string, std::map<std::string, double>> upstream = ReadUpstreamPrices();
  if (upstream.empty()) GTEST_SKIP() << "no upstream mirror at " << UpstreamMirror();
  int regions_compared = 0;
  for (const std::string& region : EmbeddedRegions()) {
    auto listed = upstream.find(region);
    if (listed == upstream.end()) continue;
    ++regions_compared;
    CatalogOptions options;
    options.resolve.region = region;
    absl::StatusOr<Catalog> catalog = Catalog::LoadEmbedded(options);
    ASSERT_TRUE(catalog.ok()) << catalog.status();
    const bool exact = region == kDefaultRegion;
    const double tolerance = exact ? 0.01 : 0.10;
    int compared = 0;
    int close = 0;
    for (const InstanceType& type : catalog->Types()) {
      auto want = listed->second.find(type.name);
      if (want == listed->second.end()) continue;
      ++compared;
      std::optional<double> got = catalog->OnDemandPrice(type.name);
      if (got && std::abs(*got - want->second) <= tolerance * want->second) ++close;
    }
    ASSERT_GT(compared, 0) << region;
    double share = 100.0 * close / compared;
    std::cout << "upstream price check " << region << ": " << close << " of " << compared
              << " within " << tolerance * 100 << "% (" << share << "%)\n";
    EXPECT_GE(share, exact ? 99.0 : 80.0) << region;
  }
  EXPECT_GT(regions_compared, 0);
}

}  // namespace
}  // namespace karpenter::cloudprovider
