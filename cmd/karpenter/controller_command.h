// `karpenter controller [flags]`: the in-cluster controller. Reads upstream's settings
// (environment variables and flags, src/settings), connects to the API server (in-cluster
// service account, else kubeconfig) and to AWS (the SDKs' credential chain), serves /metrics and
// the probes, and runs every controller (src/manager) while it holds the leader Lease. Stops on
// SIGTERM or SIGINT, releasing the Lease; exits 1 with one line on invalid settings, and when
// leadership is lost (the next leader takes over, as upstream's restart does).
#pragma once

#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"

namespace karpenter::cli {

struct ControllerOptions {
  std::vector<std::string> args;  // everything after `controller`, read as upstream's flags
};

void AddControllerCommand(CLI::App& app, ControllerOptions& options, int& exit_code);

// Returns the process exit code. `environment` is the process's (tests pass their own).
int RunController(const std::vector<std::string>& args,
                  const std::map<std::string, std::string>& environment, std::ostream& out,
                  std::ostream& err);

}  // namespace karpenter::cli
