#include "src/cloudprovider/on_demand_prices.h"

#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "fmt/core.h"

namespace karpenter::cloudprovider {
namespace {

absl::Status LineError(size_t line, std::string_view message) {
  return absl::InvalidArgumentError(fmt::format("on-demand prices line {}: {}", line, message));
}

absl::StatusOr<double> PositiveNumber(std::string_view text, size_t line) {
  double value = 0;
  if (!absl::SimpleAtod(std::string(text), &value) || !(value > 0)) {
    return LineError(line, fmt::format("\"{}\" is not a positive number", text));
  }
  return value;
}

// The whitespace-separated fields of `line`, ignoring anything after '#'.
std::vector<std::string_view> Fields(std::string_view line) {
  line = line.substr(0, line.find('#'));
  std::vector<std::string_view> fields;
  constexpr std::string_view kSpace = " \t\r";
  size_t start = line.find_first_not_of(kSpace);
  while (start != std::string_view::npos) {
    size_t end = line.find_first_of(kSpace, start);
    fields.push_back(line.substr(start, end == std::string_view::npos ? end : end - start));
    start = end == std::string_view::npos ? end : line.find_first_not_of(kSpace, end);
  }
  return fields;
}

struct TypeName {
  std::string_view family;
  std::string_view size;
};

std::optional<TypeName> SplitTypeName(std::string_view name) {
  size_t dot = name.find('.');
  if (dot == std::string_view::npos || dot == 0 || dot + 1 == name.size()) return std::nullopt;
  return TypeName{name.substr(0, dot), name.substr(dot + 1)};
}

}  // namespace

std::optional<double> SizeUnits(std::string_view size) {
  static constexpr std::pair<std::string_view, double> kNamed[] = {
      {"nano", 0.25}, {"micro", 0.5}, {"small", 1}, {"medium", 2}, {"large", 4}, {"xlarge", 8}};
  for (const auto& [name, units] : kNamed) {
    if (size == name) return units;
  }
  constexpr std::string_view kSuffix = "xlarge";
  if (!size.ends_with(kSuffix)) return std::nullopt;
  size.remove_suffix(kSuffix.size());
  int multiple = 0;
  if (!absl::SimpleAtoi(std::string(size), &multiple) || multiple <= 0) return std::nullopt;
  return 8.0 * multiple;
}

absl::StatusOr<OnDemandPriceTable> OnDemandPriceTable::Parse(std::string_view text) {
  OnDemandPriceTable table;
  size_t line_number = 0;
  while (!text.empty()) {
    ++line_number;
    size_t newline = text.find('\n');
    std::vector<std::string_view> fields = Fields(text.substr(0, newline));
    text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
    if (fields.empty()) continue;
    if (fields[0].find('.') != std::string_view::npos) {  // an exact price for one type
      if (fields.size() != 2 || !SplitTypeName(fields[0])) {
        return LineError(line_number, "expected `<instance-type> <price>`");
      }
      absl::StatusOr<double> price = PositiveNumber(fields[1], line_number);
      if (!price.ok()) return price.status();
      if (!table.overrides_.emplace(std::string(fields[0]), *price).second) {
        return LineError(line_number, fmt::format("duplicate type {}", fields[0]));
      }
      continue;
    }
    if (fields.size() < 3 || fields.size() > 4) {
      return LineError(line_number, "expected `<family> <size> <price> [metal=<factor>]`");
    }
    FamilyPrice family{.size = std::string(fields[1])};
    if (!SizeUnits(family.size)) {
      return LineError(line_number, fmt::format("reference size {} has no units", fields[1]));
    }
    absl::StatusOr<double> price = PositiveNumber(fields[2], line_number);
    if (!price.ok()) return price.status();
    family.price = *price;
    if (fields.size() == 4) {
      constexpr std::string_view kMetal = "metal=";
      if (!fields[3].starts_with(kMetal)) {
        return LineError(line_number, fmt::format("unknown option {}", fields[3]));
      }
      absl::StatusOr<double> factor = PositiveNumber(fields[3].substr(kMetal.size()), line_number);
      if (!factor.ok()) return factor.status();
      family.metal_factor = *factor;
    }
    if (!table.families_.emplace(std::string(fields[0]), std::move(family)).second) {
      return LineError(line_number, fmt::format("duplicate family {}", fields[0]));
    }
  }
  return table;
}

std::map<std::string, double> OnDemandPriceTable::PricesFor(
    const std::vector<InstanceTypeInfo>& types) const {
  std::map<std::string, int64_t, std::less<>> vcpus_by_name;
  for (const InstanceTypeInfo& info : types) vcpus_by_name[info.name] = info.vcpus;

  std::map<std::string, double> prices;
  for (const InstanceTypeInfo& info : types) {
    if (auto exact = overrides_.find(info.name); exact != overrides_.end()) {
      prices[info.name] = exact->second;
      continue;
    }
    std::optional<TypeName> name = SplitTypeName(info.name);
    if (!name) continue;
    auto family = families_.find(name->family);
    if (family == families_.end()) continue;
    const FamilyPrice& reference = family->second;
    double reference_units = *SizeUnits(reference.size);
    if (std::optional<double> units = SizeUnits(name->size)) {
      prices[info.name] = reference.price * *units / reference_units;
      continue;
    }
    if (!name->size.starts_with("metal")) continue;
    // A bare-metal size is priced like the sized type with the same vCPUs.
    auto reference_vcpus = vcpus_by_name.find(fmt::format("{}.{}", name->family, reference.size));
    if (reference_vcpus == vcpus_by_name.end() || reference_vcpus->second <= 0) continue;
    prices[info.name] = reference.price * static_cast<double>(info.vcpus) /
                        static_cast<double>(reference_vcpus->second) * reference.metal_factor;
  }
  return prices;
}

}  // namespace karpenter::cloudprovider
