// Every kind the reader models gets the API server's name rules: EC2NodeClass names were not
// checked at all ("", 300 characters and "a..b" passed).
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "src/api/manifest.h"
#include "src/api/validation.h"

namespace karpenter::api {
namespace {

const std::map<std::string, std::string, std::less<>> kApiVersions = {
    {"NodePool", "karpenter.sh/v1"},
    {"NodeClaim", "karpenter.sh/v1"},
    {"EC2NodeClass", "karpenter.k8s.aws/v1"},
    {"Pod", "v1"},
    {"Node", "v1"},
    {"DaemonSet", "apps/v1"},
    {"Deployment", "apps/v1"},
    {"ReplicaSet", "apps/v1"},
    {"StatefulSet", "apps/v1"},
    {"Job", "batch/v1"},
    {"PodDisruptionBudget", "policy/v1"},
    {"PersistentVolume", "v1"},
    {"PersistentVolumeClaim", "v1"},
    {"StorageClass", "storage.k8s.io/v1"},
    {"CSINode", "storage.k8s.io/v1"},
    {"VolumeAttachment", "storage.k8s.io/v1"},
};

// The errors on metadata.name of a `kind` object named by the YAML scalar `name`.
std::string NameErrors(std::string_view kind, const std::string& name) {
  const std::string yaml = "apiVersion: " + kApiVersions.find(kind)->second +
                           "\nkind: " + std::string(kind) + "\nmetadata: {name: " + name + "}\n";
  auto manifests = DecodeManifests(yaml, "name.yaml");
  if (!manifests.ok() || manifests->size() != 1) {
    ADD_FAILURE() << yaml << ": " << manifests.status();
    return "";
  }
  std::string out;
  const FieldErrors errors = ValidateManifest((*manifests)[0]);
  for (const FieldError& error : errors.errors()) {
    if (error.path == "metadata.name") out += error.ToString() + "\n";
  }
  return out;
}

TEST(ObjectNames, EveryKindChecksItsName) {
  for (std::string_view kind : SupportedKinds()) {
    ASSERT_TRUE(kApiVersions.contains(kind)) << kind << ": add its apiVersion to this test";
    EXPECT_NE(NameErrors(kind, "a..b"), "") << kind;
    EXPECT_NE(NameErrors(kind, "'" + std::string(300, 'a') + "'"), "") << kind;
    EXPECT_NE(NameErrors(kind, "''"), "") << kind;
    EXPECT_NE(NameErrors(kind, "Upper"), "") << kind;
    EXPECT_EQ(NameErrors(kind, "web-1"), "") << kind;
  }
}

}  // namespace
}  // namespace karpenter::api
