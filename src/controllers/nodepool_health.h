// Upstream: kubernetes-sigs/karpenter pkg/state/nodepoolhealth. Whether a NodePool's recent
// NodeClaims registered: the outcomes of its last four launches, unhealthy once half of them
// failed. The lifecycle controller flips the NodePool's NodeRegistrationHealthy condition on
// this verdict, and the provisioner stops preferring an unhealthy NodePool.
#pragma once

#include <deque>
#include <map>
#include <string>

namespace karpenter::controllers {

enum class RegistrationHealth { kUnknown, kHealthy, kUnhealthy };

class NodePoolHealth {
 public:
  // Upstream's buffer of outcomes and the share of failures that makes a pool unhealthy.
  static constexpr size_t kOutcomes = 4;
  static constexpr size_t kUnhealthyFailures = 2;  // 50 % of kOutcomes

  // The verdict for the NodePool with UID `uid`, with no outcome recorded: kUnknown.
  RegistrationHealth Status(const std::string& uid) const;
  // The verdict once `registered` is recorded, without recording it.
  RegistrationHealth StatusWith(const std::string& uid, bool registered) const;
  void Record(const std::string& uid, bool registered);
  // Forgets a pool's outcomes (its spec changed: a fresh start).
  void Reset(const std::string& uid) { outcomes_.erase(uid); }

 private:
  static RegistrationHealth Verdict(const std::deque<bool>& outcomes);

  std::map<std::string, std::deque<bool>> outcomes_;
};

}  // namespace karpenter::controllers
