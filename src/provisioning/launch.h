// What happens to a NodeClaim after the solve: finalisation (upstream NodeClaim
// FinalizeScheduling and the scheduler's results: cheapest 600 types, narrowed capacity types)
// and a prediction of what the AWS provider would launch for it (instance selection in
// pkg/providers/instance: the capacity-reservation filters, exotic-type filter,
// spot-pricier-than-on-demand filter, truncation to 60, capacity type reserved > spot >
// on-demand, cheapest offering).
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "karpenter/common/status.h"
#include "src/provisioning/node_claim_finalizer.h"
#include "src/provisioning/nodeclaim.h"
#include "src/provisioning/types.h"

namespace karpenter::provisioning {

// The provider launches from at most this many types.
inline constexpr size_t kMaxLaunchInstanceTypes = 60;

// The claim as output. FailedPrecondition when, under MIN_VALUES_POLICY=Strict, keeping only
// the cheapest `max_instance_types` types breaks a minValues requirement. One claim alone; a
// solve finalizes its claims with one NodeClaimFinalizer, which shares work between them.
absl::StatusOr<NewNodeClaim> FinalizeNodeClaim(const InFlightNodeClaim& claim,
                                               const SchedulerOptions& options,
                                               size_t max_instance_types);

struct LaunchPrediction {
  std::string instance_type;
  std::string zone;
  std::string capacity_type;
  double price = 0;
  // A reserved launch's reservation (the capacity-reservation-* labels of the NodeClaim); empty
  // otherwise.
  std::string reservation_id;
  std::string reservation_type;
  bool reservation_interruptible = false;
  // What pods may use on the launched type (the plan output sets it beside the claim's requests).
  api::ResourceList allocatable;
};

// The labels a launch gives its NodeClaim beyond the claim's own: the capacity-reservation-id,
// -type and -interruptible of a reserved launch; none otherwise. The plan output's `labels`
// include them.
std::map<std::string, std::string> LaunchLabels(const LaunchPrediction& launch);

// NotFound when no instance type has an available offering the claim allows.
absl::StatusOr<LaunchPrediction> PredictLaunch(const NewNodeClaim& claim);

// Whether a launch may use an offering the claim's types still call available (a host passes the
// offerings that failed since the solve).
using OfferingPredicate = std::function<bool(const InstanceTypeView&, const OfferingView&)>;

// What one CreateFleet asks for (upstream's provider launches one capacity type per fleet): the
// offerings of the capacity type PredictLaunch would choose, on the types it keeps (at most
// kMaxLaunchInstanceTypes), in the order EC2's lowest-price strategy tries them: cheapest first,
// equal prices in PredictLaunch's order, so the front is PredictLaunch's choice. Offerings
// `usable` refuses are left out first. NotFound when nothing is left.
absl::StatusOr<std::vector<LaunchPrediction>> PlanFleet(const NewNodeClaim& claim,
                                                        const OfferingPredicate& usable = {});

// PredictLaunch with a memory: claims that share their instance-type options (one buffer, as a
// solve shares it between claims that ended with the same types) and the requirements a launch
// reads (zone, capacity type, the capacity-reservation labels, whether minValues apply) launch
// alike, so each such group is predicted once. A hostname spread of 100,000 one-pod claims over
// 600 types predicted the same launch 100,000 times. One predictor per solve, used while the
// solve's claims live: a key names the options' buffer by its address.
class LaunchPredictor {
 public:
  const absl::StatusOr<LaunchPrediction>& Predict(const NewNodeClaim& claim);
  size_t distinct_predictions() const { return predictions_.size(); }

 private:
  std::map<std::string, absl::StatusOr<LaunchPrediction>, std::less<>> predictions_;
};

// What PredictLaunch reads of a claim beyond its types' own offerings, as text: equal keys, equal
// predictions.
std::string LaunchPredictionKey(const NewNodeClaim& claim);

// PredictLaunch's status without its choice (OK when some type has an available offering the
// claim allows): for callers that only need to know, and predict again after changing the types.
absl::Status CheckLaunchable(const NewNodeClaim& claim);

}  // namespace karpenter::provisioning
