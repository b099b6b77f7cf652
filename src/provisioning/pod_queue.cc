#include "src/provisioning/pod_queue.h"

namespace karpenter::provisioning {

PodQueue::PodQueue(const std::vector<size_t>& order) : pods_(order.begin(), order.end()) {}

std::optional<size_t> PodQueue::Pop() {
  if (pods_.empty()) return std::nullopt;
  const size_t pod = pods_.front();
  auto it = length_at_last_push_.find(pod);
  if (it != length_at_last_push_.end() && it->second == pods_.size()) return std::nullopt;
  pods_.pop_front();
  return pod;
}

void PodQueue::Push(size_t pod) {
  pods_.push_back(pod);
  length_at_last_push_[pod] = pods_.size();
}

}  // namespace karpenter::provisioning
