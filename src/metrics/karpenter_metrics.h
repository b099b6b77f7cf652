// Upstream's metric names, types and label names (kubernetes-sigs/karpenter pkg/metrics and the
// controllers that register metrics; aws/karpenter-provider-aws for the `cloudprovider_*` and
// `interruption_*` families; reference: ecosystem.md §1.2, karpenter-features.md §9), declared
// once so the registry keeps only what users' dashboards and alerts know.
#pragma once

#include <string_view>
#include <vector>

#include "src/metrics/registry.h"

namespace karpenter::metrics {

// Upstream's DurationBuckets(): controller-runtime's thresholds plus larger ones for singleton
// controllers, in seconds.
std::vector<double> DurationBuckets();

// Every metric the controllers may emit.
std::vector<MetricDescription> KarpenterCatalog();

// What the controller process adds under controller-runtime's and client-go's names: reconciles
// per controller and result, their errors and duration, and whether this replica leads.
std::vector<MetricDescription> RuntimeCatalog();

// operatorpkg's status condition metrics for the kinds whose status controllers run
// (NodeClaim, NodePool, Node, EC2NodeClass): operator_<kind>_status_condition_{count,
// current_status_seconds,transitions_total,transition_seconds}.
std::vector<MetricDescription> OperatorCatalog();

// The API clients' request metrics under client-go's and the AWS SDK's names:
// client_go_request_{total,duration_seconds} and aws_sdk_go_request_{total,duration_seconds,
// retry_count,attempt_total,attempt_duration_seconds}.
std::vector<MetricDescription> ClientCatalog();

// controller-runtime's reconcile_time_seconds buckets: DurationBuckets() up to 60 s.
std::vector<double> ReconcileTimeBuckets();

// The names the dashboards shipped in upstream's docs query (capacity and performance
// dashboards), without the `karpenter_` prefix's histogram suffixes.
std::vector<std::string_view> DashboardMetricNames();

}  // namespace karpenter::metrics
