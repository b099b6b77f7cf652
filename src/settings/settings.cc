#include "src/settings/settings.h"

#include <charconv>
#include <functional>
#include <optional>
#include <string_view>
#include <type_traits>
#include <vector>

#include "absl/strings/ascii.h"
#include "src/api/go_bool.h"

namespace karpenter::settings {
namespace {

using Setter = std::function<absl::Status(Settings&, std::string_view)>;

// Debian's absl::string_view is not std::string_view: messages are joined here instead.
template <class Part>
void AppendPart(std::string& out, const Part& part) {
  if constexpr (std::is_integral_v<Part>) {
    out += std::to_string(part);
  } else if constexpr (std::is_array_v<Part>) {
    out.append(part);
  } else {
    out.append(part.data(), part.size());  // std::string, std::string_view, absl::string_view
  }
}
template <class... Parts>
void AppendAll(std::string& out, const Parts&... parts) {
  (AppendPart(out, parts), ...);
}
template <class... Parts>
std::string Cat(const Parts&... parts) {
  std::string out;
  AppendAll(out, parts...);
  return out;
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && absl::ascii_isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && absl::ascii_isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

std::vector<std::string_view> Split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i == text.size() || text[i] == separator) {
      parts.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

struct Option {
  std::string_view flag;  // without dashes
  std::string_view env;
  bool is_bool = false;
  Setter set;
  std::string_view help;
};

absl::StatusOr<int64_t> ParseInt(std::string_view text) {
  int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) {
    return absl::InvalidArgumentError(Cat("\"", text, "\" is not an integer"));
  }
  return value;
}

absl::StatusOr<double> ParseFloat(std::string_view text) {
  double value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) {
    return absl::InvalidArgumentError(Cat("\"", text, "\" is not a number"));
  }
  return value;
}

// strconv.ParseBool's spellings, which upstream's environment variables accept.
absl::StatusOr<bool> ParseBool(std::string_view text) {
  if (std::optional<bool> value = api::ParseGoBool(text)) return *value;
  return absl::InvalidArgumentError(Cat("\"", text, "\" is not true or false"));
}

Setter Int(int64_t Settings::*field, int64_t min, int64_t max) {
  return [field, min, max](Settings& s, std::string_view text) -> absl::Status {
    absl::StatusOr<int64_t> value = ParseInt(text);
    if (!value.ok()) return value.status();
    if (*value < min || *value > max) {
      return absl::InvalidArgumentError(Cat(*value, " is out of range [", min, ", ", max, "]"));
    }
    s.*field = *value;
    return absl::OkStatus();
  };
}

Setter Bool(bool Settings::*field) {
  return [field](Settings& s, std::string_view text) -> absl::Status {
    absl::StatusOr<bool> value = ParseBool(text);
    if (!value.ok()) return value.status();
    s.*field = *value;
    return absl::OkStatus();
  };
}

Setter String(std::string Settings::*field) {
  return [field](Settings& s, std::string_view text) {
    s.*field = std::string(text);
    return absl::OkStatus();
  };
}

Setter DurationOf(api::Duration Settings::*field) {
  return [field](Settings& s, std::string_view text) -> absl::Status {
    absl::StatusOr<api::Duration> value = api::Duration::Parse(text);
    if (!value.ok()) {
      return absl::InvalidArgumentError(Cat("\"", text, "\" is not a duration"));
    }
    s.*field = *value;
    return absl::OkStatus();
  };
}

const std::vector<Option>& Options() {
  constexpr int64_t kMaxPort = 65535;
  constexpr int64_t kMaxInt = INT64_MAX;
  static const std::vector<Option> options = {
      {"karpenter-service", "KARPENTER_SERVICE", false, String(&Settings::karpenter_service),
       "The Karpenter Service name"},
      {"metrics-port", "METRICS_PORT", false, Int(&Settings::metrics_port, 0, kMaxPort),
       "Port of the /metrics endpoint (default 8080)"},
      {"health-probe-port", "HEALTH_PROBE_PORT", false,
       Int(&Settings::health_probe_port, 0, kMaxPort),
       "Port of the /healthz and /readyz endpoints (default 8081)"},
      {"kube-client-qps", "KUBE_CLIENT_QPS", false, Int(&Settings::kube_client_qps, 1, kMaxInt),
       "Smoothed queries per second to the kube-apiserver (default 200)"},
      {"kube-client-burst", "KUBE_CLIENT_BURST", false,
       Int(&Settings::kube_client_burst, 1, kMaxInt),
       "Burst of queries to the kube-apiserver (default 300)"},
      {"enable-profiling", "ENABLE_PROFILING", true, Bool(&Settings::enable_profiling),
       "Profiling on the metrics endpoint (default false)"},
      {"disable-controller-warmup", "DISABLE_CONTROLLER_WARMUP", true,
       Bool(&Settings::disable_controller_warmup),
       "Do not fill caches before leadership is won (default true)"},
      {"disable-leader-election", "DISABLE_LEADER_ELECTION", true,
       Bool(&Settings::disable_leader_election), "Run without leader election (default false)"},
      {"disable-cluster-state-observability", "DISABLE_CLUSTER_STATE_OBSERVABILITY", true,
       Bool(&Settings::disable_cluster_state_observability),
       "No cluster state metrics and events (default false)"},
      {"leader-election-name", "LEADER_ELECTION_NAME", false,
       String(&Settings::leader_election_name),
       "Name of the leader election Lease (default karpenter-leader-election)"},
      {"leader-election-namespace", "LEADER_ELECTION_NAMESPACE", false,
       String(&Settings::leader_election_namespace),
       "Namespace of the Lease (default: the pod's own namespace)"},
      {"memory-limit", "MEMORY_LIMIT", false, Int(&Settings::memory_limit, -1, kMaxInt),
       "Memory limit of the container in bytes (default -1: none)"},
      {"cpu-requests", "CPU_REQUESTS", false, Int(&Settings::cpu_requests, INT64_MIN, kMaxInt),
       "CPU requests of the container in millicores (default 1000)"},
      {"log-level", "LOG_LEVEL", false, String(&Settings::log_level),
       "debug, info or error (default info)"},
      {"log-output-paths", "LOG_OUTPUT_PATHS", false, String(&Settings::log_output_paths),
       "Comma-separated log destinations (default stdout)"},
      {"log-error-output-paths", "LOG_ERROR_OUTPUT_PATHS", false,
       String(&Settings::log_error_output_paths),
       "Comma-separated error log destinations (default stderr)"},
      {"batch-max-duration", "BATCH_MAX_DURATION", false, DurationOf(&Settings::batch_max_duration),
       "Longest provisioning batch (default 10s)"},
      {"batch-idle-duration", "BATCH_IDLE_DURATION", false,
       DurationOf(&Settings::batch_idle_duration),
       "Quiet time that closes a provisioning batch (default 1s)"},
      {"preference-policy", "PREFERENCE_POLICY", false, String(&Settings::preference_policy),
       "Respect or Ignore scheduling preferences (default Respect)"},
      {"min-values-policy", "MIN_VALUES_POLICY", false, String(&Settings::min_values_policy),
       "Strict or BestEffort minValues (default Strict)"},
      {"ignore-dra-requests", "IGNORE_DRA_REQUESTS", true, Bool(&Settings::ignore_dra_requests),
       "Ignore pods' DRA requests when simulating (default true)"},
      {"feature-gates", "FEATURE_GATES", false,
       [](Settings& s, std::string_view text) {
         // The flag's list replaces the variable's, as upstream parses one string.
         FeatureGates gates;
         gates.node_class_cel = s.feature_gates.node_class_cel;
         absl::Status parsed = ParseFeatureGates(text, gates);
         gates.node_class_cel = s.feature_gates.node_class_cel;
         if (parsed.ok()) s.feature_gates = gates;
         return parsed;
       },
       "NodeRepair, ReservedCapacity, SpotToSpotConsolidation, NodeOverlay, StaticCapacity, "
       "CapacityBuffer (default NodeRepair=false,ReservedCapacity=true,...)"},
      {"cluster-ca-bundle", "CLUSTER_CA_BUNDLE", false, String(&Settings::cluster_ca_bundle),
       "CA bundle nodes use to reach the API server (default: the controller's)"},
      {"cluster-name", "CLUSTER_NAME", false, String(&Settings::cluster_name),
       "[REQUIRED] The cluster's name, for resource discovery"},
      {"cluster-endpoint", "CLUSTER_ENDPOINT", false, String(&Settings::cluster_endpoint),
       "API server URL for new nodes (default: from DescribeCluster)"},
      {"isolated-vpc", "ISOLATED_VPC", true, Bool(&Settings::isolated_vpc),
       "No AWS endpoints without a VPC endpoint, no pricing lookups (default false)"},
      {"eks-control-plane", "EKS_CONTROL_PLANE", true, Bool(&Settings::eks_control_plane),
       "Discover cluster details with DescribeCluster (default false)"},
      {"vm-memory-overhead-percent", "VM_MEMORY_OVERHEAD_PERCENT", false,
       [](Settings& s, std::string_view text) -> absl::Status {
         absl::StatusOr<double> value = ParseFloat(text);
         if (!value.ok()) return value.status();
         s.vm_memory_overhead_percent = *value;
         return absl::OkStatus();
       },
       "Memory subtracted for the hypervisor when unknown (default 0.075)"},
      {"interruption-queue", "INTERRUPTION_QUEUE", false, String(&Settings::interruption_queue),
       "SQS queue of interruption events (default: disabled)"},
      {"reserved-enis", "RESERVED_ENIS", false, Int(&Settings::reserved_enis, INT64_MIN, kMaxInt),
       "ENIs left out of max-pods (default 0)"},
      {"disable-dry-run", "DISABLE_DRY_RUN", true, Bool(&Settings::disable_dry_run),
       "No dry-run validation of EC2NodeClasses (default false)"},
      {"enable-zonal-shift", "ENABLE_ZONAL_SHIFT", true, Bool(&Settings::enable_zonal_shift),
       "Follow ARC zonal shifts (default false)"},
      {"ami-refresh-interval", "AMI_REFRESH_INTERVAL", false,
       DurationOf(&Settings::ami_refresh_interval),
       "AMI discovery period, at least 1m (default 1m)"},
      {"subnet-refresh-interval", "SUBNET_REFRESH_INTERVAL", false,
       DurationOf(&Settings::subnet_refresh_interval),
       "Subnet discovery period, at least 1m (default 1m)"},
      {"aws-feature-gates", "AWS_FEATURE_GATES", false,
       [](Settings& s, std::string_view text) {
         FeatureGates gates;
         absl::Status parsed = ParseFeatureGates(text, gates);
         if (parsed.ok()) s.feature_gates.node_class_cel = gates.node_class_cel;
         return parsed;
       },
       "NodeClassCEL (default NodeClassCEL=false)"},
  };
  return options;
}

const Option* FindFlag(std::string_view name) {
  for (const Option& option : Options()) {
    if (option.flag == name) return &option;
  }
  return nullptr;
}

bool OneOf(std::string_view value, std::initializer_list<std::string_view> allowed) {
  for (std::string_view one : allowed) {
    if (value == one) return true;
  }
  return false;
}

// An absolute URL with a host, as upstream checks CLUSTER_ENDPOINT.
bool IsAbsoluteUrl(std::string_view url) {
  const size_t scheme = url.find("://");
  if (scheme == std::string_view::npos || scheme == 0) return false;
  for (char c : url.substr(0, scheme)) {
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '+' && c != '-' && c != '.') {
      return false;
    }
  }
  std::string_view rest = url.substr(scheme + 3);
  rest = rest.substr(0, rest.find_first_of("/?#"));
  if (const size_t at = rest.rfind('@'); at != std::string_view::npos) rest = rest.substr(at + 1);
  if (!rest.empty() && rest.front() == '[') return rest.find(']') > 1;
  return !rest.substr(0, rest.find(':')).empty();
}

