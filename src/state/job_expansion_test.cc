#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "src/state/state_test_util.h"
#include "src/state/workload_expansion.h"

namespace karpenter::state {
namespace {

using ::testing::SizeIs;
using testing_util::SnapshotFromYaml;

// A Job with the given spec/status fields (YAML flow mappings), plus extra documents.
std::string JobYaml(std::string_view spec_fields, std::string_view status = "{}",
                    std::string_view extra = "") {
  std::string yaml = R"(
apiVersion: batch/v1
kind: Job
metadata: {name: batch, namespace: jobs, uid: job-uid}
spec:
  template:
    spec: {restartPolicy: Never, containers: [{name: c, image: i}]}
)";
  yaml += std::string(spec_fields) + "\nstatus: " + std::string(status) + "\n";
  if (!extra.empty()) yaml += "---\n" + std::string(extra);
  return yaml;
}

// Pods the Job controller would create, counted on the unexpanded snapshot and checked against
// what expansion adds.
int32_t PodsToCreate(const std::string& yaml) {
  absl::StatusOr<ClusterSnapshot> raw =
      SnapshotFromYaml(yaml, SnapshotOptions{.expand_workloads = false});
  absl::StatusOr<ClusterSnapshot> expanded = SnapshotFromYaml(yaml);
  EXPECT_TRUE(raw.ok()) << raw.status();
  EXPECT_TRUE(expanded.ok()) << expanded.status();
  if (!raw.ok() || !expanded.ok()) return -1;
  const int32_t count = JobPodsToCreate(*raw, raw->jobs()[0]);
  EXPECT_EQ(static_cast<size_t>(count), expanded->expanded_pod_count());
  return count;
}

constexpr std::string_view kActivePod = R"(
apiVersion: v1
kind: Pod
metadata:
  name: batch-running
  namespace: jobs
  ownerReferences: [{apiVersion: batch/v1, kind: Job, name: batch, uid: job-uid, controller: true}]
spec: {nodeName: n1, restartPolicy: Never, containers: [{name: c, image: i}]}
status: {phase: Running}
)";

TEST(JobExpansion, DefaultJobRunsOnePod) { EXPECT_EQ(PodsToCreate(JobYaml("")), 1); }

TEST(JobExpansion, ParallelismBoundsPodsWhenCompletionsRemain) {
  EXPECT_EQ(PodsToCreate(JobYaml("  parallelism: 3\n  completions: 10")), 3);
}

TEST(JobExpansion, RemainingCompletionsBoundPods) {
  EXPECT_EQ(PodsToCreate(JobYaml("  parallelism: 3\n  completions: 5", "{succeeded: 3}")), 2);
}

TEST(JobExpansion, ActivePodsInSnapshotAreSubtracted) {
  EXPECT_EQ(PodsToCreate(JobYaml("  parallelism: 3\n  completions: 5", "{}", kActivePod)), 2);
}

TEST(JobExpansion, StatusActiveCountsWhenItsPodsAreMissing) {
  EXPECT_EQ(PodsToCreate(JobYaml("  parallelism: 3\n  completions: 5", "{active: 2}")), 1);
}

TEST(JobExpansion, ActiveIsNotCountedTwiceWhenStatusAndPodsAgree) {
  EXPECT_EQ(PodsToCreate(JobYaml("  parallelism: 3\n  completions: 3", "{active: 1}", kActivePod)),
            2);
}

TEST(JobExpansion, SucceededPodsCountWhenStatusLags) {
  EXPECT_EQ(PodsToCreate(JobYaml("  parallelism: 2\n  completions: 2", "{}", R"(
apiVersion: v1
kind: Pod
metadata:
  name: batch-done
  namespace: jobs
  ownerReferences: [{apiVersion: batch/v1, kind: Job, name: batch, controller: true}]
spec: {restartPolicy: Never, containers: [{name: c, image: i}]}
status: {phase: Succeeded}
)")),
            1);
}

TEST(JobExpansion, WorkQueueJobRunsParallelismUntilOneSucceeds) {
  EXPECT_EQ(PodsToCreate(JobYaml("  parallelism: 4")), 4);
  EXPECT_EQ(PodsToCreate(JobYaml("  parallelism: 4", "{succeeded: 1}")), 0);
}

TEST(JobExpansion, FinishedOrSuspendedJobRunsNothing) {
  EXPECT_EQ(PodsToCreate(
                JobYaml("  completions: 3", "{conditions: [{type: Complete, status: \"True\"}]}")),
            0);
  EXPECT_EQ(
      PodsToCreate(JobYaml("  completions: 3", "{conditions: [{type: Failed, status: \"True\"}]}")),
      0);
  EXPECT_EQ(PodsToCreate(JobYaml("  completions: 3\n  suspend: true")), 0);
}

TEST(JobExpansion, CompletedMoreThanNeededRunsNothing) {
  EXPECT_EQ(PodsToCreate(JobYaml("  completions: 2", "{succeeded: 5}")), 0);
}

TEST(JobExpansion, PodsCarryTheJobLabels) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(JobYaml(""));
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  ASSERT_THAT(snapshot->pods(), SizeIs(1));
  const api::Pod& pod = snapshot->pods()[0];
  EXPECT_EQ(pod.metadata.name.rfind("batch-", 0), 0u);
  EXPECT_EQ(pod.metadata.labels.at("batch.kubernetes.io/job-name"), "batch");
  EXPECT_EQ(pod.metadata.labels.at("job-name"), "batch");
  EXPECT_EQ(pod.metadata.labels.at("batch.kubernetes.io/controller-uid"), "job-uid");
  EXPECT_EQ(pod.metadata.owner_references[0].api_version, "batch/v1");
  EXPECT_EQ(pod.metadata.owner_references[0].kind, "Job");
  EXPECT_EQ(pod.spec.restart_policy, "Never");
}

}  // namespace
}  // namespace karpenter::state
