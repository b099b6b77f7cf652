#include "src/aws/pricing_client.h"

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "src/aws/test_fakes.h"
#include "src/aws/test_harness.h"

namespace karpenter::aws {
namespace {

// One PriceList entry as GetProducts returns it: a JSON document inside a JSON string.
std::string Entry(const std::string& type, const std::string& usd) {
  const nlohmann::json product = {
      {"product", {{"attributes", {{"instanceType", type}, {"operatingSystem", "Linux"}}}}},
      {"terms",
       {{"OnDemand",
         {{"SKU.TERM",
           {{"priceDimensions", {{"SKU.TERM.DIM", {{"pricePerUnit", {{"USD", usd}}}}}}}}}}}}}};
  return product.dump();
}

struct Harness : FakeAwsHarness {
  Harness() : FakeAwsHarness("us-east-1", "pricing") {}
  PricingClient pricing{client};
};

TEST(AwsPricing, ReadsPagesAndKeepsTheLowestPrice) {
  Harness h;
  h.transport.Push(
      200, nlohmann::json(
               {{"PriceList", {Entry("m5.large", "0.0960000000"), Entry("c5.large", "0.085")}},
                {"NextToken", "t1"}})
               .dump());
  h.transport.Push(
      200,
      nlohmann::json(
          {{"PriceList", {Entry("m5.large", "0.0900000000"), Entry("m5.large", "0.0000000000")}}})
          .dump());
  auto prices = h.pricing.OnDemandPrices("us-west-2");
  ASSERT_TRUE(prices.ok()) << prices.status();
  EXPECT_EQ(*prices, (std::map<std::string, double>{{"c5.large", 0.085}, {"m5.large", 0.09}}));
  EXPECT_EQ(h.pricing.pages(), 2);
  EXPECT_EQ(h.pricing.skipped_entries(), 1);
  const auto first = nlohmann::json::parse(h.transport.requests()[0].body);
  EXPECT_EQ(first["ServiceCode"], "AmazonEC2");
  EXPECT_FALSE(first.contains("NextToken"));
  EXPECT_EQ(nlohmann::json::parse(h.transport.requests()[1].body)["NextToken"], "t1");
  EXPECT_EQ(h.transport.requests()[0].Header("X-Amz-Target"), "AWSPriceListService.GetProducts");
}

TEST(AwsPricing, HostileEntriesAreSkipped) {
  Harness h;
  const std::string deep = std::string(100, '[') + std::string(100, ']');
  h.transport.Push(
      200,
      nlohmann::json(
          {{"PriceList",
            {"not json", deep, R"({"product":5,"terms":[]})",
             R"({"product":{"attributes":{"instanceType":"t3.micro"}},"terms":{"OnDemand":{"x":{"priceDimensions":{"y":{"pricePerUnit":{"USD":"abc"}}}}}}})",
             42, Entry("t3.small", "0.0208")}}})
          .dump());
  auto prices = h.pricing.OnDemandPrices("us-west-2");
  ASSERT_TRUE(prices.ok()) << prices.status();
  EXPECT_EQ(*prices, (std::map<std::string, double>{{"t3.small", 0.0208}}));
  EXPECT_EQ(h.pricing.skipped_entries(), 5);
}

TEST(AwsPricing, ServerErrorsSurface) {
  Harness h;
  h.transport.Push(400, R"({"__type":"AccessDeniedException","message":"no"})");
  EXPECT_EQ(h.pricing.OnDemandPrices("us-west-2").status().code(),
            absl::StatusCode::kPermissionDenied);
}

}  // namespace
}  // namespace karpenter::aws
