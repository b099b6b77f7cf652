#include "src/apiserver/object_writes.h"

#include <gtest/gtest.h>

#include <string>

namespace karpenter::apiserver {
namespace {

api::Pod StoredPod() {
  api::Pod pod;
  pod.metadata.name = "web-1";
  pod.metadata.namespace_ = "default";
  pod.metadata.uid = "uid-1";
  pod.metadata.resource_version = "7";
  pod.metadata.creation_timestamp = api::Time::FromUnixSeconds(100);
  pod.metadata.labels["app"] = "web";
  pod.status.phase = "Running";
  return pod;
}

TEST(ApplyMergePatch, ChangesWhatThePatchNamesAndKeepsTheRest) {
  absl::StatusOr<api::Object> patched = ApplyMergePatch(
      StoredPod(), R"({"metadata":{"labels":{"tier":"front","app":null}},"status":{"phase":"x"}})");
  ASSERT_TRUE(patched.ok()) << patched.status();
  const api::Pod& pod = std::get<api::Pod>(*patched);
  EXPECT_EQ(pod.metadata.labels, (std::map<std::string, std::string>{{"tier", "front"}}));
  EXPECT_EQ(pod.status.phase, "Running") << "the main resource ignores status";
  EXPECT_EQ(pod.metadata.uid, "uid-1");
  EXPECT_EQ(pod.metadata.creation_timestamp, api::Time::FromUnixSeconds(100));
}

TEST(ApplyMergePatch, AResourceVersionInThePatchIsAPrecondition) {
  EXPECT_TRUE(ApplyMergePatch(StoredPod(), R"({"metadata":{"resourceVersion":"7"}})").ok());
  EXPECT_EQ(ApplyMergePatch(StoredPod(), R"({"metadata":{"resourceVersion":"6"}})").status().code(),
            absl::StatusCode::kAborted);
  EXPECT_EQ(ApplyMergePatch(StoredPod(), R"({"metadata":{"resourceVersion":7}})").status().code(),
            absl::StatusCode::kAborted)
      << "not a string";
}

TEST(ApplyMergePatch, RefusesWhatIsNotAPatchOfThisObject) {
  for (const char* patch : {"[1]", "not json", "\"text\""}) {
    EXPECT_EQ(ApplyMergePatch(StoredPod(), patch).status().code(),
              absl::StatusCode::kInvalidArgument)
        << patch;
  }
  EXPECT_EQ(ApplyMergePatch(StoredPod(), R"({"metadata":{"name":"other"}})").status().code(),
            absl::StatusCode::kInvalidArgument)
      << "another name is another object";
}

TEST(ObjectWrites, ServerFieldsStatusAndVersionsFollowTheApiServersRules) {
  api::Object stored = StoredPod();
  api::Pod written_pod = StoredPod();
  written_pod.metadata.uid = "forged";
  written_pod.metadata.deletion_timestamp = api::Time::FromUnixSeconds(200);
  written_pod.status.phase = "Failed";
  api::Object written = written_pod;
  KeepServerFields(MetaOf(stored), MetaOf(written));
  CopyStatus(stored, written);
  const api::Pod& pod = std::get<api::Pod>(written);
  EXPECT_EQ(pod.metadata.uid, "uid-1");
  EXPECT_FALSE(pod.metadata.deletion_timestamp) << "only DELETE sets it";
  EXPECT_EQ(pod.status.phase, "Running");
  EXPECT_TRUE(VersionMatches("", "7")) << "no version: unconditional";
  EXPECT_TRUE(VersionMatches("7", "7"));
  EXPECT_FALSE(VersionMatches("6", "7"));
  const ObjectKey key{"Pod", "default", "web-1"};
  EXPECT_EQ(ConflictError(key).code(), absl::StatusCode::kAborted);
  EXPECT_EQ(NotFoundError(key).code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(AlreadyExistsError(key).code(), absl::StatusCode::kAlreadyExists);
}

}  // namespace
}  // namespace karpenter::apiserver
