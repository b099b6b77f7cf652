#include "test/cli_runner.h"

#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace karpenter::cli_test {
namespace {

std::string ShellQuote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// A fresh file per run: ctest runs tests in parallel processes.
std::string MakeStderrFile() {
  std::string path = (std::filesystem::temp_directory_path() / "kp_cli_stderr_XXXXXX").string();
  int fd = mkstemp(path.data());
  if (fd < 0) return "/dev/null";
  close(fd);
  return path;
}

CliRun Run(const std::string& args) {
  const std::string err_path = MakeStderrFile();
  const std::string command =
      ShellQuote(KP_KARPENTER_BIN) + " " + args + " 2>" + ShellQuote(err_path);
  CliRun run;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe != nullptr) {
    std::array<char, 4096> buffer;
    size_t n;
    while ((n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0) run.out.append(buffer.data(), n);
    const int status = pclose(pipe);
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  if (err_path != "/dev/null") {
    run.err = ReadTextFile(err_path);
    std::error_code ignored;
    std::filesystem::remove(err_path, ignored);
  }
  return run;
}

}  // namespace

CliRun RunKarpenter(const std::vector<std::string>& args) {
  std::string line;
  for (const std::string& arg : args) line += (line.empty() ? "" : " ") + ShellQuote(arg);
  return Run(line);
}

CliRun RunKarpenterCommandLine(const std::string& args) { return Run(args); }

std::string SourcePath(const std::string& relative) {
  return (std::filesystem::path(KP_SOURCE_DIR) / relative).string();
}

std::vector<std::string> ArticlePlanArgs(const std::string& workload,
                                         const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"plan",
                                   "-f",
                                   SourcePath("examples/article/ec2nodeclass.yaml"),
                                   "-f",
                                   SourcePath("examples/article/nodepool.yaml"),
                                   "-f",
                                   SourcePath(workload)};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

std::string ReadTextFile(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace karpenter::cli_test
