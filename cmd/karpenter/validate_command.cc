#include "cmd/karpenter/validate_command.h"

#include <iostream>

#include "src/api/manifest.h"
#include "src/api/validation.h"

namespace karpenter::cli {

void AddValidateCommand(CLI::App& app, ValidateOptions& options, int& exit_code) {
  CLI::App* cmd = app.add_subcommand(
      "validate", "Validate NodePool, NodeClaim, EC2NodeClass and core manifests offline");
  cmd->add_option("-f,--filename", options.files, "Manifest file (YAML or JSON; - for stdin)")
      ->required();
  cmd->callback([&options, &exit_code] { exit_code = RunValidate(options, std::cout, std::cerr); });
}

int RunValidate(const ValidateOptions& options, std::ostream& out, std::ostream& err) {
  size_t objects = 0;
  size_t invalid = 0;
  bool failed = false;
  for (const std::string& file : options.files) {
    auto manifests = api::LoadManifestFile(file);
    if (!manifests.ok()) {
      out << file << ": " << manifests.status().message() << "\n";
      failed = true;
      continue;
    }
    for (const api::Manifest& manifest : *manifests) {
      ++objects;
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
  }
  if (failed || invalid > 0) {
    err << invalid << " of " << objects << " object(s) invalid\n";
    return 1;
  }
  err << objects << " object(s) valid\n";
  return 0;
}

}  // namespace karpenter::cli
