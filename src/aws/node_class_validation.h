// Upstream: aws/karpenter-provider-aws pkg/controllers/nodeclass/validation.go. The EC2NodeClass
// ValidationSucceeded condition: once subnets, security groups, AMIs and the instance profile are
// resolved, ask EC2 with DryRun=true whether the controller may CreateLaunchTemplate (the class's
// own template), CreateFleet and RunInstances (in the class's subnets, the first that answers
// DryRunOperation wins). An UnauthorizedOperation answer makes the condition False with upstream's
// reason and message; the outcome is cached for 30 minutes per class and everything it depends
// on, so a class that does not change is not asked about again every reconcile. With dry runs
// turned off (DISABLE_DRY_RUN) only the dependencies are checked.
#pragma once

#include <map>
#include <string>

#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "src/api/ec2nodeclass.h"
#include "src/aws/clock.h"
#include "src/aws/ec2_client.h"
#include "src/aws/launch_template.h"

namespace karpenter::aws {

inline constexpr std::string_view kReasonCreateFleetAuthFailed = "CreateFleetAuthCheckFailed";
inline constexpr std::string_view kReasonCreateLaunchTemplateAuthFailed =
    "CreateLaunchTemplateAuthCheckFailed";
inline constexpr std::string_view kReasonRunInstancesAuthFailed = "RunInstancesAuthCheckFailed";
inline constexpr std::string_view kReasonDependenciesNotReady = "DependenciesNotReady";
inline constexpr std::string_view kReasonInstanceProfileNotFound = "InstanceProfileNotFound";
inline constexpr std::string_view kReasonUserDataTooLarge = "UserDataSizeLimitExceeded";

struct NodeClassValidatorOptions {
  // Upstream's ValidationTTL.
  absl::Duration ttl = absl::Minutes(30);
  // False with DISABLE_DRY_RUN: the class is valid once its parts are resolved, with no dry-run
  // call (for accounts whose policies refuse or do not log dry runs).
  bool dry_run = true;
};

class NodeClassValidator {
 public:
  NodeClassValidator(Ec2Client& ec2, Clock& clock, ClusterInfo cluster,
                     NodeClassValidatorOptions options = {})
      : ec2_(ec2), clock_(clock), cluster_(std::move(cluster)), options_(options) {}

  // The condition for `node_class` whose status holds the resolved parts and their conditions.
  // Throttling, 5xx and answers a dry run should never give (anything but DryRunOperation and
  // UnauthorizedOperation) are errors for the caller to retry, as upstream requeues.
  absl::StatusOr<api::Condition> Validate(const api::EC2NodeClass& node_class);

  // Dry-run calls made so far (tests check the cache with it).
  int dry_runs() const;

 private:
  struct Cached {
    api::Condition condition;
    absl::Time expires;
  };
  // Runs the three checks; a False condition for the first one EC2 refuses.
  absl::StatusOr<api::Condition> DryRun(const api::EC2NodeClass& node_class, const Tags& tags);

  Ec2Client& ec2_;
  Clock& clock_;
  const ClusterInfo cluster_;
  const NodeClassValidatorOptions options_;
  mutable absl::Mutex mu_;
  std::map<std::string, Cached> cache_ ABSL_GUARDED_BY(mu_);
  int dry_runs_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace karpenter::aws
