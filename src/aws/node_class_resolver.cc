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

std::string ArchitectureLabel(std::string_view ec2_architecture) {
  if (ec2_architecture == "arm64") return std::string(api::kArchitectureArm64);
  return std::string(api::kArchitectureAmd64);
}

}  // namespace

absl::StatusOr<std::vector<AliasParameter>> AliasParameters(std::string_view alias,
                                                            std::string_view kubernetes_version) {
  std::vector<std::string> parts = absl::StrSplit(AbslView(alias), absl::MaxSplits('@', 1));
  const std::string family = absl::AsciiStrToLower(parts[0]);
  const std::string version = parts.size() > 1 ? parts[1] : "latest";
  const bool latest = version == "latest";
  const std::string k8s(kubernetes_version);
  std::vector<AliasParameter> out;
  if (family == "al2023") {
    for (const char* arch : {"x86_64", "arm64"}) {
      const std::string base = absl::StrCat("/aws/service/eks/optimized-ami/", k8s,
                                            "/amazon-linux-2023/", arch, "/standard/");
      out.push_back({latest ? absl::StrCat(base, "recommended/image_id")
                            : absl::StrCat(base, "amazon-eks-node-al2023-", arch, "-standard-", k8s,
                                           "-", version, "/image_id"),
                     arch});
    }
    return out;
  }
  if (family == "al2") {
    for (const auto& [variant, arch, node] :
         {std::tuple{"amazon-linux-2", "x86_64", "amazon-eks-node-"},
          std::tuple{"amazon-linux-2-arm64", "arm64", "amazon-eks-arm64-node-"}}) {
      const std::string base = absl::StrCat("/aws/service/eks/optimized-ami/", k8s, "/", variant);
      out.push_back({latest ? absl::StrCat(base, "/recommended/image_id")
                            : absl::StrCat(base, "/", node, k8s, "-", version, "/image_id"),
                     arch});
    }
    return out;
  }
  if (family == "bottlerocket") {
    // Bottlerocket's parameters spell versions without the leading "v".
    const std::string bottlerocket_version =
        absl::StartsWith(version, "v") ? version.substr(1) : version;
    for (const char* arch : {"x86_64", "arm64"}) {
      out.push_back({absl::StrCat("/aws/service/bottlerocket/aws-k8s-", k8s, "/", arch, "/",
                                  bottlerocket_version, "/image_id"),
                     arch});
    }
    return out;
  }
  if (family == "windows2019" || family == "windows2022") {
    if (!latest) {
      return absl::InvalidArgumentError(
          absl::StrCat("spec.amiSelectorTerms[0].alias: ", AbslView(alias),
                       ": Windows aliases only take @latest"));
    }
    const std::string year = family.substr(7);
    out.push_back({absl::StrCat("/aws/service/ami-windows-latest/Windows_Server-", year,
                                "-English-Core-EKS_Optimized-", k8s, "/image_id"),
                   "x86_64"});
    return out;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("spec.amiSelectorTerms[0].alias: unknown AMI family in ", AbslView(alias)));
}

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

absl::StatusOr<std::vector<Image>> NodeClassResolver::AliasImages(std::string_view alias) {
  KP_ASSIGN_OR_RETURN(std::vector<AliasParameter> parameters,
                      AliasParameters(alias, options_.kubernetes_version));
  std::vector<std::string> ids;
  for (const AliasParameter& parameter : parameters) {
    absl::StatusOr<Parameter> value = ssm_.GetParameter(parameter.name);
    // An architecture the release does not publish is simply not offered.
    if (absl::IsNotFound(value.status())) continue;
    KP_RETURN_IF_ERROR(value.status());
    ids.push_back(value->value);
  }
  if (ids.empty()) return std::vector<Image>();
  return ec2_.DescribeImages({.image_ids = ids});
}

absl::StatusOr<std::vector<Image>> NodeClassResolver::TermImages(const api::AMISelectorTerm& term) {
  ImageQuery query;
  if (!term.id.empty()) query.image_ids.push_back(term.id);
  if (!term.owner.empty()) query.owners.push_back(term.owner);
  // Upstream's default owners for a lookup by name or tags: the account and Amazon.
  if (term.id.empty() && term.owner.empty()) query.owners = {"self", "amazon"};
  if (!term.name.empty()) query.filters.push_back({.name = "name", .values = {term.name}});
  AddTagFilters(term.tags, query.filters);
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
  std::map<std::string, Image> found;
  for (const api::AMISelectorTerm& term : spec.ami_selector_terms) {
    absl::StatusOr<std::vector<Image>> images =
        term.alias.empty() ? TermImages(term) : AliasImages(term.alias);
    KP_RETURN_IF_ERROR(images.status());
    for (Image& image : *images) {
      if (image.state.empty() || image.state == "available") found.emplace(image.id, image);
    }
  }
  // Per architecture, the newest image; a deprecated one only when nothing newer is usable.
  std::map<std::string, const Image*> chosen;
  auto better = [&](const Image& a, const Image* b) {
    if (b == nullptr) return true;
    if (Deprecated(a) != Deprecated(*b)) return !Deprecated(a);
    if (a.creation_date != b->creation_date) return a.creation_date > b->creation_date;
    return a.id < b->id;
  };
  for (const auto& [id, image] : found) {
    const Image*& slot = chosen[ArchitectureLabel(image.architecture)];
    if (better(image, slot)) slot = &image;
  }
  std::vector<api::AMI> out;
  for (const auto& [arch, image] : chosen) {
    out.push_back(
        {.id = image->id,
         .deprecated = Deprecated(*image),
         .name = image->name,
         .requirements = {
             {.key = std::string(api::kLabelArchStable), .operator_ = "In", .values = {arch}}}});
  }
  // Newest first, as the status lists them.
  std::stable_sort(out.begin(), out.end(), [&](const api::AMI& a, const api::AMI& b) {
    return found.at(a.id).creation_date > found.at(b.id).creation_date;
  });
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
