// The core kinds' Fields lists against real-looking manifests: every JSON name maps to the
// intended member (a typo would surface as an unknown field or an unset member), defaults are
// applied by the loader, and an object survives an encode/decode round trip.
#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include "src/api/core_validation.h"
#include "src/api/json_codec.h"
#include "src/api/manifest.h"

namespace karpenter::api {
namespace {

Quantity Q(const std::string& text) { return Quantity::Parse(text).value_or(Quantity()); }

template <class T>
T DecodeOnly(const std::string& yaml) {
  absl::StatusOr<std::vector<Manifest>> manifests = DecodeManifests(yaml, "test.yaml");
  EXPECT_TRUE(manifests.ok()) << manifests.status();
  if (!manifests.ok() || manifests->size() != 1 || !(*manifests)[0].object) return T{};
  const Manifest& manifest = (*manifests)[0];
  EXPECT_TRUE(manifest.report.errors.empty()) << manifest.report.errors.errors()[0].ToString();
  for (const std::string& unknown : manifest.report.unknown_fields) {
    ADD_FAILURE() << "unknown field " << unknown;
  }
  const T* typed = std::get_if<T>(&*manifest.object);
  EXPECT_NE(typed, nullptr);
  return typed ? *typed : T{};
}

template <class T>
void ExpectRoundTrip(const T& object) {
  T decoded;
  DecodeReport report;
  ASSERT_TRUE(DecodeJsonText(EncodeJson(object), decoded, report).ok());
  EXPECT_TRUE(report.errors.empty());
  EXPECT_TRUE(decoded == object) << EncodeJson(object) << "\nvs\n" << EncodeJson(decoded);
}

constexpr char kPod[] = R"(
apiVersion: v1
kind: Pod
metadata:
  name: web-0
  namespace: default
  labels: {app: web}
  annotations: {controller.kubernetes.io/pod-deletion-cost: "10"}
spec:
  initContainers:
  - name: proxy
    image: envoy
    restartPolicy: Always
    resources: {requests: {cpu: 100m}}
  containers:
  - name: app
    image: nginx
    command: [nginx]
    env: [{name: A, value: b}]
    ports: [{name: http, containerPort: 80, hostPort: 8080, hostIP: 10.0.0.1}]
    resources:
      requests: {cpu: 500m, memory: 512Mi}
      limits: {cpu: "1", memory: 512Mi}
    volumeMounts: [{name: data, mountPath: /data}]
  volumes:
  - name: data
    persistentVolumeClaim: {claimName: data-web-0}
  - name: scratch
    ephemeral:
      volumeClaimTemplate:
        spec:
          accessModes: [ReadWriteOnce]
          storageClassName: gp3
          resources: {requests: {storage: 1Gi}}
  - name: config
    projected: {sources: []}
  nodeSelector: {kubernetes.io/arch: arm64}
  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector: {matchLabels: {app: web}}
        topologyKey: kubernetes.io/hostname
  tolerations: [{key: dedicated, operator: Equal, value: web, effect: NoSchedule}]
  topologySpreadConstraints:
  - maxSkew: 1
    topologyKey: topology.kubernetes.io/zone
    whenUnsatisfiable: DoNotSchedule
    labelSelector: {matchLabels: {app: web}}
    minDomains: 3
    nodeTaintsPolicy: Honor
    matchLabelKeys: [pod-template-hash]
  priorityClassName: high
  priority: 1000
  preemptionPolicy: Never
  runtimeClassName: kata
  overhead: {cpu: 250m}
  terminationGracePeriodSeconds: 60
  schedulingGates: [{name: example.com/wait}]
  dnsPolicy: ClusterFirst
  securityContext: {runAsNonRoot: true}
status:
  phase: Pending
  conditions:
  - {type: PodScheduled, status: "False", reason: Unschedulable, lastProbeTime: null,
     lastTransitionTime: "2024-05-01T10:00:00Z"}
  nominatedNodeName: ip-10-0-1-5
  qosClass: Burstable
)";

TEST(CoreKindsCodec, DecodesPodFieldsAndAppliesDefaults) {
  auto pod = DecodeOnly<Pod>(kPod);
  ASSERT_EQ(pod.spec.containers.size(), 1u);
  const Container& app = pod.spec.containers[0];
  EXPECT_EQ(app.resources.requests.at("cpu"), Q("500m"));
  EXPECT_EQ(app.ports[0].host_port, 8080);
  EXPECT_EQ(app.ports[0].host_ip, "10.0.0.1");
  EXPECT_EQ(app.ports[0].protocol, "TCP");  // defaulted
  EXPECT_EQ(pod.spec.init_containers[0].restart_policy, "Always");
  EXPECT_EQ(pod.spec.volumes[0].persistent_volume_claim->claim_name, "data-web-0");
  EXPECT_EQ(pod.spec.volumes[1].ephemeral->volume_claim_template->spec.storage_class_name, "gp3");
  EXPECT_EQ(pod.spec.volumes[1].ephemeral->volume_claim_template->spec.volume_mode, "Filesystem");
  EXPECT_EQ(pod.spec.node_selector.at("kubernetes.io/arch"), "arm64");
  EXPECT_EQ(
      pod.spec.affinity->pod_anti_affinity->required_during_scheduling_ignored_during_execution[0]
          .topology_key,
      "kubernetes.io/hostname");
  EXPECT_EQ(pod.spec.tolerations[0].operator_, "Equal");
  const TopologySpreadConstraint& spread = pod.spec.topology_spread_constraints[0];
  EXPECT_EQ(spread.min_domains, 3);
  EXPECT_EQ(spread.node_taints_policy, "Honor");
  EXPECT_FALSE(spread.node_affinity_policy.has_value());
  EXPECT_EQ(spread.match_label_keys[0], "pod-template-hash");
  EXPECT_EQ(pod.spec.priority, 1000);
  EXPECT_EQ(pod.spec.preemption_policy, "Never");
  EXPECT_EQ(pod.spec.runtime_class_name, "kata");
  EXPECT_EQ(pod.spec.overhead.at("cpu"), Q("250m"));
  EXPECT_EQ(pod.spec.termination_grace_period_seconds, 60);
  EXPECT_EQ(pod.spec.scheduler_name, "default-scheduler");  // defaulted
  EXPECT_EQ(pod.spec.scheduling_gates[0].name, "example.com/wait");
  EXPECT_EQ(pod.status.conditions[0].reason, "Unschedulable");
  EXPECT_FALSE(pod.status.conditions[0].last_probe_time.has_value());
  EXPECT_EQ(pod.status.nominated_node_name, "ip-10-0-1-5");
  FieldErrors errors;
  ValidatePod(pod, &errors);
  EXPECT_TRUE(errors.empty()) << errors.errors()[0].ToString();
  ExpectRoundTrip(pod);
}

constexpr char kWorkloads[] = R"(
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  serviceName: db
  podManagementPolicy: Parallel
  ordinals: {start: 5}
  updateStrategy: {type: RollingUpdate}
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: postgres}]
  volumeClaimTemplates:
  - metadata: {name: data}
    spec:
      accessModes: [ReadWriteOnce]
      resources: {requests: {storage: 20Gi}}
