// Replays workloads solved by upstream Karpenter's own scheduler (src/bench/testdata/differential,
// README there says how they were made) and requires the same decisions from ours.
#include <fstream>
#include <sstream>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "src/bench/scheduling_solve.h"
#include "src/bench/workload_file.h"

namespace karpenter::bench {
namespace {

const std::string kDir = std::string(KP_SOURCE_DIR) + "/src/bench/testdata/differential/";

std::string Read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream content;
  content << in.rdbuf();
  return content.str();
}

TEST(Differential, SameDecisionsAsUpstream) {
  const nlohmann::json cases = nlohmann::json::parse(Read(kDir + "cases.json"));
  // The data set is the test: an emptied or truncated index must not pass.
  ASSERT_GE(cases.size(), 100u);
  size_t placing_on_existing_nodes = 0;
  for (const nlohmann::json& entry : cases) {
    const std::string name = entry.at("name").get<std::string>();
    SCOPED_TRACE(name);
    absl::StatusOr<std::vector<api::Manifest>> manifests =
        api::LoadManifestFile(kDir + entry.at("workload").get<std::string>());
    ASSERT_TRUE(manifests.ok()) << manifests.status();
    absl::StatusOr<Decisions> expected =
        ParseDecisions(Read(kDir + entry.at("decisions").get<std::string>()));
    ASSERT_TRUE(expected.ok()) << expected.status();
    if (!expected->existing_nodes.empty()) ++placing_on_existing_nodes;
    provisioning::SchedulerOptions options;
    if (entry.value("preferencePolicy", "Respect") == "Ignore") {
      options.preference_policy = provisioning::PreferencePolicy::kIgnore;
    }
    if (entry.value("minValuesPolicy", "Strict") == "BestEffort") {
      options.min_values_policy = provisioning::MinValuesPolicy::kBestEffort;
    }
    absl::StatusOr<Decisions> actual = SolveWorkload(*manifests, Fake400CatalogFile(), options);
    ASSERT_TRUE(actual.ok()) << actual.status();
    const std::vector<std::string> differences = DiffDecisions(*expected, *actual);
    EXPECT_THAT(differences, ::testing::IsEmpty());
  }
  // Existing nodes (with bound pods) are covered by workloads where upstream used them.
  EXPECT_GE(placing_on_existing_nodes, 10u);
}

}  // namespace
}  // namespace karpenter::bench
