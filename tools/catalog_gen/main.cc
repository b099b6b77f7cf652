// kp_catalog_gen: turns the EC2 instance-type data that ships inside the moto Python package
// (DescribeInstanceTypes and DescribeInstanceTypeOfferings answers, already decompressed) into the
// compact catalog committed as data/catalog/instance-types.json (the specs, which do not vary by
// region) and data/catalog/offerings.txt (per region, which zones offer which type). Run by hand
// through tools/gen_catalog.sh; the product only reads the committed output.
//
// Only types Karpenter would list are kept: HVM virtualization, an x86_64 or arm64 architecture,
// and at least one availability zone of some given region that offers them. Each kept type becomes
// one line holding only the facts the catalog needs (docs/catalog.md describes every field).
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "karpenter/common/status.h"
#include "nlohmann/json.hpp"

namespace karpenter::tools {
namespace {

using Json = nlohmann::json;
using OrderedJson = nlohmann::ordered_json;

// Typed lookups that never throw: nlohmann's get<>() throws on a type mismatch, so every access
// checks the type first and reports absence as nullopt.
std::optional<int64_t> Int(const Json& object, std::string_view key) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_number_integer()) return std::nullopt;
  return it->get<int64_t>();
}

std::optional<double> Number(const Json& object, std::string_view key) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

std::optional<std::string> String(const Json& object, std::string_view key) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_string()) return std::nullopt;
  return it->get<std::string>();
}

bool True(const Json& object, std::string_view key) {
  auto it = object.find(key);
  return it != object.end() && it->is_boolean() && it->get<bool>();
}

const Json& Child(const Json& object, std::string_view key) {
  static const Json kNull;  // immutable; stands in for a missing member
  auto it = object.find(key);
  return it == object.end() ? kNull : *it;
}

std::vector<std::string> Strings(const Json& object, std::string_view key) {
  std::vector<std::string> out;
  const Json& array = Child(object, key);
  if (!array.is_array()) return out;
  for (const Json& item : array) {
    if (item.is_string()) out.push_back(item.get<std::string>());
  }
  return out;
}

bool Contains(const std::vector<std::string>& values, std::string_view wanted) {
  for (const std::string& value : values) {
    if (value == wanted) return true;
  }
  return false;
}

absl::StatusOr<Json> ReadJson(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot open ", path));
  std::stringstream buffer;
  buffer << in.rdbuf();
  Json parsed = Json::parse(buffer.str(), nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) return absl::InvalidArgumentError(absl::StrCat(path, ": not JSON"));
  return parsed;
}

using ZonesByType = std::map<std::string, std::set<std::string>>;

// The region of an availability zone: its name without the trailing zone letter(s)
// ("us-east-1a" -> "us-east-1").
std::string RegionOfZone(const std::string& zone) {
  size_t end = zone.size();
  while (end > 0 && zone[end - 1] >= 'a' && zone[end - 1] <= 'z') --end;
  return zone.substr(0, end);
}

// region -> type name -> zones offering it, from availability-zone offerings lists.
absl::Status AddOfferings(const Json& offerings, std::map<std::string, ZonesByType>& by_region) {
  if (!offerings.is_array()) return absl::InvalidArgumentError("offerings: expected an array");
  for (const Json& row : offerings) {
    std::optional<std::string> type = String(row, "InstanceType");
    std::optional<std::string> zone = String(row, "Location");
    if (!type || !zone) return absl::InvalidArgumentError("offerings: row without type/location");
    by_region[RegionOfZone(*zone)][*type].insert(*zone);
  }
  return absl::OkStatus();
}

// One region of data/catalog/offerings.txt: "region <name> <zone suffixes>", then one line per
// distinct zone set, "<suffixes> <family>.<size>[,<size>...] ...", listing the kept types offered
// in exactly those zones with each family written once.
std::string OfferingsText(const std::string& region, const ZonesByType& zones_by_type,
                          const std::set<std::string>& kept) {
  std::set<std::string> suffixes;
  std::map<std::string, std::map<std::string, std::vector<std::string>>> groups;
  for (const auto& [type, zones] : zones_by_type) {
    if (kept.count(type) == 0) continue;
    std::string key;
    for (const std::string& zone : zones) {
      key += zone.substr(region.size());
      suffixes.insert(zone.substr(region.size()));
    }
    size_t dot = type.find('.');
    groups[key][type.substr(0, dot)].push_back(type.substr(dot + 1));
  }
  std::string out = absl::StrCat("region ", region, " ", absl::StrJoin(suffixes, " "), "\n");
  for (const auto& [key, families] : groups) {
    out += key;
    for (const auto& [family, sizes] : families) {
      absl::StrAppend(&out, " ", family, ".", absl::StrJoin(sizes, ","));
    }
    out += "\n";
  }
  return out;
}

bool KarpenterWouldList(const Json& info) {
  if (!Contains(Strings(info, "SupportedVirtualizationTypes"), "hvm")) return false;
  std::vector<std::string> archs = Strings(Child(info, "ProcessorInfo"), "SupportedArchitectures");
  return Contains(archs, "x86_64") || Contains(archs, "arm64");
}

