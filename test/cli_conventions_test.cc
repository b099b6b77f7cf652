// kubectl's habits on the command line: `version` and `--version`, `--help` with examples and
// exit codes, and help texts that cite only files the repository has.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "test/cli_runner.h"

namespace karpenter::cli_test {
namespace {

TEST(CliConventions, VersionCommandAndFlagAgree) {
  CliRun command = RunKarpenter({"version"});
  CliRun flag = RunKarpenter({"--version"});
  ASSERT_EQ(command.exit_code, 0) << command.err;
  ASSERT_EQ(flag.exit_code, 0) << flag.err;
  EXPECT_EQ(command.out.rfind("karpenter ", 0), 0u) << command.out;
  EXPECT_NE(command.out.find("karpenter.sh/v1"), std::string::npos) << command.out;
  EXPECT_EQ(command.out, flag.out);
}

TEST(CliConventions, VersionAsJson) {
  CliRun run = RunKarpenter({"version", "-o", "json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  nlohmann::json out = nlohmann::json::parse(run.out, nullptr, false);
  ASSERT_FALSE(out.is_discarded()) << run.out;
  EXPECT_TRUE(out["version"].is_string());
  EXPECT_EQ(out["apis"], nlohmann::json::array({"karpenter.sh/v1", "karpenter.k8s.aws/v1"}));
}

TEST(CliConventions, PlanHelpHasExamplesAndExitCodes) {
  CliRun run = RunKarpenter({"plan", "--help"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("Examples:\n  karpenter plan -f "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("--drain eks.amazonaws.com/nodegroup=ng-1"), std::string::npos);
  EXPECT_NE(run.out.find("Exit codes: 0 a plan was made; 1 bad input or flags"), std::string::npos);
}

// Every command's --help, for the tests that read them all.
std::vector<std::vector<std::string>> HelpCommands() {
  return {{"--help"},
          {"validate", "--help"},
          {"plan", "--help"},
          {"sim", "--help"},
          {"bench", "--help"},
          {"bench", "scheduling", "--help"},
          {"bench", "disruption", "--help"},
          {"version", "--help"},
          {"completion", "--help"},
          {"migrate", "--help"},
          {"controller", "--help"}};
}

// Every repository path a help text names exists; DESIGN.md lives outside the repository.
TEST(CliConventions, HelpTextsCiteOnlyFilesOfTheRepository) {
  const std::regex path(
      R"(((?:docs|examples|test|scripts|charts)/[A-Za-z0-9_./-]*[A-Za-z0-9_-]|[A-Z]+\.md))");
  for (const std::vector<std::string>& args : HelpCommands()) {
    CliRun run = RunKarpenter(args);
    ASSERT_EQ(run.exit_code, 0) << args[0] << run.err;
    EXPECT_EQ(run.out.find("DESIGN.md"), std::string::npos) << args[0] << ": " << run.out;
    for (std::sregex_iterator it(run.out.begin(), run.out.end(), path), end; it != end; ++it) {
      std::string cited = (*it)[1];
      while (!cited.empty() && cited.back() == '.') cited.pop_back();
      EXPECT_TRUE(std::filesystem::exists(SourcePath(cited)))
          << args[0] << " --help cites " << cited;
    }
  }
}

// The README and docs/ point only at files the repository has: the contracts live in
// docs/contracts.md, not in a design document outside it.
TEST(CliConventions, DocsCiteNoDesignDocumentOutsideTheRepository) {
  std::vector<std::filesystem::path> pages = {SourcePath("README.md")};
  for (const auto& entry : std::filesystem::directory_iterator(SourcePath("docs"))) {
    if (entry.path().extension() == ".md") pages.push_back(entry.path());
  }
  ASSERT_GT(pages.size(), 5u);
  for (const std::filesystem::path& page : pages) {
    std::ifstream in(page);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str().find("DESIGN.md"), std::string::npos) << page;
  }
  EXPECT_TRUE(std::filesystem::exists(SourcePath("docs/contracts.md")));
}

std::vector<std::string> ArticlePlan(std::vector<std::string> extra) {
  extra.insert(extra.begin(), "--deterministic");
  return ArticlePlanArgs("examples/article/workload-sample.yaml", extra);
}

TEST(CliConventions, FilenameTakesDirectoriesAndCommaListsAsKubectlDoes) {
  CliRun separate = RunKarpenter(ArticlePlan({"-o", "json"}));
  CliRun directory =
      RunKarpenter({"plan", "-f", SourcePath("examples/article"), "--deterministic", "-o", "json"});
  CliRun commas = RunKarpenter({"plan", "-f",
                                SourcePath("examples/article/ec2nodeclass.yaml") + "," +
                                    SourcePath("examples/article/nodepool.yaml") + "," +
                                    SourcePath("examples/article/workload-sample.yaml"),
                                "--deterministic", "-o", "json"});
  ASSERT_EQ(directory.exit_code, 0) << directory.err;
  ASSERT_EQ(commas.exit_code, 0) << commas.err;
  EXPECT_EQ(directory.out, separate.out);
  EXPECT_EQ(commas.out, separate.out);
}

TEST(CliConventions, RecursiveReadsSubdirectories) {
  const std::filesystem::path root =
      std::filesystem::temp_directory_path() / "kp_cli_conventions_recursive";
  std::filesystem::remove_all(root);
  std::filesystem::create_directories(root / "sub");
  std::filesystem::copy_file(SourcePath("examples/article/ec2nodeclass.yaml"),
                             root / "ec2nodeclass.yaml");
  std::filesystem::copy_file(SourcePath("examples/article/nodepool.yaml"),
                             root / "sub" / "nodepool.yml");
  std::filesystem::copy_file(SourcePath("README.md"), root / "README.md");  // not a manifest
  CliRun flat = RunKarpenter({"validate", "-f", root.string()});
  CliRun recursive = RunKarpenter({"validate", "-f", root.string(), "-R"});
  EXPECT_EQ(flat.exit_code, 0) << flat.out;
  EXPECT_EQ(flat.err, "1 object(s) valid\n");
  EXPECT_EQ(recursive.exit_code, 0) << recursive.out;
  EXPECT_EQ(recursive.err, "2 object(s) valid\n");
  std::filesystem::create_directories(root / "empty");
  CliRun empty = RunKarpenter({"plan", "-f", (root / "empty").string()});
  EXPECT_EQ(empty.exit_code, 1);
  EXPECT_NE(empty.err.find("a directory without .json, .yaml or .yml files"), std::string::npos)
      << empty.err;
}

// What bash completes for `words` (the last one being completed) with the generated script.
std::string Complete(const std::string& script, const std::string& words) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path();
  const std::filesystem::path script_file = dir / "kp_cli_completion.bash";
  const std::filesystem::path driver = dir / "kp_cli_completion_driver.bash";
  const std::filesystem::path result = dir / "kp_cli_completion.out";
  std::ofstream(script_file) << script;
  std::ofstream(driver) << "source " << script_file << "\nCOMP_WORDS=(" << words
                        << ")\nCOMP_CWORD=$((${#COMP_WORDS[@]} - 1))\n_karpenter\n"
                        << "echo \"${COMPREPLY[*]}\" > " << result << "\n";
  if (std::system(("bash " + driver.string()).c_str()) != 0) return "<bash failed>";
  std::ifstream in(result);
  std::string line;
  std::getline(in, line);
  return line;
}

TEST(CliConventions, EveryCommandsHelpHasExamplesAndExitCodes) {
  for (const std::vector<std::string>& args : HelpCommands()) {
    CliRun run = RunKarpenter(args);
    ASSERT_EQ(run.exit_code, 0) << args[0] << run.err;
    const size_t examples = run.out.find("Examples:\n");
    ASSERT_NE(examples, std::string::npos) << args[0] << ": " << run.out;
    // Every example line runs the command being described.
    const std::string command = args.size() > 1 && args[0] == "bench" && args[1] != "--help"
                                    ? "karpenter bench " + args[1]
                                    : "karpenter" + (args[0] == "--help" ? "" : " " + args[0]);
    EXPECT_NE(run.out.find(command, examples), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("Exit codes: 0 ", examples), std::string::npos) << run.out;
  }
}

TEST(CliConventions, ZshCompletionRunsTheBashScriptThroughBashcompinit) {
  CliRun zsh = RunKarpenter({"completion", "zsh"});
  CliRun bash = RunKarpenter({"completion", "bash"});
  ASSERT_EQ(zsh.exit_code, 0) << zsh.err;
  EXPECT_EQ(zsh.out.rfind("#compdef karpenter\n", 0), 0u) << zsh.out;
  EXPECT_NE(zsh.out.find("autoload -U +X bashcompinit && bashcompinit\n"), std::string::npos);
  // The bash part is the bash script itself, so both shells complete the same words.
  EXPECT_NE(zsh.out.find(bash.out), std::string::npos);
}

TEST(CliConventions, FishCompletionKnowsCommandsFlagsAndFormats) {
  CliRun run = RunKarpenter({"completion", "fish"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  for (const char* line : {
           "complete -c karpenter -s o -l output -x -a 'json yaml text wide'\n",
           "complete -c karpenter -n '__fish_use_subcommand' -a plan -d '",
           "complete -c karpenter -n '__fish_seen_subcommand_from plan' -l drain\n",
           "complete -c karpenter -n '__fish_seen_subcommand_from plan' -l explain\n",
           "complete -c karpenter -n '__fish_seen_subcommand_from bench' -a scheduling -d '",
           "complete -c karpenter -n '__fish_seen_subcommand_from scheduling' -l pods\n",
       }) {
    EXPECT_NE(run.out.find(line), std::string::npos) << line << "\n" << run.out;
  }
  CliRun unknown = RunKarpenter({"completion", "tcsh"});
  EXPECT_EQ(unknown.exit_code, 1);
}

TEST(CliConventions, BashCompletionKnowsCommandsFlagsAndFormats) {
  CliRun run = RunKarpenter({"completion", "bash"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("complete -o default -F _karpenter karpenter"), std::string::npos);
  EXPECT_EQ(Complete(run.out, "karpenter pl"), "plan");
  EXPECT_EQ(Complete(run.out, "karpenter plan -f x.yaml --dr"), "--drain");
  EXPECT_EQ(Complete(run.out, "karpenter bench sched"), "scheduling");
  EXPECT_EQ(Complete(run.out, "karpenter bench scheduling --po"), "--pods --pods-file");
  EXPECT_EQ(Complete(run.out, "karpenter plan -o y"), "yaml");
}

TEST(CliConventions, PlanYamlIsTheJsonDocumentInBlockStyle) {
  CliRun json = RunKarpenter(ArticlePlan({"-o", "json"}));
  CliRun yaml = RunKarpenter(ArticlePlan({"-o", "yaml"}));
  ASSERT_EQ(yaml.exit_code, 0) << yaml.err;
  nlohmann::json plan = nlohmann::json::parse(json.out, nullptr, false);
  EXPECT_EQ(yaml.out.rfind("nodeClaims:\n- nodePool: default\n  instanceTypes:\n  - ", 0), 0u)
      << yaml.out;
  EXPECT_NE(yaml.out.find("summary:\n  pendingPods: 10\n  scheduledPods: 10\n"), std::string::npos)
      << yaml.out;
  // Strings another type could be read from are quoted; quantities keep their spelling.
  EXPECT_NE(yaml.out.find("  pricePerHour: " + plan["summary"]["pricePerHour"].dump()),
            std::string::npos);
  EXPECT_NE(yaml.out.find("karpenter.sh/nodepool: default"), std::string::npos) << yaml.out;
}

TEST(CliConventions, PlanWideSaysWhyEachClaim) {
  CliRun run = RunKarpenter(ArticlePlan({"-o", "wide"}));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("nodeclaim #1: "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find(" compatible instance type(s); requested/allocatable: cpu="),
            std::string::npos)
      << run.out;
}

TEST(CliConventions, BenchYamlPrintsOneDocumentPerSize) {
  CliRun run = RunKarpenter({"bench", "scheduling", "--pods", "1,2", "-o", "yaml"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(run.out.rfind("workload: diverse\n", 0), 0u) << run.out;
  const size_t separator = run.out.find("---\nworkload: diverse\n");
  ASSERT_NE(separator, std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\npods: 1\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\npods: 2\n", separator), std::string::npos) << run.out;
}

TEST(CliConventions, SimYamlIsTheJsonSummary) {
  CliRun run = RunKarpenter(
      {"sim", SourcePath("examples/sim/happy-path.yaml"), "--duration", "10m", "-o", "yaml"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("autoscalers:\n  karpenter:\n"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\n  cluster-autoscaler:\n"), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("{\""), std::string::npos) << run.out;  // no JSON object left
}

TEST(CliConventions, BenchOutputJsonIsTheJsonFlag) {
  CliRun flag = RunKarpenter({"bench", "scheduling", "--pods", "1", "--json"});
  CliRun output = RunKarpenter({"bench", "scheduling", "--pods", "1", "-o", "json"});
  ASSERT_EQ(output.exit_code, 0) << output.err;
  nlohmann::json a = nlohmann::json::parse(flag.out, nullptr, false);
  nlohmann::json b = nlohmann::json::parse(output.out, nullptr, false);
  ASSERT_TRUE(b.is_object()) << output.out;
  EXPECT_EQ(a["pods"], b["pods"]);
  EXPECT_EQ(a["nodes"], b["nodes"]);
}

// CLI11 read `--seed -1` as 2^64-1 and saturated 10^23: both ran with a seed nobody gave.
TEST(CliConventions, SeedsAreWholeNumbersAsWritten) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"sim", "--duration", "1m", "--seed", "-1"},
           {"bench", "scheduling", "--pods", "5", "--seed", "99999999999999999999999"},
           {"bench", "disruption", "--nodes", "5", "--seed", "7x"}}) {
    CliRun run = RunKarpenter(args);
    EXPECT_EQ(run.exit_code, 1) << args[0] << " " << args[1] << ": " << run.err;
    EXPECT_NE(run.err.find("--seed"), std::string::npos) << run.err;
  }
  CliRun largest = RunKarpenter(
      {"bench", "scheduling", "--pods", "5", "--seed", "18446744073709551615", "-o", "json"});
  EXPECT_EQ(largest.exit_code, 0) << largest.err;
}

// Every command that prints checks its writes: `> /dev/full` is one line and exit 1.
TEST(CliConventions, AFailedWriteOfAnyCommandExitsOne) {
  const std::string article = SourcePath("examples/article/");
  const std::string files = article + "ec2nodeclass.yaml," + article + "nodepool.yaml," + article +
                            "workload-sample.yaml";
  for (const std::string& args :
       {"plan -f " + files, "plan -f " + files + " -o json",
        std::string("bench scheduling --pods 5"), std::string("bench disruption --nodes 5"),
        std::string("sim --duration 1m --json"), std::string("version"),
        std::string("completion bash")}) {
    CliRun run = RunKarpenterCommandLine(args + " > /dev/full");
    EXPECT_EQ(run.exit_code, 1) << args;
    EXPECT_EQ(run.err.rfind("karpenter: cannot write the output", 0), 0u)
        << args << ": " << run.err;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << args << ": " << run.err;
  }
}

}  // namespace
}  // namespace karpenter::cli_test
