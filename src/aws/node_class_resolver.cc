// Upstream: pkg/providers/subnet/subnet.go, securitygroup/securitygroup.go,
// amifamily/{ami.go,al2023.go,al2.go,bottlerocket.go,windows.go},
// pkg/controllers/nodeclass/{subnet,securitygroup,ami,readiness}.go.
#include "src/aws/node_class_resolver.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/time.h"
#include "karpenter/common/status.h"
#include "src/api/json_codec.h"
#include "src/api/karpenter_labels.h"
#include "src/aws/absl_view.h"
#include "src/aws/crypto.h"

namespace karpenter::aws {
namespace {

// A term's tags as EC2 filters: "*" only asks for the key.
void AddTagFilters(const std::map<std::string, std::string>& tags, std::vector<Filter>& filters) {
  for (const auto& [key, value] : tags) {
    if (value == "*") {
      filters.push_back({.name = "tag-key", .values = {key}});
    } else {
      filters.push_back({.name = absl::StrCat("tag:", key), .values = {value}});
    }
  }
}

// Throttling, 5xx and unreachable endpoints are retried by the caller; anything else is an
// answer about the class (an id that does not exist, a refused call) and goes in a condition.
bool IsTransient(const absl::Status& status) {
  return absl::IsUnavailable(status) || absl::IsDeadlineExceeded(status) ||
         absl::IsResourceExhausted(status);
}

api::Condition MakeCondition(std::string_view type, const absl::Status& status, bool empty,
                             std::string_view what) {
  if (!status.ok()) {
    return {.type = std::string(type),
            .status = "False",
            .reason = absl::StrCat(AbslView(what), "ResolutionFailed"),
            .message = std::string(status.message())};
  }
  if (empty) {
    return {.type = std::string(type),
            .status = "False",
            .reason = absl::StrCat(AbslView(what), "NotFound"),
            .message = absl::StrCat("no ", AbslView(what), " matches the selector terms")};
  }
  return {.type = std::string(type), .status = "True", .reason = std::string(type)};
}

// The kubernetes.io/arch of an image; "" for one Kubernetes has no architecture for (i386,
// x86_64_mac), which upstream skips.
std::string ArchitectureLabel(std::string_view ec2_architecture) {
  if (ec2_architecture == "arm64") return std::string(api::kArchitectureArm64);
  if (ec2_architecture == "x86_64" || ec2_architecture.empty()) {
    return std::string(api::kArchitectureAmd64);
  }
  return "";
}

}  // namespace

std::string NodeClassHash(const api::EC2NodeClassSpec& spec) {
  api::EC2NodeClassSpec hashed = spec;
  hashed.subnet_selector_terms.clear();
  hashed.security_group_selector_terms.clear();
  hashed.ami_selector_terms.clear();
  hashed.capacity_reservation_selector_terms.clear();
  return Sha256Hex(api::EncodeJson(hashed)).substr(0, 16);
}

bool IsReady(const api::EC2NodeClass& node_class) {
  for (const api::Condition& condition : node_class.status.conditions) {
    if (condition.type == "Ready") return condition.status == "True";
  }
  return false;
}

absl::StatusOr<std::vector<api::Subnet>> NodeClassResolver::Subnets(
    const api::EC2NodeClassSpec& spec) {
  std::map<std::string, Subnet> found;
  for (const api::SubnetSelectorTerm& term : spec.subnet_selector_terms) {
    std::vector<Filter> filters;
    if (!term.id.empty()) filters.push_back({.name = "subnet-id", .values = {term.id}});
    AddTagFilters(term.tags, filters);
    KP_ASSIGN_OR_RETURN(std::vector<Subnet> subnets, ec2_.DescribeSubnets(filters));
    for (Subnet& subnet : subnets) found.emplace(subnet.id, std::move(subnet));
  }
  std::vector<Subnet> sorted;
  for (auto& [id, subnet] : found) sorted.push_back(std::move(subnet));
  // Most free addresses first, as upstream lists them; ties by id for a stable status.
  std::stable_sort(sorted.begin(), sorted.end(), [](const Subnet& a, const Subnet& b) {
    return a.available_ips > b.available_ips;
  });
  std::vector<api::Subnet> out;
  for (const Subnet& subnet : sorted) {
    out.push_back({.id = subnet.id, .zone = subnet.zone, .zone_id = subnet.zone_id});
  }
  return out;
}

absl::StatusOr<std::vector<api::SecurityGroup>> NodeClassResolver::SecurityGroups(
    const api::EC2NodeClassSpec& spec) {
  std::map<std::string, SecurityGroup> found;
  for (const api::SecurityGroupSelectorTerm& term : spec.security_group_selector_terms) {
    std::vector<Filter> filters;
    if (!term.id.empty()) filters.push_back({.name = "group-id", .values = {term.id}});
    if (!term.name.empty()) filters.push_back({.name = "group-name", .values = {term.name}});
    AddTagFilters(term.tags, filters);
    KP_ASSIGN_OR_RETURN(std::vector<SecurityGroup> groups, ec2_.DescribeSecurityGroups(filters));
    for (SecurityGroup& group : groups) found.emplace(group.id, std::move(group));
  }
  std::vector<api::SecurityGroup> out;
  for (const auto& [id, group] : found) out.push_back({.id = id, .name = group.name});
  return out;
}

namespace {

// Upstream QueriesFromSelectorTerms: one query per id, one per tag/criteria term.
std::vector<std::pair<std::vector<std::string>, std::vector<Filter>>> ReservationQueries(
    const std::vector<api::CapacityReservationSelectorTerm>& terms) {
  std::vector<std::pair<std::vector<std::string>, std::vector<Filter>>> queries;
  const Filter active{.name = "state", .values = {"active"}};
  for (const api::CapacityReservationSelectorTerm& term : terms) {
    if (!term.id.empty()) queries.push_back({{term.id}, {active}});
    if (term.tags.empty() && term.instance_match_criteria.empty()) continue;
    std::vector<Filter> filters = {active};
    if (!term.owner_id.empty()) filters.push_back({.name = "owner-id", .values = {term.owner_id}});
    AddTagFilters(term.tags, filters);
    if (!term.instance_match_criteria.empty()) {
      filters.push_back(
          {.name = "instance-match-criteria", .values = {term.instance_match_criteria}});
    }
    queries.push_back({{}, std::move(filters)});
  }
  return queries;
}

// Upstream CapacityReservationFromEC2; nullopt for a match criteria or type it does not know.
std::optional<api::CapacityReservation> ToStatusReservation(const CapacityReservationInfo& info,
                                                            absl::Time now) {
  if (info.instance_match_criteria != "open" && info.instance_match_criteria != "targeted") {
    return std::nullopt;
  }
  const std::string type = info.reservation_type.empty() ? "default" : info.reservation_type;
  if (type != "default" && type != "capacity-block") return std::nullopt;
  api::CapacityReservation out{.availability_zone = info.zone,
                               .id = info.id,
                               .instance_match_criteria = info.instance_match_criteria,
                               .instance_type = info.instance_type,
                               .owner_id = info.owner_id,
                               .reservation_type = type,
                               .interruptible = info.interruptible,
                               .state = "active",
                               .available_instance_count = info.available_instance_count};
  absl::Time end;
  std::string error;
  if (!info.end_date.empty() && absl::ParseTime(absl::RFC3339_full, info.end_date, &end, &error)) {
    out.end_time = api::Time::FromUnixSeconds(absl::ToUnixSeconds(end));
    // A capacity block is reclaimed 40 minutes before it ends.
    if (type == "capacity-block" && now >= end - absl::Minutes(40)) out.state = "expiring";
  }
  return out;
}

}  // namespace

absl::StatusOr<std::vector<api::CapacityReservation>> NodeClassResolver::CapacityReservations(
    const api::EC2NodeClassSpec& spec) {
  std::map<std::string, api::CapacityReservation> found;
  const absl::Time now = clock_.Now();
  for (const auto& [ids, filters] : ReservationQueries(spec.capacity_reservation_selector_terms)) {
    KP_ASSIGN_OR_RETURN(std::vector<CapacityReservationInfo> reservations,
                        ec2_.DescribeCapacityReservations(ids, filters));
    for (const CapacityReservationInfo& info : reservations) {
      if (std::optional<api::CapacityReservation> reservation = ToStatusReservation(info, now)) {
        found.emplace(reservation->id, *std::move(reservation));
      }
    }
  }
  std::vector<api::CapacityReservation> out;
  for (auto& [id, reservation] : found) out.push_back(std::move(reservation));
  return out;
}

absl::StatusOr<std::vector<NodeClassResolver::Candidate>> NodeClassResolver::AliasImages(
    std::string_view alias) {
  KP_ASSIGN_OR_RETURN(std::vector<AliasParameter> parameters,
                      AliasParameters(alias, options_.kubernetes_version));
  std::map<std::string, std::vector<RequirementSet>> served;
  for (const AliasParameter& parameter : parameters) {
    absl::StatusOr<Parameter> value = ssm_.GetParameter(parameter.name);
    // A variant or architecture the release does not publish is simply not offered.
    if (absl::IsNotFound(value.status())) continue;
    KP_RETURN_IF_ERROR(value.status());
    std::vector<RequirementSet>& sets = served[value->value];
    sets.insert(sets.end(), parameter.requirements.begin(), parameter.requirements.end());
  }
  std::vector<Candidate> out;
  if (served.empty()) return out;
  ImageQuery query;
  std::vector<std::string> ids;
  for (const auto& [id, sets] : served) ids.push_back(id);
  query.filters.push_back({.name = "image-id", .values = std::move(ids)});
  KP_ASSIGN_OR_RETURN(std::vector<Image> images, ec2_.DescribeImages(query));
  for (Image& image : images) {
    auto sets = served.find(image.id);
    if (sets == served.end()) continue;
    out.push_back({std::move(image), sets->second});
  }
  return out;
}

absl::StatusOr<std::vector<Image>> NodeClassResolver::TermImages(const api::AMISelectorTerm& term) {
  ImageQuery query;
  if (!term.owner.empty()) query.owners.push_back(term.owner);
  // Upstream's default owners for a lookup by name: the account and Amazon, so that a public
  // image of the same name in another account is never picked up unasked.
  if (!term.name.empty()) {
    if (term.owner.empty()) query.owners = {"self", "amazon"};
    query.filters.push_back({.name = "name", .values = {term.name}});
  }
  AddTagFilters(term.tags, query.filters);
  return ec2_.DescribeImages(query);
}

absl::StatusOr<std::vector<Image>> NodeClassResolver::ImagesById(
    const api::EC2NodeClassSpec& spec) {
  std::vector<std::string> ids;
  for (const api::AMISelectorTerm& term : spec.ami_selector_terms) {
    if (!term.alias.empty()) continue;
    if (!term.id.empty()) {
      ids.push_back(term.id);
    } else if (!term.ssm_parameter.empty()) {
      absl::StatusOr<Parameter> value = ssm_.GetParameter(term.ssm_parameter);
      // A missing parameter, or one that does not hold an image id, selects nothing.
      if (absl::IsNotFound(value.status())) continue;
      if (!value.ok()) {
        return absl::Status(value.status().code(),
                            absl::StrCat("resolving SSM parameter ", term.ssm_parameter, ": ",
                                         value.status().message()));
      }
      if (absl::StartsWith(value->value, "ami-")) ids.push_back(value->value);
    }
  }
  if (ids.empty()) return std::vector<Image>();
  ImageQuery query;
  query.filters.push_back({.name = "image-id", .values = std::move(ids)});
  return ec2_.DescribeImages(query);
}

bool NodeClassResolver::Deprecated(const Image& image) const {
  if (image.deprecation_time.empty()) return false;
  absl::Time when;
  std::string error;
  if (!absl::ParseTime(absl::RFC3339_full, image.deprecation_time, &when, &error)) return false;
  return when <= clock_.Now();
}

absl::StatusOr<std::vector<api::AMI>> NodeClassResolver::Amis(const api::EC2NodeClassSpec& spec) {
  std::vector<Candidate> candidates;
  for (const api::AMISelectorTerm& term : spec.ami_selector_terms) {
    if (!term.alias.empty()) {
      KP_ASSIGN_OR_RETURN(std::vector<Candidate> aliased, AliasImages(term.alias));
      for (Candidate& candidate : aliased) candidates.push_back(std::move(candidate));
    } else if (term.id.empty() && term.ssm_parameter.empty()) {
      KP_ASSIGN_OR_RETURN(std::vector<Image> images, TermImages(term));
      for (Image& image : images) candidates.push_back({std::move(image), {{}}});
    }
  }
  KP_ASSIGN_OR_RETURN(std::vector<Image> by_id, ImagesById(spec));
  for (Image& image : by_id) candidates.push_back({std::move(image), {{}}});
  // Per requirement set (the architecture added), the best image: not deprecated before
  // deprecated, then newest, then the greatest name, as upstream compares them.
  auto better = [&](const Image& a, const Image& b) {
    if (Deprecated(a) != Deprecated(b)) return !Deprecated(a);
    if (a.creation_date != b.creation_date) return a.creation_date > b.creation_date;
    if (a.name != b.name) return a.name > b.name;
    return a.id < b.id;
  };
  std::map<std::string, std::pair<const Image*, RequirementSet>> chosen;
  for (const Candidate& candidate : candidates) {
    const Image& image = candidate.image;
    if (!image.state.empty() && image.state != "available") continue;
    const std::string arch = ArchitectureLabel(image.architecture);
    if (arch.empty()) continue;
    for (RequirementSet set : candidate.requirements) {
      set.push_back(
          {.key = std::string(api::kLabelArchStable), .operator_ = "In", .values = {arch}});
      // The status lists them by key length, then key.
      std::sort(set.begin(), set.end(), [](const auto& a, const auto& b) {
        return std::make_pair(a.key.size(), a.key) < std::make_pair(b.key.size(), b.key);
      });
      const std::string key = api::EncodeJson(set);
      auto slot = chosen.find(key);
      if (slot == chosen.end()) {
        chosen.emplace(key, std::make_pair(&image, std::move(set)));
      } else if (better(image, *slot->second.first)) {
        slot->second.first = &image;
      }
    }
  }
  struct Entry {
    const Image* image;
    std::string key;
    api::AMI ami;
  };
  std::vector<Entry> entries;
  for (auto& [key, pick] : chosen) {
    const Image& image = *pick.first;
    entries.push_back({&image, key,
                       api::AMI{.id = image.id,
                                .deprecated = Deprecated(image),
                                .name = image.name,
                                .requirements = std::move(pick.second)}});
  }
  // Newest first, then by id (upstream's order), then by requirements for one image serving two
  // sets, so the status does not depend on the order EC2 answers in.
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return std::tie(b.image->creation_date, a.image->id, a.key) <
           std::tie(a.image->creation_date, b.image->id, b.key);
  });
  std::vector<api::AMI> out;
  for (Entry& entry : entries) out.push_back(std::move(entry.ami));
  return out;
}

