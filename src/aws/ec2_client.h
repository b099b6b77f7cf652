// The EC2 calls the provider reads its world with, over the query protocol: instance types and
// where they are offered, subnets, security groups, images and instances. Each Describe follows
// NextToken to the end; a concrete class (not a seam) so the CloudProvider can wrap it later.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "src/aws/aws_client.h"
#include "src/aws/query.h"

namespace karpenter::aws {

using Tags = std::map<std::string, std::string>;

struct InstanceTypeInfo {
  std::string name;
  int vcpus = 0;
  int64_t memory_mib = 0;
  std::vector<std::string> architectures;  // "x86_64", "arm64"
  std::vector<std::string> usage_classes;  // "on-demand", "spot"
  std::string hypervisor;                  // "nitro", "xen", "" for bare metal
  bool bare_metal = false;
  bool current_generation = false;
  int max_network_interfaces = 0;
  int ipv4_per_interface = 0;
  int gpu_count = 0;
};

struct InstanceTypeOffering {
  std::string instance_type;
  std::string location;  // a zone name for location type availability-zone
};

struct Subnet {
  std::string id;
  std::string vpc_id;
  std::string zone;
  std::string zone_id;
  int64_t available_ips = 0;
  Tags tags;
};

struct SecurityGroup {
  std::string id;
  std::string name;
  std::string vpc_id;
  Tags tags;
};

struct Image {
  std::string id;
  std::string name;
  std::string owner_id;
  std::string architecture;
  std::string state;
  std::string creation_date;     // RFC 3339 as EC2 gives it
  std::string deprecation_time;  // "" when not deprecated
  Tags tags;
};

struct Instance {
  std::string id;
  std::string instance_type;
  std::string state;  // "pending", "running", "shutting-down", "terminated", ...
  std::string zone;
  std::string image_id;
  std::string subnet_id;
  std::string lifecycle;  // "spot", or "" for on-demand
  Tags tags;
};

struct ImageQuery {
  std::vector<std::string> image_ids;
  std::vector<std::string> owners;
  std::vector<Filter> filters;
};

class Ec2Client {
 public:
  static constexpr char kApiVersion[] = "2016-11-15";
  // More pages than this means a server that never stops paginating.
  static constexpr int kMaxPages = 1000;

  explicit Ec2Client(AwsClient& client) : client_(client) {}

  absl::StatusOr<std::vector<InstanceTypeInfo>> DescribeInstanceTypes(
      const std::vector<Filter>& filters = {});
  // `location_type` is "availability-zone", "availability-zone-id" or "region".
  absl::StatusOr<std::vector<InstanceTypeOffering>> DescribeInstanceTypeOfferings(
      const std::string& location_type = "availability-zone",
      const std::vector<Filter>& filters = {});
  absl::StatusOr<std::vector<Subnet>> DescribeSubnets(const std::vector<Filter>& filters);
  absl::StatusOr<std::vector<SecurityGroup>> DescribeSecurityGroups(
      const std::vector<Filter>& filters);
  absl::StatusOr<std::vector<Image>> DescribeImages(const ImageQuery& query);
  absl::StatusOr<std::vector<Instance>> DescribeInstances(
      const std::vector<std::string>& instance_ids, const std::vector<Filter>& filters,
      int page_size = 500);

  // Pages requested so far (for the pagination tests).
  int pages() const { return pages_; }

 private:
  // Sends `request` once per page, each with the previous answer's nextToken, and hands every
  // answer's root to `read`. kInternal when a token repeats or pages exceed kMaxPages.
  absl::Status Paginate(const QueryRequest& request,
                        const std::function<absl::Status(const XmlNode&)>& read);

  AwsClient& client_;
  int pages_ = 0;
};

}  // namespace karpenter::aws
