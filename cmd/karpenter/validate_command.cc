#include "cmd/karpenter/validate_command.h"

#include <algorithm>
#include <iostream>
#include <string_view>

#include "cmd/karpenter/input_files.h"
#include "cmd/karpenter/validate_migration.h"
#include "src/api/manifest.h"
#include "src/api/validation.h"
#include "src/cloudprovider/region_catalog.h"
#include "src/provisioning/input_region.h"

namespace karpenter::cli {
namespace {

// The region the objects name (node labels, EC2NodeClass status.subnets zones), checked against
// `--region`: objects that name two regions, or another region than the flag, or an unknown one,
// cannot be planned in one catalog.
absl::Status CheckRegion(const std::vector<api::Manifest>& manifests, const std::string& flag) {
  std::vector<api::Node> nodes;
  std::vector<api::EC2NodeClass> node_classes;
  for (const api::Manifest& manifest : manifests) {
    if (!manifest.object) continue;
    if (const auto* node = std::get_if<api::Node>(&*manifest.object)) nodes.push_back(*node);
    if (const auto* node_class = std::get_if<api::EC2NodeClass>(&*manifest.object)) {
      node_classes.push_back(*node_class);
    }
  }
  const std::vector<std::string> regions = cloudprovider::EmbeddedRegions();
  return provisioning::ChooseRegion(provisioning::RegionEvidenceOf(nodes, node_classes, regions),
                                    flag, regions)
      .status();
}

}  // namespace

void AddValidateCommand(CLI::App& app, ValidateOptions& options, int& exit_code) {
  CLI::App* cmd = app.add_subcommand(
      "validate", "Validate NodePool, NodeClaim, EC2NodeClass and core manifests offline");
  cmd->add_option("-f,--filename", options.files,
                  "Manifest file (YAML or JSON; - for stdin), directory of them, or a comma "
                  "list, as kubectl reads -f")
      ->required();
  cmd->add_flag("-R,--recursive", options.recursive,
                "Read the directories -f names and their subdirectories");
  cmd->add_option("--region", options.region,
                  "AWS region the objects must agree with (node zone labels, EC2NodeClass "
                  "status.subnets); without it they must agree with each other");
  cmd->footer(
      "Examples:\n"
      "  karpenter validate -f examples/article/nodepool.yaml -f "
      "examples/article/ec2nodeclass.yaml\n"
      "  karpenter validate -f manifests/ -R          # every YAML/JSON file below manifests/\n"
      "  kubectl get nodepools,ec2nodeclasses -o yaml | karpenter validate -f -\n"
      "  karpenter validate -f old-provisioner.yaml   # v1alpha5/v1beta1: the v1 spelling of each "
      "field\n"
      "Exit codes: 0 every object is valid; 1 an invalid object (one line per error: FILE: "
      "Kind/name: field.path: message) or bad flags");
  cmd->callback([&options, &exit_code] { exit_code = RunValidate(options, std::cout, std::cerr); });
}

namespace {

// What Karpenter v1 serves instead of a legacy kind.
std::string V1Replacement(const std::string& kind) {
  if (kind == "Provisioner") return "NodePool (karpenter.sh/v1)";
  if (kind == "AWSNodeTemplate") return "EC2NodeClass (karpenter.k8s.aws/v1)";
  if (kind == "EC2NodeClass") return "EC2NodeClass (karpenter.k8s.aws/v1)";
  return kind + " (karpenter.sh/v1)";
}

// The lines for one object of an API v1 no longer serves: the apiVersion error and the v1
// spelling of every moved field it sets, under the object's own name.
void ReportLegacy(const std::string& source, const LegacyObject& legacy, std::ostream& out) {
  const std::string ref =
      legacy.kind + "/" + (legacy.name.empty() ? std::string("<unnamed>") : legacy.name);
  out << source << ": " << ref << ": apiVersion: Unsupported value: \"" << legacy.api_version
      << "\": Karpenter v1 serves " << V1Replacement(legacy.kind) << "\n";
  for (const LegacyField& field : legacy.moves) {
    out << source << ": " << ref << ": " << field.from << ": " << field.change
        << " in v1: " << field.to << "\n";
  }
}

}  // namespace

int RunValidate(const ValidateOptions& options, std::ostream& out, std::ostream& err) {
  size_t objects = 0;
  size_t invalid = 0;
  bool failed = false;
  std::vector<api::Manifest> all;
  absl::StatusOr<std::vector<std::string>> files =
      ExpandFilenames(options.files, options.recursive);
  if (!files.ok()) {
    out << files.status().message() << "\n";
    err << "0 of 0 object(s) invalid\n";
    return 1;
  }
  for (const std::string& file : *files) {
    auto manifests = api::LoadManifestFile(file);
    if (!manifests.ok()) {
      out << file << ": " << manifests.status().message() << "\n";
      failed = true;
      continue;
    }
    std::vector<LegacyObject> legacy;
    size_t next_legacy = 0;
    if (std::any_of(manifests->begin(), manifests->end(), [](const api::Manifest& manifest) {
          return IsLegacyApiVersion(manifest.api_version);
        })) {
      absl::StatusOr<std::vector<LegacyObject>> found = LegacyObjectsIn(file);
      if (found.ok()) legacy = *std::move(found);
    }
    for (const api::Manifest& manifest : *manifests) {
      ++objects;
      if (IsLegacyApiVersion(manifest.api_version) && next_legacy < legacy.size()) {
        ++invalid;
        ReportLegacy(manifest.source, legacy[next_legacy++], out);
        continue;
      }
      if (!manifest.object && manifest.report.errors.empty()) {
        err << manifest.source << ": " << manifest.Ref() << ": skipped: kind " << manifest.kind
            << " (" << manifest.api_version << ") is not validated by karpenter\n";
        continue;
      }
      api::FieldErrors errors = api::ValidateManifest(manifest);
      if (errors.empty()) continue;
      ++invalid;
      for (const api::FieldError& e : errors.errors()) {
        out << manifest.source << ": " << manifest.Ref() << ": " << e.ToString() << "\n";
      }
    }
    all.insert(all.end(), manifests->begin(), manifests->end());
  }
  if (absl::Status region = CheckRegion(all, options.region); !region.ok()) {
    out << "region: " << region.message() << "\n";
    failed = true;
  }
  if (failed || invalid > 0) {
    err << invalid << " of " << objects << " object(s) invalid\n";
    return 1;
  }
  err << objects << " object(s) valid\n";
  return 0;
}

}  // namespace karpenter::cli
