// The CRDs in charts/karpenter/crds/ are written by hand (docs/crds.md); this test keeps them and
// the model in src/api from drifting apart: every field a type's `Fields` list declares is a
// property of the CRD schema, and every property of the schema is a declared field, except for
// the few listed below with their reasons.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "src/api/box.h"
#include "src/api/ec2nodeclass.h"
#include "src/api/json_codec.h"
#include "src/api/nodeclaim.h"
#include "src/api/nodepool.h"

namespace karpenter::api {
namespace {

namespace fs = std::filesystem;

const fs::path kCrds = fs::path(KP_SOURCE_DIR) / "charts/karpenter/crds";

// Paths are dotted JSON names; `[]` steps into a list's items, `{}` into a map's values.
using Paths = std::set<std::string>;

template <class T>
struct Unwrapped {
  using Type = T;
};
template <class T>
struct Unwrapped<std::optional<T>> : Unwrapped<T> {};
template <class T>
struct Unwrapped<Box<T>> : Unwrapped<T> {};

template <class T>
struct IsVector : std::false_type {};
template <class T>
struct IsVector<std::vector<T>> : std::true_type {};
template <class T>
struct IsStringMap : std::false_type {};
template <class T>
struct IsStringMap<std::map<std::string, T>> : std::true_type {};

// Records the path of every declared field, walking into nested types. The root's `metadata` is
// ObjectMeta, which a CRD schema may not describe, so it is a leaf.
class PathCollector {
 public:
  PathCollector(std::string prefix, Paths& paths) : prefix_(std::move(prefix)), paths_(paths) {}

  template <class F>
  void operator()(std::string_view name, F&) {
    std::string path = prefix_ + std::string(name);
    paths_.insert(path);
    if (path == "metadata") return;
    Walk<typename Unwrapped<F>::Type>(path);
  }
  void Ignore(std::string_view) {}

  template <class T>
  void Walk(const std::string& path) {
    if constexpr (IsVector<T>::value) {
      Walk<typename Unwrapped<typename T::value_type>::Type>(path + "[]");
    } else if constexpr (IsStringMap<T>::value) {
      Walk<typename Unwrapped<typename T::mapped_type>::Type>(path + "{}");
    } else if constexpr (codec::HasFields<T>) {
      T value{};
      PathCollector nested(path + ".", paths_);
      value.Fields(nested);
    }
  }

 private:
  std::string prefix_;
  Paths& paths_;
};

template <class T>
Paths ModelPaths() {
  Paths paths;
  T value{};
  PathCollector collector("", paths);
  value.Fields(collector);
  // `[]`/`{}` markers of lists and maps of scalars are not fields; drop paths ending in one.
  for (auto it = paths.begin(); it != paths.end();) {
    it = (it->ends_with("[]") || it->ends_with("{}")) ? paths.erase(it) : std::next(it);
  }
  return paths;
}

void SchemaPaths(const YAML::Node& schema, const std::string& prefix, Paths& paths) {
  const YAML::Node properties = schema["properties"];
  if (!properties) return;
  for (const auto& property : properties) {
    std::string path = prefix + property.first.as<std::string>();
    paths.insert(path);
    YAML::Node node = property.second;
    // Step through list items and map values to the object that has the properties.
    for (;;) {
      if (node["items"] && node["items"].IsMap()) {
        path += "[]";
        node = node["items"];
      } else if (node["additionalProperties"] && node["additionalProperties"].IsMap()) {
        path += "{}";
        node = node["additionalProperties"];
      } else {
        break;
      }
    }
    SchemaPaths(node, path + ".", paths);
  }
}

Paths CrdPaths(const std::string& file) {
  YAML::Node crd = YAML::LoadFile((kCrds / file).string());
  Paths paths;
  SchemaPaths(crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"], "", paths);
  return paths;
}

std::vector<std::string> Minus(const Paths& a, const Paths& b) {
  std::vector<std::string> out;
  for (const std::string& path : a) {
    if (!b.contains(path)) out.push_back(path);
  }
  return out;
}

std::string Join(const std::vector<std::string>& paths) {
  std::string out;
  for (const std::string& path : paths) out += "\n  " + path;
  return out;
}

TEST(CrdFields, NodePoolSchemaMatchesTheModel) {
  Paths model = ModelPaths<NodePool>();
  Paths crd = CrdPaths("karpenter.sh_nodepools.yaml");
  EXPECT_TRUE(Minus(model, crd).empty()) << "in the model, not the CRD:" << Join(Minus(model, crd));
  EXPECT_TRUE(Minus(crd, model).empty()) << "in the CRD, not the model:" << Join(Minus(crd, model));
  EXPECT_TRUE(crd.contains("spec.template.spec.requirements[].minValues"));
}

TEST(CrdFields, NodeClaimSchemaMatchesTheModel) {
  Paths model = ModelPaths<NodeClaim>();
  Paths crd = CrdPaths("karpenter.sh_nodeclaims.yaml");
  EXPECT_TRUE(Minus(model, crd).empty()) << "in the model, not the CRD:" << Join(Minus(model, crd));
  EXPECT_TRUE(Minus(crd, model).empty()) << "in the CRD, not the model:" << Join(Minus(crd, model));
  EXPECT_TRUE(crd.contains("status.conditions[].lastTransitionTime"));
}

TEST(CrdFields, EC2NodeClassSchemaMatchesTheModelExceptOurStatusExtra) {
  Paths model = ModelPaths<EC2NodeClass>();
  Paths crd = CrdPaths("karpenter.k8s.aws_ec2nodeclasses.yaml");
  // Ours, not upstream's: the reservation's free instance count, read by the offering logic
  // (src/cloudprovider/reserved_offerings.cc) from snapshots. The API server refuses it
  // (test/controlplane/crd_agreement.sh), so it must stay out of the CRD.
  const std::vector<std::string> model_only = {
      "status.capacityReservations[].availableInstanceCount"};
  EXPECT_EQ(Minus(model, crd), model_only)
      << "in the model, not the CRD:" << Join(Minus(model, crd));
  EXPECT_TRUE(Minus(crd, model).empty()) << "in the CRD, not the model:" << Join(Minus(crd, model));
  EXPECT_TRUE(crd.contains("spec.blockDeviceMappings[].ebs.volumeInitializationRate"));
}

}  // namespace
}  // namespace karpenter::api
