#include "src/metrics/karpenter_metrics.h"

#include <algorithm>
#include <string>

namespace karpenter::metrics {

namespace {

MetricDescription Counter(std::string name, std::string help, std::vector<std::string> labels) {
  return {std::move(name), MetricType::kCounter, std::move(help), std::move(labels), {}};
}

MetricDescription Gauge(std::string name, std::string help, std::vector<std::string> labels) {
  return {std::move(name), MetricType::kGauge, std::move(help), std::move(labels), {}};
}

MetricDescription Histogram(std::string name, std::string help, std::vector<std::string> labels,
                            std::vector<double> buckets = DurationBuckets()) {
  return {std::move(name), MetricType::kHistogram, std::move(help), std::move(labels),
          std::move(buckets)};
}

// Upstream's SummaryObjectives(): these quantiles of a summary are reported.
MetricDescription Summary(std::string name, std::string help, std::vector<std::string> labels) {
  return {std::move(name),         MetricType::kSummary, std::move(help), std::move(labels), {},
          {0, 0.5, 0.9, 0.99, 1.0}};
}

// The node gauges' labels: the snake-cased suffix of each well-known label plus the node's own.
std::vector<std::string> NodeLabels() {
  return {"node_name", "nodepool", "capacity_type", "instance_type", "zone",         "arch",
          "os",        "region",   "phase",         "managed",       "resource_type"};
}

}  // namespace

std::vector<double> DurationBuckets() {
  return {0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7,
          0.8,   0.9,  1.0,   1.25, 1.5, 1.75, 2.0, 2.5,  3.0, 3.5,  4.0, 4.5,  5,   6,   7,
          8,     9,    10,    15,   20,  25,   30,  40,   50,  60,   120, 150,  300, 450, 600};
}

std::vector<MetricDescription> KarpenterCatalog() {
  const std::vector<std::string> disrupted = {"reason", "nodepool", "capacity_type",
                                              "consolidation_policy", "termination_mode"};
  return {
      Gauge("karpenter_build_info", "Constant 1, labelled by the build.",
            {"version", "goversion", "goarch", "commit"}),
      // NodeClaims.
      Counter("karpenter_nodeclaims_created_total", "NodeClaims created, by reason and NodePool.",
              {"reason", "nodepool", "min_values_relaxed"}),
      Counter("karpenter_nodeclaims_terminated_total", "NodeClaims terminated, by NodePool.",
              {"nodepool", "capacity_type", "zone"}),
      Counter("karpenter_nodeclaims_disrupted_total", "NodeClaims disrupted, by reason.",
              disrupted),
      Histogram("karpenter_nodeclaims_termination_duration_seconds",
                "NodeClaim deletion request to finalizer removed.", {"nodepool"}),
      Histogram("karpenter_nodeclaims_instance_termination_duration_seconds",
                "Cloud instance termination requested to gone.", {"nodepool"}),
      // Nodes.
      Counter("karpenter_nodes_created_total", "Nodes registered, by NodePool and zone.",
              {"nodepool", "zone"}),
      Counter("karpenter_nodes_terminated_total", "Nodes terminated, by NodePool and zone.",
              {"nodepool", "zone"}),
      Counter("karpenter_nodes_drained_total", "Nodes drained, by NodePool.", {"nodepool"}),
      Summary("karpenter_nodes_termination_duration_seconds",
              "Node deletion request to finalizer removed.", {"nodepool"}),
      Histogram("karpenter_nodes_lifetime_duration_seconds", "Node creation to deletion.",
                {"nodepool"}),
      Gauge("karpenter_nodes_allocatable", "Node allocatable, per resource.", NodeLabels()),
      Gauge("karpenter_nodes_total_pod_requests",
            "Requests of the pods on the node, DaemonSet pods included.", NodeLabels()),
      Gauge("karpenter_nodes_total_pod_limits",
            "Limits of the pods on the node, DaemonSet pods included.", NodeLabels()),
      Gauge("karpenter_nodes_total_daemon_requests", "Requests of DaemonSet pods on the node.",
            NodeLabels()),
      Gauge("karpenter_nodes_total_daemon_limits", "Limits of DaemonSet pods on the node.",
            NodeLabels()),
      Gauge("karpenter_nodes_system_overhead", "Capacity minus allocatable, per resource.",
            NodeLabels()),
      Gauge("karpenter_nodes_current_lifetime_seconds", "Seconds since the node was created.",
            {"node_name", "nodepool"}),
      Gauge("karpenter_cluster_utilization_percent", "Pod requests over allocatable, cluster-wide.",
            {"resource_type"}),
      // Pods.
      Gauge("karpenter_pods_state", "One per pod, labelled by its state and node.",
            {"name", "namespace", "owner", "node", "nodepool", "zone", "arch", "capacity_type",
             "instance_type", "phase", "scheduled", "ready", "managed"}),
      Summary("karpenter_pods_startup_duration_seconds", "Pod creation to Running.", {}),
      Gauge("karpenter_pods_unstarted_time_seconds", "Age of a pod seen pending, until Ready.",
            {"name", "namespace"}),
      Histogram("karpenter_pods_bound_duration_seconds", "Pod creation to bound.", {}),
      Gauge("karpenter_pods_unbound_time_seconds", "Age of a pod seen pending, until bound.",
            {"name", "namespace"}),
      Counter("karpenter_pods_drained_total", "Pods drained by Karpenter, by reason.", {"reason"}),
      Counter("karpenter_pods_eviction_requests_total", "Eviction requests, by response code.",
              {"code"}),
      Counter("karpenter_pods_disruption_initiated_total", "Pod disruptions started, by reason.",
              disrupted),
      // NodePools.
      Gauge("karpenter_nodepools_limit", "NodePool limits, per resource.",
            {"nodepool", "resource_type"}),
      Gauge("karpenter_nodepools_usage", "NodePool usage, per resource.",
            {"nodepool", "resource_type"}),
      Gauge("karpenter_nodepools_allowed_disruptions", "Disruptions the budgets allow now.",
            {"nodepool", "reason"}),
      Gauge("karpenter_nodepools_nodes_consuming_budgets", "Nodes counted against the budgets.",
            {"nodepool", "reason"}),
      // Scheduler.
      Histogram("karpenter_scheduler_scheduling_duration_seconds", "One scheduling solve.",
                {"controller"}),
      Gauge("karpenter_scheduler_queue_depth", "Pods waiting in the current solve.",
            {"controller", "scheduling_id"}),
      Gauge("karpenter_scheduler_unschedulable_pods_count", "Pods the last solve could not place.",
            {"controller"}),
      Gauge("karpenter_scheduler_ignored_pods_count", "Pods provisioning ignores as invalid.", {}),
      // Disruption.
      Histogram("karpenter_voluntary_disruption_decision_evaluation_duration_seconds",
                "One disruption method's decision.", {"reason", "consolidation_type"}),
      Counter("karpenter_voluntary_disruption_decisions_total", "Disruption commands decided.",
              {"decision", "reason", "consolidation_type"}),
      Gauge("karpenter_voluntary_disruption_eligible_nodes", "Candidates per method.", {"reason"}),
      Counter("karpenter_voluntary_disruption_consolidation_timeouts_total",
              "Consolidation searches cut short by their timeout.", {"consolidation_type"}),
      Counter("karpenter_voluntary_disruption_failed_validations_total",
              "Commands abandoned at validation.", {"consolidation_type"}),
      Counter("karpenter_voluntary_disruption_queue_failures_total",
              "Commands rolled back by the orchestration queue.",
              {"decision", "reason", "consolidation_type"}),
      // Cluster state and cloud.
      Gauge("karpenter_cluster_state_node_count", "Nodes in cluster state.", {}),
      Gauge("karpenter_cluster_state_synced", "1 when cluster state is synced.", {}),
      Gauge("karpenter_cluster_state_unsynced_time_seconds",
            "How long cluster state has not been synced.", {}),
      Histogram("karpenter_cloudprovider_duration_seconds", "Cloud provider call duration.",
                {"controller", "method", "provider"}),
      Counter("karpenter_cloudprovider_errors_total", "Cloud provider call errors.",
              {"controller", "method", "provider", "error"}),
      Counter("karpenter_cloudprovider_instance_launch_failures_total",
              "CreateFleet offering failures, by zone, zone ID, capacity type and reason.",
              {"zone", "zone_id", "capacity_type", "reason"}),
      Gauge("karpenter_cloudprovider_instance_type_offering_available",
            "1 when an offering is available, by instance type, capacity type and zone.",
            {"instance_type", "capacity_type", "zone"}),
      Gauge("karpenter_cloudprovider_instance_type_offering_price_estimate",
            "An offering's estimated hourly price, by instance type, capacity type and zone.",
            {"instance_type", "capacity_type", "zone"}),
      Gauge("karpenter_cloudprovider_instance_type_cpu_cores", "vCPUs of an instance type.",
            {"instance_type"}),
      Gauge("karpenter_cloudprovider_instance_type_memory_bytes",
            "Memory of an instance type, in bytes.", {"instance_type"}),
      // Interruption.
      Counter("karpenter_interruption_received_messages_total", "Messages received, by type.",
              {"message_type"}),
      Counter("karpenter_interruption_deleted_messages_total", "Messages deleted.", {}),
      Histogram("karpenter_interruption_message_queue_duration_seconds",
                "Queue arrival to handled.", {}),
  };
}

std::vector<double> ReconcileTimeBuckets() {
  std::vector<double> buckets = DurationBuckets();
  std::erase_if(buckets, [](double bound) { return bound > 60; });
  return buckets;
}

std::vector<MetricDescription> RuntimeCatalog() {
  return {
      Counter("controller_runtime_reconcile_total", "Reconciles, by controller and result.",
              {"controller", "result"}),
      Counter("controller_runtime_reconcile_errors_total", "Reconciles that failed.",
              {"controller"}),
      Histogram("controller_runtime_reconcile_time_seconds", "Time one reconcile took.",
                {"controller"}, ReconcileTimeBuckets()),
      Gauge("leader_election_master_status", "1 while this replica holds the Lease.", {"name"}),
  };
}

std::vector<MetricDescription> OperatorCatalog() {
  // Karpenter gives the status controllers of its own kinds prometheus.ExponentialBuckets(0.5,
  // 2, 15) (0.5 s to 8192 s); the AWS provider leaves EC2NodeClass's at client_golang's
  // DefBuckets.
  std::vector<double> exponential;
  for (double bound = 0.5; exponential.size() < 15; bound *= 2) exponential.push_back(bound);
  const std::vector<double> default_buckets = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
                                               0.5,   1,    2.5,   5,    10};
  std::vector<MetricDescription> catalog;
  for (const auto& [kind, buckets] :
       {std::pair<std::string, const std::vector<double>*>{"nodeclaim", &exponential},
        {"nodepool", &exponential},
        {"node", &exponential},
        {"ec2nodeclass", &default_buckets}}) {
    const std::string prefix = "operator_" + kind + "_status_condition_";
    const std::vector<std::string> object = {"namespace", "name", "type", "status", "reason"};
    catalog.push_back(
        Gauge(prefix + "count", "1 per condition an object has, by type and status.", object));
    catalog.push_back(Gauge(prefix + "current_status_seconds",
                            "Seconds since a condition last transitioned.", object));
    catalog.push_back(Counter(prefix + "transitions_total",
                              "Transitions of a condition, by type and status.",
                              {"type", "status", "reason"}));
    catalog.push_back(Histogram(prefix + "transition_seconds",
                                "How long a condition had a status before it transitioned.",
                                {"type", "status"}, *buckets));
  }
  return catalog;
}

