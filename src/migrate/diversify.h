// `migrate --diversify`: a group's instance types widened to every family of the catalog that
// has the same vCPU counts at the same vCPU:memory ratio, architecture and instance category (and
// accelerators, or none), so a NodePool has more capacity pools to choose from than the group had.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "src/cloudprovider/catalog.h"

namespace karpenter::migrate {

struct Widening {
  std::string group;
  std::vector<std::string> types;          // what the group had
  std::vector<std::string> architectures;  // kubernetes.io/arch values
  std::vector<std::string> families;       // karpenter.k8s.aws/instance-family values
  std::vector<std::string> cpus;           // karpenter.k8s.aws/instance-cpu values
  int type_count = 0;                      // catalog types the requirements allow
};

// The widening of `types`, or why they are kept as they are (a type the catalog does not know,
// a family of theirs whose other types of that size differ). `spot` keeps to families whose
// types all offer spot.
struct WideningOrRefusal {
  std::optional<Widening> widening;
  std::string refusal;
};
WideningOrRefusal Widen(const std::string& group, const std::vector<std::string>& types, bool spot,
                        const cloudprovider::Catalog& catalog);

// The requirements replacing `node.kubernetes.io/instance-type In [...]`.
std::vector<nlohmann::ordered_json> WidenedRequirements(const Widening& widening);

}  // namespace karpenter::migrate
