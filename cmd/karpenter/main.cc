// karpenter: the thin command-line driver; each subcommand lives in its own file.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <new>
#include <string>
#include <string_view>

#include "CLI/CLI.hpp"
#include "cmd/karpenter/bench_command.h"
#include "cmd/karpenter/bench_disruption_command.h"
#include "cmd/karpenter/completion_command.h"
#include "cmd/karpenter/controller_command.h"
#include "cmd/karpenter/migrate_command.h"
#include "cmd/karpenter/plan_command.h"
#include "cmd/karpenter/sim_command.h"
#include "cmd/karpenter/validate_command.h"

namespace {

// A first argument that is neither a flag nor a subcommand: CLI11 would only say "A subcommand
// is required"; kubectl names it.
bool IsUnknownCommand(const CLI::App& app, std::string_view arg) {
  if (arg.empty() || arg[0] == '-') return false;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->check_name(std::string(arg))) return false;
  }
  return true;
}

// CLI11 exits usage errors with codes of its own (105 for a bad value, 106 for an unknown
// option, 109 for extra arguments...); scripts written for kubectl expect 1 for every error.
int ParseCommandLine(CLI::App& app, int argc, char** argv) {
  if (argc > 1 && IsUnknownCommand(app, argv[1])) {
    std::cerr << "Error: unknown command \"" << argv[1] << "\" for \"karpenter\"\n"
              << "Run 'karpenter --help' for usage.\n";
    return 1;
  }
  // CLI11 reports usage errors by throwing; its exit() prints the message.
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 1;
  } catch (const std::bad_alloc&) {
    // A last resort: inputs are held to limits where they are read, so this names no field.
    std::cerr << "karpenter: out of memory: the input asks for more than this machine has\n";
    return 1;
  }
  return -1;
}

// stdout is buffered: a write that fails (a full disk, /dev/full, a closed pipe) shows only when
// it is flushed, and a report that never arrived must not exit 0.
int FlushStandardOutput(int exit_code) {
  errno = 0;
  std::cout.flush();
  const bool flushed = std::fflush(stdout) == 0;
  const int error = errno;  // of the flush that failed, if one did
  if (flushed && !std::ferror(stdout) && std::cout.good()) return exit_code;
  // An earlier failed flush (std::cerr flushes std::cout first) leaves no errno to name.
  std::cerr << "karpenter: cannot write the output"
            << (error != 0 ? std::string(": ") + std::strerror(error) : std::string()) << "\n";
  return 1;
}

// The build's version and the APIs it reads, as `karpenter version` and `--version` print them.
std::string VersionText() {
  return std::string("karpenter ") + KP_VERSION +
         " (Karpenter v1 in C++: karpenter.sh/v1, karpenter.k8s.aws/v1)";
}

void AddVersionCommand(CLI::App& app, std::string& output) {
  CLI::App* cmd = app.add_subcommand("version", "Print the version of this build");
  cmd->footer(
      "Examples:\n"
      "  karpenter version\n"
      "  karpenter version -o json\n"
      "  karpenter --version\n"
      "Exit codes: 0 printed; 1 bad flags");
  cmd->add_option("-o,--output", output, "Output format")
      ->check(CLI::IsMember({"json", "yaml", "text", "wide"}))
      ->capture_default_str();
  cmd->callback([&output] {
    if (output == "json") {
      std::cout << R"({"version":")" << KP_VERSION
                << R"(","apis":["karpenter.sh/v1","karpenter.k8s.aws/v1"]})"
                << "\n";
    } else if (output == "yaml") {
      std::cout << "version: " << KP_VERSION
                << "\napis:\n- karpenter.sh/v1\n- karpenter.k8s.aws/v1\n";
    } else {
      std::cout << VersionText() << "\n";
    }
  });
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Karpenter C++: group-less node autoscaler for Amazon EKS"};
  app.require_subcommand(1);
  app.set_version_flag("--version", VersionText());
  app.footer(
      "Examples:\n"
      "  karpenter validate -f examples/article/nodepool.yaml\n"
      "  karpenter plan -f cluster.yaml -f examples/article/nodepool.yaml --disruption\n"
      "  karpenter sim\n"
      "  karpenter COMMAND --help                      # each command's flags and examples\n"
      "Exit codes: 0 success; 1 bad input, bad flags or an unknown command; 2 plan "
      "--fail-on-unschedulable with a pod it cannot place");
  int exit_code = 0;
  std::string version_output = "text";
  AddVersionCommand(app, version_output);
  karpenter::cli::ValidateOptions validate;
  karpenter::cli::AddValidateCommand(app, validate, exit_code);
  karpenter::cli::PlanCommandOptions plan;
  karpenter::cli::AddPlanCommand(app, plan, exit_code);
  karpenter::cli::BenchSchedulingOptions bench;
  karpenter::cli::AddBenchCommand(app, bench, exit_code);
  karpenter::cli::BenchDisruptionOptions bench_disruption;
  karpenter::cli::AddBenchDisruptionCommand(*app.get_subcommand("bench"), bench_disruption,
                                            exit_code);
  karpenter::cli::SimCommandOptions sim;
  karpenter::cli::AddSimCommand(app, sim, exit_code);
  karpenter::cli::ControllerOptions controller;
  karpenter::cli::AddControllerCommand(app, controller, exit_code);
  karpenter::cli::MigrateOptions migrate;
  karpenter::cli::AddMigrateCommand(app, migrate, exit_code);
  std::string completion_shell;
  karpenter::cli::AddCompletionCommand(app, completion_shell);
  if (const int usage = ParseCommandLine(app, argc, argv); usage >= 0) {
    return FlushStandardOutput(usage);
  }
  return FlushStandardOutput(exit_code);
}
