// The EC2 calls Karpenter makes per NodeClaim, batched as upstream batches them: concurrent
// CreateFleet requests that differ only in their client token become one CreateFleet for as many
// instances; concurrent TerminateInstances and DescribeInstances by id become one call over the
// union of ids. A batch that fails as a whole is retried one request at a time, so one bad
// instance id cannot fail its neighbours.
#pragma once

#include <atomic>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "src/aws/batcher.h"
#include "src/aws/clock.h"
#include "src/aws/ec2_client.h"

namespace karpenter::aws {

class BatchedEc2 {
 public:
  BatchedEc2(Ec2Client& ec2, Clock& clock);

  // One instance per call (`request.count` must be 1, as upstream insists).
  absl::StatusOr<FleetResult> CreateFleet(FleetRequest request);
  absl::StatusOr<std::map<std::string, std::string>> TerminateInstances(
      std::vector<std::string> instance_ids);
  absl::StatusOr<std::vector<Instance>> DescribeInstances(std::vector<std::string> instance_ids);

  // Requests waiting for their batch, over the three batchers.
  size_t waiting() const { return fleet_.waiting() + terminate_.waiting() + describe_.waiting(); }
  // Instances a merged CreateFleet launched beyond the requests, terminated on the spot.
  int surplus_terminated() const { return surplus_terminated_.load(); }

 private:
  using Ids = std::vector<std::string>;
  std::vector<absl::StatusOr<FleetResult>> RunFleet(const std::vector<FleetRequest>& requests);
  std::vector<absl::StatusOr<std::map<std::string, std::string>>> RunTerminate(
      const std::vector<Ids>& requests);
  std::vector<absl::StatusOr<std::vector<Instance>>> RunDescribe(const std::vector<Ids>& requests);

  Ec2Client& ec2_;
  std::atomic<int> surplus_terminated_ = 0;
  // Declared last: their dispatcher threads call back into the members above.
  Batcher<FleetRequest, FleetResult> fleet_;
  Batcher<Ids, std::map<std::string, std::string>> terminate_;
  Batcher<Ids, std::vector<Instance>> describe_;
};

}  // namespace karpenter::aws
