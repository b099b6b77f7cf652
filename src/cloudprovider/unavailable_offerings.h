// Upstream: aws/karpenter-provider-aws pkg/cache/unavailableofferings.go. Offerings that EC2
// recently refused (an insufficient-capacity answer to CreateFleet, or a spot interruption) are
// left out of scheduling for a while (UnavailableOfferingsTTL, 3 minutes), so the next solve
// picks another type, zone or capacity type instead of failing the same way again.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string_view>

#include "karpenter/clock.h"
#include "karpenter/cloud_provider.h"

namespace karpenter::cloudprovider {

class UnavailableOfferings {
 public:
  // How long an offering stays unavailable, asked for at each Mark (a fixed 3 minutes in the
  // controller, a draw from the latency model in the twin).
  using Ttl = std::function<int64_t()>;

  UnavailableOfferings(const Clock& clock, Ttl ttl) : clock_(clock), ttl_(std::move(ttl)) {}

  // Unavailable from now for the TTL (a later Mark of the same offering restarts it).
  void Mark(const OfferingRef& offering);
  bool IsUnavailable(std::string_view instance_type, std::string_view zone,
                     std::string_view capacity_type) const;
  // Drops the offerings whose TTL has run out by now.
  void Expire();
  // Moves whenever the set of unavailable offerings changes (one is marked, or one's TTL has
  // run out by now): inputs built at equal versions mark the same offerings.
  uint64_t Version() {
    Expire();
    return version_;
  }
  bool empty() const { return until_.empty(); }

 private:
  const Clock& clock_;
  Ttl ttl_;
  std::map<OfferingRef, int64_t> until_;
  uint64_t version_ = 0;
};

}  // namespace karpenter::cloudprovider
