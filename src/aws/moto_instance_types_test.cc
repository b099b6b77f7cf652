// The instance-type provider against moto_server: types and offerings from EC2, prices from
// Pricing (canned, since moto's answers HTTP 500) or the embedded catalog, the 5-minute cache on
// the injected clock, and insufficient-capacity marks showing as unavailable offerings.
#include <algorithm>

#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "src/aws/test_moto_provider.h"

namespace karpenter::aws {
namespace {

using MotoInstanceTypes = MotoProviderTest;

api::NodePool Pool() {
  api::NodePool pool;
  pool.metadata.name = "default";
  pool.spec.template_.spec.node_class_ref = api::NodeClassReference{
      .kind = "EC2NodeClass", .name = "default", .group = "karpenter.k8s.aws"};
  return pool;
}

const cloudprovider::InstanceType& Find(const std::vector<cloudprovider::InstanceType>& types,
                                        const std::string& name) {
  auto it = std::find_if(types.begin(), types.end(), [&](const auto& t) { return t.name == name; });
  EXPECT_NE(it, types.end()) << name;
  return *it;
}

const cloudprovider::Offering* OfferingIn(const cloudprovider::InstanceType& type,
                                          const std::string& zone, const std::string& capacity) {
  for (const auto& offering : type.offerings) {
    if (offering.zone == zone && offering.capacity_type == capacity) return &offering;
  }
  return nullptr;
}

std::vector<cloudprovider::InstanceType> Types(AwsCloudProvider& provider) {
  auto types = provider.GetInstanceTypes(Pool());
  EXPECT_TRUE((std::holds_alternative<std::vector<cloudprovider::InstanceType>>(types)));
  if (!std::holds_alternative<std::vector<cloudprovider::InstanceType>>(types)) return {};
  return std::get<std::vector<cloudprovider::InstanceType>>(types);
}

TEST_F(MotoInstanceTypes, TypesAndOfferingsFromEc2WithCatalogPricesWhenPricingFails) {
  auto described = ec2_->DescribeInstanceTypes();
  ASSERT_TRUE(described.ok()) << described.status();
  const auto types = Types(*provider_);
  EXPECT_EQ(types.size(), described->size());
  const cloudprovider::InstanceType& m5 = Find(types, "m5.large");
  // Same facts and formulas as the embedded catalog (generated from the same EC2 data).
  const cloudprovider::InstanceType* embedded = catalog_->Find("m5.large");
  ASSERT_NE(embedded, nullptr);
  EXPECT_EQ(m5.capacity, embedded->capacity);
  // (The embedded catalog describes us-east-1, the account here us-west-2.)
  auto without_region = [](std::map<std::string, std::string> labels) {
    labels.erase("topology.kubernetes.io/region");
    return labels;
  };
  EXPECT_EQ(without_region(m5.labels), without_region(embedded->labels));
  EXPECT_EQ(m5.labels.at("topology.kubernetes.io/region"), "us-west-2");
  // Offerings only in the node class's subnet zones.
  EXPECT_EQ(m5.offerings.size(), 4u);
  const auto* on_demand = OfferingIn(m5, "us-west-2a", "on-demand");
  ASSERT_NE(on_demand, nullptr);
  EXPECT_TRUE(on_demand->available);
  EXPECT_DOUBLE_EQ(on_demand->price, *catalog_->OnDemandPrice("m5.large"));
  EXPECT_EQ(OfferingIn(m5, "us-west-2c", "on-demand"), nullptr);
  EXPECT_EQ(instance_types_->on_demand_source(), PriceSource::kEmbeddedCatalog);
  // moto answers DescribeSpotPriceHistory (with a dummy price), so spot prices are EC2's.
  EXPECT_EQ(instance_types_->spot_source(), PriceSource::kAws);
  const auto* spot = OfferingIn(m5, "us-west-2b", "spot");
  ASSERT_NE(spot, nullptr);
  EXPECT_GT(spot->price, 0);
}

// EC2's answer through ToCatalogInfo and the catalog's file (generated from the same moto data)
// must give every type the same capacity, overhead and labels.
TEST_F(MotoInstanceTypes, EveryTypeResolvesAsTheEmbeddedCatalogDoes) {
  const auto types = Types(*provider_);
  std::vector<std::string> differing;
  size_t compared = 0;
  for (const cloudprovider::InstanceType& type : types) {
    const cloudprovider::InstanceType* embedded = catalog_->Find(type.name);
    if (embedded == nullptr) continue;
    ++compared;
    auto labels = type.labels;
    auto embedded_labels = embedded->labels;
    labels.erase("topology.kubernetes.io/region");
    embedded_labels.erase("topology.kubernetes.io/region");
    if (type.capacity != embedded->capacity || type.overhead != embedded->overhead ||
        labels != embedded_labels) {
      differing.push_back(type.name);
    }
  }
  EXPECT_GT(compared, 500u);
  EXPECT_TRUE(differing.empty()) << differing.size()
                                 << " differ: " << absl::StrJoin(differing, " ");
}

TEST_F(MotoInstanceTypes, PricingAnswersAreUsedWhenReachable) {
  const nlohmann::json product = {
      {"product", {{"attributes", {{"instanceType", "m5.large"}, {"operatingSystem", "Linux"}}}}},
      {"terms",
       {{"OnDemand",
         {{"S.T", {{"priceDimensions", {{"S.T.D", {{"pricePerUnit", {{"USD", "0.5"}}}}}}}}}}}}}};
  faults_.AddRule({.operation = "GetProducts",
                   .kind = FaultKind::kRespond,
                   .response = {.status = 200,
                                .body = nlohmann::json{{"PriceList", {product.dump()}}}.dump()}});
  const auto types = Types(*provider_);
  EXPECT_EQ(instance_types_->on_demand_source(), PriceSource::kAws);
  EXPECT_DOUBLE_EQ(OfferingIn(Find(types, "m5.large"), "us-west-2a", "on-demand")->price, 0.5);
  // A type Pricing did not price has no on-demand price, so no available offering.
  EXPECT_FALSE(OfferingIn(Find(types, "c5.large"), "us-west-2a", "on-demand")->available);
}

// After five minutes the cached types are still answered at once, and EC2 is read again on the
// provider's own thread: a launch never waits for the catalog.
TEST_F(MotoInstanceTypes, CachedForFiveMinutesThenReadAgainInTheBackground) {
  const size_t catalog = Types(*provider_).size();
  ASSERT_GT(catalog, 1u);
  Types(*provider_);
  EXPECT_EQ(recorder_.Calls("DescribeInstanceTypes").size(), 1u);
  clock_.Advance(absl::Minutes(4));
  Types(*provider_);
  instance_types_->WaitForBackgroundRefresh();
  EXPECT_EQ(recorder_.Calls("DescribeInstanceTypes").size(), 1u);
  clock_.Advance(absl::Minutes(2));
  // EC2 now answers one type. The call past the TTL still gets the cached catalog; once the
  // background read is in, the next call sees the new answer.
  faults_.AddRule(
      {.operation = "DescribeInstanceTypes",
       .kind = FaultKind::kRespond,
       .response = {.status = 200,
                    .body = "<DescribeInstanceTypesResponse><instanceTypeSet><item>"
                            "<instanceType>m5.large</instanceType><currentGeneration>true"
                            "</currentGeneration><hypervisor>nitro</hypervisor>"
                            "<supportedUsageClasses><item>on-demand</item></supportedUsageClasses>"
                            "<processorInfo><supportedArchitectures><item>x86_64</item>"
                            "</supportedArchitectures></processorInfo><vCpuInfo><defaultVCpus>2"
                            "</defaultVCpus></vCpuInfo><memoryInfo><sizeInMiB>8192</sizeInMiB>"
                            "</memoryInfo><networkInfo><maximumNetworkInterfaces>3"
                            "</maximumNetworkInterfaces><ipv4AddressesPerInterface>10"
                            "</ipv4AddressesPerInterface></networkInfo></item></instanceTypeSet>"
                            "</DescribeInstanceTypesResponse>"}});
  EXPECT_EQ(Types(*provider_).size(), catalog);
  instance_types_->WaitForBackgroundRefresh();
  const std::vector<cloudprovider::InstanceType> refreshed = Types(*provider_);
  ASSERT_EQ(refreshed.size(), 1u);
  EXPECT_EQ(refreshed[0].name, "m5.large");
  EXPECT_EQ(recorder_.Calls("DescribeInstanceTypeOfferings").size(), 2u);
}

TEST_F(MotoInstanceTypes, RefreshAtStartLeavesTheFirstLaunchNothingToRead) {
  ASSERT_TRUE(instance_types_->Refresh().ok());
  EXPECT_EQ(recorder_.Calls("DescribeInstanceTypes").size(), 1u);
  EXPECT_EQ(recorder_.Calls("DescribeInstanceTypeOfferings").size(), 1u);
  const size_t spot_reads = recorder_.Calls("DescribeSpotPriceHistory").size();
  EXPECT_GE(spot_reads, 1u);
  EXPECT_FALSE(Types(*provider_).empty());
  EXPECT_EQ(recorder_.Calls("DescribeInstanceTypes").size(), 1u);
  EXPECT_EQ(recorder_.Calls("DescribeInstanceTypeOfferings").size(), 1u);
  EXPECT_EQ(recorder_.Calls("DescribeSpotPriceHistory").size(), spot_reads);
}

TEST_F(MotoInstanceTypes, StaleTypesAreServedWhenEc2FailsAndAnErrorWhenNothingIsCached) {
  faults_.AddRule({.operation = "DescribeInstanceTypes", .kind = FaultKind::kServerError});
  auto first = provider_->GetInstanceTypes(Pool());
  ASSERT_TRUE(std::holds_alternative<CloudError>(first));
  EXPECT_EQ(std::get<CloudError>(first).kind, CloudErrorKind::kUnavailable);
  faults_.ClearRules();
  EXPECT_FALSE(Types(*provider_).empty());
  faults_.AddRule({.operation = "DescribeInstanceTypes", .kind = FaultKind::kServerError});
  clock_.Advance(absl::Minutes(6));
  EXPECT_FALSE(Types(*provider_).empty());
  instance_types_->WaitForBackgroundRefresh();
  EXPECT_FALSE(Types(*provider_).empty());
}

TEST_F(MotoInstanceTypes, MarkedOfferingsAreUnavailableUntilTheirTtlRunsOut) {
  unavailable_.Mark({"m5.large", "us-west-2a", "spot"});
  auto types = Types(*provider_);
  EXPECT_FALSE(OfferingIn(Find(types, "m5.large"), "us-west-2a", "spot")->available);
  EXPECT_TRUE(OfferingIn(Find(types, "m5.large"), "us-west-2b", "spot")->available);
  controller_clock_.Advance(3 * 60 * 1000);
  unavailable_.Expire();
  types = Types(*provider_);
  EXPECT_TRUE(OfferingIn(Find(types, "m5.large"), "us-west-2a", "spot")->available);
}

}  // namespace
}  // namespace karpenter::aws
