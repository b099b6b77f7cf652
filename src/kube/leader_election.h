// Upstream: k8s.io/client-go tools/leaderelection (leaderelection.go, resourcelock/leaselock.go).
// Leader election on a coordination.k8s.io/v1 Lease, as client-go's leaderelection package does
// it with upstream Karpenter's timings: a lease of 15 s, renewed every 2 s, given up when no
// renewal succeeded for 10 s; only the leader reconciles. Another holder's lease counts as
// expired when its record has not changed for a lease duration by our own clock (never by
// comparing clocks across machines). Release() empties the holder so a successor need not wait.
//
// Threads: Start() schedules every attempt with clock.After, so attempts (blocking HTTP calls)
// and the callbacks run on the Clock's thread. TryAcquireOrRenew/Release may be called directly
// (tests, shutdown) when no attempt is scheduled concurrently.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "karpenter/clock.h"
#include "src/kube/client.h"

namespace karpenter::kube {

struct LeaderElectionConfig {
  std::string namespace_;
  std::string name = "karpenter-leader-election";
  std::string identity;
  int64_t lease_duration_millis = 15'000;
  int64_t renew_deadline_millis = 10'000;
  int64_t retry_period_millis = 2'000;
};

class LeaderElector {
 public:
  LeaderElector(Client& client, Clock& clock, LeaderElectionConfig config,
                std::function<void()> on_started_leading, std::function<void()> on_stopped_leading);
  ~LeaderElector();

  // One attempt: creates the Lease, renews ours, or takes over an expired one. True when we hold
  // the lease afterwards; an error when the server could not be asked.
  absl::StatusOr<bool> TryAcquireOrRenew();
  // Empties the lease's holder if we hold it, and stops leading.
  absl::Status Release();
  // Attempts now and every retry period until Stop(), calling the callbacks as leadership comes
  // and goes.
  void Start();
  void Stop();
  bool IsLeader() const { return leading_; }

 private:
  struct Observed {
    std::string holder;
    std::string renew_time;
    int64_t transitions = 0;
    bool operator==(const Observed&) const = default;
  };
  struct Shared;

  void Tick();
  std::string LeasePath() const;
  // The lease JSON to store: `stored` (the server's object, fields we do not read kept) with our
  // holder, times and transition count.
  std::string Claim(const std::string& stored_json, bool release);

  Client& client_;
  Clock& clock_;
  const LeaderElectionConfig config_;
  const std::function<void()> on_started_;
  const std::function<void()> on_stopped_;
  Observed observed_;
  int64_t observed_at_millis_ = 0;
  int64_t renewed_at_millis_ = 0;
  std::atomic<bool> leading_{false};  // read from any thread
  // Scheduled attempts hold this; Stop() and the destructor clear `alive` so a late timer does
  // nothing.
  std::shared_ptr<Shared> shared_;
};

}  // namespace karpenter::kube