// The VPC CNI attaches pod ENIs only to the default network card, so that card's ENI limit is the
// one that bounds pod density.
absl::StatusOr<int64_t> DefaultCardEnis(const Json& network) {
  int64_t index = Int(network, "DefaultNetworkCardIndex").value_or(0);
  const Json& cards = Child(network, "NetworkCards");
  if (cards.is_array()) {
    for (const Json& card : cards) {
      if (Int(card, "NetworkCardIndex").value_or(-1) != index) continue;
      if (std::optional<int64_t> enis = Int(card, "MaximumNetworkInterfaces")) return *enis;
    }
  }
  if (std::optional<int64_t> enis = Int(network, "MaximumNetworkInterfaces")) return *enis;
  return absl::InvalidArgumentError("no ENI limit");
}

// Baseline bandwidth summed over network cards, in Mbps; nullopt when EC2 publishes none.
std::optional<int64_t> NetworkMbps(const Json& network) {
  const Json& cards = Child(network, "NetworkCards");
  if (!cards.is_array()) return std::nullopt;
  double gbps = 0;
  bool any = false;
  for (const Json& card : cards) {
    if (std::optional<double> baseline = Number(card, "BaselineBandwidthInGbps")) {
      gbps += *baseline;
      any = true;
    }
  }
  if (!any) return std::nullopt;
  return static_cast<int64_t>(std::llround(gbps * 1000));
}

void AddDevices(const Json& info, OrderedJson& out) {
  OrderedJson gpus = OrderedJson::array();
  const Json& gpu_list = Child(Child(info, "GpuInfo"), "Gpus");
  if (gpu_list.is_array()) {
    for (const Json& gpu : gpu_list) {
      gpus.push_back({{"name", String(gpu, "Name").value_or("")},
                      {"manufacturer", String(gpu, "Manufacturer").value_or("")},
                      {"count", Int(gpu, "Count").value_or(0)},
                      {"memoryMiB", Int(Child(gpu, "MemoryInfo"), "SizeInMiB").value_or(0)}});
    }
  }
  if (!gpus.empty()) out["gpus"] = gpus;

  OrderedJson neuron = OrderedJson::array();
  const Json& devices = Child(Child(info, "NeuronInfo"), "NeuronDevices");
  if (devices.is_array()) {
    for (const Json& device : devices) {
      neuron.push_back({{"name", String(device, "Name").value_or("")},
                        {"count", Int(device, "Count").value_or(0)},
                        {"coresPerDevice", Int(Child(device, "CoreInfo"), "Count").value_or(0)},
                        {"memoryMiB", Int(Child(device, "MemoryInfo"), "SizeInMiB").value_or(0)}});
    }
  }
  if (!neuron.empty()) out["neuronDevices"] = neuron;

  OrderedJson accelerators = OrderedJson::array();
  const Json& list = Child(Child(info, "InferenceAcceleratorInfo"), "Accelerators");
  if (list.is_array()) {
    for (const Json& accelerator : list) {
      accelerators.push_back({{"name", String(accelerator, "Name").value_or("")},
                              {"manufacturer", String(accelerator, "Manufacturer").value_or("")},
                              {"count", Int(accelerator, "Count").value_or(0)}});
    }
  }
  if (!accelerators.empty()) out["inferenceAccelerators"] = accelerators;
}

void AddStorageAndNetwork(const Json& info, OrderedJson& out) {
  const Json& storage = Child(info, "InstanceStorageInfo");
  if (std::optional<int64_t> total = Int(storage, "TotalSizeInGB")) {
    out["localStorage"] = {
        {"totalGB", *total},
        {"nvme", String(storage, "NvmeSupport").value_or("unsupported") != "unsupported"}};
  }
  const Json& network = Child(info, "NetworkInfo");
  if (std::optional<int64_t> mbps = NetworkMbps(network)) out["networkMbps"] = *mbps;
  if (std::optional<std::string> performance = String(network, "NetworkPerformance")) {
    out["networkPerformance"] = *performance;
  }
  // Karpenter labels EBS bandwidth only for types that are EBS-optimized by default.
  const Json& ebs = Child(info, "EbsInfo");
  if (String(ebs, "EbsOptimizedSupport").value_or("") == "default") {
    if (auto mbps = Int(Child(ebs, "EbsOptimizedInfo"), "MaximumBandwidthInMbps")) {
      out["ebsMbps"] = *mbps;
    }
  }
}

