// `karpenter validate -f FILE [-f FILE...]`: CRD schema and CEL-equivalent validation with
// Kubernetes field paths. Exit 0 when every object is valid, 1 otherwise.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"

namespace karpenter::cli {

struct ValidateOptions {
  std::vector<std::string> files;
  // -R: directories named by -f are read with their subdirectories.
  bool recursive = false;
  // The AWS region the objects must agree with; empty: they need only agree with each other.
  std::string region;
};

void AddValidateCommand(CLI::App& app, ValidateOptions& options, int& exit_code);

// Returns the process exit code; writes one line per error to `out`, notes to `err`.
int RunValidate(const ValidateOptions& options, std::ostream& out, std::ostream& err);

}  // namespace karpenter::cli
