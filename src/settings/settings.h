// The controller's settings, as upstream Karpenter and its AWS provider read them
// (pkg/operator/options in both): every setting has an environment variable and a flag of the
// same meaning ("BATCH_IDLE_DURATION" / "--batch-idle-duration"), the same defaults, and a flag
// wins over its variable. Parsing is strict where upstream is lenient only by accident: a value
// that does not parse is an error naming the variable or flag, never a silent default.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>

#include "karpenter/common/status.h"
#include "src/api/duration.h"

namespace karpenter::settings {

struct FeatureGates {
  bool node_repair = false;
  bool reserved_capacity = true;
  bool spot_to_spot_consolidation = false;
  bool node_overlay = false;
  bool static_capacity = false;
  bool capacity_buffer = false;
  bool node_class_cel = false;  // AWS_FEATURE_GATES
  friend bool operator==(const FeatureGates&, const FeatureGates&) = default;
};

struct Settings {
  // --- core (kubernetes-sigs/karpenter) ---
  std::string karpenter_service;
  int64_t metrics_port = 8080;
  int64_t health_probe_port = 8081;
  int64_t kube_client_qps = 200;
  int64_t kube_client_burst = 300;
  bool enable_profiling = false;
  bool disable_controller_warmup = true;
  bool disable_leader_election = false;
  bool disable_cluster_state_observability = false;
  std::string leader_election_name = "karpenter-leader-election";
  std::string leader_election_namespace;
  int64_t memory_limit = -1;
  int64_t cpu_requests = 1000;
  std::string log_level = "info";  // debug | info | error
  std::string log_output_paths = "stdout";
  std::string log_error_output_paths = "stderr";
  api::Duration batch_max_duration = api::Duration::FromSeconds(10);
  api::Duration batch_idle_duration = api::Duration::FromSeconds(1);
  std::string preference_policy = "Respect";  // Respect | Ignore
  std::string min_values_policy = "Strict";   // Strict | BestEffort
  bool ignore_dra_requests = true;
  FeatureGates feature_gates;

  // --- AWS provider ---
  std::string cluster_ca_bundle;
  std::string cluster_name;  // required
  std::string cluster_endpoint;
  bool isolated_vpc = false;
  bool eks_control_plane = false;
  double vm_memory_overhead_percent = 0.075;
  std::string interruption_queue;  // "" disables interruption handling
  int64_t reserved_enis = 0;
  bool disable_dry_run = false;
  bool enable_zonal_shift = false;
  api::Duration ami_refresh_interval = api::Duration::FromMinutes(1);
  api::Duration subnet_refresh_interval = api::Duration::FromMinutes(1);
};

// Reads `environment` and then `args` (the words after `karpenter controller`). Errors are one
// line naming the variable or flag: `invalid LOG_LEVEL "verbose"`, `--metrics-port: "x" is not
// an integer`, `missing field, cluster-name (CLUSTER_NAME or --cluster-name)`.
absl::StatusOr<Settings> Parse(const std::map<std::string, std::string>& environment,
                               std::span<const std::string> args);

// "NodeRepair=true,SpotToSpotConsolidation=false" over `gates`; unknown gates are ignored, as
// upstream ignores them; a malformed entry or value is an error.
absl::Status ParseFeatureGates(std::string_view text, FeatureGates& gates);

// Every flag with its variable, default and meaning, for `karpenter controller --help`.
std::string Usage();

}  // namespace karpenter::settings
