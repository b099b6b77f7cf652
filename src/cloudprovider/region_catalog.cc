#include "src/cloudprovider/region_catalog.h"

#include <algorithm>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_join.h"
#include "fmt/core.h"
#include "src/cloudprovider/embedded_data.h"

namespace karpenter::cloudprovider {
namespace {

// The lines of `text` with comments and surrounding blanks removed; empty lines are kept so that
// indexes stay line numbers minus one.
// (This absl's string_view is not std::string_view, so the splitting is done here.)
std::vector<std::string_view> Split(std::string_view text, char separator, bool skip_empty) {
  std::vector<std::string_view> parts;
  while (true) {
    size_t end = text.find(separator);
    std::string_view part = text.substr(0, end);
    if (!skip_empty || !part.empty()) parts.push_back(part);
    if (end == std::string_view::npos) return parts;
    text.remove_prefix(end + 1);
  }
}

std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> lines = Split(text, '\n', /*skip_empty=*/false);
  for (std::string_view& line : lines) {
    line = line.substr(0, line.find('#'));
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.remove_suffix(1);
  }
  return lines;
}

std::vector<std::string_view> Fields(std::string_view line) {
  return Split(line, ' ', /*skip_empty=*/true);
}

absl::Status OfferingsLineError(size_t index, std::string_view message) {
  return absl::InvalidArgumentError(fmt::format("offerings line {}: {}", index + 1, message));
}

// "<suffixes> <family>.<size>[,<size>...] ..." into `out`, zones named by suffix.
absl::Status AddZoneSetLine(const std::vector<std::string_view>& fields, size_t index,
                            RegionOfferings& out) {
  std::vector<std::string> zones;
  for (char suffix : fields[0]) {
    std::string zone = out.region + suffix;
    if (!std::binary_search(out.zones.begin(), out.zones.end(), zone)) {
      return OfferingsLineError(index, fmt::format("zone {} is not in the region line", zone));
    }
    zones.push_back(std::move(zone));
  }
  for (size_t i = 1; i < fields.size(); ++i) {
    size_t dot = fields[i].find('.');
    if (dot == std::string_view::npos || dot == 0) {
      return OfferingsLineError(index, fmt::format("\"{}\" is not <family>.<sizes>", fields[i]));
    }
    std::string_view family = fields[i].substr(0, dot);
    for (std::string_view size : Split(fields[i].substr(dot + 1), ',', /*skip_empty=*/false)) {
      out.zones_by_type[fmt::format("{}.{}", family, size)] = zones;
    }
  }
  return absl::OkStatus();
}

}  // namespace

std::vector<std::string> OfferingRegions(std::string_view offerings_text) {
  std::vector<std::string> regions;
  for (std::string_view line : Lines(offerings_text)) {
    std::vector<std::string_view> fields = Fields(line);
    if (fields.size() >= 2 && fields[0] == "region") regions.emplace_back(fields[1]);
  }
  std::sort(regions.begin(), regions.end());
  return regions;
}

absl::StatusOr<RegionOfferings> ParseRegionOfferings(std::string_view offerings_text,
                                                     std::string_view region) {
  std::vector<std::string_view> lines = Lines(offerings_text);
  RegionOfferings out;
  bool inside = false;
  for (size_t index = 0; index < lines.size(); ++index) {
    std::vector<std::string_view> fields = Fields(lines[index]);
    if (fields.empty()) continue;
    if (fields[0] == "region") {
      if (inside) break;  // the next region starts
      if (fields.size() < 3) return OfferingsLineError(index, "expected `region <name> <zones>`");
      if (fields[1] != region) continue;
      inside = true;
      out.region = std::string(region);
      for (size_t i = 2; i < fields.size(); ++i)
        out.zones.push_back(out.region + std::string(fields[i]));
      std::sort(out.zones.begin(), out.zones.end());
      continue;
    }
    if (!inside) continue;
    if (fields.size() < 2) return OfferingsLineError(index, "expected `<zones> <types>`");
    absl::Status added = AddZoneSetLine(fields, index, out);
    if (!added.ok()) return added;
  }
  if (!inside) {
    return absl::NotFoundError(fmt::format("unknown region \"{}\"; known regions: {}", region,
                                           absl::StrJoin(OfferingRegions(offerings_text), ", ")));
  }
  return out;
}

absl::StatusOr<double> RegionPriceFactor(std::string_view region_prices_text,
                                         std::string_view region,
                                         const std::map<std::string, double>& us_east_1_prices) {
  std::vector<std::string_view> lines = Lines(region_prices_text);
  for (size_t index = 0; index < lines.size(); ++index) {
    std::vector<std::string_view> fields = Fields(lines[index]);
    if (fields.empty() || fields[0] != region) continue;
    double price = 0;
    if (fields.size() != 3 || !absl::SimpleAtod(std::string(fields[2]), &price) || !(price > 0)) {
      return absl::InvalidArgumentError(fmt::format(
          "region prices line {}: expected `<region> <instance-type> <price>`", index + 1));
    }
    auto base = us_east_1_prices.find(std::string(fields[1]));
    if (base == us_east_1_prices.end() || !(base->second > 0)) {
      return absl::InvalidArgumentError(
          fmt::format("region prices line {}: {} has no us-east-1 price", index + 1, fields[1]));
    }
    return price / base->second;
  }
  return absl::NotFoundError(fmt::format("no on-demand prices for region \"{}\"", region));
}

std::vector<std::string> EmbeddedRegions() { return OfferingRegions(EmbeddedOfferings()); }

absl::StatusOr<std::vector<std::string>> EmbeddedRegionZones(std::string_view region) {
  absl::StatusOr<RegionOfferings> offerings = ParseRegionOfferings(EmbeddedOfferings(), region);
  if (!offerings.ok()) return offerings.status();
  return std::move(offerings->zones);
}

}  // namespace karpenter::cloudprovider