namespace {

// `part` as ResolveSelectors reports it: an error or an empty answer, prefixed with `field`.
template <typename T>
absl::StatusOr<std::vector<T>> Selected(absl::StatusOr<std::vector<T>> part, std::string_view field,
                                        std::string_view what) {
  if (!part.ok()) {
    return absl::Status(part.status().code(),
                        absl::StrCat(AbslView(field), ": ", part.status().message()));
  }
  if (part->empty()) {
    return absl::NotFoundError(
        absl::StrCat(AbslView(field), ": no ", AbslView(what), " matches the selector terms"));
  }
  return part;
}

}  // namespace

absl::StatusOr<api::EC2NodeClassStatus> NodeClassResolver::ResolveSelectors(
    const api::EC2NodeClass& node_class) {
  api::EC2NodeClassStatus status = node_class.status;
  status.conditions.clear();
  KP_ASSIGN_OR_RETURN(status.subnets,
                      Selected(Subnets(node_class.spec), "spec.subnetSelectorTerms", "subnet"));
  KP_ASSIGN_OR_RETURN(status.security_groups,
                      Selected(SecurityGroups(node_class.spec), "spec.securityGroupSelectorTerms",
                               "security group"));
  KP_ASSIGN_OR_RETURN(status.amis, Selected(Amis(node_class.spec), "spec.amiSelectorTerms", "AMI"));
  if (options_.capacity_reservations) {
    // None found is no error: the class then launches on demand and spot.
    absl::StatusOr<std::vector<api::CapacityReservation>> reservations =
        CapacityReservations(node_class.spec);
    if (!reservations.ok()) {
      return absl::Status(
          reservations.status().code(),
          absl::StrCat("spec.capacityReservationSelectorTerms: ", reservations.status().message()));
    }
    status.capacity_reservations = *std::move(reservations);
  }
  return status;
}

