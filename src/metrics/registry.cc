#include "src/metrics/registry.h"

#include <algorithm>
#include <cmath>

#include "fmt/format.h"

namespace karpenter::metrics {

namespace {

std::vector<std::pair<std::string, std::string>> Sorted(const MetricLabels& labels) {
  std::vector<std::pair<std::string, std::string>> sorted(labels.begin(), labels.end());
  std::sort(sorted.begin(), sorted.end());
  return sorted;
}

// The nearest-rank quantile of ascending `sorted` (NaN when empty, as client_golang reports).
double Quantile(const std::vector<double>& sorted, double quantile) {
  if (sorted.empty()) return std::numeric_limits<double>::quiet_NaN();
  const double rank = std::ceil(quantile * static_cast<double>(sorted.size()));
  const size_t index = rank < 1 ? 0 : static_cast<size_t>(rank) - 1;
  return sorted[std::min(index, sorted.size() - 1)];
}

std::string_view TypeName(MetricType type) {
  switch (type) {
    case MetricType::kCounter:
      return "counter";
    case MetricType::kGauge:
      return "gauge";
    case MetricType::kSummary:
      return "summary";
    case MetricType::kHistogram:
      return "histogram";
  }
  return "untyped";
}

// Go's strconv.FormatFloat(v, 'g', -1, 64) as Prometheus clients print samples: the shortest
// text that reads back as the same double, with +Inf / -Inf / NaN spelled out.
std::string FormatValue(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  return fmt::format("{}", value);
}

std::string LabelText(const std::vector<std::pair<std::string, std::string>>& labels,
                      std::string_view extra_name = {}, std::string_view extra_value = {}) {
  if (labels.empty() && extra_name.empty()) return "";
  std::string out = "{";
  for (const auto& [name, value] : labels) {
    out += fmt::format("{}{}=\"{}\"", out.size() > 1 ? "," : "", name, EscapeLabelValue(value));
  }
  if (!extra_name.empty()) {
    out += fmt::format("{}{}=\"{}\"", out.size() > 1 ? "," : "", extra_name, extra_value);
  }
  return out + "}";
}

}  // namespace

std::string EscapeLabelValue(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

Registry::Registry(std::vector<MetricDescription> catalog) {
  for (MetricDescription& description : catalog) {
    std::string name = description.name;
    catalog_.emplace(std::move(name), std::move(description));
  }
}

Registry::Family* Registry::Find(std::string_view name, MetricType type) {
  auto it = catalog_.find(name);
  if (it == catalog_.end() || it->second.type != type) {
    undeclared_.emplace(name);
    return nullptr;
  }
  return &families_[it->first];
}

void Registry::Add(std::string_view name, const MetricLabels& labels, double delta) {
  std::lock_guard<std::mutex> lock(mutex_);
  Family* family = Find(name, MetricType::kCounter);
  if (family == nullptr || !(delta >= 0)) return;  // counters never go down
  family->series[Sorted(labels)].value += delta;
}

void Registry::Set(std::string_view name, const MetricLabels& labels, double value) {
  std::lock_guard<std::mutex> lock(mutex_);
  Family* family = Find(name, MetricType::kGauge);
  if (family == nullptr) return;
  family->series[Sorted(labels)].value = value;
}

void Registry::Observe(std::string_view name, const MetricLabels& labels, double value) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto declared = catalog_.find(name);
  if (declared != catalog_.end() && declared->second.type == MetricType::kSummary) {
    Family* family = Find(name, MetricType::kSummary);
    Series& series = family->series[Sorted(labels)];
    series.value += value;
    ++series.count;
    series.recent.push_back(value);
    if (series.recent.size() > kSummaryWindow) series.recent.pop_front();
    return;
  }
  Family* family = Find(name, MetricType::kHistogram);
  if (family == nullptr) return;
  const std::vector<double>& bounds = catalog_.find(name)->second.buckets;
  Series& series = family->series[Sorted(labels)];
  series.bucket_counts.resize(bounds.size());
  series.value += value;
  ++series.count;
  auto bucket = std::lower_bound(bounds.begin(), bounds.end(), value);
  if (bucket != bounds.end()) ++series.bucket_counts[bucket - bounds.begin()];
}

void Registry::Delete(std::string_view name, const MetricLabels& labels) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = families_.find(name);
  if (it != families_.end()) it->second.series.erase(Sorted(labels));
}

double Registry::Value(std::string_view name, const MetricLabels& labels) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = families_.find(name);
  if (it == families_.end()) return 0;
  auto series = it->second.series.find(Sorted(labels));
  if (series == it->second.series.end()) return 0;
  const MetricType type = catalog_.find(name)->second.type;
  return type == MetricType::kHistogram || type == MetricType::kSummary
             ? static_cast<double>(series->second.count)
             : series->second.value;
}

std::string Registry::PrometheusText() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::string out;
  for (const auto& [name, family] : families_) {
    if (family.series.empty()) continue;
    const MetricDescription& description = catalog_.find(name)->second;
    out += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, description.help, name,
                       TypeName(description.type));
    for (const auto& [labels, series] : family.series) {
      if (description.type == MetricType::kSummary) {
        std::vector<double> sorted(series.recent.begin(), series.recent.end());
        std::sort(sorted.begin(), sorted.end());
        for (double quantile : description.quantiles) {
          out +=
              fmt::format("{}{} {}\n", name, LabelText(labels, "quantile", FormatValue(quantile)),
                          FormatValue(Quantile(sorted, quantile)));
        }
        out += fmt::format("{}_sum{} {}\n", name, LabelText(labels), FormatValue(series.value));
        out += fmt::format("{}_count{} {}\n", name, LabelText(labels), series.count);
        continue;
      }
      if (description.type != MetricType::kHistogram) {
        out += fmt::format("{}{} {}\n", name, LabelText(labels), FormatValue(series.value));
        continue;
      }
      uint64_t cumulative = 0;
      for (size_t i = 0; i < description.buckets.size(); ++i) {
        cumulative += i < series.bucket_counts.size() ? series.bucket_counts[i] : 0;
        out +=
            fmt::format("{}_bucket{} {}\n", name,
                        LabelText(labels, "le", FormatValue(description.buckets[i])), cumulative);
      }
      out += fmt::format("{}_bucket{} {}\n", name, LabelText(labels, "le", "+Inf"), series.count);
      out += fmt::format("{}_sum{} {}\n", name, LabelText(labels), FormatValue(series.value));
      out += fmt::format("{}_count{} {}\n", name, LabelText(labels), series.count);
    }
  }
  return out;
}

}  // namespace karpenter::metrics
