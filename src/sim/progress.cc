#include "src/sim/progress.h"

#include <algorithm>

#include "fmt/format.h"

namespace karpenter::sim {
namespace {

constexpr int kBarWidth = 20;

}  // namespace

std::string ProgressLine(Autoscaler autoscaler, SimMillis now, SimMillis end) {
  const double fraction =
      end > 0 ? std::clamp(static_cast<double>(now) / static_cast<double>(end), 0.0, 1.0) : 1.0;
  const int filled = static_cast<int>(fraction * kBarWidth);
  return fmt::format("\rsim {:<18} [{}{}] {:>5}/{} s", AutoscalerName(autoscaler),
                     std::string(filled, '#'), std::string(kBarWidth - filled, '.'),
                     now / kMillisPerSecond, end / kMillisPerSecond);
}

void ProgressIndicator::Update(Autoscaler autoscaler, SimMillis now, SimMillis end) {
  std::string line = ProgressLine(autoscaler, now, end);
  if (line == last_) return;
  out_ << line << std::flush;
  last_ = std::move(line);
}

void ProgressIndicator::Finish() {
  if (last_.empty()) return;
  out_ << "\r" << std::string(last_.size(), ' ') << "\r" << std::flush;
  last_.clear();
}

}  // namespace karpenter::sim
