// Upstream: aws/karpenter-provider-aws pkg/providers/subnet/subnet.go (ZonalSubnetsForLaunch,
// UpdateInflightIPs, inflightIPs). EC2's AvailableIpAddressCount lags launches, so back-to-back
// launches would all pick the subnet that looked emptiest. Each launch therefore deducts the
// addresses it is expected to take (its smallest candidate type's pods, one address each with
// the VPC CNI) from the subnet it was given, until EC2's count for that subnet moves; the
// subnets a fleet did not launch into get their deduction back.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "src/aws/ec2_client.h"

namespace karpenter::aws {

class SubnetAddresses {
 public:
  // Per zone of `described` (the class's subnets as EC2 answers now), the subnet with the most
  // addresses left after launches in flight (ties: the lower id), each charged
  // `predicted_use[zone]` addresses for this launch. A subnet whose described count moved since
  // it was charged counts as EC2 says.
  std::map<std::string, Subnet> ChooseForLaunch(const std::vector<Subnet>& described,
                                                const std::map<std::string, int64_t>& predicted_use)
      ABSL_LOCKS_EXCLUDED(mu_);

  // After the fleet: the subnets of `chosen` it launched nothing into are given back what
  // ChooseForLaunch charged them.
  void Settle(const std::map<std::string, Subnet>& chosen,
              const std::map<std::string, int64_t>& predicted_use,
              const std::vector<std::string>& launched_subnet_ids) ABSL_LOCKS_EXCLUDED(mu_);

  // EC2 refused a launch into the subnet for want of free addresses
  // (InsufficientFreeAddressesInSubnet): it counts as having none left until EC2's count for it
  // moves from what the next description says, so launches try the zone's other subnets first
  // (upstream's UpdateICEdSubnet).
  void MarkFull(const std::string& subnet_id) ABSL_LOCKS_EXCLUDED(mu_);

 private:
  struct InFlight {
    int64_t described = 0;  // EC2's count when first charged
    int64_t left = 0;       // what is left after the launches charged since
  };
  absl::Mutex mu_;
  std::map<std::string, InFlight> in_flight_ ABSL_GUARDED_BY(mu_);
  // Marked full and not described since: the next description fixes the count they wait on.
  std::set<std::string> full_ ABSL_GUARDED_BY(mu_);
};

}  // namespace karpenter::aws
