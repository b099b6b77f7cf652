// Upstream: aws/karpenter-provider-aws pkg/providers/subnet/subnet.go and pkg/cache/cache.go
// (DefaultTTL). A launch needs each subnet's free address count, but upstream reads subnets
// from EC2 at most once a minute per node class, not once per launch: a burst of NodeClaims
// would otherwise spend one DescribeSubnets each against the account's EC2 rate limit.
// Launches in flight are charged on top of the cached counts (SubnetAddresses), so a count up to
// a minute old still steers back-to-back launches apart.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "src/aws/clock.h"
#include "src/aws/ec2_client.h"

namespace karpenter::aws {

// How long a description of subnets is served (upstream's DefaultTTL).
inline constexpr absl::Duration kSubnetCacheTtl = absl::Minutes(1);

class SubnetCache {
 public:
  SubnetCache(Ec2Client& ec2, Clock& clock) : ec2_(ec2), clock_(clock) {}

  // The subnets with these IDs as EC2 described them less than kSubnetCacheTtl ago, else as it
  // describes them now. Failures are not kept: the next call asks again.
  absl::StatusOr<std::vector<Subnet>> Describe(std::vector<std::string> ids)
      ABSL_LOCKS_EXCLUDED(mu_);

 private:
  struct Described {
    absl::Time at;
    std::vector<Subnet> subnets;
  };
  Ec2Client& ec2_;
  Clock& clock_;
  absl::Mutex mu_;
  // By the sorted IDs asked for, joined.
  std::map<std::string, Described> described_ ABSL_GUARDED_BY(mu_);
};

}  // namespace karpenter::aws
