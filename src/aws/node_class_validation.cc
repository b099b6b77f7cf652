#include "src/aws/node_class_validation.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "karpenter/common/status.h"
#include "src/api/karpenter_labels.h"
#include "src/aws/absl_view.h"
#include "src/aws/aws_cloud_provider.h"
#include "src/aws/crypto.h"
#include "src/aws/errors.h"
#include "src/aws/node_class_resolver.h"

namespace karpenter::aws {
namespace {

api::Condition Validation(std::string_view status, std::string_view reason,
                          std::string message = "") {
  return {.type = std::string(api::kConditionValidationSucceeded),
          .status = std::string(status),
          .reason = std::string(reason),
          .message = std::move(message)};
}

// The status of the condition `type` in `status`, or nullopt when it is not there.
std::optional<std::string> ConditionStatus(const api::EC2NodeClassStatus& status,
                                           std::string_view type) {
  for (const api::Condition& condition : status.conditions) {
    if (condition.type == type) return condition.status;
  }
  return std::nullopt;
}

// ValidationSucceeded while the parts it tests are unresolved: False when one failed, Unknown
// while one is pending; nullopt when all are True.
std::optional<api::Condition> DependenciesCondition(const api::EC2NodeClassStatus& status) {
  bool unknown = false;
  for (std::string_view type : {api::kConditionAMIsReady, api::kConditionInstanceProfileReady,
                                api::kConditionSecurityGroupsReady, api::kConditionSubnetsReady}) {
    const std::optional<std::string> value = ConditionStatus(status, type);
    if (value == "False") {
      return Validation("False", kReasonDependenciesNotReady,
                        "Awaiting AMI, Instance Profile, Security Group, and Subnet resolution");
    }
    if (value != "True") unknown = true;
  }
  if (!unknown) return std::nullopt;
  return Validation("Unknown", kReasonDependenciesNotReady,
                    "Awaiting AMI, Instance Profile, Security Group, and Subnet resolution");
}

// The tags a launch for the class carries with no NodePool or NodeClaim yet (upstream GetTags of
// a NodeClaim that only names the class): empty nodepool and nodeclaim values.
Tags DryRunTags(const ClusterInfo& cluster, const api::EC2NodeClass& node_class,
                const api::NodeClaim& claim) {
  Tags tags = LaunchTemplateTags(cluster, node_class);
  for (auto& [key, value] : OwnershipTags(cluster, claim)) tags[key] = value;
  return tags;
}

// Everything the outcome depends on: the class, its resolved parts and the tags.
std::string CacheKey(const api::EC2NodeClass& node_class, const Tags& tags) {
  const api::EC2NodeClassStatus& status = node_class.status;
  std::string text = NodeClassHash(node_class.spec);
  for (const api::Subnet& subnet : status.subnets) absl::StrAppend(&text, "|s:", subnet.id);
  for (const api::SecurityGroup& group : status.security_groups) {
    absl::StrAppend(&text, "|g:", group.id);
  }
  for (const api::AMI& ami : status.amis) absl::StrAppend(&text, "|a:", ami.id);
  absl::StrAppend(&text, "|p:", status.instance_profile);
  for (const auto& [key, value] : tags) absl::StrAppend(&text, "|t:", key, "=", value);
  return absl::StrCat(node_class.metadata.name, ":", Sha256Hex(text));
}

// Upstream's choice for the RunInstances check: m5.large for an amd64 image, else m6g.large.
std::string DryRunInstanceType(const api::AMI& ami) {
  for (const api::NodeSelectorRequirement& requirement : ami.requirements) {
    if (requirement.key != api::kLabelArchStable) continue;
    if (std::find(requirement.values.begin(), requirement.values.end(), api::kArchitectureAmd64) !=
        requirement.values.end()) {
      return "m5.large";
    }
  }
  return "m6g.large";
}

// The image the checks launch: the newest for instance types without GPUs or accelerators (the
// types the checks name), else the newest.
const api::AMI& DryRunImage(const std::vector<api::AMI>& amis) {
  for (const api::AMI& ami : amis) {
    if (std::none_of(ami.requirements.begin(), ami.requirements.end(),
                     [](const auto& r) { return r.operator_ == "Exists"; })) {
      return ami;
    }
  }
  return amis.front();
}

// A refused dry run: the False condition for an authorization failure; any other answer is an
// error to retry (throttling, 5xx) or to report (what a dry run should never answer).
absl::StatusOr<api::Condition> Refused(const absl::Status& answer, std::string_view reason,
                                       std::string_view call) {
  const std::string code = AwsErrorCode(answer).value_or("");
  if (absl::IsPermissionDenied(answer) || IsUnauthorizedCode(code)) {
    return Validation("False", reason,
                      absl::StrCat("Controller isn't authorized to call ", AbslView(call), ": ",
                                   answer.message()));
  }
  if (absl::IsUnavailable(answer) || absl::IsDeadlineExceeded(answer) ||
      absl::IsResourceExhausted(answer)) {
    return answer;
  }
  return absl::Status(answer.code(), absl::StrCat("validating ", AbslView(call), " authorization, ",
                                                  answer.message()));
}

// EC2's answer to a launch naming an instance profile IAM has not made visible yet (upstream
// IsInstanceProfileNotFound).
bool IsInstanceProfileNotFound(const absl::Status& answer) {
  return AwsErrorCode(answer) == "InvalidParameterValue" &&
         absl::StrContains(answer.message(), "Invalid IAM Instance Profile name");
}

}  // namespace

absl::StatusOr<api::Condition> NodeClassValidator::Validate(const api::EC2NodeClass& node_class) {
  if (std::optional<api::Condition> waiting = DependenciesCondition(node_class.status)) {
    return *waiting;
  }
  if (!options_.dry_run) return Validation("True", api::kConditionValidationSucceeded);
  api::NodeClaim claim;
  claim.spec.node_class_ref = api::NodeClassReference{
      .kind = "EC2NodeClass", .name = node_class.metadata.name, .group = "karpenter.k8s.aws"};
  const Tags tags = DryRunTags(cluster_, node_class, claim);
  const std::string key = CacheKey(node_class, tags);
  {
    absl::MutexLock lock(&mu_);
    auto cached = cache_.find(key);
    if (cached != cache_.end() && cached->second.expires > clock_.Now()) {
      return cached->second.condition;
    }
  }
  KP_ASSIGN_OR_RETURN(api::Condition condition, DryRun(node_class, tags));
  // A profile named in the spec may be made at any moment: asked again next time.
  if (condition.reason == kReasonInstanceProfileNotFound) return condition;
  absl::MutexLock lock(&mu_);
  cache_[key] = {condition, clock_.Now() + options_.ttl};
  return condition;
}

absl::StatusOr<api::Condition> NodeClassValidator::DryRun(const api::EC2NodeClass& node_class,
                                                          const Tags& tags) {
  const api::EC2NodeClassStatus& status = node_class.status;
  if (status.amis.empty() || status.subnets.empty() || status.security_groups.empty()) {
    return absl::FailedPreconditionError("validation: the status lists no AMI, subnet or group");
  }
  {
    absl::MutexLock lock(&mu_);
    ++dry_runs_;
  }
  api::NodeClaim claim;
  claim.spec.node_class_ref = api::NodeClassReference{
      .kind = "EC2NodeClass", .name = node_class.metadata.name, .group = "karpenter.k8s.aws"};
  KP_ASSIGN_OR_RETURN(
      LaunchTemplateSpec launch_template,
      BuildLaunchTemplate(cluster_, node_class, claim, DryRunImage(status.amis).id));
  if (absl::Status answer = ec2_.DryRunCreateLaunchTemplate(launch_template); !answer.ok()) {
    // EC2 caps user data at 16 KiB: a class whose rendered user data is longer can never launch.
    if (AwsErrorCode(answer) == "InvalidUserData.Malformed" &&
        absl::StrContains(answer.message(), "User data is limited to")) {
      return Validation("False", kReasonUserDataTooLarge,
                        absl::StrCat("ec2:CreateLaunchTemplate rejected the rendered user data as "
                                     "too large: ",
                                     answer.message()));
    }
    return Refused(answer, kReasonCreateLaunchTemplateAuthFailed, "ec2:CreateLaunchTemplate");
  }
  const std::string instance_type = DryRunInstanceType(DryRunImage(status.amis));
  FleetRequest fleet{.launch_template_name = launch_template.name, .tags = tags};
  for (const api::Subnet& subnet : status.subnets) {
    if (fleet.overrides.size() == Ec2Client::kMaxFleetOverrides) break;
    fleet.overrides.push_back({.instance_type = instance_type, .subnet_id = subnet.id});
  }
  if (absl::Status answer = ec2_.DryRunCreateFleet(fleet); !answer.ok()) {
    return Refused(answer, kReasonCreateFleetAuthFailed, "ec2:CreateFleet");
  }
  RunInstancesDryRun run{.image_id = DryRunImage(status.amis).id,
                         .instance_type = instance_type,
                         .instance_profile_name = status.instance_profile,
                         .metadata_hop_limit = launch_template.metadata_hop_limit,
                         .metadata_ipv6 = launch_template.metadata_ipv6,
                         .tags = tags};
  for (const api::SecurityGroup& group : status.security_groups) {
    run.security_group_ids.push_back(group.id);
  }
  // Any subnet that would launch is enough; the first subnet's refusal decides otherwise
  // (authorization is not per subnet).
  absl::Status first;
  for (size_t i = 0; i < status.subnets.size(); ++i) {
    run.subnet_id = status.subnets[i].id;
    absl::Status answer = ec2_.DryRunRunInstances(run);
    if (answer.ok()) return Validation("True", api::kConditionValidationSucceeded);
    if (i == 0) first = answer;
  }
  if (IsInstanceProfileNotFound(first)) {
    // A profile Karpenter made for spec.role is in the status, so IAM is catching up: retry.
    if (!node_class.spec.instance_profile) {
      return absl::UnavailableError(
          absl::StrCat("validating ec2:RunInstances authorization, ", first.message()));
    }
    return Validation(
        "False", kReasonInstanceProfileNotFound,
        absl::StrCat("Instance profile \"", *node_class.spec.instance_profile, "\" not found"));
  }
  return Refused(first, kReasonRunInstancesAuthFailed, "ec2:RunInstances");
}

int NodeClassValidator::dry_runs() const {
  absl::MutexLock lock(&mu_);
  return dry_runs_;
}

}  // namespace karpenter::aws
