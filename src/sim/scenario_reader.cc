#include "src/sim/scenario_reader.h"

#include <algorithm>
#include <cmath>
#include <variant>

#include "fmt/format.h"
#include "src/api/validation.h"
#include "src/sim/cluster.h"
#include "src/sim/scenario_text.h"

namespace karpenter::sim {

void ScenarioReader::Error(const std::string& path, const std::string& message) {
  errors_.push_back(fmt::format("{}: {}: {}", source_, EscapeControlCharacters(path),
                                EscapeControlCharacters(message)));
}

void ScenarioReader::OnlyKeys(const YAML::Node& node, const std::string& path,
                              std::initializer_list<std::string_view> keys) {
  if (!node.IsMap()) {
    Error(path.empty() ? "<root>" : path, "must be a mapping");
    return;
  }
  for (const auto& entry : node) {
    const std::string key = entry.first.as<std::string>("");
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) {
      Error(Join(path, key), "unknown field");
    }
  }
}

bool ScenarioReader::Missing(const YAML::Node& node, const std::string& path) {
  if (node.IsDefined() && !node.IsNull()) return false;
  Error(path, "required");
  return true;
}

std::string ScenarioReader::Join(const std::string& path, std::string_view key) {
  return path.empty() ? PathSegment(key) : fmt::format("{}.{}", path, PathSegment(key));
}

std::string ScenarioReader::String(const YAML::Node& node, const std::string& path) {
  if (Missing(node, path)) return "";
  if (!node.IsScalar()) {
    Error(path, "must be a string");
    return "";
  }
  return node.Scalar();
}

double ScenarioReader::Number(const YAML::Node& node, const std::string& path) {
  if (Missing(node, path)) return 0;
  double value = 0;
  if (!node.IsScalar() || !YAML::convert<double>::decode(node, value)) {
    Error(path, "must be a number");
    return 0;
  }
  // .nan and .inf are YAML numbers, but no time or threshold of the twin may be one.
  if (!std::isfinite(value)) {
    Error(path, "must be a finite number");
    return 0;
  }
  if (value < 0) Error(path, "must not be negative");
  return value;
}

double ScenarioReader::Seconds(const YAML::Node& node, const std::string& path) {
  const double value = Number(node, path);
  if (value <= kMaxScenarioSeconds) return value;
  Error(path, fmt::format("must be at most {} seconds (30 days)", kMaxScenarioSeconds));
  return 0;
}

int ScenarioReader::Count(const YAML::Node& node, const std::string& path, int max) {
  const int value = Integer(node, path);
  if (value <= max) return value;
  Error(path, fmt::format("must be at most {}", max));
  return 0;
}

int ScenarioReader::Integer(const YAML::Node& node, const std::string& path) {
  if (Missing(node, path)) return 0;
  int value = 0;
  if (!node.IsScalar() || !YAML::convert<int>::decode(node, value)) {
    Error(path, "must be an integer");
    return 0;
  }
  if (value < 0) Error(path, "must not be negative");
  return value;
}

bool ScenarioReader::Bool(const YAML::Node& node, const std::string& path) {
  if (Missing(node, path)) return false;
  bool value = false;
  if (!node.IsScalar() || !YAML::convert<bool>::decode(node, value)) {
    Error(path, "must be true or false");
  }
  return value;
}

std::vector<YAML::Node> ScenarioReader::Items(const YAML::Node& node, const std::string& path) {
  std::vector<YAML::Node> out;
  if (!node.IsDefined() || node.IsNull()) return out;
  if (!node.IsSequence()) {
    Error(path, "must be a list");
    return out;
  }
  for (const YAML::Node& item : node) out.push_back(item);
  return out;
}

std::vector<std::string> ScenarioReader::Strings(const YAML::Node& node, const std::string& path) {
  if (Missing(node, path)) return {};
  std::vector<std::string> out;
  if (!node.IsSequence()) {
    Error(path, "must be a list of strings");
    return out;
  }
  for (size_t i = 0; i < node.size(); ++i) {
    out.push_back(String(node[i], fmt::format("{}[{}]", path, i)));
  }
  return out;
}

