#include "src/state/pod_predicates.h"

#include <gtest/gtest.h>

#include "src/state/ownership.h"

namespace karpenter::state {
namespace {

constexpr api::Time kStart = api::Time::FromUnixNanos(1'700'000'000'000'000'000);

api::Pod PodWithDoNotDisrupt(std::string value) {
  api::Pod pod;
  pod.metadata.annotations["karpenter.sh/do-not-disrupt"] = std::move(value);
  pod.status.start_time = kStart;
  return pod;
}

TEST(PodPredicates, DoNotDisruptTrueAlwaysProtects) {
  EXPECT_TRUE(
      IsDoNotDisruptActive(PodWithDoNotDisrupt("true"), kStart + api::Duration::FromHours(1000)));
}

TEST(PodPredicates, DoNotDisruptDurationProtectsWhileThePodIsYounger) {
  const api::Pod pod = PodWithDoNotDisrupt("30m");
  EXPECT_TRUE(IsDoNotDisruptActive(pod, kStart + api::Duration::FromMinutes(29)));
  EXPECT_FALSE(IsDoNotDisruptActive(pod, kStart + api::Duration::FromMinutes(30)));
}

TEST(PodPredicates, DoNotDisruptDurationWithoutStartTimeProtects) {
  api::Pod pod = PodWithDoNotDisrupt("5m");
  pod.status.start_time.reset();
  EXPECT_TRUE(IsDoNotDisruptActive(pod, kStart + api::Duration::FromHours(10)));
}

TEST(PodPredicates, InvalidOrNonPositiveDoNotDisruptIsIgnored) {
  for (const char* value : {"false", "True", "yes", "0s", "-5m", ""}) {
    EXPECT_FALSE(IsDoNotDisruptActive(PodWithDoNotDisrupt(value), kStart)) << value;
  }
  EXPECT_FALSE(IsDoNotDisruptActive(api::Pod(), kStart));
}

TEST(PodPredicates, InactivePodsAreAlwaysDisruptable) {
  api::Pod pod = PodWithDoNotDisrupt("true");
  EXPECT_FALSE(IsDisruptable(pod, kStart));
  pod.status.phase = "Succeeded";
  EXPECT_TRUE(IsDisruptable(pod, kStart));
}

TEST(PodPredicates, TerminalAndTerminating) {
  api::Pod pod;
  EXPECT_TRUE(IsActive(pod));
  pod.status.phase = "Failed";
  EXPECT_TRUE(IsTerminal(pod));
  pod.status.phase = "Running";
  pod.metadata.deletion_timestamp = kStart;
  EXPECT_TRUE(IsTerminating(pod));
  EXPECT_FALSE(IsActive(pod));
}

TEST(PodPredicates, OwnerMatchNeedsApiVersionAndKind) {
  api::Pod pod;
  pod.metadata.owner_references.push_back({.api_version = "apps/v1", .kind = "StatefulSet"});
  EXPECT_TRUE(IsOwnedByStatefulSet(pod));
  EXPECT_FALSE(IsOwnedByDaemonSet(pod));
  EXPECT_FALSE(IsOwnedBy(pod, "apps/v1beta1", "StatefulSet"));
}

TEST(PodPredicates, TerminatingStatefulSetPodIsStillReschedulable) {
  api::Pod pod;
  pod.metadata.deletion_timestamp = kStart;
  EXPECT_FALSE(IsReschedulable(pod));
  pod.metadata.owner_references.push_back({.api_version = "apps/v1", .kind = "StatefulSet"});
  EXPECT_TRUE(IsReschedulable(pod));
}

TEST(PodPredicates, MirrorPodByOwnerOrAnnotation) {
  api::Pod by_owner;
  by_owner.metadata.owner_references.push_back({.api_version = "v1", .kind = "Node"});
  api::Pod by_annotation;
  by_annotation.metadata.annotations["kubernetes.io/config.mirror"] = "hash";
  EXPECT_TRUE(IsMirrorPod(by_owner));
  EXPECT_TRUE(IsMirrorPod(by_annotation));
  EXPECT_FALSE(IsReschedulable(by_annotation));
  EXPECT_FALSE(IsMirrorPod(api::Pod()));
}

TEST(PodPredicates, PodsToleratingDisruptedTaintAreNotEvictable) {
  api::Pod pod;
  EXPECT_TRUE(IsEvictable(pod, kStart));
  pod.spec.tolerations.push_back({.key = "karpenter.sh/disrupted", .operator_ = "Exists"});
  EXPECT_TRUE(ToleratesDisruptedNoScheduleTaint(pod));
  EXPECT_FALSE(IsEvictable(pod, kStart));
  api::Pod tolerates_all;
  tolerates_all.spec.tolerations.push_back({.operator_ = "Exists"});
  EXPECT_TRUE(ToleratesDisruptedNoScheduleTaint(tolerates_all));
  api::Pod other_effect;
  other_effect.spec.tolerations.push_back(
      {.key = "karpenter.sh/disrupted", .operator_ = "Exists", .effect = "NoExecute"});
  EXPECT_FALSE(ToleratesDisruptedNoScheduleTaint(other_effect));
}

TEST(PodPredicates, DoNotDisruptPodsAreNotEvictable) {
  EXPECT_FALSE(IsEvictable(PodWithDoNotDisrupt("true"), kStart));
}

TEST(Ownership, ReferenceMatchesKindNameAndUidWhenBothHaveOne) {
  api::ObjectMeta owner{.name = "web", .namespace_ = "ns", .uid = "u1"};
  EXPECT_TRUE(RefersTo({.kind = "Deployment", .name = "web", .uid = "u1"}, "Deployment", owner));
  EXPECT_TRUE(RefersTo({.kind = "Deployment", .name = "web"}, "Deployment", owner));
  EXPECT_FALSE(RefersTo({.kind = "Deployment", .name = "web", .uid = "u2"}, "Deployment", owner));
  EXPECT_FALSE(RefersTo({.kind = "ReplicaSet", .name = "web"}, "Deployment", owner));
  EXPECT_FALSE(RefersTo({.kind = "Deployment", .name = "api"}, "Deployment", owner));
}

TEST(Ownership, OwnerReferencesNeverCrossNamespaces) {
  api::ObjectMeta owner{.name = "web", .namespace_ = "a"};
  api::ObjectMeta child{.namespace_ = "b", .owner_references = {{.kind = "Job", .name = "web"}}};
  EXPECT_FALSE(IsOwnedByObject(child, "Job", owner));
  child.namespace_ = "a";
  EXPECT_TRUE(IsOwnedByObject(child, "Job", owner));
}

TEST(Ownership, ControllerIsTheReferenceMarkedController) {
  api::ObjectMeta meta{.owner_references = {{.kind = "A", .name = "a"},
                                            {.kind = "B", .name = "b", .controller = true}}};
  ASSERT_NE(ControllerOf(meta), nullptr);
  EXPECT_EQ(ControllerOf(meta)->kind, "B");
  EXPECT_EQ(ControllerOf(api::ObjectMeta()), nullptr);
}

}  // namespace
}  // namespace karpenter::state
