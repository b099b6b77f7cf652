#include "src/sim/builtin_scenario.h"

#include "src/sim/scenario_file.h"

namespace karpenter::sim {
namespace {

// The article's EC2NodeClass, NodePool and workload-sample appear verbatim (as in
// examples/article/); the rest models the cluster the article migrates from.
constexpr std::string_view kBuiltinScenario = R"yaml(name: builtin-migration
description: >-
  The Cluster Autoscaler to Karpenter migration of the article, replayed: Karpenter (with the
  static core group) against Cluster Autoscaler alone on the same workload trace.
durationSeconds: 2700
zones: [us-east-1a, us-east-1b, us-east-1c]
autoscalers: [karpenter, cluster-autoscaler]
# The legacy groups prefer spot and fall back to on-demand with the priority expander, the usual
# Cluster Autoscaler set-up on AWS (peers.md §1.2).
clusterAutoscaler: {expander: priority}
nodeGroups:
  - {name: core, instanceType: m6i.xlarge, minSize: 3, maxSize: 3, initialSize: 3, autoscaled: false,
     taints: [{key: CriticalAddonsOnly, value: "true", effect: NoSchedule}]}
  - {name: legacy-compute, instanceType: c6i.2xlarge, minSize: 1, maxSize: 20, initialSize: 2}
  - {name: legacy-memory, instanceType: r6i.2xlarge, minSize: 1, maxSize: 20, initialSize: 2}
  - {name: legacy-general, instanceType: m6i.2xlarge, minSize: 0, maxSize: 20, initialSize: 1}
  - {name: legacy-spot-compute, instanceType: c6i.2xlarge, capacityType: spot, minSize: 0, maxSize: 20, priority: 10}
  - {name: legacy-ci-spot, instanceType: c6i.4xlarge, capacityType: spot, minSize: 0, maxSize: 20, priority: 10}
manifests: |
  apiVersion: apps/v1
  kind: DaemonSet
  metadata: {name: aws-node, namespace: kube-system}
  spec:
    selector:
      matchLabels: {k8s-app: aws-node}
    template:
      metadata:
        labels: {k8s-app: aws-node}
      spec:
        tolerations: [{operator: Exists}]
        containers:
          - name: aws-node
            image: amazon-k8s-cni
            resources:
              requests: {cpu: 25m, memory: 64Mi}
  ---
  apiVersion: apps/v1
  kind: DaemonSet
  metadata: {name: kube-proxy, namespace: kube-system}
  spec:
    selector:
      matchLabels: {k8s-app: kube-proxy}
    template:
      metadata:
        labels: {k8s-app: kube-proxy}
      spec:
        tolerations: [{operator: Exists}]
        containers:
          - name: kube-proxy
            image: kube-proxy
            resources:
              requests: {cpu: 100m, memory: 64Mi}
  ---
  apiVersion: apps/v1
  kind: Deployment
  metadata: {name: coredns, namespace: kube-system}
  spec:
    replicas: 2
    selector:
      matchLabels: {k8s-app: kube-dns}
    template:
      metadata:
        labels: {k8s-app: kube-dns}
      spec:
        nodeSelector: {eks.amazonaws.com/nodegroup: core}
        tolerations: [{key: CriticalAddonsOnly, operator: Exists}]
        containers:
          - name: coredns
            image: coredns
            resources:
              requests: {cpu: 100m, memory: 70Mi}
  ---
  apiVersion: apps/v1
  kind: Deployment
  metadata: {name: karpenter, namespace: kube-system}
  spec:
    replicas: 2
    selector:
      matchLabels: {app.kubernetes.io/name: karpenter}
    template:
      metadata:
        labels: {app.kubernetes.io/name: karpenter}
      spec:
        nodeSelector: {eks.amazonaws.com/nodegroup: core}
        tolerations: [{key: CriticalAddonsOnly, operator: Exists}]
        containers:
          - name: controller
            image: karpenter
            resources:
              requests: {cpu: "1", memory: 1Gi}
  ---
  apiVersion: apps/v1
  kind: Deployment
  metadata: {name: compute-api, namespace: default}
  spec:
    replicas: 6
    selector:
      matchLabels: {app: compute-api}
    template:
      metadata:
        labels: {app: compute-api}
      spec:
        containers:
          - name: api
            image: compute-api
            resources:
              requests: {cpu: 1500m, memory: 2Gi}
  ---
  apiVersion: apps/v1
  kind: Deployment
  metadata: {name: cache, namespace: default}
  spec:
    replicas: 4
    selector:
      matchLabels: {app: cache}
    template:
      metadata:
        labels: {app: cache}
      spec:
        containers:
          - name: cache
            image: redis
            resources:
              requests: {cpu: 500m, memory: 12Gi}
steps:
  - at: 60
    only: karpenter
    note: "Phase 2: apply the article's EC2NodeClass and NodePool"
    apply: |
      apiVersion: karpenter.k8s.aws/v1
      kind: EC2NodeClass
      metadata:
        name: default
      spec:
        amiFamily: AL2023
        role: "KarpenterNodeRole-production"
        subnetSelectorTerms:
          - tags:
              karpenter.sh/discovery: "production-eks"
        securityGroupSelectorTerms:
          - tags:
              karpenter.sh/discovery: "production-eks"
        amiSelectorTerms:
          - alias: al2023@latest
        blockDeviceMappings:
          - deviceName: /dev/xvda
            ebs:
              volumeSize: 50Gi
              volumeType: gp3
              iops: 3000
              throughput: 125
              encrypted: true
              deleteOnTermination: true
        metadataOptions:
          httpEndpoint: enabled
          httpProtocolIPv6: disabled
          httpPutResponseHopLimit: 1
          httpTokens: required
      ---
      apiVersion: karpenter.sh/v1
      kind: NodePool
      metadata:
        name: default
      spec:
        template:
          spec:
            nodeClassRef:
              group: karpenter.k8s.aws
              kind: EC2NodeClass
              name: default
            requirements:
              - key: "karpenter.k8s.aws/instance-category"
                operator: In
                values: ["c", "m", "r"]
              - key: "karpenter.k8s.aws/instance-generation"
                operator: Gt
                values: ["5"]
              - key: "kubernetes.io/arch"
                operator: In
                values: ["amd64", "arm64"]
              - key: "karpenter.sh/capacity-type"
                operator: In
                values: ["spot", "on-demand"]
            expireAfter: 720h # 30 days node rotation
        limits:
          cpu: 1000
          memory: 2000Gi
        disruption:
          consolidationPolicy: WhenEmptyOrUnderutilized
          consolidateAfter: 1m
          budgets:
            - nodes: "10%"
  - at: 120
    note: "Phase 3: deploy the article's workload-sample"
    apply: |
      apiVersion: apps/v1
      kind: Deployment
      metadata:
        name: workload-sample
        namespace: default
      spec:
        replicas: 10
        selector:
          matchLabels:
            app: workload-sample
        template:
          metadata:
            labels:
              app: workload-sample
          spec:
            topologySpreadConstraints:
              - maxSkew: 1
                topologyKey: "topology.kubernetes.io/zone"
                whenUnsatisfiable: ScheduleAnyway
                labelSelector:
                  matchLabels:
                    app: workload-sample
            containers:
              - name: app
                image: public.ecr.aws/nginx/nginx:alpine
                resources:
                  requests:
                    cpu: "500m"
                    memory: "512Mi"
  - {at: 300, only: karpenter, drainNodeGroup: legacy-compute, note: "Phase 4: cordon and drain the legacy groups"}
  - {at: 300, only: karpenter, drainNodeGroup: legacy-memory, note: "Phase 4"}
  - {at: 300, only: karpenter, drainNodeGroup: legacy-general, note: "Phase 4"}
  - {at: 300, only: karpenter, drainNodeGroup: legacy-spot-compute, note: "Phase 4"}
  - {at: 300, only: karpenter, drainNodeGroup: legacy-ci-spot, note: "Phase 4"}
  - at: 600
    note: "CI burst 1"
    apply: |
      apiVersion: apps/v1
      kind: Deployment
      metadata:
        name: ci-runner
        namespace: ci
      spec:
        replicas: 24
        selector:
          matchLabels: {app: ci-runner}
        template:
          metadata:
            labels: {app: ci-runner}
          spec:
            containers:
              - name: runner
                image: ghcr.io/actions/actions-runner:latest
                resources:
                  requests: {cpu: "2", memory: 4Gi}
  - {at: 840, delete: ci/ci-runner, note: "CI burst 1 done"}
  - {at: 900, scale: {deployment: default/compute-api, replicas: 18}, note: "traffic peak: compute"}
  - {at: 900, scale: {deployment: default/cache, replicas: 10}, note: "traffic peak: memory"}
  - at: 1200
    note: "CI burst 2"
    apply: |
      apiVersion: apps/v1
      kind: Deployment
      metadata:
        name: ci-runner
        namespace: ci
      spec:
        replicas: 24
        selector:
          matchLabels: {app: ci-runner}
        template:
          metadata:
            labels: {app: ci-runner}
          spec:
            containers:
              - name: runner
                image: ghcr.io/actions/actions-runner:latest
                resources:
                  requests: {cpu: "2", memory: 4Gi}
  - {at: 1440, delete: ci/ci-runner, note: "CI burst 2 done"}
  - {at: 1500, scale: {deployment: default/compute-api, replicas: 6}, note: "traffic back to normal"}
  - {at: 1500, scale: {deployment: default/cache, replicas: 4}, note: "traffic back to normal"}
  - at: 1800
    note: "CI burst 3"
    apply: |
      apiVersion: apps/v1
      kind: Deployment
      metadata:
        name: ci-runner
        namespace: ci
      spec:
        replicas: 24
        selector:
          matchLabels: {app: ci-runner}
        template:
          metadata:
            labels: {app: ci-runner}
          spec:
            containers:
              - name: runner
                image: ghcr.io/actions/actions-runner:latest
                resources:
                  requests: {cpu: "2", memory: 4Gi}
  - {at: 2040, delete: ci/ci-runner, note: "CI burst 3 done"}
faults:
  # A spot shortage of the c6i family (every zone) for most of the run.
  - insufficientCapacity: {instanceType: c6i.2xlarge, capacityType: spot, from: 500, to: 2400}
  - insufficientCapacity: {instanceType: c6i.4xlarge, capacityType: spot, from: 500, to: 2400}
)yaml";

}  // namespace

std::string_view BuiltinScenarioYaml() { return kBuiltinScenario; }

absl::StatusOr<Scenario> BuiltinScenario() {
  return ParseScenario(kBuiltinScenario, "<built-in scenario>");
}

}  // namespace karpenter::sim
