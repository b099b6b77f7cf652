#include "src/aws/pricing_client.h"

#include <set>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "karpenter/common/status.h"
#include "src/aws/json.h"

namespace karpenter::aws {
namespace {

constexpr JsonLimits kEntryLimits{.max_bytes = size_t{1} << 20, .max_depth = 32};

nlohmann::json TermMatch(const std::string& field, const std::string& value) {
  return {{"Type", "TERM_MATCH"}, {"Field", field}, {"Value", value}};
}

// The instance type and its lowest USD on-demand price in one PriceList entry, if it has both.
std::optional<std::pair<std::string, double>> ReadEntry(const std::string& text) {
  absl::StatusOr<nlohmann::json> entry = ParseJson(text, kEntryLimits);
  if (!entry.ok() || !entry->is_object()) return std::nullopt;
  const std::string type =
      JsonString(JsonObject(JsonObject(*entry, "product"), "attributes"), "instanceType");
  if (type.empty()) return std::nullopt;
  std::optional<double> lowest;
  for (const auto& term : JsonObject(JsonObject(*entry, "terms"), "OnDemand")) {
    for (const auto& dimension : JsonObject(term, "priceDimensions")) {
      const std::string usd = JsonString(JsonObject(dimension, "pricePerUnit"), "USD");
      double price = 0;
      if (!absl::SimpleAtod(usd, &price) || price <= 0) continue;
      if (!lowest.has_value() || price < *lowest) lowest = price;
    }
  }
  if (!lowest.has_value()) return std::nullopt;
  return std::pair(type, *lowest);
}

}  // namespace

absl::StatusOr<std::map<std::string, double>> PricingClient::OnDemandPrices(
    const std::string& region_code) {
  nlohmann::json request = {
      {"ServiceCode", "AmazonEC2"},
      {"FormatVersion", "aws_v1"},
      {"MaxResults", 100},
      {"Filters",
       {TermMatch("regionCode", region_code), TermMatch("operatingSystem", "Linux"),
        TermMatch("tenancy", "Shared"), TermMatch("preInstalledSw", "NA"),
        TermMatch("capacitystatus", "Used")}}};
  std::map<std::string, double> out;
  std::set<std::string> seen_tokens;
  for (int page = 0; page < kMaxPages; ++page) {
    ++pages_;
    KP_ASSIGN_OR_RETURN(
        const nlohmann::json answer,
        client_.CallJson("AWSPriceListService.GetProducts", request, "application/x-amz-json-1.1"));
    const auto list = answer.find("PriceList");
    if (list != answer.end() && list->is_array()) {
      for (const auto& item : *list) {
        std::optional<std::pair<std::string, double>> entry;
        if (item.is_string()) entry = ReadEntry(item.get<std::string>());
        if (!entry.has_value()) {
          ++skipped_;
          continue;
        }
        auto [it, inserted] = out.emplace(entry->first, entry->second);
        if (!inserted && entry->second < it->second) it->second = entry->second;
      }
    }
    const std::string token = JsonString(answer, "NextToken");
    if (token.empty()) return out;
    if (!seen_tokens.insert(token).second) {
      return absl::InternalError("GetProducts: the server repeated NextToken");
    }
    request["NextToken"] = token;
  }
  return absl::InternalError(absl::StrCat("GetProducts: more than ", kMaxPages, " pages"));
}

}  // namespace karpenter::aws
