#include "src/state/pod_validation.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "src/state/state_test_util.h"

namespace karpenter::state {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::Optional;
using testing_util::SnapshotFromYaml;

// Validates the pod `target` (namespace default) of a snapshot built from `yaml`.
std::optional<IgnoreReason> Validate(const std::string& yaml) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(yaml);
  EXPECT_TRUE(snapshot.ok()) << snapshot.status();
  if (!snapshot.ok()) return IgnoreReason{.message = "snapshot failed"};
  const api::Pod* pod = snapshot->FindPod("default", "target");
  EXPECT_NE(pod, nullptr);
  if (pod == nullptr) return IgnoreReason{.message = "no pod"};
  return ValidateForProvisioning(*snapshot, *pod);
}

std::string Target(std::string_view spec_fields) {
  return "apiVersion: v1\nkind: Pod\nmetadata: {name: target, namespace: default}\nspec:\n"
         "  containers: [{name: c, image: i}]\n" +
         std::string(spec_fields) + "---\n";
}

std::string RequiredTerms(std::string_view terms) {
  return "  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n"
         "        nodeSelectorTerms:\n" +
         std::string(terms);
}

std::string Message(const std::optional<IgnoreReason>& reason) {
  return reason.has_value() ? reason->message : "";
}

TEST(PodValidation, PlainPodIsAccepted) { EXPECT_EQ(Validate(Target("")), std::nullopt); }

TEST(PodValidation, WellKnownAndCustomLabelsAreAccepted) {
  EXPECT_EQ(Validate(Target("  nodeSelector: {karpenter.sh/nodepool: default, "
                            "topology.kubernetes.io/zone: us-east-1a, team: a}\n")),
            std::nullopt);
}

TEST(PodValidation, NodePoolDoesNotExistIsSilentlyIgnored) {
  std::optional<IgnoreReason> reason = Validate(Target(RequiredTerms(
      "        - matchExpressions: [{key: karpenter.sh/nodepool, operator: DoesNotExist}]\n")));
  ASSERT_TRUE(reason.has_value());
  EXPECT_TRUE(reason->silent);
  EXPECT_EQ(reason->message, kNodePoolDoesNotExistMessage);
}

TEST(PodValidation, NodePoolDoesNotExistInLaterOrTermIsNotConsidered) {
  // Karpenter starts from the first required term; later terms are alternatives it relaxes to.
  EXPECT_EQ(Validate(Target(RequiredTerms(
                "        - matchExpressions: [{key: team, operator: In, values: [a]}]\n"
                "        - matchExpressions: [{key: karpenter.sh/nodepool, operator: "
                "DoesNotExist}]\n"))),
            std::nullopt);
}

TEST(PodValidation, HeaviestPreferredTermCanOptOutOfNodePools) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(Target(R"(  affinity:
    nodeAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 1
        preference: {matchExpressions: [{key: team, operator: In, values: [a]}]}
      - weight: 50
        preference: {matchExpressions: [{key: karpenter.sh/nodepool, operator: DoesNotExist}]}
)"));
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  EXPECT_TRUE(RequiresNoNodePool(*snapshot->FindPod("default", "target")));
}

TEST(PodValidation, ContradictoryNodePoolValuesAllowNoNodePool) {
  absl::StatusOr<ClusterSnapshot> snapshot =
      SnapshotFromYaml(Target("  nodeSelector: {karpenter.sh/nodepool: a}\n" +
                              RequiredTerms("        - matchExpressions: [{key: "
                                            "karpenter.sh/nodepool, operator: NotIn, values: "
                                            "[a]}]\n")));
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  EXPECT_TRUE(RequiresNoNodePool(*snapshot->FindPod("default", "target")));
}

TEST(PodValidation, NodePoolInOrNotInAllowsSomeNodePool) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(Target(RequiredTerms(
      "        - matchExpressions: [{key: karpenter.sh/nodepool, operator: NotIn, values: [a]}, "
      "{key: karpenter.sh/nodepool, operator: Exists}]\n")));
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  EXPECT_FALSE(RequiresNoNodePool(*snapshot->FindPod("default", "target")));
}

TEST(PodValidation, RestrictedLabelInNodeSelectorIsIgnored) {
  std::optional<IgnoreReason> reason =
      Validate(Target("  nodeSelector: {karpenter.sh/custom: x}\n"));
  ASSERT_TRUE(reason.has_value());
  EXPECT_FALSE(reason->silent);
  EXPECT_THAT(reason->message, HasSubstr("spec.nodeSelector[karpenter.sh/custom]: Invalid value"));
  EXPECT_THAT(reason->message, HasSubstr("restricted"));
}

