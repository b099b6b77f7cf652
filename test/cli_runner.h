// Runs the built `karpenter` binary as a user would, for the CLI tests: exit code, stdout and
// stderr of one invocation.
#pragma once

#include <string>
#include <vector>

namespace karpenter::cli_test {

struct CliRun {
  int exit_code = -1;  // -1 when the process could not be run or did not exit normally
  std::string out;
  std::string err;
};

// `karpenter ARGS...`, each argument passed verbatim (quoted for the shell).
CliRun RunKarpenter(const std::vector<std::string>& args);

// `karpenter ARGS` with ARGS split by the shell, for tests that write command lines as text.
CliRun RunKarpenterCommandLine(const std::string& args);

// The path of a file in the source tree, from its path relative to the repository root.
std::string SourcePath(const std::string& relative);

// `plan -f` the article's EC2NodeClass and NodePool (examples/article/) and `workload` (a path in
// the source tree), followed by `extra`.
std::vector<std::string> ArticlePlanArgs(const std::string& workload,
                                         const std::vector<std::string>& extra = {});

// The whole text of a file the CLI wrote (an events log, a report); empty when it cannot be read.
std::string ReadTextFile(const std::string& path);

}  // namespace karpenter::cli_test
