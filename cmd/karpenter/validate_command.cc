#include "cmd/karpenter/validate_command.h"

#include <algorithm>
#include <iostream>
#include <iterator>
#include <string_view>
#include <utility>

#include "cmd/karpenter/input_files.h"
#include "cmd/karpenter/output_format.h"
#include "cmd/karpenter/validate_migration.h"
#include "cmd/karpenter/validate_report.h"
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
  cmd->add_option("-o,--output", options.output,
                  "Output format: text (one line per error, also wide), json or yaml (every "
                  "object with its verdict, errors and v1 migrations)")
      ->check(CLI::IsMember(kOutputFormats))
      ->default_val("text");
  cmd->footer(
      "Examples:\n"
      "  karpenter validate -f examples/article/nodepool.yaml -f "
      "examples/article/ec2nodeclass.yaml\n"
      "  karpenter validate -f manifests/ -R          # every YAML/JSON file below manifests/\n"
      "  kubectl get nodepools,ec2nodeclasses -o yaml | karpenter validate -f -\n"
      "  karpenter validate -f old-provisioner.yaml   # v1alpha5/v1beta1: the v1 spelling of each "
      "field\n"
      "  karpenter validate -f manifests/ -R -o json  # every object, its verdict and errors\n"
      "Exit codes: 0 every object is valid; 1 an invalid object (one line per error: FILE: "
      "Kind/name: field.path: message), a file that cannot be read, no object at all, or bad "
      "flags");
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

ValidatedObject Describe(const api::Manifest& manifest) {
  ValidatedObject object;
  object.source = manifest.source;
  object.line = manifest.line;
  object.api_version = manifest.api_version;
  object.kind = manifest.kind;
  object.name = manifest.name;
  object.namespace_ = manifest.namespace_;
  object.ref = manifest.Ref();
  return object;
}

// An object of an API v1 no longer serves: the apiVersion error and the v1 spelling of every
// moved field it sets, under the object's own name.
ValidatedObject Legacy(const api::Manifest& manifest, LegacyObject legacy) {
  ValidatedObject object = Describe(manifest);
  object.ref = legacy.kind + "/" + (legacy.name.empty() ? std::string("<unnamed>") : legacy.name);
  object.verdict = ObjectVerdict::kInvalid;
  object.errors.push_back({"apiVersion", "Unsupported value: \"" + legacy.api_version +
                                             "\": Karpenter v1 serves " +
                                             V1Replacement(legacy.kind)});
  object.migrations = std::move(legacy.moves);
  return object;
}

// Every object of one file, with its verdict.
void ValidateFile(const std::string& file, ValidateReport& report,
                  std::vector<api::Manifest>& all) {
  auto manifests = api::LoadManifestFile(file);
  if (!manifests.ok()) {
    report.entries.push_back(InputProblem{file, std::string(manifests.status().message())});
    return;
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
    if (IsLegacyApiVersion(manifest.api_version) && next_legacy < legacy.size()) {
      report.entries.push_back(Legacy(manifest, std::move(legacy[next_legacy++])));
      continue;
    }
    ValidatedObject object = Describe(manifest);
    if (!manifest.object && manifest.report.errors.empty()) {
      object.verdict = ObjectVerdict::kSkipped;
      object.skip_reason =
          "kind " + manifest.kind + " (" + manifest.api_version + ") is not validated by karpenter";
    } else {
      object.errors = api::ValidateManifest(manifest).errors();
      if (!object.errors.empty()) object.verdict = ObjectVerdict::kInvalid;
    }
    report.entries.push_back(std::move(object));
  }
  all.insert(all.end(), std::make_move_iterator(manifests->begin()),
             std::make_move_iterator(manifests->end()));
}

}  // namespace

ValidateReport ValidateInputs(const ValidateOptions& options) {
  ValidateReport report;
  absl::StatusOr<std::vector<std::string>> files =
      ExpandFilenames(options.files, options.recursive);
  if (!files.ok()) {
    report.entries.push_back(InputProblem{"", std::string(files.status().message())});
    return report;
  }
  std::vector<api::Manifest> all;
  for (const std::string& file : *files) ValidateFile(file, report, all);
  // As kubectl apply: files that hold no object at all are a mistake, not a pass.
  if (report.entries.empty()) {
    report.entries.push_back(InputProblem{"", "no objects passed to validate"});
  }
  if (absl::Status region = CheckRegion(all, options.region); !region.ok()) {
    report.entries.push_back(InputProblem{"region", std::string(region.message())});
  }
  return report;
}

int RunValidate(const ValidateOptions& options, std::ostream& out, std::ostream& err) {
  const ValidateReport report = ValidateInputs(options);
  if (options.output == "json" || options.output == "yaml") {
    std::string document = ValidateReportJson(report);
    if (options.output == "yaml") {
      absl::StatusOr<std::string> yaml = JsonToYaml(document);
      if (!yaml.ok()) {
        err << "validate: " << yaml.status().message() << "\n";
        return 1;
      }
      document = *std::move(yaml);
    }
    out << document;
  } else {
    WriteValidateErrors(report, out);
  }
  // The notes and the summary stay on stderr for the person watching, whatever stdout carries.
  WriteValidateNotes(report, err);
  return report.Failed() ? 1 : 0;
}

}  // namespace karpenter::cli
