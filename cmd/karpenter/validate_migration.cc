// Upstream: the v1 migration guide (website/content/en/docs/upgrading/v1-migration.md) and the
// v1beta1 migration guide of kubernetes-sigs/karpenter and aws/karpenter-provider-aws.
#include "cmd/karpenter/validate_migration.h"

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "yaml-cpp/yaml.h"

namespace karpenter::cli {
namespace {

enum class When {
  kSet,     // the object sets `from`
  kEquals,  // `from` is the scalar `value`
  kAbsent,  // the object does not set `from`
  kHasKey,  // the map at `from` has the key `value` (keys with dots: labels, tags)
};

struct Move {
  std::string_view api_version;
  std::string_view kind;
  std::string_view from;  // dotted path in the old object
  std::string_view to;    // its v1 spelling, with what else changes
  When when = When::kSet;
  std::string_view value = "";
  std::string_view change = "moved";  // "moved in v1", "removed in v1", ...
};

constexpr std::array kMoves = {
    // karpenter.sh/v1beta1 NodePool -> karpenter.sh/v1
    Move{"karpenter.sh/v1beta1", "NodePool", "spec.disruption.expireAfter",
         "spec.template.spec.expireAfter"},
    Move{"karpenter.sh/v1beta1", "NodePool", "spec.template.spec.kubelet",
         "EC2NodeClass spec.kubelet (of the class spec.template.spec.nodeClassRef names)"},
    Move{"karpenter.sh/v1beta1", "NodePool", "spec.template.spec.nodeClassRef.apiVersion",
         "spec.template.spec.nodeClassRef.group (karpenter.k8s.aws), with kind: EC2NodeClass"},
    Move{"karpenter.sh/v1beta1", "NodePool", "spec.disruption.consolidationPolicy",
         "WhenEmptyOrUnderutilized", When::kEquals, "WhenUnderutilized", "renamed"},
    Move{"karpenter.sh/v1beta1", "NodePool", "spec.disruption.consolidateAfter",
         "spec.disruption.consolidateAfter (0s keeps v1beta1's WhenUnderutilized behaviour)",
         When::kAbsent, "", "required"},
    Move{"karpenter.sh/v1beta1", "NodePool", "spec.template.metadata.annotations",
         "karpenter.sh/do-not-disrupt", When::kHasKey, "karpenter.sh/do-not-consolidate",
         "removed"},
    Move{"karpenter.sh/v1beta1", "NodePool", "spec.template.metadata.annotations",
         "karpenter.sh/do-not-disrupt", When::kHasKey, "karpenter.sh/do-not-evict", "removed"},
    // karpenter.sh/v1beta1 NodeClaim
    Move{"karpenter.sh/v1beta1", "NodeClaim", "spec.kubelet", "EC2NodeClass spec.kubelet"},
    Move{"karpenter.sh/v1beta1", "NodeClaim", "spec.nodeClassRef.apiVersion",
         "spec.nodeClassRef.group (karpenter.k8s.aws), with kind: EC2NodeClass"},
    // karpenter.k8s.aws/v1beta1 EC2NodeClass
    Move{"karpenter.k8s.aws/v1beta1", "EC2NodeClass", "spec.amiFamily",
         "spec.amiSelectorTerms[].alias (e.g. al2023@latest), or spec.amiFamily with "
         "explicit spec.amiSelectorTerms"},
    Move{"karpenter.k8s.aws/v1beta1", "EC2NodeClass", "spec.amiSelectorTerms",
         "spec.amiSelectorTerms (now required: an alias, id, name or tags)"},
    Move{"karpenter.k8s.aws/v1beta1", "EC2NodeClass", "spec.amiSelectorTerms",
         "spec.amiSelectorTerms (an alias such as al2023@latest, or terms by id, name or tags)",
         When::kAbsent, "", "required"},
    Move{"karpenter.k8s.aws/v1beta1", "EC2NodeClass", "spec.amiFamily",
         "amiFamily AL2 with spec.amiSelectorTerms selecting the Ubuntu AMIs (Ubuntu is no "
         "longer a supported family)",
         When::kEquals, "Ubuntu", "removed"},
    Move{"karpenter.k8s.aws/v1beta1", "EC2NodeClass",
         "spec.metadataOptions.httpPutResponseHopLimit",
         "1 instead of 2 (containers lose IMDS access; set 2 to keep it)", When::kAbsent, "",
         "default changed"},
    Move{"karpenter.k8s.aws/v1beta1", "EC2NodeClass", "spec.tags",
         "nothing: Karpenter tags instances with eks:eks-cluster-name instead", When::kHasKey,
         "karpenter.sh/managed-by", "removed"},
    // karpenter.sh/v1alpha5 Provisioner -> karpenter.sh/v1 NodePool
    Move{"karpenter.sh/v1alpha5", "Provisioner", "spec.requirements",
         "NodePool spec.template.spec.requirements"},
    Move{"karpenter.sh/v1alpha5", "Provisioner", "spec.taints",
         "NodePool spec.template.spec.taints"},
    Move{"karpenter.sh/v1alpha5", "Provisioner", "spec.startupTaints",
         "NodePool spec.template.spec.startupTaints"},
    Move{"karpenter.sh/v1alpha5", "Provisioner", "spec.labels",
         "NodePool spec.template.metadata.labels"},
    Move{"karpenter.sh/v1alpha5", "Provisioner", "spec.annotations",
         "NodePool spec.template.metadata.annotations"},
    Move{"karpenter.sh/v1alpha5", "Provisioner", "spec.annotations", "karpenter.sh/do-not-disrupt",
         When::kHasKey, "karpenter.sh/do-not-consolidate", "removed"},
    Move{"karpenter.sh/v1alpha5", "Provisioner", "spec.annotations", "karpenter.sh/do-not-disrupt",
         When::kHasKey, "karpenter.sh/do-not-evict", "removed"},
    Move{"karpenter.sh/v1alpha5", "Provisioner", "spec.providerRef",
         "NodePool spec.template.spec.nodeClassRef (group karpenter.k8s.aws, kind EC2NodeClass)"},
    Move{"karpenter.sh/v1alpha5", "Provisioner", "spec.provider",
         "an EC2NodeClass named by NodePool spec.template.spec.nodeClassRef"},
    Move{"karpenter.sh/v1alpha5", "Provisioner", "spec.kubeletConfiguration",
         "EC2NodeClass spec.kubelet"},
    Move{"karpenter.sh/v1alpha5", "Provisioner", "spec.ttlSecondsAfterEmpty",
         "NodePool spec.disruption.consolidationPolicy: WhenEmpty with "
         "spec.disruption.consolidateAfter (a duration, e.g. 30s)"},
    Move{"karpenter.sh/v1alpha5", "Provisioner", "spec.ttlSecondsUntilExpired",
         "NodePool spec.template.spec.expireAfter (a duration, e.g. 720h)"},
    Move{"karpenter.sh/v1alpha5", "Provisioner", "spec.consolidation.enabled",
         "NodePool spec.disruption.consolidationPolicy: WhenEmptyOrUnderutilized"},
    Move{"karpenter.sh/v1alpha5", "Provisioner", "spec.limits.resources", "NodePool spec.limits"},
    Move{"karpenter.sh/v1alpha5", "Provisioner", "spec.weight", "NodePool spec.weight"},
    // karpenter.k8s.aws/v1alpha1 AWSNodeTemplate -> karpenter.k8s.aws/v1 EC2NodeClass
    Move{"karpenter.k8s.aws/v1alpha1", "AWSNodeTemplate", "spec.subnetSelector",
         "EC2NodeClass spec.subnetSelectorTerms[].tags (or .id)"},
    Move{"karpenter.k8s.aws/v1alpha1", "AWSNodeTemplate", "spec.securityGroupSelector",
         "EC2NodeClass spec.securityGroupSelectorTerms[].tags (or .id, .name)"},
    Move{"karpenter.k8s.aws/v1alpha1", "AWSNodeTemplate", "spec.amiSelector",
         "EC2NodeClass spec.amiSelectorTerms[] (alias, id, name or tags)"},
    Move{"karpenter.k8s.aws/v1alpha1", "AWSNodeTemplate", "spec.instanceProfile",
         "EC2NodeClass spec.role (or spec.instanceProfile)"},
    Move{"karpenter.k8s.aws/v1alpha1", "AWSNodeTemplate", "spec.launchTemplate",
         "nothing: launch templates are gone; set the fields on the EC2NodeClass"},
    Move{"karpenter.k8s.aws/v1alpha1", "AWSNodeTemplate", "spec.userData",
         "EC2NodeClass spec.userData"},
    Move{"karpenter.k8s.aws/v1alpha1", "AWSNodeTemplate", "spec.blockDeviceMappings",
         "EC2NodeClass spec.blockDeviceMappings"},
    Move{"karpenter.k8s.aws/v1alpha1", "AWSNodeTemplate", "spec.metadataOptions",
         "EC2NodeClass spec.metadataOptions (httpPutResponseHopLimit now defaults to 1)"},
    Move{"karpenter.k8s.aws/v1alpha1", "AWSNodeTemplate", "spec.tags", "EC2NodeClass spec.tags"},
    Move{"karpenter.k8s.aws/v1alpha1", "AWSNodeTemplate", "spec.detailedMonitoring",
         "EC2NodeClass spec.detailedMonitoring"},
    Move{"karpenter.k8s.aws/v1alpha1", "AWSNodeTemplate", "spec.context",
         "nothing: set the fields of the context on the EC2NodeClass", When::kSet, "", "removed"},
};

constexpr std::array<std::string_view, 4> kLegacyApiVersions = {
    "karpenter.sh/v1beta1", "karpenter.k8s.aws/v1beta1", "karpenter.sh/v1alpha5",
    "karpenter.k8s.aws/v1alpha1"};

// Recursion rather than a loop: assigning a yaml-cpp Node overwrites the node it refers to.
bool HasPath(const YAML::Node& node, const std::vector<std::string>& keys, size_t at) {
  if (at == keys.size()) return true;
  if (!node.IsMap()) return false;
  const YAML::Node child = node[keys[at]];
  return child && HasPath(child, keys, at + 1);
}

bool Has(const YAML::Node& object, std::string_view dotted) {
  // Debian's Abseil has a string_view of its own: split a std::string.
  const std::string text(dotted);
  const std::vector<std::string> keys = absl::StrSplit(text, '.');
  return HasPath(object, keys, 0);
}

std::string Scalar(const YAML::Node& node) {
  return node && node.IsScalar() ? node.Scalar() : std::string();
}

YAML::Node AtPath(const YAML::Node& node, const std::vector<std::string>& keys, size_t at) {
  if (at == keys.size()) return node;
  if (!node.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
  const YAML::Node child = node[keys[at]];
  if (!child) return YAML::Node(YAML::NodeType::Undefined);
  return AtPath(child, keys, at + 1);
}

// The node at a dotted path, or an undefined node.
YAML::Node At(const YAML::Node& object, std::string_view dotted) {
  const std::string text(dotted);
  const std::vector<std::string> keys = absl::StrSplit(text, '.');
  return AtPath(object, keys, 0);
}

bool Applies(const Move& move, const YAML::Node& doc) {
  switch (move.when) {
    case When::kSet:
      return Has(doc, move.from);
    case When::kAbsent:
      return !Has(doc, move.from);
    case When::kEquals:
      return Has(doc, move.from) && Scalar(At(doc, move.from)) == move.value;
    case When::kHasKey: {
      if (!Has(doc, move.from)) return false;
      const YAML::Node map = At(doc, move.from);
      return map.IsMap() && map[std::string(move.value)];
    }
  }
  return false;
}

std::string FromText(const Move& move) {
  if (move.when == When::kHasKey) {
    return std::string(move.from) + "[" + std::string(move.value) + "]";
  }
  return std::string(move.from);
}

void Collect(const YAML::Node& doc, std::vector<LegacyObject>& out) {
  if (!doc.IsMap()) return;
  const std::string kind = Scalar(doc["kind"]);
  if (kind == "List" && doc["items"] && doc["items"].IsSequence()) {
    for (const YAML::Node& item : doc["items"]) Collect(item, out);
    return;
  }
  const std::string api_version = Scalar(doc["apiVersion"]);
  if (!IsLegacyApiVersion(api_version)) return;
  LegacyObject object{api_version, kind, "", {}};
  if (doc["metadata"] && doc["metadata"].IsMap()) object.name = Scalar(doc["metadata"]["name"]);
  for (const Move& move : kMoves) {
    if (move.api_version != api_version || move.kind != kind || !Applies(move, doc)) continue;
    object.moves.push_back({FromText(move), std::string(move.change), std::string(move.to)});
  }
  out.push_back(std::move(object));
}

}  // namespace

bool IsLegacyApiVersion(const std::string& api_version) {
  for (std::string_view legacy : kLegacyApiVersions) {
    if (api_version == legacy) return true;
  }
  return false;
}

absl::StatusOr<std::vector<LegacyObject>> LegacyObjectsIn(const std::string& path) {
  std::vector<LegacyObject> out;
  if (path == "-" || path == "/dev/stdin") return out;
  // yaml-cpp reports parse errors by throwing: turned into a Status here.
  try {
    for (const YAML::Node& doc : YAML::LoadAllFromFile(path)) Collect(doc, out);
  } catch (const YAML::Exception& e) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", e.what()));
  }
  return out;
}

}  // namespace karpenter::cli
