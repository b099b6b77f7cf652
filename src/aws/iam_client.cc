#include "src/aws/iam_client.h"

#include "absl/strings/str_cat.h"
#include "karpenter/common/status.h"
#include "src/aws/absl_view.h"

namespace karpenter::aws {
namespace {

void SetTags(QueryRequest& request, const std::map<std::string, std::string>& tags) {
  int n = 0;
  for (const auto& [key, value] : tags) {
    ++n;
    request.Set(absl::StrCat("Tags.member.", n, ".Key"), key)
        .Set(absl::StrCat("Tags.member.", n, ".Value"), value);
  }
}

InstanceProfile ReadProfile(const XmlNode& node) {
  InstanceProfile out{.name = node.ChildText("InstanceProfileName"),
                      .id = node.ChildText("InstanceProfileId"),
                      .arn = node.ChildText("Arn"),
                      .path = node.ChildText("Path")};
  for (const XmlNode& role : node.Child("Roles").Children("member")) {
    out.roles.push_back(role.ChildText("RoleName"));
  }
  for (const XmlNode& tag : node.Child("Tags").Children("member")) {
    out.tags[tag.ChildText("Key")] = tag.ChildText("Value");
  }
  return out;
}

absl::StatusOr<InstanceProfile> ProfileFrom(const XmlDocument& doc, std::string_view result) {
  const XmlNode node = doc.Root().Path({result, "InstanceProfile"});
  if (node.empty()) {
    return absl::InternalError(absl::StrCat(AbslView(result), ": no InstanceProfile"));
  }
  return ReadProfile(node);
}

}  // namespace

absl::StatusOr<InstanceProfile> IamClient::CreateInstanceProfile(
    const std::string& name, const std::string& path,
    const std::map<std::string, std::string>& tags) {
  QueryRequest request("CreateInstanceProfile", kApiVersion);
  request.Set("InstanceProfileName", name);
  if (!path.empty()) request.Set("Path", path);
  SetTags(request, tags);
  KP_ASSIGN_OR_RETURN(const XmlDocument doc, client_.CallQuery(request));
  return ProfileFrom(doc, "CreateInstanceProfileResult");
}

absl::StatusOr<std::vector<InstanceProfile>> IamClient::ListInstanceProfiles(
    const std::string& path_prefix) {
  std::vector<InstanceProfile> out;
  std::string marker;
  // IAM pages with Marker/IsTruncated; a bound keeps a misbehaving endpoint from looping.
  for (int page = 0; page < 1000; ++page) {
    QueryRequest request("ListInstanceProfiles", kApiVersion);
    request.Set("PathPrefix", path_prefix);
    if (!marker.empty()) request.Set("Marker", marker);
    KP_ASSIGN_OR_RETURN(const XmlDocument doc, client_.CallQuery(request));
    const XmlNode result = doc.Root().Child("ListInstanceProfilesResult");
    for (const XmlNode& member : result.Child("InstanceProfiles").Children("member")) {
      out.push_back(ReadProfile(member));
    }
    marker = result.ChildText("Marker");
    if (result.ChildText("IsTruncated") != "true" || marker.empty()) return out;
  }
  return absl::InternalError("ListInstanceProfiles: more than 1000 pages");
}

absl::StatusOr<InstanceProfile> IamClient::GetInstanceProfile(const std::string& name) {
  QueryRequest request("GetInstanceProfile", kApiVersion);
  request.Set("InstanceProfileName", name);
  KP_ASSIGN_OR_RETURN(const XmlDocument doc, client_.CallQuery(request));
  return ProfileFrom(doc, "GetInstanceProfileResult");
}

absl::Status IamClient::AddRoleToInstanceProfile(const std::string& profile,
                                                 const std::string& role) {
  QueryRequest request("AddRoleToInstanceProfile", kApiVersion);
  request.Set("InstanceProfileName", profile).Set("RoleName", role);
  return client_.CallQuery(request).status();
}

absl::Status IamClient::RemoveRoleFromInstanceProfile(const std::string& profile,
                                                      const std::string& role) {
  QueryRequest request("RemoveRoleFromInstanceProfile", kApiVersion);
  request.Set("InstanceProfileName", profile).Set("RoleName", role);
  return client_.CallQuery(request).status();
}

absl::Status IamClient::TagInstanceProfile(const std::string& profile,
                                           const std::map<std::string, std::string>& tags) {
  QueryRequest request("TagInstanceProfile", kApiVersion);
  request.Set("InstanceProfileName", profile);
  SetTags(request, tags);
  return client_.CallQuery(request).status();
}

absl::Status IamClient::DeleteInstanceProfile(const std::string& name) {
  QueryRequest request("DeleteInstanceProfile", kApiVersion);
  request.Set("InstanceProfileName", name);
  return client_.CallQuery(request).status();
}

}  // namespace karpenter::aws
