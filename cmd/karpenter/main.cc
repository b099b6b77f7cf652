// karpenter: the thin command-line driver; each subcommand lives in its own file.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

#include "CLI/CLI.hpp"
#include "cmd/karpenter/bench_command.h"
#include "cmd/karpenter/bench_disruption_command.h"
#include "cmd/karpenter/plan_command.h"
#include "cmd/karpenter/sim_command.h"
#include "cmd/karpenter/validate_command.h"

namespace {

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

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Karpenter C++: group-less node autoscaler for Amazon EKS"};
  app.require_subcommand(1);
  int exit_code = 0;
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
  CLI11_PARSE(app, argc, argv);
  return FlushStandardOutput(exit_code);
}