std::map<std::string, std::string> ScenarioReader::StringMap(const YAML::Node& node,
                                                             const std::string& path) {
  std::map<std::string, std::string> out;
  if (!node.IsMap()) {
    Error(path, "must be a mapping of strings");
    return out;
  }
  for (const auto& entry : node) {
    const std::string key = entry.first.as<std::string>("");
    out[key] = String(entry.second, Join(path, key));
  }
  return out;
}

// The sizes and times the twin takes from a workload, checked here because the cluster model
// trusts them: 10^8 replicas or 10^6 completions exhausted memory, and the run-seconds
// annotation took NaN, negatives and 1e300 (atof) as a time.
void ScenarioReader::CheckWorkload(const api::Object& object, const std::string& ref,
                                   const std::string& path) {
  auto check_count = [&](const std::optional<int32_t>& count, std::string_view field) {
    if (count && *count > kMaxScenarioReplicas) {
      Error(path, fmt::format("{}: {}: must be at most {}", ref, field, kMaxScenarioReplicas));
    }
  };
  if (const auto* deployment = std::get_if<api::Deployment>(&object)) {
    check_count(deployment->spec.replicas, "spec.replicas");
  } else if (const auto* set = std::get_if<api::StatefulSet>(&object)) {
    check_count(set->spec.replicas, "spec.replicas");
  } else if (const auto* job = std::get_if<api::Job>(&object)) {
    check_count(job->spec.parallelism, "spec.parallelism");
    check_count(job->spec.completions, "spec.completions");
    const auto annotation = job->metadata.annotations.find(kJobRunSecondsAnnotation);
    if (annotation == job->metadata.annotations.end()) return;
    const std::optional<double> seconds = ParseJobRunSeconds(annotation->second);
    if (!seconds || *seconds > kMaxScenarioSeconds) {
      Error(path,
            fmt::format("{}: metadata.annotations.{}: \"{}\": must be a number of seconds "
                        "from 0 to {}",
                        ref, kJobRunSecondsAnnotation, annotation->second, kMaxScenarioSeconds));
    }
  }
}

std::vector<api::Object> ScenarioReader::Manifests(const YAML::Node& node,
                                                   const std::string& path) {
  std::vector<api::Object> out;
  const std::string text = String(node, path);
  if (text.empty()) return out;
  absl::StatusOr<std::vector<api::Manifest>> manifests = api::DecodeManifests(text, path);
  if (!manifests.ok()) {
    Error(path, std::string(manifests.status().message()));
    return out;
  }
  for (api::Manifest& manifest : *manifests) {
    const api::FieldErrors problems = api::ValidateManifest(manifest);
    for (const api::FieldError& problem : problems.errors()) {
      Error(path, fmt::format("{}: {}", manifest.Ref(), problem.ToString()));
    }
    if (!manifest.object || !(std::holds_alternative<api::Deployment>(*manifest.object) ||
                              std::holds_alternative<api::DaemonSet>(*manifest.object) ||
                              std::holds_alternative<api::StatefulSet>(*manifest.object) ||
                              std::holds_alternative<api::PodDisruptionBudget>(*manifest.object) ||
                              std::holds_alternative<api::Job>(*manifest.object) ||
                              std::holds_alternative<api::NodePool>(*manifest.object) ||
                              std::holds_alternative<api::EC2NodeClass>(*manifest.object))) {
      Error(path, fmt::format("{}: the twin runs Deployments, StatefulSets, Jobs, DaemonSets, "
                              "PodDisruptionBudgets, NodePools and EC2NodeClasses only",
                              manifest.Ref()));
      continue;
    }
    if (const auto* set = std::get_if<api::StatefulSet>(&*manifest.object);
        set != nullptr && !set->spec.volume_claim_templates.empty()) {
      Error(path, fmt::format("{}: spec.volumeClaimTemplates: the twin models no "
                              "PersistentVolumes; drop the templates",
                              manifest.Ref()));
      continue;
    }
    CheckWorkload(*manifest.object, manifest.Ref(), path);
    out.push_back(*std::move(manifest.object));
  }
  return out;
}

}  // namespace karpenter::sim
