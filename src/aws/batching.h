// Request batching as upstream's aws provider does it (pkg/batcher): calls that arrive close
// together are sent as one, which keeps a scale-up of hundreds of NodeClaims from becoming hundreds
// of CreateFleet calls. `BatchQueue` is the clock-driven core (which batch is due when), kept free
// of threads so tests step it with explicit times; the merge/split helpers turn a batch of EC2
// requests into one call and its answer back into one result per request.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/time/time.h"
#include "src/aws/ec2_client.h"

namespace karpenter::aws {

struct BatchWindowOptions {
  // Sent once no request joined for this long...
  absl::Duration idle_timeout;
  // ...or once the first request has waited this long...
  absl::Duration max_timeout;
  // ...or at once when this many have joined.
  size_t max_items = 0;
};

// Upstream's windows: CreateFleet 35 ms / 1 s / 1,000; DescribeInstances and TerminateInstances
// 100 ms / 1 s / 500.
BatchWindowOptions CreateFleetWindow();
BatchWindowOptions DescribeInstancesWindow();
BatchWindowOptions TerminateInstancesWindow();

template <typename Item>
class BatchQueue {
 public:
  struct Batch {
    std::string key;
    std::vector<Item> items;
  };

  explicit BatchQueue(BatchWindowOptions options) : options_(options) {}

  // Adds `item` to the open batch of `key` (requests only batch with equal keys).
  void Add(const std::string& key, Item item, absl::Time now) {
    auto [it, inserted] = open_.try_emplace(key);
    Open& open = it->second;
    if (inserted) {
      open.opened = now;
      open.sequence = next_sequence_++;
    }
    open.last = now;
    open.items.push_back(std::move(item));
    if (open.items.size() >= options_.max_items) {
      ready_.push_back({key, std::move(open.items)});
      open_.erase(it);
    }
  }

  // When the next batch falls due; nullopt when nothing waits.
  std::optional<absl::Time> NextDue() const {
    if (!ready_.empty()) return absl::InfinitePast();
    std::optional<absl::Time> out;
    for (const auto& [key, open] : open_) {
      const absl::Time due = Due(open);
      if (!out.has_value() || due < *out) out = due;
    }
    return out;
  }

  // The batches due at `now`: full ones first, then the others in the order they opened.
  std::vector<Batch> TakeDue(absl::Time now) {
    std::vector<Batch> out = std::move(ready_);
    ready_.clear();
    std::vector<std::pair<uint64_t, std::string>> due;
    for (const auto& [key, open] : open_) {
      if (Due(open) <= now) due.emplace_back(open.sequence, key);
    }
    std::sort(due.begin(), due.end());
    for (const auto& [sequence, key] : due) {
      auto it = open_.find(key);
      out.push_back({key, std::move(it->second.items)});
      open_.erase(it);
    }
    return out;
  }

  size_t waiting() const {
    size_t n = 0;
    for (const auto& [key, open] : open_) n += open.items.size();
    for (const Batch& batch : ready_) n += batch.items.size();
    return n;
  }

 private:
  struct Open {
    std::vector<Item> items;
    absl::Time opened;
    absl::Time last;
    uint64_t sequence = 0;
  };

  absl::Time Due(const Open& open) const {
    return std::min(open.last + options_.idle_timeout, open.opened + options_.max_timeout);
  }

  BatchWindowOptions options_;
  std::map<std::string, Open> open_;
  std::vector<Batch> ready_;
  uint64_t next_sequence_ = 0;
};

// CreateFleet requests batch when they are equal but for count and client token.
std::string FleetBatchKey(const FleetRequest& request);
// One call for the batch: the first request, asking for one instance per request.
FleetRequest MergeFleetRequests(const std::vector<FleetRequest>& requests);
// The answer handed out one instance per request, in order; requests left without an instance get
// the fleet's errors (or a "too few instances returned" error when there were none). Extra
// instances are dropped into `surplus` for the caller to terminate.
std::vector<FleetResult> SplitFleetResult(const FleetResult& result, size_t requests,
                                          std::vector<FleetInstance>* surplus);

// The distinct instance ids of a batch of DescribeInstances or TerminateInstances requests.
std::vector<std::string> MergeInstanceIds(const std::vector<std::vector<std::string>>& requests);
// A merged TerminateInstances answer cut back to each request's ids.
std::vector<std::map<std::string, std::string>> SplitTerminateResult(
    const std::map<std::string, std::string>& states,
    const std::vector<std::vector<std::string>>& requests);

}  // namespace karpenter::aws