status: {replicas: 2, readyReplicas: 1, currentRevision: db-1}
)";

TEST(CoreKindsCodec, DecodesStatefulSet) {
  auto set = DecodeOnly<StatefulSet>(kWorkloads);
  EXPECT_EQ(set.spec.replicas, 1);  // defaulted
  EXPECT_EQ(set.spec.pod_management_policy, "Parallel");
  EXPECT_EQ(set.spec.ordinals->start, 5);
  EXPECT_EQ(set.spec.service_name, "db");
  EXPECT_EQ(set.spec.volume_claim_templates[0].metadata.name, "data");
  EXPECT_EQ(set.spec.volume_claim_templates[0].spec.resources.requests.at("storage"), Q("20Gi"));
  EXPECT_EQ(set.spec.template_.spec.containers[0].image, "postgres");
  EXPECT_EQ(set.status.ready_replicas, 1);
  ExpectRoundTrip(set);
}

constexpr char kJob[] = R"(
apiVersion: batch/v1
kind: Job
metadata: {name: migrate}
spec:
  parallelism: 2
  completions: 4
  backoffLimit: 1
  activeDeadlineSeconds: 600
  ttlSecondsAfterFinished: 100
  podFailurePolicy: {rules: []}
  template:
    spec:
      restartPolicy: Never
      containers: [{name: migrate, image: tool}]
status: {active: 2, succeeded: 1, failed: 0, startTime: "2024-05-01T10:00:00Z", ready: 2}
)";