TEST(PodValidation, HostnameSelectorIsRestricted) {
  EXPECT_THAT(Message(Validate(Target("  nodeSelector: {kubernetes.io/hostname: ip-1}\n"))),
              HasSubstr("spec.nodeSelector[kubernetes.io/hostname]"));
}

TEST(PodValidation, RestrictedLabelInRequiredAffinityIsIgnored) {
  EXPECT_THAT(Message(Validate(
                  Target(RequiredTerms("        - matchExpressions: [{key: team, operator: "
                                       "In, values: [a]}]\n"
                                       "        - matchExpressions: [{key: "
                                       "karpenter.k8s.aws/ec2nodeclass, operator: Exists}]\n")))),
              HasSubstr("spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
                        "nodeSelectorTerms[1].matchExpressions[0].key: Invalid value"));
}

TEST(PodValidation, UnsupportedOperatorIsIgnored) {
  EXPECT_THAT(Message(Validate(Target(RequiredTerms(
                  "        - matchExpressions: [{key: team, operator: Matches, values: [a]}]\n")))),
              HasSubstr("matchExpressions[0].operator: Unsupported value: \"Matches\""));
}

TEST(PodValidation, MalformedBoundIsIgnored) {
  EXPECT_THAT(Message(Validate(Target(RequiredTerms(
                  "        - matchExpressions: [{key: size, operator: Gt, values: [big]}]\n")))),
              HasSubstr("matchExpressions[0].values"));
}

TEST(PodValidation, MatchFieldsTermIsIgnored) {
  EXPECT_THAT(
      Message(Validate(Target(RequiredTerms(
          "        - matchFields: [{key: metadata.name, operator: In, values: [ip-1]}]\n")))),
      HasSubstr("nodeSelectorTerms[0].matchFields: node selector term with matchFields is not "
                "supported"));
}

TEST(PodValidation, PreferredAffinityIsNotValidated) {
  EXPECT_EQ(Validate(Target(R"(  affinity:
    nodeAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 1
        preference: {matchExpressions: [{key: karpenter.sh/custom, operator: In, values: [a]}]}
)")),
            std::nullopt);
}

TEST(PodValidation, EveryProblemIsReportedJoined) {
  std::optional<IgnoreReason> reason =
      Validate(Target("  nodeSelector: {karpenter.sh/a: x, karpenter.sh/b: z}\n"));
  ASSERT_TRUE(reason.has_value());
  EXPECT_THAT(reason->message, HasSubstr("[karpenter.sh/a]"));
  EXPECT_THAT(reason->message, HasSubstr("; spec.nodeSelector[karpenter.sh/b]"));
}

TEST(PodValidation, NodeSelectionProblemsListsEachOne) {
  absl::StatusOr<ClusterSnapshot> snapshot = SnapshotFromYaml(Target(
      "  nodeSelector: {team: a}\n" +
      RequiredTerms("        - matchFields: [{key: metadata.name, operator: In, values: [x]}]\n")));
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  EXPECT_THAT(NodeSelectionProblems(*snapshot->FindPod("default", "target")),
              ElementsAre(HasSubstr("matchFields")));
  EXPECT_THAT(NodeSelectionProblems(api::Pod()), IsEmpty());
}

// --- Volume claims ---

std::string WithClaim(std::string_view claim_name) {
  return Target("  volumes: [{name: data, persistentVolumeClaim: {claimName: " +
                std::string(claim_name) + "}}]\n");
}

constexpr std::string_view kStorage = R"(
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: wait}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: immediate}
provisioner: ebs.csi.aws.com
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-live}
spec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], csi: {driver: ebs.csi.aws.com, volumeHandle: vol-1}}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-deleting, deletionTimestamp: "2024-01-01T00:00:00Z"}
spec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], csi: {driver: ebs.csi.aws.com, volumeHandle: vol-2}}
---
)";

std::string Claim(std::string_view name, std::string_view spec_fields,
                  std::string_view metadata_fields = "", std::string_view status = "{}") {
  return "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: " + std::string(name) +
         "\n  namespace: default\n" + std::string(metadata_fields) +
         "spec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n" +
         std::string(spec_fields) + "status: " + std::string(status) + "\n---\n";
}

std::optional<IgnoreReason> ValidateClaim(const std::string& claim) {
  return Validate(std::string(kStorage) + claim + WithClaim("data"));
}