absl::StatusOr<api::EC2NodeClassStatus> NodeClassResolver::Resolve(
    const api::EC2NodeClass& node_class) {
  api::EC2NodeClassStatus status = node_class.status;
  status.conditions.clear();
  auto subnets = Subnets(node_class.spec);
  auto groups = SecurityGroups(node_class.spec);
  auto amis = Amis(node_class.spec);
  for (const absl::Status& part : {subnets.status(), groups.status(), amis.status()}) {
    if (IsTransient(part)) return part;
  }
  status.subnets = subnets.ok() ? *subnets : std::vector<api::Subnet>();
  status.security_groups = groups.ok() ? *groups : std::vector<api::SecurityGroup>();
  status.amis = amis.ok() ? *amis : std::vector<api::AMI>();
  status.conditions.push_back(MakeCondition(api::kConditionSubnetsReady, subnets.status(),
                                            status.subnets.empty(), "Subnets"));
  status.conditions.push_back(MakeCondition(api::kConditionSecurityGroupsReady, groups.status(),
                                            status.security_groups.empty(), "SecurityGroups"));
  status.conditions.push_back(
      MakeCondition(api::kConditionAMIsReady, amis.status(), status.amis.empty(), "AMIs"));
  // An alias EKS publishes no images for on this cluster's version (upstream's reason).
  if (absl::IsFailedPrecondition(amis.status()))
    status.conditions.back().reason = "UnsupportedAlias";
  if (options_.capacity_reservations) {
    // Finding no reservation is fine: the class launches on demand and spot.
    auto reservations = CapacityReservations(node_class.spec);
    if (IsTransient(reservations.status())) return reservations.status();
    status.capacity_reservations =
        reservations.ok() ? *reservations : std::vector<api::CapacityReservation>();
    if (reservations.ok() && reservations_ != nullptr) reservations_->Sync(*reservations);
    status.conditions.push_back(MakeCondition(api::kConditionCapacityReservationsReady,
                                              reservations.status(), false,
                                              "CapacityReservations"));
  }
  // spec.instanceProfile is used as is; for spec.role the provider's own profile (created here
  // when the role has none), as upstream's instance-profile reconciler does.
  absl::StatusOr<std::string> profile =
      profiles_ != nullptr
          ? profiles_->Reconcile(node_class)
          : absl::StatusOr<std::string>(node_class.spec.instance_profile.value_or(""));
  if (IsTransient(profile.status())) return profile.status();
  if (profile.ok()) status.instance_profile = *profile;
  if (!profile.ok()) {
    status.conditions.push_back({.type = std::string(api::kConditionInstanceProfileReady),
                                 .status = "False",
                                 .reason = "InstanceProfileCreationFailed",
                                 .message = std::string(profile.status().message())});
  } else if (status.instance_profile.empty()) {
    status.conditions.push_back(
        {.type = std::string(api::kConditionInstanceProfileReady),
         .status = "False",
         .reason = "InstanceProfileNotResolved",
         .message = "spec.role: this provider was built without IAM access to create instance "
                    "profiles; set spec.instanceProfile"});
  } else {
    status.conditions.push_back({.type = std::string(api::kConditionInstanceProfileReady),
                                 .status = "True",
                                 .reason = "InstanceProfileReady"});
  }
  if (validator_ != nullptr) {
    api::EC2NodeClass resolved = node_class;
    resolved.status = status;
    absl::StatusOr<api::Condition> validation = validator_->Validate(resolved);
    if (!validation.ok()) return validation.status();
    status.conditions.push_back(*std::move(validation));
  }
  std::string not_ready;
  for (const api::Condition& condition : status.conditions) {
    if (condition.status != "True" && not_ready.empty()) not_ready = condition.type;
  }
  status.conditions.push_back(
      not_ready.empty() ? api::Condition{.type = "Ready", .status = "True", .reason = "Ready"}
                        : api::Condition{.type = "Ready",
                                         .status = "False",
                                         .reason = "NotReady",
                                         .message = absl::StrCat(not_ready, "=False")});
  return status;
}

}  // namespace karpenter::aws