TEST(CoreKindsCodec, DecodesJob) {
  auto job = DecodeOnly<Job>(kJob);
  EXPECT_EQ(job.spec.parallelism, 2);
  EXPECT_EQ(job.spec.completions, 4);
  EXPECT_EQ(job.spec.backoff_limit, 1);
  EXPECT_EQ(job.spec.active_deadline_seconds, 600);
  EXPECT_EQ(job.spec.ttl_seconds_after_finished, 100);
  EXPECT_EQ(job.status.active, 2);
  EXPECT_EQ(job.status.succeeded, 1);
  EXPECT_TRUE(job.status.start_time.has_value());
  ExpectRoundTrip(job);
}

constexpr char kPdb[] = R"(
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web, namespace: default}
spec:
  maxUnavailable: 1
  selector: {matchLabels: {app: web}}
  unhealthyPodEvictionPolicy: AlwaysAllow
status: {currentHealthy: 3, desiredHealthy: 2, disruptionsAllowed: 1, expectedPods: 3}
)";

TEST(CoreKindsCodec, DecodesPodDisruptionBudget) {
  auto pdb = DecodeOnly<PodDisruptionBudget>(kPdb);
  ASSERT_TRUE(pdb.spec.max_unavailable.has_value());
  EXPECT_TRUE(pdb.spec.max_unavailable->is_int);
  EXPECT_EQ(pdb.spec.max_unavailable->int_value, 1);
  EXPECT_FALSE(pdb.spec.min_available.has_value());
  EXPECT_EQ(pdb.spec.unhealthy_pod_eviction_policy, "AlwaysAllow");
  EXPECT_EQ(pdb.status.disruptions_allowed, 1);
  EXPECT_EQ(pdb.status.expected_pods, 3);
  ExpectRoundTrip(pdb);
}

constexpr char kNode[] = R"(
apiVersion: v1
kind: Node
metadata:
  name: ip-10-0-1-5.ec2.internal
  labels: {karpenter.sh/nodepool: default}
spec:
  providerID: aws:///us-east-1a/i-0123
  podCIDR: 10.0.0.0/24
  taints: [{key: karpenter.sh/disrupted, effect: NoSchedule}]
  unschedulable: true
status:
  capacity: {cpu: "2", memory: 8Gi, pods: "29"}
  conditions: [{type: Ready, status: "True", lastHeartbeatTime: "2024-05-01T10:00:00Z"}]
  addresses: [{type: InternalIP, address: 10.0.1.5}]
  nodeInfo: {architecture: arm64, operatingSystem: linux, kubeletVersion: v1.30.0, bootID: x}
  images: []
)";

TEST(CoreKindsCodec, DecodesNodeAndDefaultsAllocatable) {
  auto node = DecodeOnly<Node>(kNode);
  EXPECT_EQ(node.spec.provider_id, "aws:///us-east-1a/i-0123");
  EXPECT_TRUE(node.spec.unschedulable);
  EXPECT_EQ(node.spec.taints[0].key, "karpenter.sh/disrupted");
  EXPECT_EQ(node.status.allocatable.at("pods"), Q("29"));
  EXPECT_EQ(node.status.conditions[0].type, "Ready");
  EXPECT_EQ(node.status.addresses[0].address, "10.0.1.5");
  EXPECT_EQ(node.status.node_info.architecture, "arm64");
  EXPECT_EQ(node.status.node_info.kubelet_version, "v1.30.0");
  ExpectRoundTrip(node);
}

constexpr char kStorage[] = R"(
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-1}
spec:
  capacity: {storage: 10Gi}
  accessModes: [ReadWriteOnce]
  awsElasticBlockStore: {volumeID: vol-0123, fsType: ext4}
  claimRef: {namespace: default, name: data-web-0}
  storageClassName: gp2
  nodeAffinity:
    required:
      nodeSelectorTerms:
      - matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [us-east-1a]}]
status: {phase: Bound}
)";

TEST(CoreKindsCodec, DecodesPersistentVolume) {
  auto volume = DecodeOnly<PersistentVolume>(kStorage);
  EXPECT_EQ(volume.spec.aws_elastic_block_store->volume_id, "vol-0123");
  EXPECT_EQ(volume.spec.claim_ref->name, "data-web-0");
  EXPECT_EQ(volume.spec.persistent_volume_reclaim_policy, "Retain");  // defaulted
  EXPECT_EQ(
      volume.spec.node_affinity->required->node_selector_terms[0].match_expressions[0].values[0],
      "us-east-1a");
  EXPECT_EQ(volume.status.phase, "Bound");
  ExpectRoundTrip(volume);
}