absl::StatusOr<OrderedJson> Convert(const std::string& name, const Json& info) {
  const Json& network = Child(info, "NetworkInfo");
  const Json& processor = Child(info, "ProcessorInfo");
  std::optional<int64_t> vcpus = Int(Child(info, "VCpuInfo"), "DefaultVCpus");
  std::optional<int64_t> memory = Int(Child(info, "MemoryInfo"), "SizeInMiB");
  std::optional<int64_t> ipv4 = Int(network, "Ipv4AddressesPerInterface");
  absl::StatusOr<int64_t> enis = DefaultCardEnis(network);
  if (!vcpus || !memory || !ipv4 || !enis.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(name, ": missing vCPU, memory or ENI facts"));
  }
  OrderedJson out;
  out["name"] = name;
  out["vcpu"] = *vcpus;
  out["memoryMiB"] = *memory;
  out["arch"] = Strings(processor, "SupportedArchitectures");
  if (auto manufacturer = String(processor, "Manufacturer")) out["cpuManufacturer"] = *manufacturer;
  if (auto ghz = Number(processor, "SustainedClockSpeedInGhz")) out["clockGHz"] = *ghz;
  if (auto hypervisor = String(info, "Hypervisor")) out["hypervisor"] = *hypervisor;
  if (True(info, "BareMetal")) out["bareMetal"] = true;
  out["enis"] = *enis;
  out["ipv4PerEni"] = *ipv4;
  if (auto efa = Int(Child(network, "EfaInfo"), "MaximumEfaInterfaces")) out["efa"] = *efa;
  out["encryptionInTransit"] = True(network, "EncryptionInTransitSupported");
  out["nitroEnclaves"] = String(info, "NitroEnclavesSupport").value_or("") == "supported";
  AddStorageAndNetwork(info, out);
  AddDevices(info, out);
  OrderedJson usage = OrderedJson::array();
  for (const std::string& usage_class : Strings(info, "SupportedUsageClasses")) {
    // capacity-block offerings are launched through reservations, not listed as offerings.
    if (usage_class == "on-demand" || usage_class == "spot") usage.push_back(usage_class);
  }
  out["usage"] = usage;
  return out;
}

std::string Dump(const OrderedJson& value) {
  return value.dump(-1, ' ', false, OrderedJson::error_handler_t::replace);
}

absl::Status WriteFile(const std::string& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) return absl::PermissionDeniedError(absl::StrCat("cannot write ", path));
  out << content;
  if (!out) return absl::DataLossError(absl::StrCat("short write to ", path));
  return absl::OkStatus();
}

absl::Status Generate(const std::string& types_path,
                      const std::vector<std::string>& offerings_paths, const std::string& source,
                      const std::string& out_path, const std::string& offerings_out_path) {
  KP_ASSIGN_OR_RETURN(Json types, ReadJson(types_path));
  if (!types.is_object()) return absl::InvalidArgumentError("instance types: expected an object");
  std::map<std::string, ZonesByType> by_region;
  for (const std::string& path : offerings_paths) {
    KP_ASSIGN_OR_RETURN(Json offerings, ReadJson(path));
    KP_RETURN_IF_ERROR(AddOfferings(offerings, by_region));
  }
  std::set<std::string> offered;
  for (const auto& [region, zones_by_type] : by_region) {
    for (const auto& [type, zones] : zones_by_type) offered.insert(type);
  }

  std::vector<std::string> lines;
  std::set<std::string> kept;
  for (const auto& [name, info] : types.items()) {  // nlohmann objects iterate in key order
    if (offered.count(name) == 0 || !KarpenterWouldList(info)) continue;
    KP_ASSIGN_OR_RETURN(OrderedJson entry, Convert(name, info));
    lines.push_back(Dump(entry));
    kept.insert(name);
  }
  KP_RETURN_IF_ERROR(
      WriteFile(out_path, absl::StrCat("{\"source\":", Dump(source), ",\n\"instanceTypes\":[\n",
                                       absl::StrJoin(lines, ",\n"), "\n]}\n")));
  std::string offerings_text =
      absl::StrCat("# Generated by tools/gen_catalog.sh from ", source,
                   " (DescribeInstanceTypeOfferings per availability zone). Do not edit.\n"
                   "# docs/catalog.md describes the format.\n");
  for (const auto& [region, zones_by_type] : by_region) {
    offerings_text += OfferingsText(region, zones_by_type, kept);
  }
  KP_RETURN_IF_ERROR(WriteFile(offerings_out_path, offerings_text));
  std::cerr << "kp_catalog_gen: " << lines.size() << " instance types in " << by_region.size()
            << " regions -> " << out_path << ", " << offerings_out_path << "\n";
  return absl::OkStatus();
}

}  // namespace
}  // namespace karpenter::tools

int main(int argc, char** argv) {
  CLI::App app{"Generate the embedded instance-type catalog from moto's EC2 data"};
  std::string types_path, out_path, offerings_out_path, source = "moto";
  std::vector<std::string> offerings_paths;
  app.add_option("--instance-types", types_path, "instance_types.json (decompressed)")->required();
  app.add_option("--offerings", offerings_paths,
                 "instance_type_offerings/availability-zone/<region>.json (decompressed; one per "
                 "region, repeatable)")
      ->required();
  app.add_option("--out", out_path, "instance-type specs JSON to write")->required();
  app.add_option("--offerings-out", offerings_out_path, "per-region offerings text to write")
      ->required();
  app.add_option("--source", source, "provenance recorded in the output");
  CLI11_PARSE(app, argc, argv);
  absl::Status status =
      karpenter::tools::Generate(types_path, offerings_paths, source, out_path, offerings_out_path);
  if (!status.ok()) {
    std::cerr << "kp_catalog_gen: " << status << "\n";
    return 1;
  }
  return 0;
}
