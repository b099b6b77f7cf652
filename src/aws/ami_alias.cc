#include "src/aws/ami_alias.h"

#include <algorithm>
#include <optional>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "src/api/karpenter_labels.h"
#include "src/aws/absl_view.h"
#include "src/cloudprovider/instance_type.h"

namespace karpenter::aws {
namespace {

using Variants = std::vector<AmiVariant>;

std::vector<RequirementSet> RequirementsOf(const Variants& variants) {
  std::vector<RequirementSet> out;
  for (AmiVariant variant : variants) out.push_back(VariantRequirements(variant));
  return out;
}

// The minor version of "1.33"; nullopt when it does not parse (then no version gate applies).
std::optional<int> MinorVersion(std::string_view kubernetes_version) {
  std::vector<std::string> parts = absl::StrSplit(AbslView(kubernetes_version), '.');
  int minor = 0;
  if (parts.size() < 2 || !absl::SimpleAtoi(parts[1], &minor)) return std::nullopt;
  return minor;
}

std::vector<AliasParameter> Al2023(const std::string& k8s, const std::string& version) {
  using enum AmiVariant;
  std::vector<AliasParameter> out;
  for (const auto& [arch, variants] :
       {std::pair<const char*, Variants>{"x86_64", {kStandard, kNvidia, kNeuron}},
        std::pair<const char*, Variants>{"arm64", {kStandard, kNvidia}}}) {
    for (AmiVariant variant : variants) {
      const char* name = variant == kStandard ? "standard"
                         : variant == kNvidia ? "nvidia"
                                              : "neuron";
      const std::string leaf =
          version == "latest"
              ? std::string("recommended")
              : absl::StrCat("amazon-eks-node-al2023-", arch, "-", name, "-", k8s, "-", version);
      out.push_back({absl::StrCat("/aws/service/eks/optimized-ami/", k8s, "/amazon-linux-2023/",
                                  arch, "/", name, "/", leaf, "/image_id"),
                     arch, RequirementsOf({variant})});
    }
  }
  return out;
}

std::vector<AliasParameter> Al2(const std::string& k8s, const std::string& version) {
  using enum AmiVariant;
  struct Flavour {
    const char* path;
    const char* pinned_prefix;
    const char* arch;
    Variants variants;
  };
  const Flavour flavours[] = {
      {"amazon-linux-2", "amazon-eks-node-", "x86_64", {kStandard}},
      {"amazon-linux-2-arm64", "amazon-eks-arm64-node-", "arm64", {kStandard}},
      // One image for both NVIDIA GPUs and Neuron accelerators.
      {"amazon-linux-2-gpu", "amazon-eks-gpu-node-", "x86_64", {kNeuron, kNvidia}}};
  std::vector<AliasParameter> out;
  for (const Flavour& flavour : flavours) {
    const std::string leaf = version == "latest"
                                 ? std::string("recommended")
                                 : absl::StrCat(flavour.pinned_prefix, k8s, "-", version);
    out.push_back({absl::StrCat("/aws/service/eks/optimized-ami/", k8s, "/", flavour.path, "/",
                                leaf, "/image_id"),
                   flavour.arch, RequirementsOf(flavour.variants)});
  }
  return out;
}

std::vector<AliasParameter> Bottlerocket(const std::string& k8s, const std::string& version) {
  using enum AmiVariant;
  // Bottlerocket's parameters spell versions without GitHub's leading "v".
  const std::string bare = version.substr(std::min(version.find_first_not_of('v'), version.size()));
  struct Flavour {
    const char* suffix;
    const char* arch;
    Variants variants;
  };
  const Flavour flavours[] = {{"", "x86_64", {kStandard, kNeuron}},
                              {"", "arm64", {kStandard}},
                              {"-nvidia", "x86_64", {kNvidia}},
                              {"-nvidia", "arm64", {kNvidia}}};
  std::vector<AliasParameter> out;
  for (const Flavour& flavour : flavours) {
    out.push_back({absl::StrCat("/aws/service/bottlerocket/aws-k8s-", k8s, flavour.suffix, "/",
                                flavour.arch, "/", bare, "/image_id"),
                   flavour.arch, RequirementsOf(flavour.variants)});
  }
  return out;
}

}  // namespace

RequirementSet VariantRequirements(AmiVariant variant) {
  const std::string gpus(api::kLabelInstanceGPUCount);
  const std::string accelerators(api::kLabelInstanceAcceleratorCount);
  switch (variant) {
    case AmiVariant::kNvidia:
      return {{.key = gpus, .operator_ = "Exists"}};
    case AmiVariant::kNeuron:
      return {{.key = accelerators, .operator_ = "Exists"}};
    case AmiVariant::kStandard:
      break;
  }
  return {{.key = accelerators, .operator_ = "DoesNotExist"},
          {.key = gpus, .operator_ = "DoesNotExist"}};
}

absl::StatusOr<std::vector<AliasParameter>> AliasParameters(std::string_view alias,
                                                            std::string_view kubernetes_version) {
  std::vector<std::string> parts = absl::StrSplit(AbslView(alias), absl::MaxSplits('@', 1));
  const std::string family = absl::AsciiStrToLower(parts[0]);
  const std::string version = parts.size() > 1 ? parts[1] : "latest";
  const std::string k8s(kubernetes_version);
  const std::optional<int> minor = MinorVersion(kubernetes_version);
  if (family == "al2023") return Al2023(k8s, version);
  if (family == "al2") {
    if (minor && *minor >= 33) {
      return absl::FailedPreconditionError(absl::StrCat(
          "spec.amiSelectorTerms[0].alias: ", AbslView(alias),
          ": AL2 aliases are not supported on EKS 1.33 and later (cluster version ", k8s, ")"));
    }
    return Al2(k8s, version);
  }
  if (family == "bottlerocket") return Bottlerocket(k8s, version);
  if (family == "windows2019" || family == "windows2022" || family == "windows2025") {
    if (version != "latest") {
      return absl::InvalidArgumentError(
          absl::StrCat("spec.amiSelectorTerms[0].alias: ", AbslView(alias),
                       ": Windows aliases only take @latest"));
    }
    const std::string year = family.substr(7);
    if (year == "2025" && minor && *minor < 35) {
      return absl::FailedPreconditionError(absl::StrCat(
          "spec.amiSelectorTerms[0].alias: ", AbslView(alias),
          ": Windows Server 2025 needs EKS 1.35 or later (cluster version ", k8s, ")"));
    }
    auto parsed = cloudprovider::ParseAmiFamily(absl::StrCat("Windows", year));
    const std::string build(parsed.ok() ? cloudprovider::WindowsBuild(*parsed) : "");
    return std::vector<AliasParameter>{
        {absl::StrCat("/aws/service/ami-windows-latest/Windows_Server-", year,
                      "-English-Core-EKS_Optimized-", k8s, "/image_id"),
         "x86_64",
         {{{.key = std::string(api::kLabelOSStable), .operator_ = "In", .values = {"windows"}},
           {.key = std::string(api::kLabelWindowsBuild), .operator_ = "In", .values = {build}}}}}};
  }
  return absl::InvalidArgumentError(
      absl::StrCat("spec.amiSelectorTerms[0].alias: unknown AMI family in ", AbslView(alias)));
}

}  // namespace karpenter::aws
