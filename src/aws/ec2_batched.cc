#include "src/aws/ec2_batched.h"

#include <set>

namespace karpenter::aws {
namespace {

// Every request gets a copy of the same failure.
template <typename T>
std::vector<absl::StatusOr<T>> FailAll(const absl::Status& status, size_t n) {
  return std::vector<absl::StatusOr<T>>(n, status);
}

std::string OneKey(const std::vector<std::string>&) { return "ids"; }

}  // namespace

BatchedEc2::BatchedEc2(Ec2Client& ec2, Clock& clock)
    : ec2_(ec2),
      fleet_(clock, CreateFleetWindow(), &FleetBatchKey,
             [this](const std::vector<FleetRequest>& r) { return RunFleet(r); }),
      terminate_(clock, TerminateInstancesWindow(), &OneKey,
                 [this](const std::vector<Ids>& r) { return RunTerminate(r); }),
      describe_(clock, DescribeInstancesWindow(), &OneKey,
                [this](const std::vector<Ids>& r) { return RunDescribe(r); }) {}

absl::StatusOr<FleetResult> BatchedEc2::CreateFleet(FleetRequest request) {
  if (request.count != 1) {
    return absl::InvalidArgumentError("CreateFleet: a batched request launches one instance");
  }
  return fleet_.Add(std::move(request));
}

absl::StatusOr<std::map<std::string, std::string>> BatchedEc2::TerminateInstances(
    std::vector<std::string> instance_ids) {
  return terminate_.Add(std::move(instance_ids));
}

absl::StatusOr<std::vector<Instance>> BatchedEc2::DescribeInstances(
    std::vector<std::string> instance_ids) {
  return describe_.Add(std::move(instance_ids));
}

std::vector<absl::StatusOr<FleetResult>> BatchedEc2::RunFleet(
    const std::vector<FleetRequest>& requests) {
  absl::StatusOr<FleetResult> result = ec2_.CreateFleet(MergeFleetRequests(requests));
  if (!result.ok()) return FailAll<FleetResult>(result.status(), requests.size());
  std::vector<FleetInstance> surplus;
  std::vector<FleetResult> split = SplitFleetResult(*result, requests.size(), &surplus);
  if (!surplus.empty()) {
    // Nobody asked for these; leaving them running would orphan them.
    std::vector<std::string> ids;
    for (const FleetInstance& instance : surplus) ids.push_back(instance.id);
    if (ec2_.TerminateInstances(ids).ok()) surplus_terminated_ += static_cast<int>(ids.size());
  }
  return {split.begin(), split.end()};
}

std::vector<absl::StatusOr<std::map<std::string, std::string>>> BatchedEc2::RunTerminate(
    const std::vector<Ids>& requests) {
  absl::StatusOr<std::map<std::string, std::string>> states =
      ec2_.TerminateInstances(MergeInstanceIds(requests));
  if (!states.ok()) {
    if (requests.size() == 1) return {states.status()};
    std::vector<absl::StatusOr<std::map<std::string, std::string>>> out;
    for (const Ids& ids : requests) out.push_back(ec2_.TerminateInstances(ids));
    return out;
  }
  std::vector<std::map<std::string, std::string>> split = SplitTerminateResult(*states, requests);
  return {split.begin(), split.end()};
}

std::vector<absl::StatusOr<std::vector<Instance>>> BatchedEc2::RunDescribe(
    const std::vector<Ids>& requests) {
  absl::StatusOr<std::vector<Instance>> all =
      ec2_.DescribeInstances(MergeInstanceIds(requests), {});
  std::vector<absl::StatusOr<std::vector<Instance>>> out;
  if (!all.ok()) {
    if (requests.size() == 1) return {all.status()};
    for (const Ids& ids : requests) out.push_back(ec2_.DescribeInstances(ids, {}));
    return out;
  }
  for (const Ids& ids : requests) {
    const std::set<std::string> wanted(ids.begin(), ids.end());
    std::vector<Instance>& mine = out.emplace_back(std::vector<Instance>()).value();
    for (const Instance& instance : *all) {
      if (wanted.contains(instance.id)) mine.push_back(instance);
    }
  }
  return out;
}

}  // namespace karpenter::aws
