#include "src/aws/instance_profiles.h"

#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "src/api/karpenter_labels.h"
#include "src/aws/absl_view.h"

namespace karpenter::aws {
namespace {

uint64_t Fnv1a(std::string_view text) {
  uint64_t hash = 14695981039346656037ull;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

// IAM names a role by its last path segment ("path/to/Role" attaches as "Role").
std::string RoleName(std::string_view role) {
  const size_t slash = role.rfind('/');
  return std::string(slash == std::string_view::npos ? role : role.substr(slash + 1));
}

}  // namespace

std::string InstanceProfiles::NewProfileName(const api::EC2NodeClass& node_class) {
  // 106 random bits: two draws of 53.
  const auto draw = [this] {
    return static_cast<uint64_t>(random_.Uniform01() * static_cast<double>(uint64_t{1} << 53));
  };
  return absl::StrCat(
      scope_.cluster_name, "_",
      Fnv1a(absl::StrCat(scope_.region, node_class.metadata.name, draw(), "-", draw())));
}

std::string InstanceProfiles::ProfilePath(const InstanceProfileScope& scope,
                                          std::string_view class_uid) {
  return absl::StrCat("/karpenter/", scope.region, "/", scope.cluster_name, "/",
                      AbslView(class_uid), "/");
}

std::map<std::string, std::string> InstanceProfiles::ProfileTags(
    const InstanceProfileScope& scope, const api::EC2NodeClass& node_class) {
  std::map<std::string, std::string> tags(node_class.spec.tags.begin(), node_class.spec.tags.end());
  tags[absl::StrCat("kubernetes.io/cluster/", scope.cluster_name)] = "owned";
  tags["eks:eks-cluster-name"] = scope.cluster_name;
  tags[std::string(api::kLabelNodeClass)] = node_class.metadata.name;
  tags[std::string(api::kLabelTopologyRegion)] = scope.region;
  return tags;
}

absl::StatusOr<InstanceProfile> InstanceProfiles::Get(const std::string& name) {
  const absl::Time now = clock_.Now();
  if (auto it = profiles_.find(name); it != profiles_.end() && it->second.until > now) {
    return it->second.profile;
  }
  absl::StatusOr<InstanceProfile> got = iam_.GetInstanceProfile(name);
  if (!got.ok()) return got.status();
  profiles_[name] = Cached{*got, now + kInstanceProfileCacheTtl};
  return got;
}

absl::Status InstanceProfiles::Ensure(const std::string& name, const std::string& role,
                                      const api::EC2NodeClass& node_class) {
  const std::string wanted = RoleName(role);
  absl::StatusOr<InstanceProfile> profile = Get(name);
  if (absl::IsNotFound(profile.status())) {
    profile = iam_.CreateInstanceProfile(name, ProfilePath(scope_, node_class.metadata.uid),
                                         ProfileTags(scope_, node_class));
  }
  if (!profile.ok()) {
    return absl::Status(profile.status().code(),
                        absl::StrCat("instance profile ", name, ": ", profile.status().message()));
  }
  if (profile->roles.size() == 1 && profile->roles[0] == wanted) return absl::OkStatus();
  Forget(name);
  for (const std::string& other : profile->roles) {
    if (absl::Status removed = iam_.RemoveRoleFromInstanceProfile(name, other); !removed.ok()) {
      return absl::Status(removed.code(), absl::StrCat("removing role ", other, " from ", name,
                                                       ": ", removed.message()));
    }
  }
  if (absl::Status added = iam_.AddRoleToInstanceProfile(name, wanted); !added.ok()) {
    if (absl::IsNotFound(added)) missing_roles_[wanted] = clock_.Now() + kRoleNotFoundTtl;
    return absl::Status(added.code(), absl::StrCat("adding role ", wanted, " to instance profile ",
                                                   name, ": ", added.message()));
  }
  return absl::OkStatus();
}

std::string InstanceProfiles::ClusterPath(const InstanceProfileScope& scope) {
  return absl::StrCat("/karpenter/", scope.region, "/", scope.cluster_name, "/");
}

void InstanceProfiles::Protect(const std::string& name) {
  if (!name.empty()) protected_until_[name] = clock_.Now() + kProtectedProfileTtl;
}

absl::StatusOr<std::string> InstanceProfiles::Reconcile(const api::EC2NodeClass& node_class) {
  absl::StatusOr<std::string> chosen = Choose(node_class);
  // The profile the class used until now may still be on instances launching, whose NodeClaims
  // the informers have not shown yet.
  if (chosen.ok() && *chosen != node_class.status.instance_profile) {
    Protect(node_class.status.instance_profile);
  }
  return chosen;
}

absl::StatusOr<std::string> InstanceProfiles::Choose(const api::EC2NodeClass& node_class) {
  if (!node_class.spec.role || node_class.spec.role->empty()) {
    return node_class.spec.instance_profile.value_or("");
  }
  const std::string& role = *node_class.spec.role;
  const std::string key = absl::StrCat(role, "/", node_class.metadata.uid);
  std::string current = node_class.status.instance_profile;
  if (auto it = made_for_.find(key); it != made_for_.end()) current = it->second;
  if (!current.empty()) {
    absl::StatusOr<InstanceProfile> profile = Get(current);
    if (profile.ok() && !profile->roles.empty() && profile->roles[0] == RoleName(role)) {
      return current;
    }
    if (!profile.ok() && !absl::IsNotFound(profile.status())) {
      return absl::Status(profile.status().code(), absl::StrCat("instance profile ", current, ": ",
                                                                profile.status().message()));
    }
  }
  if (auto it = missing_roles_.find(RoleName(role)); it != missing_roles_.end()) {
    if (it->second > clock_.Now()) {
      return absl::NotFoundError(
          absl::StrCat("role ", it->first, " not found (IAM said so less than a minute ago)"));
    }
    missing_roles_.erase(it);
  }
  const std::string name = NewProfileName(node_class);
  if (absl::Status made = Ensure(name, role, node_class); !made.ok()) {
    // Half made (created, role refused): removed again, so retries do not pile up profiles.
    if (absl::StatusOr<InstanceProfile> left = iam_.GetInstanceProfile(name); left.ok()) {
      for (const std::string& attached : left->roles) {
        (void)iam_.RemoveRoleFromInstanceProfile(name, attached);
      }
      (void)iam_.DeleteInstanceProfile(name);
    }
    Forget(name);
    return made;
  }
  made_for_[key] = name;
  // Not in any class's status until the status write lands.
  Protect(name);
  return name;
}

absl::Status InstanceProfiles::Delete(const InstanceProfile& profile) {
  for (const std::string& role : profile.roles) {
    absl::Status removed = iam_.RemoveRoleFromInstanceProfile(profile.name, role);
    if (!removed.ok() && !absl::IsNotFound(removed)) return removed;
  }
  absl::Status deleted = iam_.DeleteInstanceProfile(profile.name);
  if (!deleted.ok() && !absl::IsNotFound(deleted)) return deleted;
  Forget(profile.name);
  std::erase_if(made_for_, [&](const auto& entry) { return entry.second == profile.name; });
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::string>> InstanceProfiles::CollectGarbage(
    const std::set<std::string>& in_use) {
  const std::string path = ClusterPath(scope_);
  absl::StatusOr<std::vector<InstanceProfile>> listed = iam_.ListInstanceProfiles(path);
  if (!listed.ok()) return listed.status();
  const absl::Time now = clock_.Now();
  std::erase_if(protected_until_, [&](const auto& entry) { return entry.second <= now; });
  std::vector<std::string> deleted;
  for (const InstanceProfile& profile : *listed) {
    // Checked here too: moto ignores PathPrefix, and a profile outside the path is not ours.
    if (!profile.path.starts_with(path) || in_use.contains(profile.name) ||
        protected_until_.contains(profile.name)) {
      continue;
    }
    if (absl::Status gone = Delete(profile); !gone.ok()) {
      return absl::Status(gone.code(), absl::StrCat("deleting instance profile ", profile.name,
                                                    ": ", gone.message()));
    }
    deleted.push_back(profile.name);
  }
  return deleted;
}

absl::Status InstanceProfiles::DeleteAll(const api::EC2NodeClass& node_class) {
  const std::string path = ProfilePath(scope_, node_class.metadata.uid);
  absl::StatusOr<std::vector<InstanceProfile>> made = iam_.ListInstanceProfiles(path);
  if (!made.ok()) return made.status();
  for (const InstanceProfile& profile : *made) {
    // Checked here too: a profile of another class is never deleted, whatever the list holds
    // (moto ignores PathPrefix).
    if (!profile.path.starts_with(path)) continue;
    if (absl::Status deleted = Delete(profile); !deleted.ok()) return deleted;
  }
  std::erase_if(made_for_, [&](const auto& entry) {
    return entry.first.ends_with(absl::StrCat("/", node_class.metadata.uid));
  });
  return absl::OkStatus();
}

}  // namespace karpenter::aws
