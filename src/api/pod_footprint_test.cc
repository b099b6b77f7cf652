// Memory layout of the pod types: cluster snapshots hold tens of thousands of pods, so the
// inline size of the per-pod structs is part of their contract. Also checks that the boxed
// members (volume sources, affinity, os, pod-level resources) keep every field through JSON.
#include <string>

#include "gtest/gtest.h"
#include "src/api/json_codec.h"
#include "src/api/pod.h"

namespace karpenter::api {
namespace {

// Limits with a little headroom over today's sizes (Volume 96, PodSpec 576, Pod 1264 bytes on
// x86-64 with libstdc++); a change that inlines a big optional again trips them.
static_assert(sizeof(Volume) <= 128);
static_assert(sizeof(PodSpec) <= 640);
static_assert(sizeof(Pod) <= 1344);

TEST(PodFootprint, InlineSizesStayBounded) {
  EXPECT_LE(sizeof(Volume), 128u);
  EXPECT_LE(sizeof(PodSpec), 640u);
  EXPECT_LE(sizeof(Pod), 1344u);
}

// Every modelled volume source on one volume (invalid for the API server, but the decoder keeps
// what it is given), plus the boxed PodSpec members, in the encoder's field order.
constexpr char kBoxedPod[] =
    R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"volumes":[{"name":"all",)"
    R"("hostPath":{"path":"/h","type":"Directory"},"emptyDir":{"medium":"Memory","sizeLimit":"1Gi"},)"
    R"("awsElasticBlockStore":{"volumeID":"vol-1","fsType":"ext4","partition":1,"readOnly":true},)"
    R"("secret":{"secretName":"s","defaultMode":420,"optional":false},)"
    R"("persistentVolumeClaim":{"claimName":"c","readOnly":true},)"
    R"("configMap":{"name":"m","defaultMode":256,"optional":true},)"
    R"("csi":{"driver":"d","readOnly":true,"fsType":"xfs","volumeAttributes":{"k":"v"}},)"
    R"("ephemeral":{"volumeClaimTemplate":{"metadata":{"labels":{"a":"b"}},"spec":{)"
    R"("accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"+1"}},)"
    R"("storageClassName":"gp3"}}}},{"name":"none"}],"containers":[{"name":"c"}],)"
    R"("affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{)"
    R"("nodeSelectorTerms":[{"matchExpressions":[{"key":"k","operator":"In","values":["v"]}]}]}}},)"
    R"("os":{"name":"linux"},"resources":{"limits":{"cpu":"1E3"},"requests":{"cpu":"500m"}}}})";

TEST(PodFootprint, BoxedMembersDecodeAndRoundTrip) {
  Pod pod;
  DecodeReport report;
  ASSERT_TRUE(DecodeJsonText(kBoxedPod, pod, report).ok());
  EXPECT_TRUE(report.errors.empty());
  EXPECT_TRUE(report.unknown_fields.empty());
  ASSERT_EQ(pod.spec.volumes.size(), 2u);
  const Volume& all = pod.spec.volumes[0];
  EXPECT_EQ(all.host_path->type, "Directory");
  EXPECT_EQ(all.empty_dir->size_limit->String(), "1Gi");
  EXPECT_EQ(all.aws_elastic_block_store->partition, 1);
  EXPECT_EQ(all.secret->default_mode, 420);
  EXPECT_EQ(all.persistent_volume_claim->claim_name, "c");
  EXPECT_EQ(all.config_map->optional, true);
  EXPECT_EQ(all.csi->volume_attributes.at("k"), "v");
  EXPECT_EQ(all.ephemeral->volume_claim_template->spec.resources.requests.at("storage").String(),
            "+1");
  const Volume& none = pod.spec.volumes[1];
  EXPECT_FALSE(none.host_path.has_value() || none.empty_dir.has_value() ||
               none.aws_elastic_block_store.has_value() || none.secret.has_value() ||
               none.persistent_volume_claim.has_value() || none.config_map.has_value() ||
               none.csi.has_value() || none.ephemeral.has_value());
  EXPECT_EQ(pod.spec.affinity->node_affinity->required_during_scheduling_ignored_during_execution
                ->node_selector_terms[0]
                .match_expressions[0]
                .key,
            "k");
  EXPECT_EQ(pod.spec.os->name, "linux");
  EXPECT_EQ(pod.spec.resources->limits.at("cpu").String(), "1E3");

  EXPECT_EQ(EncodeJson(pod), kBoxedPod);
  Pod copy = pod;
  EXPECT_EQ(copy, pod);
  copy.spec.volumes[0].ephemeral->volume_claim_template->spec.storage_class_name = "io2";
  EXPECT_NE(copy, pod);
  EXPECT_EQ(*pod.spec.volumes[0].ephemeral->volume_claim_template->spec.storage_class_name, "gp3");
}

}  // namespace
}  // namespace karpenter::api
