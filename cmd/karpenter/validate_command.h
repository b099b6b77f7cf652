// `karpenter validate -f FILE [-f FILE...] [-o text|json|yaml]`: CRD schema and CEL-equivalent
// validation with Kubernetes field paths. Exit 0 when every object is valid, 1 otherwise.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "cmd/karpenter/validate_report.h"

namespace karpenter::cli {

struct ValidateOptions {
  std::vector<std::string> files;
  // -R: directories named by -f are read with their subdirectories.
  bool recursive = false;
  // The AWS region the objects must agree with; empty: they need only agree with each other.
  std::string region;
  // -o: text (the lines), json or yaml (the whole report as one document).
  std::string output = "text";
};

void AddValidateCommand(CLI::App& app, ValidateOptions& options, int& exit_code);

// Reads and validates every file `options` names; nothing is printed.
ValidateReport ValidateInputs(const ValidateOptions& options);

// Returns the process exit code; writes one line per error to `out`, notes to `err`.
int RunValidate(const ValidateOptions& options, std::ostream& out, std::ostream& err);

}  // namespace karpenter::cli
