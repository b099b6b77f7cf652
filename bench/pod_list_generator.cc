#include "bench/pod_list_generator.h"

#include "fmt/format.h"

namespace karpenter::bench {
namespace {

constexpr const char* kZones[] = {"us-east-1a", "us-east-1b", "us-east-1c"};
constexpr const char* kCpu[] = {"100m", "250m", "500m", "1", "2"};
constexpr const char* kMemory[] = {"128Mi", "256Mi", "512Mi", "1Gi", "2Gi"};

void AppendPod(std::string& out, size_t i) {
  size_t app = i % 97;
  std::string hash = fmt::format("{:08x}", (i * 2654435761u) & 0xffffffffu);
  std::string suffix = hash.substr(0, 5);
  out += fmt::format(
      R"({{"apiVersion":"v1","kind":"Pod","metadata":{{"creationTimestamp":"2026-11-30T10:{:02}:{:02}Z",)"
      R"("generateName":"app-{}-7d9f8c6b5-","labels":{{"app":"app-{}","pod-template-hash":"7d9f8c6b5",)"
      R"("team":"team-{}"}},"name":"app-{}-7d9f8c6b5-{}","namespace":"ns-{}",)"
      R"("ownerReferences":[{{"apiVersion":"apps/v1","blockOwnerDeletion":true,"controller":true,)"
      R"("kind":"ReplicaSet","name":"app-{}-7d9f8c6b5","uid":"6f1c2a9e-0000-4000-8000-{:012}"}}],)"
      R"("resourceVersion":"{}","uid":"{}-1111-4222-8333-{:012}",)"
      R"("managedFields":[{{"apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{{"f:metadata":{{)"
      R"("f:generateName":{{}},"f:labels":{{".":{{}},"f:app":{{}}}}}},"f:spec":{{"f:containers":{{}}}}}},)"
      R"("manager":"kube-controller-manager","operation":"Update","time":"2026-11-30T10:00:00Z"}}]}},)",
      i / 60 % 60, i % 60, app, app, i % 7, app, suffix, i % 13, app, app, 1000 + i, hash, i);
  out += fmt::format(
      R"("spec":{{"containers":[{{"image":"registry.example/app-{}:1.{}","imagePullPolicy":"IfNotPresent",)"
      R"("name":"app","ports":[{{"containerPort":8080,"name":"http","protocol":"TCP"}}],)"
      R"("resources":{{"limits":{{"memory":"{}"}},"requests":{{"cpu":"{}","memory":"{}"}}}},)"
      R"("terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File",)"
      R"("volumeMounts":[{{"mountPath":"/var/run/secrets/kubernetes.io/serviceaccount",)"
      R"("name":"kube-api-access-{}","readOnly":true}}]}}],"dnsPolicy":"ClusterFirst",)"
      R"("enableServiceLinks":true,"nodeName":"ip-10-0-{}-{}.ec2.internal",)"
      R"("nodeSelector":{{"kubernetes.io/os":"linux"}},"preemptionPolicy":"PreemptLowerPriority",)"
      R"("priority":0,"restartPolicy":"Always","schedulerName":"default-scheduler",)"
      R"("securityContext":{{}},"serviceAccount":"default","serviceAccountName":"default",)"
      R"("terminationGracePeriodSeconds":30,"tolerations":[{{"effect":"NoExecute",)"
      R"("key":"node.kubernetes.io/not-ready","operator":"Exists","tolerationSeconds":300}},)"
      R"({{"effect":"NoExecute","key":"node.kubernetes.io/unreachable","operator":"Exists",)"
      R"("tolerationSeconds":300}}],"topologySpreadConstraints":[{{"labelSelector":{{"matchLabels":)"
      R"({{"app":"app-{}"}}}},"maxSkew":1,"topologyKey":"topology.kubernetes.io/zone",)"
      R"("whenUnsatisfiable":"ScheduleAnyway"}}],"volumes":[{{"name":"kube-api-access-{}",)"
      R"("projected":{{"defaultMode":420,"sources":[{{"serviceAccountToken":{{"expirationSeconds":3607,)"
      R"("path":"token"}}}}]}}}}]}},)",
      app, i % 5, kMemory[(i + 1) % 5], kCpu[i % 5], kMemory[i % 5], suffix, i % 250, i % 200, app,
      suffix);
  out += fmt::format(
      R"("status":{{"conditions":[{{"lastProbeTime":null,"lastTransitionTime":"2026-11-30T10:00:01Z",)"
      R"("status":"True","type":"Initialized"}},{{"lastProbeTime":null,)"
      R"("lastTransitionTime":"2026-11-30T10:00:05Z","status":"True","type":"Ready"}},)"
      R"({{"lastProbeTime":null,"lastTransitionTime":"2026-11-30T10:00:00Z","status":"True",)"
      R"("type":"PodScheduled"}}],"containerStatuses":[{{"containerID":"containerd://{}{}",)"
      R"("image":"registry.example/app-{}:1.{}","imageID":"registry.example/app@sha256:{}{}{}",)"
      R"("lastState":{{}},"name":"app","ready":true,"restartCount":0,"started":true,)"
      R"("state":{{"running":{{"startedAt":"2026-11-30T10:00:04Z"}}}}}}],"hostIP":"10.0.{}.{}",)"
      R"("phase":"Running","podIP":"10.1.{}.{}","qosClass":"Burstable",)"
      R"("startTime":"2026-11-30T10:00:00Z","zone":"{}"}}}})",
      hash, hash, app, i % 5, hash, hash, hash, i % 250, i % 200, i % 250, (i * 7) % 250,
      kZones[i % 3]);
}

}  // namespace

std::string GeneratePodListJson(size_t pods) {
  std::string out = R"({"apiVersion":"v1","items":[)";
  out.reserve(pods * 3300);
  for (size_t i = 0; i < pods; ++i) {
    if (i > 0) out += ',';
    AppendPod(out, i);
  }
  out += R"(],"kind":"List","metadata":{"resourceVersion":""}})";
  return out;
}

}  // namespace karpenter::bench
