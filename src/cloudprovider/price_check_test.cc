// Checks the embedded on-demand prices against the list of real us-east-1 prices that the
// development machines carry outside the repository (../shared/data/aws-on-demand-prices.csv).
// That file is a check only: it is read here and never copied into the project.
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "src/cloudprovider/catalog.h"

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

}  // namespace
}  // namespace karpenter::cloudprovider
