#include "src/migrate/cluster_autoscaler.h"

#include <algorithm>
#include <charconv>
#include <regex>

#include "fmt/format.h"
#include "src/api/go_bool.h"
#include "src/api/yaml_to_json.h"
#include "src/migrate/aws_json_reader.h"

namespace karpenter::migrate {
namespace {

enum class FlagKind { kBool, kString, kDuration, kFraction, kInt, kNodeGroup, kAutoDiscovery };

struct KnownFlag {
  std::string_view name;
  FlagKind kind;
};

// The flags a migration maps or reports; Cluster Autoscaler has many more, none of which a
// NodePool could carry.
constexpr KnownFlag kKnownFlags[] = {
    {"expander", FlagKind::kString},
    {"balance-similar-node-groups", FlagKind::kBool},
    {"scale-down-enabled", FlagKind::kBool},
    {"scale-down-utilization-threshold", FlagKind::kFraction},
    {"scale-down-unneeded-time", FlagKind::kDuration},
    {"scale-down-delay-after-add", FlagKind::kDuration},
    {"skip-nodes-with-local-storage", FlagKind::kBool},
    {"skip-nodes-with-system-pods", FlagKind::kBool},
    {"max-node-provision-time", FlagKind::kDuration},
    {"expendable-pods-priority-cutoff", FlagKind::kInt},
    {"nodes", FlagKind::kNodeGroup},
    {"node-group-auto-discovery", FlagKind::kAutoDiscovery},
};

constexpr std::string_view kExpanders[] = {"random",   "most-pods", "least-waste", "price",
                                           "priority", "grpc",      "least-nodes"};

struct Token {
  std::string text;
  std::string path;
};

struct FlagValue {
  std::string name;
  FlagKind kind;
  std::string value;
  std::string path;  // of the token holding the value
};

const KnownFlag* FindFlag(std::string_view name) {
  for (const KnownFlag& flag : kKnownFlags) {
    if (flag.name == name) return &flag;
  }
  return nullptr;
}

bool IsAutoscalerContainer(const nlohmann::json& container) {
  if (!container.is_object()) return false;
  auto name = container.find("name");
  if (name != container.end() && *name == "cluster-autoscaler") return true;
  auto image = container.find("image");
  return image != container.end() && image->is_string() &&
         image->get<std::string>().find("cluster-autoscaler") != std::string::npos;
}

// The command and then the args of container `index`, each with its field path.
std::vector<Token> ContainerTokens(const nlohmann::json& container, size_t index,
                                   AwsFieldReader& reader) {
  std::vector<Token> tokens;
  for (const char* key : {"command", "args"}) {
    const std::string at = fmt::format("spec.template.spec.containers[{}].{}", index, key);
    const std::vector<std::string> values = reader.Strings(container, key, at);
    for (size_t i = 0; i < values.size(); ++i) {
      tokens.push_back({values[i], fmt::format("{}[{}]", at, i)});
    }
  }
  return tokens;
}

// pflag's reading: `--name=value`, `--name value`, and a bare `--name` for a boolean.
std::vector<FlagValue> KnownFlagValues(const std::vector<Token>& tokens, AwsFieldReader& reader) {
  std::vector<FlagValue> flags;
  for (size_t i = 0; i < tokens.size(); ++i) {
    std::string_view text = tokens[i].text;
    if (!text.starts_with("-")) continue;
    text.remove_prefix(text.starts_with("--") ? 2 : 1);
    const size_t equals = text.find('=');
    const KnownFlag* flag = FindFlag(text.substr(0, equals));
    if (flag == nullptr) continue;
    FlagValue value{std::string(flag->name), flag->kind, "", tokens[i].path};
    if (equals != std::string_view::npos) {
      value.value = std::string(text.substr(equals + 1));
    } else if (flag->kind == FlagKind::kBool) {
      value.value = "true";
    } else if (i + 1 < tokens.size()) {
      value.value = tokens[++i].text;
      value.path = tokens[i].path;
    } else {
      reader.Error(tokens[i].path, fmt::format("--{}: needs a value", flag->name));
      continue;
    }
    flags.push_back(std::move(value));
  }
  return flags;
}

void ReadExpanders(const FlagValue& flag, AwsFieldReader& reader, ClusterAutoscalerConfig& config) {
  std::vector<std::string> expanders;
  size_t start = 0;
  while (start <= flag.value.size()) {
    size_t comma = flag.value.find(',', start);
    if (comma == std::string::npos) comma = flag.value.size();
    std::string name = flag.value.substr(start, comma - start);
    if (std::find(std::begin(kExpanders), std::end(kExpanders), name) == std::end(kExpanders)) {
      reader.Error(flag.path, fmt::format("--expander: \"{}\": must be a comma list of random, "
                                          "most-pods, least-waste, price, priority, grpc or "
                                          "least-nodes",
                                          name));
      return;
    }
    expanders.push_back(std::move(name));
    start = comma + 1;
  }
  config.expanders = std::move(expanders);
}

// A whole number as Go's strconv.Atoi reads it (an optional sign, decimal digits).
std::optional<int64_t> WholeNumber(std::string_view text) {
  if (text.starts_with('+')) text.remove_prefix(1);
  int64_t value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
  return value;
}

// `MIN:MAX:NAME`, checked as Cluster Autoscaler checks a node group spec on AWS (scale to zero
// allowed).
void ReadStaticNodeGroup(const FlagValue& flag, AwsFieldReader& reader,
                         ClusterAutoscalerConfig& config) {
  auto bad = [&](std::string_view why) {
    reader.Error(flag.path, fmt::format("--nodes=\"{}\": {}", flag.value, why));
  };
  const size_t first = flag.value.find(':');
  const size_t second = first == std::string::npos ? first : flag.value.find(':', first + 1);
  if (second == std::string::npos) return bad("must be MIN:MAX:NAME");
  const std::string_view value = flag.value;
  const std::optional<int64_t> min = WholeNumber(value.substr(0, first));
  const std::optional<int64_t> max = WholeNumber(value.substr(first + 1, second - first - 1));
  const std::string name(value.substr(second + 1));
  if (!min) return bad("the minimum must be a whole number");
  if (!max) return bad("the maximum must be a whole number");
  if (*min < 0) return bad("the minimum must be at least 0");
  if (*max < *min) return bad("the maximum must be at least the minimum");
  if (name.empty()) return bad("the Auto Scaling group's name must not be blank");
  config.static_node_groups.push_back({*min, *max, name, fmt::format("--nodes={}", flag.value)});
}

// `asg:tag=K[=V],K2[=V2]`, the only discoverer and key Cluster Autoscaler's AWS provider takes.
void ReadAutoDiscovery(const FlagValue& flag, AwsFieldReader& reader,
                       ClusterAutoscalerConfig& config) {
  auto bad = [&](std::string_view why) {
    reader.Error(flag.path, fmt::format("--node-group-auto-discovery=\"{}\": {}", flag.value, why));
  };
  constexpr std::string_view kPrefix = "asg:tag=";
  if (!std::string_view(flag.value).starts_with(kPrefix)) {
    return bad("must be asg:tag=KEY[=VALUE],... (the AWS provider's only discoverer and key)");
  }
  std::vector<std::string> tags;
  const std::string list = flag.value.substr(kPrefix.size());
  size_t start = 0;
  while (start <= list.size()) {
    size_t comma = list.find(',', start);
    if (comma == std::string::npos) comma = list.size();
    std::string tag = list.substr(start, comma - start);
    if (tag.empty() || tag.starts_with('=')) return bad("a tag key must not be blank");
    tags.push_back(std::move(tag));
    start = comma + 1;
  }
  config.auto_discovery_tags.push_back(std::move(tags));
}

void Apply(const FlagValue& flag, AwsFieldReader& reader, ClusterAutoscalerConfig& config) {
  auto bad = [&](std::string_view why) {
    reader.Error(flag.path, fmt::format("--{}=\"{}\": {}", flag.name, flag.value, why));
  };
  config.set_flags.push_back(flag.name);
  if (flag.name == "expander") return ReadExpanders(flag, reader, config);
  if (flag.kind == FlagKind::kNodeGroup) return ReadStaticNodeGroup(flag, reader, config);
  if (flag.kind == FlagKind::kAutoDiscovery) return ReadAutoDiscovery(flag, reader, config);
  if (flag.kind == FlagKind::kBool) {
    std::optional<bool> value = api::ParseGoBool(flag.value);
    if (!value) return bad("must be true or false");
    if (flag.name == "balance-similar-node-groups") config.balance_similar_node_groups = *value;
    if (flag.name == "scale-down-enabled") config.scale_down_enabled = *value;
    if (flag.name == "skip-nodes-with-local-storage") config.skip_nodes_with_local_storage = *value;
    if (flag.name == "skip-nodes-with-system-pods") config.skip_nodes_with_system_pods = *value;
    return;
  }
  if (flag.kind == FlagKind::kDuration) {
    absl::StatusOr<api::Duration> value = api::Duration::Parse(flag.value);
    if (!value.ok()) return bad(std::string(value.status().message()));
    if (value->Nanos() < 0) return bad("must not be negative");
    if (flag.name == "scale-down-unneeded-time") config.scale_down_unneeded_time = *value;
    if (flag.name == "scale-down-delay-after-add") config.scale_down_delay_after_add = *value;
    if (flag.name == "max-node-provision-time") config.max_node_provision_time = *value;
    return;
  }
  const char* end = flag.value.data() + flag.value.size();
  if (flag.kind == FlagKind::kFraction) {
    double value = 0;
    auto [ptr, ec] = std::from_chars(flag.value.data(), end, value);
    if (ec != std::errc() || ptr != end || !(value >= 0 && value <= 1)) {
      return bad("must be a number from 0 to 1");
    }
    config.scale_down_utilization_threshold = value;
    return;
  }
  int64_t value = 0;
  auto [ptr, ec] = std::from_chars(flag.value.data(), end, value);
  if (ec != std::errc() || ptr != end) return bad("must be a whole number");
  config.expendable_pods_priority_cutoff = value;
}

void ReadDeployment(const KubeDocument& document, AwsFieldReader& reader,
                    ClusterAutoscalerConfig& config) {
  const nlohmann::json& containers = *ContainersOf(document);
  for (size_t c = 0; c < containers.size(); ++c) {
    if (!IsAutoscalerContainer(containers[c])) continue;
    config.deployment_found = true;
    config.deployment_namespace = document.namespace_;
    config.deployment_name = document.name;
    for (const FlagValue& flag :
         KnownFlagValues(ContainerTokens(containers[c], c, reader), reader)) {
      Apply(flag, reader, config);
    }
    return;
  }
}

bool CompilesAsRegex(const std::string& pattern) {
  // std::regex reports a bad pattern by throwing; turned into a value here.
  try {
    std::regex compiled(pattern);
    return true;
  } catch (const std::regex_error&) {
    return false;
  }
}

void ReadPriorityRule(const std::string& key, const nlohmann::json& patterns,
                      AwsFieldReader& reader, ClusterAutoscalerConfig& config) {
  const std::string at = "data.priorities." + key;
  PriorityRule rule;
  auto [ptr, ec] = std::from_chars(key.data(), key.data() + key.size(), rule.priority);
  if (ec != std::errc() || ptr != key.data() + key.size()) {
    return reader.Error(at, "the priority must be a whole number");
  }
  if (!patterns.is_array()) return reader.Error(at, "must be a list of regular expressions");
  for (size_t i = 0; i < patterns.size(); ++i) {
    const std::string pattern_at = fmt::format("{}[{}]", at, i);
    if (!patterns[i].is_string()) {
      reader.Error(pattern_at, "must be a string");
      continue;
    }
    std::string pattern = patterns[i].get<std::string>();
    if (!CompilesAsRegex(pattern)) {
      reader.Error(pattern_at, fmt::format("\"{}\": not a regular expression", pattern));
      continue;
    }
    rule.patterns.push_back(std::move(pattern));
  }
  config.priorities.push_back(std::move(rule));
}

void ReadPriorities(const KubeDocument& document, AwsFieldReader& reader,
                    ClusterAutoscalerConfig& config) {
  config.priorities_found = true;
  auto data = document.object.find("data");
  if (data == document.object.end() || !data->is_object()) {
    return reader.Error("data.priorities", "required");
  }
  const std::string text = reader.String(*data, "priorities", "data.priorities", true);
  if (text.empty()) return;
  absl::StatusOr<std::vector<api::JsonDocument>> yaml = api::YamlToJson(text);
  if (!yaml.ok() || yaml->size() != 1) {
    return reader.Error("data.priorities",
                        yaml.ok() ? "must be one YAML map" : std::string(yaml.status().message()));
  }
  absl::StatusOr<nlohmann::json> map = ParseAwsJson((*yaml)[0].json, "data.priorities");
  if (!map.ok() || !map->is_object()) {
    return reader.Error("data.priorities", "must map priorities to lists of regular expressions");
  }
  for (const auto& [key, patterns] : map->items()) ReadPriorityRule(key, patterns, reader, config);
  std::sort(config.priorities.begin(), config.priorities.end(),
            [](const PriorityRule& a, const PriorityRule& b) { return a.priority > b.priority; });
}

bool IsPriorityConfigMap(const KubeDocument& document) {
  return document.kind == "ConfigMap" && document.name == kPriorityExpanderConfigMap;
}

bool Searches(const std::string& pattern, const std::string& name) {
  // Patterns were compiled once when read; matching can still throw on pathological input.
  try {
    return std::regex_search(name, std::regex(pattern));
  } catch (const std::regex_error&) {
    return false;
  }
}

}  // namespace

bool ClusterAutoscalerConfig::IsSet(std::string_view flag) const {
  return std::find(set_flags.begin(), set_flags.end(), flag) != set_flags.end();
}

bool IsClusterAutoscalerDocument(const KubeDocument& document) {
  if (IsPriorityConfigMap(document)) return true;
  if (document.kind != "Deployment") return false;
  const nlohmann::json* containers = ContainersOf(document);
  return containers != nullptr &&
         std::any_of(containers->begin(), containers->end(), IsAutoscalerContainer);
}

absl::Status ReadClusterAutoscaler(const std::vector<KubeDocument>& documents,
                                   ClusterAutoscalerConfig& config) {
  std::vector<std::string> errors;
  for (const KubeDocument& document : documents) {
    if (!IsClusterAutoscalerDocument(document)) continue;
    AwsFieldReader reader(document.where);
    if (IsPriorityConfigMap(document)) {
      ReadPriorities(document, reader, config);
    } else {
      ReadDeployment(document, reader, config);
    }
    if (absl::Status status = reader.Result(); !status.ok()) {
      errors.emplace_back(status.message());
    }
  }
  if (errors.empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(fmt::format("{}", fmt::join(errors, "\n")));
}

std::optional<int64_t> PriorityOf(const ClusterAutoscalerConfig& config,
                                  const std::vector<std::string>& names) {
  for (const PriorityRule& rule : config.priorities) {
    for (const std::string& pattern : rule.patterns) {
      for (const std::string& name : names) {
        if (Searches(pattern, name)) return rule.priority;
      }
    }
  }
  return std::nullopt;
}

}  // namespace karpenter::migrate
