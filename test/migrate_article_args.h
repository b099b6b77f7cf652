// The article cluster's `karpenter migrate` inputs (examples/migrate/article), shared by the
// migrate CLI tests.
#pragma once

#include <string>
#include <vector>

#include "test/cli_runner.h"

namespace karpenter::cli_test {

// `migrate` over every input file of the article's cluster, then `extra`.
inline std::vector<std::string> ArticleMigrateArgs(const std::vector<std::string>& extra) {
  const std::string dir = SourcePath("examples/migrate/article/");
  std::vector<std::string> args = {"migrate",
                                   "-f",
                                   dir + "snapshot.json",
                                   "--nodegroups",
                                   dir + "nodegroup-general-workers.json," + dir +
                                       "nodegroup-spot-batch.json," + dir + "nodegroup-system.json",
                                   "--asgs",
                                   dir + "asgs.json",
                                   "--subnets",
                                   dir + "subnets.json"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

}  // namespace karpenter::cli_test
