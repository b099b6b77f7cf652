// `karpenter migrate -f SNAPSHOT... [--asgs FILE] [--nodegroups FILE...] [--subnets FILE]
// [--cluster-autoscaler FILE...] [--cluster NAME] -o yaml|json|text [--report FILE.html [--seed
// N]]`: plans the move of a cluster from Cluster Autoscaler to Karpenter offline, from what kubectl
// and the AWS CLI print (see docs/migrate.md).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"

namespace karpenter::cli {

struct MigrateOptions {
  std::vector<std::string> files;  // the kubectl snapshot, as -f reads it
  bool recursive = false;
  std::string asgs;                     // aws autoscaling describe-auto-scaling-groups
  std::vector<std::string> nodegroups;  // aws eks describe-nodegroup, one group per file
  std::string subnets;                  // aws ec2 describe-subnets
  std::string launch_templates;         // aws ec2 describe-launch-template-versions
  // kubectl get -o yaml of the cluster-autoscaler Deployment and its priority-expander ConfigMap
  std::vector<std::string> cluster_autoscaler;
  std::string cluster;
  bool diversify = false;
  std::string output = "text";
  // The twin's before-and-after page (migrate_report.h), or empty; its runs' seed.
  std::string report;
  uint64_t seed = 1;
};

void AddMigrateCommand(CLI::App& app, MigrateOptions& options, int& exit_code);

// The process exit code: 0 with the plan on `out` (and the report written), 1 with every input
// error on `err` and nothing on `out`. An unwritable --report is refused before any work.
int RunMigrate(const MigrateOptions& options, std::ostream& out, std::ostream& err);

}  // namespace karpenter::cli
