#include "src/cloudprovider/instance_type_info.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "fmt/core.h"
#include "karpenter/common/status.h"
#include "simdjson.h"

namespace karpenter::cloudprovider {
namespace {

using simdjson::dom::array;
using simdjson::dom::element;
using simdjson::dom::object;

// Reads the members of one JSON object, remembering the first problem so a caller can read every
// field and check once. `where` names the object in error messages ("m5.large").
class FieldReader {
 public:
  FieldReader(object obj, std::string where) : obj_(obj), where_(std::move(where)) {}

  int64_t Int(std::string_view key, bool required = true) {
    int64_t value = 0;
    element e;
    if (!Find(key, required, e)) return 0;
    if (e.get_int64().get(value) != simdjson::SUCCESS) Fail(key, "an integer");
    return value;
  }

  std::optional<int64_t> OptionalInt(std::string_view key) {
    if (!Has(key)) return std::nullopt;
    return Int(key);
  }

  std::optional<double> OptionalNumber(std::string_view key) {
    element e;
    if (!Find(key, /*required=*/false, e)) return std::nullopt;
    double value = 0;
    if (e.get_double().get(value) == simdjson::SUCCESS) return value;
    int64_t integer = 0;
    if (e.get_int64().get(integer) == simdjson::SUCCESS) return static_cast<double>(integer);
    Fail(key, "a number");
    return std::nullopt;
  }

  std::string String(std::string_view key, bool required = true) {
    element e;
    if (!Find(key, required, e)) return "";
    std::string_view value;
    if (e.get_string().get(value) != simdjson::SUCCESS) Fail(key, "a string");
    return std::string(value);
  }

  bool Bool(std::string_view key) {
    element e;
    if (!Find(key, /*required=*/false, e)) return false;
    bool value = false;
    if (e.get_bool().get(value) != simdjson::SUCCESS) Fail(key, "a boolean");
    return value;
  }

  std::vector<std::string> Strings(std::string_view key) {
    std::vector<std::string> out;
    for (element item : Array(key)) {
      std::string_view value;
      if (item.get_string().get(value) != simdjson::SUCCESS) {
        Fail(key, "an array of strings");
        break;
      }
      out.emplace_back(value);
    }
    return out;
  }

  // The items of an array member; a missing member reads as empty, a non-array is an error.
  // (Iterating a default-constructed simdjson array is undefined, hence the copy.)
  std::vector<element> Array(std::string_view key) {
    std::vector<element> items;
    element e;
    if (!Find(key, /*required=*/false, e)) return items;
    array value;
    if (e.get_array().get(value) != simdjson::SUCCESS) {
      Fail(key, "an array");
      return items;
    }
    for (element item : value) items.push_back(item);
    return items;
  }

  std::optional<object> Object(std::string_view key) {
    element e;
    if (!Find(key, /*required=*/false, e)) return std::nullopt;
    object value;
    if (e.get_object().get(value) != simdjson::SUCCESS) {
      Fail(key, "an object");
      return std::nullopt;
    }
    return value;
  }

  bool Has(std::string_view key) {
    element e;
    return obj_[key].get(e) == simdjson::SUCCESS;
  }

  void Merge(const absl::Status& status) {
    if (status_.ok()) status_ = status;
  }

  const absl::Status& status() const { return status_; }
  const std::string& where() const { return where_; }

 private:
  bool Find(std::string_view key, bool required, element& out) {
    if (obj_[key].get(out) == simdjson::SUCCESS) return true;
    if (required) Fail(key, "present");
    return false;
  }

  void Fail(std::string_view key, std::string_view expected) {
    Merge(absl::InvalidArgumentError(fmt::format("{}: {} must be {}", where_, key, expected)));
  }