std::vector<MetricDescription> ClientCatalog() {
  // operatorpkg's client-go adapter: prometheus.ExponentialBuckets(0.001, 1.5, 20).
  std::vector<double> client_go;
  for (double bound = 0.001; client_go.size() < 20; bound *= 1.5) client_go.push_back(bound);
  // The AWS SDK middleware Karpenter's AWS provider pins (jonathan-innis/aws-sdk-go-prometheus
  // v0.1.1): prometheus.ExponentialBuckets(0.01, 1.5, 20) for both latencies, retries 0..10.
  std::vector<double> aws;
  for (double bound = 0.01; aws.size() < 20; bound *= 1.5) aws.push_back(bound);
  const std::vector<double> retries = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  const std::vector<std::string> call = {"service", "action", "code"};
  return {
      Counter("client_go_request_total", "HTTP requests to the API server, by code and method.",
              {"code", "method"}),
      Histogram("client_go_request_duration_seconds",
                "API server request latency, by verb, group, version, kind and subresource.",
                {"verb", "group", "version", "kind", "subresource"}, client_go),
      Counter("aws_sdk_go_request_total", "AWS calls.", call),
      Histogram("aws_sdk_go_request_duration_seconds", "AWS call latency, retries included.", call,
                aws),
      Histogram("aws_sdk_go_request_retry_count", "Retries per AWS call.", call, retries),
      Counter("aws_sdk_go_request_attempt_total", "AWS call attempts.", call),
      Histogram("aws_sdk_go_request_attempt_duration_seconds", "AWS call attempt latency.", call,
                aws),
  };
}

std::vector<std::string_view> DashboardMetricNames() {
  return {"karpenter_nodes_created_total",
          "karpenter_nodes_terminated_total",
          "karpenter_nodeclaims_disrupted_total",
          "karpenter_voluntary_disruption_decisions_total",
          "karpenter_voluntary_disruption_eligible_nodes",
          "karpenter_pods_state",
          "karpenter_nodepools_usage",
          "karpenter_nodepools_limit",
          "karpenter_nodes_allocatable",
          "karpenter_nodes_total_daemon_requests",
          "karpenter_nodes_total_pod_requests"};
}

}  // namespace karpenter::metrics
