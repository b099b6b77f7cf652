// The scheduling queue (upstream scheduling/queue.go): pods are popped in order and failed pods
// pushed to the back; the loop ends once a pod comes up again with the queue no shorter than
// when it was last pushed, i.e. a full cycle placed nothing.
#pragma once

#include <cstddef>
#include <deque>
#include <map>
#include <optional>
#include <vector>

namespace karpenter::provisioning {

class PodQueue {
 public:
  // `order` holds indices into the caller's pod list, already sorted.
  explicit PodQueue(const std::vector<size_t>& order);

  // The next pod, or nullopt when empty or when no progress was made since its last push.
  std::optional<size_t> Pop();
  void Push(size_t pod);
  // What is left when the loop stops (the pods that could not be placed).
  const std::deque<size_t>& remaining() const { return pods_; }

 private:
  std::deque<size_t> pods_;
  std::map<size_t, size_t> length_at_last_push_;
};

}  // namespace karpenter::provisioning