absl::Status Validate(Settings& s) {
  if (!OneOf(s.log_level, {"debug", "info", "error"})) {
    return absl::InvalidArgumentError(Cat("invalid LOG_LEVEL \"", s.log_level, "\""));
  }
  if (!OneOf(s.preference_policy, {"Respect", "Ignore"})) {
    return absl::InvalidArgumentError(
        Cat("invalid PREFERENCE_POLICY \"", s.preference_policy, "\""));
  }
  if (!OneOf(s.min_values_policy, {"Strict", "BestEffort"})) {
    return absl::InvalidArgumentError(
        Cat("invalid MIN_VALUES_POLICY \"", s.min_values_policy, "\""));
  }
  if (s.cpu_requests <= 0) s.cpu_requests = 1000;  // upstream's fallback
  if (!s.cluster_endpoint.empty() && !IsAbsoluteUrl(s.cluster_endpoint)) {
    return absl::InvalidArgumentError(
        Cat("cluster endpoint URL is not valid: \"", s.cluster_endpoint, "\""));
  }
  if (s.vm_memory_overhead_percent < 0) {
    return absl::InvalidArgumentError("vm-memory-overhead-percent cannot be negative");
  }
  if (s.reserved_enis < 0) return absl::InvalidArgumentError("reserved-enis cannot be negative");
  if (s.cluster_name.empty()) {
    return absl::InvalidArgumentError(
        "missing field, cluster-name (set CLUSTER_NAME or --cluster-name)");
  }
  if (s.ami_refresh_interval < api::Duration::FromMinutes(1)) {
    return absl::InvalidArgumentError("ami-refresh-interval must be at least 1m");
  }
  if (s.subnet_refresh_interval < api::Duration::FromMinutes(1)) {
    return absl::InvalidArgumentError("subnet-refresh-interval must be at least 1m");
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status ParseFeatureGates(std::string_view text, FeatureGates& gates) {
  if (Trim(text).empty()) return absl::OkStatus();
  for (std::string_view entry : Split(text, ',')) {
    entry = Trim(entry);
    const size_t equals = entry.find('=');
    if (equals == std::string_view::npos) {
      return absl::InvalidArgumentError(Cat("missing bool value for ", entry));
    }
    const std::string_view name = Trim(entry.substr(0, equals));
    const std::string_view text_value = Trim(entry.substr(equals + 1));
    absl::StatusOr<bool> value = ParseBool(text_value);
    if (!value.ok()) {
      return absl::InvalidArgumentError(
          Cat("invalid value of ", name, ": ", value.status().message()));
    }
    if (name == "NodeRepair") gates.node_repair = *value;
    if (name == "ReservedCapacity") gates.reserved_capacity = *value;
    if (name == "SpotToSpotConsolidation") gates.spot_to_spot_consolidation = *value;
    if (name == "NodeOverlay") gates.node_overlay = *value;
    if (name == "StaticCapacity") gates.static_capacity = *value;
    if (name == "CapacityBuffer") gates.capacity_buffer = *value;
    if (name == "NodeClassCEL") gates.node_class_cel = *value;
  }
  return absl::OkStatus();
}

absl::StatusOr<Settings> Parse(const std::map<std::string, std::string>& environment,
                               std::span<const std::string> args) {
  Settings settings;
  for (const Option& option : Options()) {
    auto it = environment.find(std::string(option.env));
    // Upstream treats an empty variable as unset.
    if (it == environment.end() || it->second.empty()) continue;
    if (absl::Status set = option.set(settings, it->second); !set.ok()) {
      return absl::InvalidArgumentError(Cat(option.env, ": ", set.message()));
    }
  }
  for (size_t i = 0; i < args.size(); ++i) {
    std::string_view arg = args[i];
    if (arg == "--") break;
    if (!arg.starts_with("-") || arg == "-") {
      return absl::InvalidArgumentError(Cat("unexpected argument \"", arg, "\""));
    }
    arg.remove_prefix(arg.starts_with("--") ? 2 : 1);
    const size_t equals = arg.find('=');
    const std::string_view name = arg.substr(0, equals);
    const Option* option = FindFlag(name);
    if (option == nullptr) {
      return absl::InvalidArgumentError(Cat("flag provided but not defined: -", name));
    }
    std::string_view value;
    if (equals != std::string_view::npos) {
      value = arg.substr(equals + 1);
      // A flag (not its variable) takes only true or false, as Go's BoolFunc flags do.
      if (option->is_bool && value != "true" && value != "false") {
        return absl::InvalidArgumentError(
            Cat("--", name, ": \"", value, "\" is not a valid value, must be true or false"));
      }
    } else if (option->is_bool) {
      value = "true";
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      return absl::InvalidArgumentError(Cat("flag needs an argument: -", name));
    }
    if (absl::Status set = option->set(settings, value); !set.ok()) {
      return absl::InvalidArgumentError(Cat("--", name, ": ", set.message()));
    }
  }
  if (absl::Status valid = Validate(settings); !valid.ok()) return valid;
  return settings;
}

std::string Usage() {
  std::string out =
      "Usage: karpenter controller [flags]\n"
      "Each flag may also be set by its environment variable; a flag wins.\n\n";
  for (const Option& option : Options()) {
    AppendAll(out, "  --", option.flag, " (", option.env, ")\n      ", option.help, "\n");
  }
  out +=
      "\nExamples:\n"
      "  CLUSTER_NAME=production-eks INTERRUPTION_QUEUE=production-eks karpenter controller\n"
      "  karpenter controller --cluster-name=production-eks --log-level=debug "
      "--disable-leader-election\n"
      "  helm upgrade --install karpenter charts/karpenter -n karpenter --set "
      "settings.clusterName=production-eks   # as the chart runs it\n"
      "Exit codes: 0 stopped by SIGTERM or SIGINT after releasing the Lease; 1 invalid settings "
      "(one line naming the flag or variable) or a start-up failure\n";
  return out;
}

}  // namespace karpenter::settings