constexpr char kStorageClass[] = R"(
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.aws.com
parameters: {type: gp3}
volumeBindingMode: WaitForFirstConsumer
allowVolumeExpansion: true
allowedTopologies:
- matchLabelExpressions: [{key: topology.ebs.csi.aws.com/zone, values: [us-east-1a, us-east-1b]}]
)";

TEST(CoreKindsCodec, DecodesStorageClass) {
  auto storage_class = DecodeOnly<StorageClass>(kStorageClass);
  EXPECT_EQ(storage_class.provisioner, "ebs.csi.aws.com");
  EXPECT_EQ(storage_class.parameters.at("type"), "gp3");
  EXPECT_EQ(storage_class.volume_binding_mode, "WaitForFirstConsumer");
  EXPECT_EQ(storage_class.reclaim_policy, "Delete");  // defaulted
  EXPECT_EQ(storage_class.allow_volume_expansion, true);
  EXPECT_EQ(storage_class.allowed_topologies[0].match_label_expressions[0].values.size(), 2u);
  ExpectRoundTrip(storage_class);
}

constexpr char kCSINode[] = R"(
apiVersion: storage.k8s.io/v1
kind: CSINode
metadata: {name: ip-10-0-1-5.ec2.internal}
spec:
  drivers:
  - name: ebs.csi.aws.com
    nodeID: i-0123
    topologyKeys: [topology.ebs.csi.aws.com/zone]
    allocatable: {count: 25}
)";

TEST(CoreKindsCodec, DecodesCSINode) {
  auto csi_node = DecodeOnly<CSINode>(kCSINode);
  ASSERT_EQ(csi_node.spec.drivers.size(), 1u);
  EXPECT_EQ(csi_node.spec.drivers[0].node_id, "i-0123");
  EXPECT_EQ(csi_node.spec.drivers[0].allocatable->count, 25);
  ExpectRoundTrip(csi_node);
}

constexpr char kVolumeAttachment[] = R"(
apiVersion: storage.k8s.io/v1
kind: VolumeAttachment
metadata: {name: csi-0123abcd}
spec:
  attacher: ebs.csi.aws.com
  nodeName: ip-10-0-1-5.ec2.internal
  source: {persistentVolumeName: pvc-42}
status:
  attached: true
  attachmentMetadata: {devicePath: /dev/xvdaa}
)";

TEST(CoreKindsCodec, DecodesVolumeAttachment) {
  auto attachment = DecodeOnly<VolumeAttachment>(kVolumeAttachment);
  EXPECT_EQ(attachment.spec.attacher, "ebs.csi.aws.com");
  EXPECT_EQ(attachment.spec.node_name, "ip-10-0-1-5.ec2.internal");
  EXPECT_EQ(attachment.spec.source.persistent_volume_name, "pvc-42");
  EXPECT_TRUE(attachment.status.attached);
  ExpectRoundTrip(attachment);
}

TEST(CoreKindsCodec, AVolumeAttachmentNeedsAnAttacherAndANode) {
  absl::StatusOr<std::vector<Manifest>> manifests = DecodeManifests(R"(
apiVersion: storage.k8s.io/v1
kind: VolumeAttachment
metadata: {name: csi-1}
spec: {source: {persistentVolumeName: pvc-1}}
)",
                                                                    "va.yaml");
  ASSERT_TRUE(manifests.ok());
  ASSERT_TRUE((*manifests)[0].object.has_value());
  FieldErrors errors;
  ValidateCoreObject(std::get<VolumeAttachment>(*(*manifests)[0].object), &errors);
  EXPECT_TRUE(errors.Contains("spec.attacher"));
  EXPECT_TRUE(errors.Contains("spec.nodeName"));
}

TEST(CoreKindsCodec, BadQuantityIsADecodeErrorAtItsPath) {
  absl::StatusOr<std::vector<Manifest>> manifests = DecodeManifests(R"(
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: a, image: b, resources: {requests: {cpu: abc}}}]
)",
                                                                    "test.yaml");
  ASSERT_TRUE(manifests.ok());
  EXPECT_TRUE((*manifests)[0].report.errors.Contains("spec.containers[0].resources.requests[cpu]"));
}

}  // namespace
}  // namespace karpenter::api
