// Upstream: aws/karpenter-provider-aws pkg/providers/instanceprofile and the EC2NodeClass
// instance-profile reconciler (pkg/controllers/nodeclass/instanceprofile.go). An EC2NodeClass
// names either `instanceProfile` (used as is) or `role`: for a role the provider creates an
// instance profile of its own, named <cluster>_<number> (the number hashes the region, the class
// name and a random value, so a recreated class never reuses a name), under the path
// /karpenter/<region>/<cluster>/<class uid>/, tagged as the cluster's, with the role attached.
// A changed role gets a new profile; the old one is left for garbage collection
// (upstream's nodeclass/garbagecollection, every 30 minutes): a profile under the cluster's path
// that no EC2NodeClass's status and no NodeClaim's `karpenter.k8s.aws/instance-profile-name`
// names is deleted, unless this process made it, or saw a class stop using it, within the last
// hour (IAM and the informers are eventually consistent).
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "src/api/ec2nodeclass.h"
#include "src/aws/clock.h"
#include "src/aws/iam_client.h"

namespace karpenter::aws {

struct InstanceProfileScope {
  std::string cluster_name;
  std::string region;
};

// How long a described profile is trusted, and how long a role IAM said does not exist is
// not asked about again.
inline constexpr absl::Duration kInstanceProfileCacheTtl = absl::Minutes(15);
inline constexpr absl::Duration kRoleNotFoundTtl = absl::Minutes(1);
// Upstream's ProtectedProfilesTTL.
inline constexpr absl::Duration kProtectedProfileTtl = absl::Hours(1);

class InstanceProfiles {
 public:
  InstanceProfiles(IamClient& iam, Clock& clock, Random& random, InstanceProfileScope scope)
      : iam_(iam), clock_(clock), random_(random), scope_(std::move(scope)) {}

  // The instance profile the class's instances launch with: spec.instanceProfile as written, or
  // for spec.role the provider's profile for that role (status.instanceProfile while its role is
  // still the spec's; a new one otherwise). Errors name the profile or role; a role IAM does not
  // know is kNotFound.
  absl::StatusOr<std::string> Reconcile(const api::EC2NodeClass& node_class);

  // Deletes every profile this provider made for the class (all under its path: the current one
  // and those a changed role left), roles detached first; gone ones are not an error.
  absl::Status DeleteAll(const api::EC2NodeClass& node_class);

  // Deletes the profiles under the cluster's path (every class's) that `in_use` does not name
  // and that are not protected; answers the names deleted. Profiles of other clusters, and ones
  // not made by this provider (another path), are never touched.
  absl::StatusOr<std::vector<std::string>> CollectGarbage(const std::set<std::string>& in_use);

  // A new profile name for the class (public for the naming test).
  std::string NewProfileName(const api::EC2NodeClass& node_class);
  static std::string ProfilePath(const InstanceProfileScope& scope, std::string_view class_uid);
  // /karpenter/<region>/<cluster>/: every class's profiles are under it.
  static std::string ClusterPath(const InstanceProfileScope& scope);
  static std::map<std::string, std::string> ProfileTags(const InstanceProfileScope& scope,
                                                        const api::EC2NodeClass& node_class);

 private:
  // Reconcile's choice, before the profile the class used is protected.
  absl::StatusOr<std::string> Choose(const api::EC2NodeClass& node_class);
  absl::StatusOr<InstanceProfile> Get(const std::string& name);
  // Detaches the roles and deletes the profile; gone is not an error.
  absl::Status Delete(const InstanceProfile& profile);
  void Protect(const std::string& name);
  // Creates `name` when missing and makes `role` its one role.
  absl::Status Ensure(const std::string& name, const std::string& role,
                      const api::EC2NodeClass& node_class);
  void Forget(const std::string& name) { profiles_.erase(name); }

  IamClient& iam_;
  Clock& clock_;
  Random& random_;
  const InstanceProfileScope scope_;
  struct Cached {
    InstanceProfile profile;
    absl::Time until;
  };
  std::map<std::string, Cached> profiles_;
  std::map<std::string, absl::Time> missing_roles_;
  // role + "/" + class uid -> the profile made for it: a status write that was lost must not
  // make a second profile for the same role.
  std::map<std::string, std::string> made_for_;
  // Profiles garbage collection leaves alone until then.
  std::map<std::string, absl::Time> protected_until_;
};

}  // namespace karpenter::aws
