// Fuzzes `karpenter sim FILE`'s untrusted input: bytes → scenario parser (YAML, embedded
// manifests, validation). The simulation itself is not run. Any crash, sanitizer report or
// failed invariant is a bug:
//  - a rejected file is an InvalidArgument whose every line reads "<source>: <where>: <what>",
//    where <where> is a field path or "line N, column M";
//  - parsing the same bytes twice gives the same scenario or the same message.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "src/sim/scenario_file.h"

namespace {

constexpr std::string_view kSource = "fuzz.yaml";

// Every line is "fuzz.yaml: <non-empty locator>: <non-empty message>".
bool EveryLineLocatesItsProblem(std::string_view message) {
  if (message.empty()) return false;
  size_t start = 0;
  while (start <= message.size()) {
    size_t end = message.find('\n', start);
    if (end == std::string_view::npos) end = message.size();
    std::string_view line = message.substr(start, end - start);
    if (line.substr(0, kSource.size() + 2) != std::string(kSource) + ": ") return false;
    line.remove_prefix(kSource.size() + 2);
    const size_t separator = line.find(": ");
    if (separator == 0 || separator == std::string_view::npos) return false;
    if (separator + 2 >= line.size()) return false;
    start = end + 1;
  }
  return true;
}

// Says which invariant broke (libFuzzer keeps the input) and stops.
[[noreturn]] void Fail(const char* invariant, std::string_view detail) {
  std::fprintf(stderr, "sim_scenario_fuzz: %s\n%.*s\n", invariant, static_cast<int>(detail.size()),
               detail.data());
  std::abort();
}

bool SameStep(const karpenter::sim::Step& a, const karpenter::sim::Step& b) {
  return a.at_seconds == b.at_seconds && a.kind == b.kind && a.objects == b.objects &&
         a.target == b.target && a.replicas == b.replicas && a.only == b.only && a.note == b.note;
}

bool SameNodeGroup(const karpenter::sim::NodeGroup& a, const karpenter::sim::NodeGroup& b) {
  return a.name == b.name && a.instance_type == b.instance_type &&
         a.capacity_type == b.capacity_type && a.zones == b.zones && a.min_size == b.min_size &&
         a.max_size == b.max_size && a.initial_size == b.initial_size &&
         a.autoscaled == b.autoscaled && a.priority == b.priority && a.labels == b.labels &&
         a.taints.size() == b.taints.size();
}

bool SameScenario(const karpenter::sim::Scenario& a, const karpenter::sim::Scenario& b) {
  if (a.name != b.name || a.description != b.description ||
      a.duration_seconds != b.duration_seconds || a.zones != b.zones ||
      a.autoscalers != b.autoscalers || a.initial_objects != b.initial_objects ||
      a.node_groups.size() != b.node_groups.size() || a.steps.size() != b.steps.size() ||
      a.faults.size() != b.faults.size()) {
    return false;
  }
  for (size_t i = 0; i < a.node_groups.size(); ++i) {
    if (!SameNodeGroup(a.node_groups[i], b.node_groups[i])) return false;
  }
  for (size_t i = 0; i < a.steps.size(); ++i) {
    if (!SameStep(a.steps[i], b.steps[i])) return false;
  }
  for (size_t i = 0; i < a.faults.size(); ++i) {
    const karpenter::sim::CapacityFault& x = a.faults[i];
    const karpenter::sim::CapacityFault& y = b.faults[i];
    if (x.instance_type != y.instance_type || x.capacity_type != y.capacity_type ||
        x.zones != y.zones || x.from_seconds != y.from_seconds || x.to_seconds != y.to_seconds ||
        x.kind != y.kind) {
      return false;
    }
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  absl::StatusOr<karpenter::sim::Scenario> first = karpenter::sim::ParseScenario(input, kSource);
  absl::StatusOr<karpenter::sim::Scenario> second = karpenter::sim::ParseScenario(input, kSource);
  if (first.ok() != second.ok()) Fail("the second parse disagreed on success", "");
  if (!first.ok()) {
    const std::string message(first.status().message());
    if (first.status().code() != absl::StatusCode::kInvalidArgument) {
      Fail("a rejection that is not InvalidArgument", message);
    }
    if (!EveryLineLocatesItsProblem(message)) {
      Fail("a line of the message names no field path or line", message);
    }
    if (message != std::string(second.status().message())) {
      Fail("the second parse gave another message", message);
    }
    return 0;
  }
  if (!SameScenario(*first, *second)) Fail("the second parse gave another scenario", "");
  return 0;
}
