// karpenter: the thin command-line driver; each subcommand lives in its own file.
#include "CLI/CLI.hpp"
#include "cmd/karpenter/bench_command.h"
#include "cmd/karpenter/bench_disruption_command.h"
#include "cmd/karpenter/plan_command.h"
#include "cmd/karpenter/sim_command.h"
#include "cmd/karpenter/validate_command.h"

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
  return exit_code;
}
