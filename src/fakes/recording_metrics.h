// Metrics that keep what they are told, keyed "name label=value ..." in the order the caller
// gave the labels: counters summed, observations listed. Gauges are not kept.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "karpenter/metrics.h"

namespace karpenter::fakes {

class RecordingMetrics : public Metrics {
 public:
  void Add(std::string_view name, const MetricLabels& labels, double delta) override {
    counters[Key(name, labels)] += delta;
  }
  void Set(std::string_view, const MetricLabels&, double) override {}
  void Observe(std::string_view name, const MetricLabels& labels, double value) override {
    observed[Key(name, labels)].push_back(value);
  }
  void Delete(std::string_view, const MetricLabels&) override {}

  static std::string Key(std::string_view name, const MetricLabels& labels) {
    std::string key(name);
    for (const auto& [label, value] : labels) key += " " + label + "=" + value;
    return key;
  }

  std::map<std::string, double> counters;
  std::map<std::string, std::vector<double>> observed;
};

}  // namespace karpenter::fakes
