// Reads a scenario file's YAML tree and collects every problem with its field path, so that a
// file is reported whole, not first error only. Readers return a default after recording one.
#pragma once

#include <yaml-cpp/yaml.h>

#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "src/api/manifest.h"

namespace karpenter::sim {

// The longest stretch of simulated time a scenario may name (a run, a step's time, a latency, a
// Job's run time): 30 days. 1e9 s aborted, 1e16 s overflowed the millisecond clock, and a step
// at 1e30 s ran at t = 0.
inline constexpr double kMaxScenarioSeconds = 30 * 86400;
// The most replicas one workload (or a scale step, or Job parallelism/completions) may ask the
// twin for, and the most nodes a node group may hold: 10^8 replicas or 10^6 initial nodes
// aborted with std::bad_alloc. The 1,000-node day runs 20,000 pods on about 930 nodes.
inline constexpr int kMaxScenarioReplicas = 100'000;
inline constexpr int kMaxNodeGroupSize = 10'000;

class ScenarioReader {
 public:
  explicit ScenarioReader(std::string source) : source_(std::move(source)) {}

  // Records "SOURCE: path: message" (control characters escaped, odd keys quoted).
  void Error(const std::string& path, const std::string& message);
  const std::vector<std::string>& errors() const { return errors_; }

  void OnlyKeys(const YAML::Node& node, const std::string& path,
                std::initializer_list<std::string_view> keys);

  // Records "required" for an absent or null value.
  bool Missing(const YAML::Node& node, const std::string& path);

  // "path.key", quoting a key that is not a plain identifier.
  static std::string Join(const std::string& path, std::string_view key);

  std::string String(const YAML::Node& node, const std::string& path);

  // A finite, non-negative number.
  double Number(const YAML::Node& node, const std::string& path);
  // A Number of seconds no larger than kMaxScenarioSeconds.
  double Seconds(const YAML::Node& node, const std::string& path);

  int Integer(const YAML::Node& node, const std::string& path);
  // A non-negative Integer no larger than `max`.
  int Count(const YAML::Node& node, const std::string& path, int max);

  bool Bool(const YAML::Node& node, const std::string& path);

  // The items of an optional list (absent or null: none); anything else is reported.
  std::vector<YAML::Node> Items(const YAML::Node& node, const std::string& path);

  std::vector<std::string> Strings(const YAML::Node& node, const std::string& path);

  std::map<std::string, std::string> StringMap(const YAML::Node& node, const std::string& path);

  // Decodes and validates the embedded manifests.
  std::vector<api::Object> Manifests(const YAML::Node& node, const std::string& path);

 private:
  void CheckWorkload(const api::Object& object, const std::string& ref, const std::string& path);

  std::string source_;
  std::vector<std::string> errors_;
};

}  // namespace karpenter::sim
