// `karpenter controller` as an operator meets it before it runs: one clear line and exit 1 for
// settings it cannot use, upstream's flags in --help.
#include <string>

#include "gtest/gtest.h"
#include "test/cli_runner.h"

namespace karpenter::cli_test {
namespace {

TEST(CliController, AMissingClusterNameIsOneLineAndExitOne) {
  // An explicit empty flag wins over any CLUSTER_NAME the test's environment may carry.
  const CliRun run = RunKarpenter({"controller", "--cluster-name="});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.err,
            "karpenter controller: missing field, cluster-name (set CLUSTER_NAME or "
            "--cluster-name)\n");
  EXPECT_EQ(run.out, "");
}

TEST(CliController, UpstreamsFlagFormsAreReadAndBadValuesNamed) {
  CliRun run = RunKarpenter({"controller", "-cluster-name", "demo", "--log-level=verbose"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.err, "karpenter controller: invalid LOG_LEVEL \"verbose\"\n");
  run = RunKarpenter({"controller", "--cluster-name=demo", "--batch-idle-duration", "soon"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.err, "karpenter controller: --batch-idle-duration: \"soon\" is not a duration\n");
  run = RunKarpenter({"controller", "--cluster-name=demo", "--no-such-flag"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.err, "karpenter controller: flag provided but not defined: -no-such-flag\n");
}

TEST(CliController, ALogOutputPathThatCannotBeOpenedIsOneLineAndExitOne) {
  CliRun run = RunKarpenter(
      {"controller", "--cluster-name=demo", "--log-output-paths=stdout,/nonexistent-dir/k.log"});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.err,
            "karpenter controller: LOG_OUTPUT_PATHS: cannot open \"/nonexistent-dir/k.log\" for "
            "writing\n");
  EXPECT_EQ(run.out, "");
  run = RunKarpenter({"controller", "--cluster-name=demo", "--log-error-output-paths="});
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_EQ(run.err, "karpenter controller: LOG_ERROR_OUTPUT_PATHS: empty output path in \"\"\n");
}

TEST(CliController, HelpListsEverySettingWithItsVariable) {
  const CliRun run = RunKarpenter({"controller", "--help"});
  EXPECT_EQ(run.exit_code, 0);
  for (const char* expected :
       {"--cluster-name (CLUSTER_NAME)", "--interruption-queue (INTERRUPTION_QUEUE)",
        "--feature-gates (FEATURE_GATES)", "--metrics-port (METRICS_PORT)"}) {
    EXPECT_NE(run.out.find(expected), std::string::npos) << expected;
  }
}

}  // namespace
}  // namespace karpenter::cli_test
