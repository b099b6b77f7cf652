// `karpenter completion bash`: a bash completion script written from the command line's own
// definition (subcommands, their flags, and the -o formats), so it never lags behind the flags.
// Load it with `source <(karpenter completion bash)`.
#pragma once

#include <string>

#include "CLI/CLI.hpp"

namespace karpenter::cli {

// Registers the subcommand; `app` must hold every other subcommand by the time it runs.
void AddCompletionCommand(CLI::App& app, std::string& shell);

// The script for `app`.
std::string BashCompletion(const CLI::App& app);

}  // namespace karpenter::cli
