// Run by test/controlplane/crd_agreement.sh, not by ctest: it needs the API server's answers.
// For each custom resource the server accepted, the script saves the object the server returns
// from a dry-run create (its CRD defaults applied) beside the object as written. Decoding applies
// our defaults (`ApplyDefaults`), so the two must decode to the same spec: a default the CRD sets
// and the model does not, or sets to another value, shows up here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "absl/status/statusor.h"
#include "karpenter/common/status.h"
#include "src/api/manifest.h"

namespace karpenter::api {
namespace {

namespace fs = std::filesystem;

// The object without metadata and status (the server fills in metadata; status is not defaulted
// on create), encoded.
absl::StatusOr<std::string> EncodedSpec(const fs::path& file) {
  KP_ASSIGN_OR_RETURN(std::vector<Manifest> manifests, LoadManifestFile(file.string()));
  if (manifests.size() != 1 || !manifests[0].object) {
    return absl::InvalidArgumentError(file.string() + ": want one modelled object");
  }
  Object object = *manifests[0].object;
  bool custom = false;
  std::visit(
      [&custom](auto& typed) {
        using T = std::decay_t<decltype(typed)>;
        if constexpr (std::is_same_v<T, NodePool> || std::is_same_v<T, NodeClaim> ||
                      std::is_same_v<T, EC2NodeClass>) {
          typed.metadata = {};
          typed.status = {};
          custom = true;
        }
      },
      object);
  if (!custom) return absl::InvalidArgumentError(file.string() + ": not a custom resource");
  return EncodeObject(object);
}

TEST(CrdDefaults, ServerDefaultsMatchTheModels) {
  const char* dir = std::getenv("KP_CRD_DEFAULTS_DIR");
  if (dir == nullptr) GTEST_SKIP() << "KP_CRD_DEFAULTS_DIR is unset (crd_agreement.sh sets it)";
  std::vector<fs::path> served;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().string().ends_with(".server.json")) served.push_back(entry.path());
  }
  std::sort(served.begin(), served.end());
  ASSERT_FALSE(served.empty()) << "no *.server.json in " << dir;
  for (const fs::path& server : served) {
    std::string stem = server.filename().string();
    stem.resize(stem.size() - std::string(".server.json").size());
    const fs::path written = fs::path(dir) / (stem + ".yaml");
    auto ours = EncodedSpec(written);
    auto theirs = EncodedSpec(server);
    ASSERT_TRUE(ours.ok()) << ours.status();
    ASSERT_TRUE(theirs.ok()) << theirs.status();
    EXPECT_EQ(*ours, *theirs) << written << " decoded with our defaults (first) differs from the "
                              << "API server's defaulted object (second)";
  }
  std::cout << served.size() << " custom resources compared\n";
}

}  // namespace
}  // namespace karpenter::api
