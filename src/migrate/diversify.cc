#include "src/migrate/diversify.h"

#include <algorithm>
#include <map>
#include <set>

namespace karpenter::migrate {
namespace {

constexpr char kArchLabel[] = "kubernetes.io/arch";
constexpr char kFamilyLabel[] = "karpenter.k8s.aws/instance-family";
constexpr char kCpuLabel[] = "karpenter.k8s.aws/instance-cpu";
constexpr char kCategoryLabel[] = "karpenter.k8s.aws/instance-category";

// What a replacement type must share with the group's: the ratio as memory per vCPU (exact,
// in MiB), the architecture, whether it carries accelerators, and the category, so that a
// general-purpose group does not widen to storage-dense (d) or burstable (t) families that happen
// to have the same ratio.
struct Shape {
  int64_t memory_per_cpu_mib = 0;
  std::string arch;
  bool accelerated = false;
  std::string category;
  auto operator<=>(const Shape&) const = default;
};

std::string LabelOf(const cloudprovider::InstanceType& type, const char* key) {
  auto it = type.labels.find(key);
  return it == type.labels.end() ? "" : it->second;
}

std::optional<Shape> ShapeOf(const cloudprovider::InstanceType& type,
                             const cloudprovider::InstanceTypeInfo& info) {
  if (info.vcpus <= 0 || info.memory_mib % info.vcpus != 0) return std::nullopt;
  return Shape{
      info.memory_mib / info.vcpus, LabelOf(type, kArchLabel),
      !info.gpus.empty() || !info.neuron_devices.empty() || !info.inference_accelerators.empty(),
      LabelOf(type, kCategoryLabel)};
}

struct FamilyFit {
  bool fits = true;
  int types = 0;
};

}  // namespace

WideningOrRefusal Widen(const std::string& group, const std::vector<std::string>& types, bool spot,
                        const cloudprovider::Catalog& catalog) {
  std::set<Shape> shapes;
  std::set<int64_t> cpus;
  for (const std::string& name : types) {
    const cloudprovider::InstanceType* type = catalog.Find(name);
    const cloudprovider::InstanceTypeInfo* info = catalog.FindInfo(name);
    std::optional<Shape> shape;
    if (type != nullptr && info != nullptr) shape = ShapeOf(*type, *info);
    if (!shape) return {std::nullopt, name + " is not in the catalog"};
    shapes.insert(*shape);
    cpus.insert(info->vcpus);
  }
  // A family qualifies when every one of its types at the group's vCPU counts has one of the
  // group's shapes: then family x vCPU count allows exactly those types.
  std::map<std::string, FamilyFit> families;
  for (const cloudprovider::InstanceType& type : catalog.Types()) {
    const cloudprovider::InstanceTypeInfo* info = catalog.FindInfo(type.name);
    if (info == nullptr || !cpus.contains(info->vcpus)) continue;
    FamilyFit& fit = families[LabelOf(type, kFamilyLabel)];
    std::optional<Shape> shape = ShapeOf(type, *info);
    fit.fits &= shape.has_value() && shapes.contains(*shape) && (!spot || info->spot);
    ++fit.types;
  }
  Widening widening{group, types, {}, {}, {}, 0};
  std::set<std::string> architectures;
  for (const Shape& shape : shapes) architectures.insert(shape.arch);
  widening.architectures.assign(architectures.begin(), architectures.end());
  for (const auto& [family, fit] : families) {
    if (!fit.fits || family.empty()) continue;
    widening.families.push_back(family);
    widening.type_count += fit.types;
  }
  for (const std::string& name : types) {
    const std::string family = LabelOf(*catalog.Find(name), kFamilyLabel);
    if (!std::binary_search(widening.families.begin(), widening.families.end(), family)) {
      return {std::nullopt, "family " + family +
                                " has types of the same size but another shape: "
                                "widening by family would drop " +
                                name};
    }
  }
  for (int64_t cpu : cpus) widening.cpus.push_back(std::to_string(cpu));
  std::sort(widening.cpus.begin(), widening.cpus.end(),
            [](const auto& a, const auto& b) { return std::stoll(a) < std::stoll(b); });
  return {widening, ""};
}

std::vector<nlohmann::ordered_json> WidenedRequirements(const Widening& widening) {
  auto requirement = [](const char* key, const std::vector<std::string>& values) {
    return nlohmann::ordered_json{{"key", key}, {"operator", "In"}, {"values", values}};
  };
  return {requirement(kArchLabel, widening.architectures),
          requirement(kFamilyLabel, widening.families), requirement(kCpuLabel, widening.cpus)};
}

}  // namespace karpenter::migrate
