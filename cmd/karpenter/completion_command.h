// `karpenter completion bash|zsh|fish`: a completion script written from the command line's own
// definition (subcommands, their flags, and the -o formats), so it never lags behind the flags.
// Load it with `source <(karpenter completion bash)` (zsh alike), or
// `karpenter completion fish | source`.
#pragma once

#include <string>

#include "CLI/CLI.hpp"

namespace karpenter::cli {

// Registers the subcommand; `app` must hold every other subcommand by the time it runs.
void AddCompletionCommand(CLI::App& app, std::string& shell);

// The scripts for `app`: bash; zsh (the bash script through bashcompinit); fish.
std::string BashCompletion(const CLI::App& app);
std::string ZshCompletion(const CLI::App& app);
std::string FishCompletion(const CLI::App& app);

}  // namespace karpenter::cli