constexpr std::string_view kBindCompleted =
    "  annotations: {pv.kubernetes.io/bind-completed: \"yes\"}\n";

TEST(PodValidation, UsableClaimsAreAccepted) {
  EXPECT_EQ(ValidateClaim(Claim("data", "  storageClassName: wait\n")), std::nullopt);
  EXPECT_EQ(ValidateClaim(Claim("data", "  volumeName: pv-live\n", kBindCompleted)), std::nullopt);
}

TEST(PodValidation, MissingClaimIsIgnored) {
  EXPECT_EQ(Message(Validate(std::string(kStorage) + WithClaim("absent"))),
            "persistentvolumeclaim \"default/absent\" of volume \"data\" not found");
}

TEST(PodValidation, DeletingClaimIsIgnored) {
  EXPECT_EQ(Message(ValidateClaim(Claim("data", "  storageClassName: wait\n",
                                        "  deletionTimestamp: \"2024-01-01T00:00:00Z\"\n"))),
            "persistentvolumeclaim \"default/data\" is being deleted");
}

TEST(PodValidation, LostClaimIsIgnored) {
  EXPECT_THAT(Message(ValidateClaim(
                  Claim("data", "  volumeName: pv-live\n", kBindCompleted, "{phase: Lost}"))),
              HasSubstr("is bound to a persistentvolume that no longer exists"));
}

TEST(PodValidation, ClaimBoundToMissingVolumeIsIgnored) {
  EXPECT_EQ(
      Message(ValidateClaim(Claim("data", "  volumeName: pv-gone\n", kBindCompleted))),
      "persistentvolumeclaim \"default/data\" is bound to persistentvolume \"pv-gone\", which "
      "does not exist");
}

TEST(PodValidation, ClaimBoundToDeletingVolumeIsIgnored) {
  EXPECT_THAT(Message(ValidateClaim(Claim("data", "  volumeName: pv-deleting\n", kBindCompleted))),
              HasSubstr("persistentvolume \"pv-deleting\" of persistentvolumeclaim "
                        "\"default/data\" is being deleted"));
}

TEST(PodValidation, ClaimNamingVolumeWithoutBindCompletedIsIgnored) {
  EXPECT_THAT(Message(ValidateClaim(Claim("data", "  volumeName: pv-live\n"))),
              HasSubstr("pv.kubernetes.io/bind-completed"));
}

TEST(PodValidation, UnboundClaimWithoutStorageClassIsIgnored) {
  EXPECT_EQ(Message(ValidateClaim(Claim("data", ""))),
            "unbound persistentvolumeclaim \"default/data\" must define a storage class");
}

TEST(PodValidation, UnboundClaimWithMissingStorageClassIsIgnored) {
  EXPECT_EQ(Message(ValidateClaim(Claim("data", "  storageClassName: gone\n"))),
            "storageclass \"gone\" of persistentvolumeclaim \"default/data\" not found");
}

TEST(PodValidation, UnboundClaimWithImmediateBindingIsIgnored) {
  EXPECT_THAT(Message(ValidateClaim(Claim("data", "  storageClassName: immediate\n"))),
              HasSubstr("Immediate volume binding"));
}

TEST(PodValidation, FirstBadVolumeDecides) {
  const std::string yaml =
      std::string(kStorage) + Claim("good", "  storageClassName: wait\n") +
      Target(
          "  volumes:\n"
          "  - {name: scratch, emptyDir: {}}\n"
          "  - {name: a, persistentVolumeClaim: {claimName: good}}\n"
          "  - {name: b, persistentVolumeClaim: {claimName: first-missing}}\n"
          "  - {name: c, persistentVolumeClaim: {claimName: second-missing}}\n");
  EXPECT_THAT(Message(Validate(yaml)), HasSubstr("first-missing"));
  EXPECT_THAT(Message(Validate(yaml)), Not(HasSubstr("second-missing")));
}

TEST(PodValidation, SelectorAndVolumeProblemsAreCombined) {
  const std::string yaml =
      std::string(kStorage) +
      Target(
          "  nodeSelector: {karpenter.sh/x: v}\n"
          "  volumes: [{name: d, persistentVolumeClaim: {claimName: nope}}]\n");
  EXPECT_THAT(Validate(yaml),
              Optional(::testing::Field(&IgnoreReason::message,
                                        ::testing::MatchesRegex(".*karpenter.sh/x.*; .*nope.*"))));
}

}  // namespace
}  // namespace karpenter::state