  object obj_;
  std::string where_;
  absl::Status status_;
};

// Reads each member of `key` as an object and hands a reader for it to `read`.
template <typename Read>
void ForEachObject(FieldReader& reader, std::string_view key, Read read) {
  for (element item : reader.Array(key)) {
    object obj;
    if (item.get_object().get(obj) != simdjson::SUCCESS) {
      reader.Merge(
          absl::InvalidArgumentError(fmt::format("{}: {} must hold objects", reader.where(), key)));
      return;
    }
    FieldReader item_reader(obj, fmt::format("{}.{}", reader.where(), key));
    read(item_reader);
    reader.Merge(item_reader.status());
  }
}

void ReadDevices(FieldReader& reader, InstanceTypeInfo& info) {
  ForEachObject(reader, "gpus", [&](FieldReader& r) {
    info.gpus.push_back({.name = r.String("name"),
                         .manufacturer = r.String("manufacturer"),
                         .count = r.Int("count"),
                         .memory_mib = r.Int("memoryMiB")});
  });
  ForEachObject(reader, "neuronDevices", [&](FieldReader& r) {
    info.neuron_devices.push_back({.name = r.String("name"),
                                   .count = r.Int("count"),
                                   .cores_per_device = r.Int("coresPerDevice"),
                                   .memory_mib = r.Int("memoryMiB")});
  });
  ForEachObject(reader, "inferenceAccelerators", [&](FieldReader& r) {
    info.inference_accelerators.push_back({.name = r.String("name"),
                                           .manufacturer = r.String("manufacturer"),
                                           .count = r.Int("count")});
  });
}

absl::StatusOr<InstanceTypeInfo> ReadInstanceType(object obj, size_t index) {
  FieldReader reader(obj, absl::StrCat("instanceTypes[", index, "]"));
  InstanceTypeInfo info;
  info.name = reader.String("name");
  KP_RETURN_IF_ERROR(reader.status());
  reader = FieldReader(obj, info.name);
  info.vcpus = reader.Int("vcpu");
  info.memory_mib = reader.Int("memoryMiB");
  info.architectures = reader.Strings("arch");
  info.cpu_manufacturer = reader.String("cpuManufacturer", /*required=*/false);
  info.clock_ghz = reader.OptionalNumber("clockGHz");
  info.hypervisor = reader.String("hypervisor", /*required=*/false);
  info.bare_metal = reader.Bool("bareMetal");
  info.enis = reader.Int("enis");
  info.ipv4_per_eni = reader.Int("ipv4PerEni");
  info.efa_interfaces = reader.Int("efa", /*required=*/false);
  info.encryption_in_transit = reader.Bool("encryptionInTransit");
  info.nitro_enclaves = reader.Bool("nitroEnclaves");
  if (std::optional<object> storage = reader.Object("localStorage")) {
    FieldReader storage_reader(*storage, absl::StrCat(info.name, ".localStorage"));
    info.local_storage_gb = storage_reader.Int("totalGB");
    info.local_storage_nvme = storage_reader.Bool("nvme");
    reader.Merge(storage_reader.status());
  }
  info.network_mbps = reader.OptionalInt("networkMbps");
  info.network_performance = reader.String("networkPerformance", /*required=*/false);
  info.ebs_mbps = reader.OptionalInt("ebsMbps");
  ReadDevices(reader, info);
  for (const std::string& usage : reader.Strings("usage")) {
    info.on_demand = info.on_demand || usage == "on-demand";
    info.spot = info.spot || usage == "spot";
  }
  info.zones = reader.Strings("zones");
  std::sort(info.zones.begin(), info.zones.end());
  KP_RETURN_IF_ERROR(reader.status());
  if (info.vcpus <= 0 || info.memory_mib <= 0) {
    return absl::InvalidArgumentError(absl::StrCat(info.name, ": vcpu and memoryMiB must be > 0"));
  }
  return info;
}

}  // namespace

absl::StatusOr<CatalogData> ParseCatalogData(std::string_view json) {
  simdjson::dom::parser parser;
  simdjson::padded_string padded(json);
  element doc;
  object root;
  if (parser.parse(padded).get(doc) != simdjson::SUCCESS ||
      doc.get_object().get(root) != simdjson::SUCCESS) {
    return absl::InvalidArgumentError("instance-type catalog: not a JSON object");
  }
  FieldReader reader(root, "instance-type catalog");
  CatalogData data;
  // Absent in the region-independent specs file; the region comes from the offerings then.
  data.region = reader.String("region", /*required=*/false);
  data.source = reader.String("source", /*required=*/false);
  data.zones = reader.Strings("zones");
  std::sort(data.zones.begin(), data.zones.end());
  size_t index = 0;
  for (element item : reader.Array("instanceTypes")) {
    object obj;
    if (item.get_object().get(obj) != simdjson::SUCCESS) {
      return absl::InvalidArgumentError(absl::StrCat("instanceTypes[", index, "]: not an object"));
    }
    KP_ASSIGN_OR_RETURN(InstanceTypeInfo info, ReadInstanceType(obj, index));
    data.instance_types.push_back(std::move(info));
    ++index;
  }
  KP_RETURN_IF_ERROR(reader.status());
  std::sort(data.instance_types.begin(), data.instance_types.end(),
            [](const InstanceTypeInfo& a, const InstanceTypeInfo& b) { return a.name < b.name; });
  for (size_t i = 1; i < data.instance_types.size(); ++i) {
    if (data.instance_types[i].name == data.instance_types[i - 1].name) {
      return absl::InvalidArgumentError(
          absl::StrCat("instance-type catalog: duplicate type ", data.instance_types[i].name));
    }
  }
  return data;
}

}  // namespace karpenter::cloudprovider
