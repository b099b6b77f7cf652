// The metrics seam: counters, gauges and histograms by upstream's names (namespace
// `karpenter_`, reference: ecosystem.md §1.2) and label sets. src/metrics holds the in-memory
// registry that exposes them as Prometheus text; both hosts use it.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace karpenter {

// Label name → value; order does not matter (implementations sort).
using MetricLabels = std::vector<std::pair<std::string, std::string>>;

class Metrics {
 public:
  virtual ~Metrics() = default;

  // Adds `delta` (≥ 0) to a counter.
  virtual void Add(std::string_view name, const MetricLabels& labels, double delta) = 0;
  // Sets a gauge.
  virtual void Set(std::string_view name, const MetricLabels& labels, double value) = 0;
  // Records one observation of a histogram (or summary).
  virtual void Observe(std::string_view name, const MetricLabels& labels, double value) = 0;
  // Drops a series (a gauge whose object is gone).
  virtual void Delete(std::string_view name, const MetricLabels& labels) = 0;
};

}  // namespace karpenter
