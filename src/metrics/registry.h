// The in-memory metrics registry both hosts use: it implements the Metrics seam and writes the
// Prometheus text exposition format (version 0.0.4) that /metrics serves and
// `karpenter sim --metrics FILE` saves. Only metrics declared in its catalog are kept; a write
// to any other name is counted in `undeclared()` (a bug in the caller, caught by tests) rather
// than inventing a series no dashboard knows. Safe to use from any thread: the Kubernetes
// client's and the AWS provider's request metrics are written from their callers' threads.
#pragma once

#include <cstddef>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "karpenter/metrics.h"

namespace karpenter::metrics {

enum class MetricType { kCounter, kGauge, kHistogram, kSummary };

// A summary's quantiles are computed over its most recent observations (client_golang keeps a
// 10-minute window; the registry has no clock, so it keeps a count instead); its sum and count
// cover every observation.
inline constexpr size_t kSummaryWindow = 1000;

struct MetricDescription {
  std::string name;  // full name, karpenter_ prefix included
  MetricType type = MetricType::kCounter;
  std::string help;
  std::vector<std::string> labels;  // the label names upstream uses, for docs and checks
  std::vector<double> buckets;      // histograms: upper bounds, ascending
  std::vector<double> quantiles;    // summaries: the quantiles reported, ascending
};

class Registry : public Metrics {
 public:
  explicit Registry(std::vector<MetricDescription> catalog);

  void Add(std::string_view name, const MetricLabels& labels, double delta) override;
  void Set(std::string_view name, const MetricLabels& labels, double value) override;
  void Observe(std::string_view name, const MetricLabels& labels, double value) override;
  void Delete(std::string_view name, const MetricLabels& labels) override;

  // Every declared metric that has at least one series, sorted by name, series sorted by
  // labels.
  std::string PrometheusText() const;

  // The value of a counter or gauge series, or of a histogram's or summary's count; 0 when
  // absent.
  double Value(std::string_view name, const MetricLabels& labels) const;
  // Read it when no other thread writes (tests, the end of a run).
  const std::set<std::string>& undeclared() const { return undeclared_; }
  const std::map<std::string, MetricDescription, std::less<>>& catalog() const { return catalog_; }

 private:
  using LabelKey = std::vector<std::pair<std::string, std::string>>;
  struct Series {
    double value = 0;  // counter or gauge; histogram sum
    uint64_t count = 0;
    std::vector<uint64_t> bucket_counts;  // histogram, per upper bound (not cumulative)
    std::deque<double> recent;            // summary: the latest observations, oldest first
  };
  struct Family {
    std::map<LabelKey, Series> series;
  };
  // The family of a declared metric of `type`, or null (and `name` noted as undeclared). Called
  // with `mutex_` held.
  Family* Find(std::string_view name, MetricType type);

  std::map<std::string, MetricDescription, std::less<>> catalog_;
  mutable std::mutex mutex_;  // guards families_ and undeclared_; the catalog never changes
  std::map<std::string, Family, std::less<>> families_;
  std::set<std::string> undeclared_;
};

// Label values escaped as the exposition format requires (backslash, quote, newline).
std::string EscapeLabelValue(std::string_view value);

}  // namespace karpenter::metrics
