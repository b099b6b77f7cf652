// The EC2 calls of the provider over the query protocol. Reads (ec2_client.cc): instance types and
// where they are offered, subnets, security groups, images, instances, spot prices; each Describe
// follows NextToken to the end. Writes (ec2_launch.cc): launch templates, CreateFleet, tags,
// TerminateInstances. A concrete class (not a seam) so the CloudProvider can wrap it later.
#pragma once

#include <atomic>
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

struct GpuDevice {
  std::string name;          // "A10G"
  std::string manufacturer;  // "NVIDIA"
  int64_t count = 0;
  int64_t memory_mib = 0;  // per GPU
};

struct NeuronDevice {
  std::string name;  // "Inferentia2"
  int64_t count = 0;
  int64_t cores_per_device = 0;
  int64_t memory_mib = 0;
};

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
  // The facts the allocatable formulas and instance-type labels read (src/cloudprovider).
  std::string cpu_manufacturer;  // "Intel", "AMD", "AWS"
  double clock_ghz = 0;          // 0 when EC2 does not say
  std::vector<GpuDevice> gpus;
  std::vector<NeuronDevice> neuron_devices;
  int64_t local_storage_gb = 0;  // 0 without instance store
  bool local_storage_nvme = false;
  std::string network_performance;      // "Up to 10 Gigabit"
  int64_t network_baseline_mbps = 0;    // summed over the network cards
  int64_t default_card_interfaces = 0;  // 0 when EC2 lists no network cards
  int64_t efa_interfaces = 0;
  bool encryption_in_transit = false;
  bool nitro_enclaves = false;
  // The maximum EBS bandwidth (what upstream labels), only for types EBS-optimized by default.
  int64_t ebs_baseline_mbps = 0;
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
  // "spot", "capacity-block", "interruptible-capacity-reservation", or "" for on-demand.
  std::string lifecycle;
  // The reservation the instance runs in, and the preference it was launched with
  // ("capacity-reservations-only" for a targeted launch, "open", "none").
  std::string capacity_reservation_id;
  std::string capacity_reservation_preference;
  std::vector<std::string> security_group_ids;
  Tags tags;
  std::string launch_time;  // RFC 3339 as EC2 gives it; empty when not described
};

struct SpotPrice {
  std::string instance_type;
  std::string zone;
  double price = 0;       // USD per hour
  std::string timestamp;  // RFC 3339 as EC2 gives it
};

struct BlockDevice {
  std::string device_name = "/dev/xvda";
  int64_t volume_size_gib = 20;
  std::string volume_type = "gp3";
  int64_t iops = 0;        // 0: the volume type's default
  int64_t throughput = 0;  // MiB/s, gp3 only; 0: default
  bool delete_on_termination = true;
  std::string kms_key_id;  // "" for the account's default key
};

// A launch template's contents. Encryption of every volume and IMDSv2 are not options: the
// encoder always sets `Encrypted=true` and `HttpTokens=required` (reference/reliability.md §3.3).
struct LaunchTemplateSpec {
  std::string name;
  std::string image_id;
  std::string user_data;  // raw; base64-encoded on the wire
  std::vector<std::string> security_group_ids;
  std::string instance_profile_name;
  std::vector<BlockDevice> block_devices;
  int metadata_hop_limit = 1;
  bool metadata_ipv6 = false;
  Tags tags;  // on the template, and on the instances and volumes it launches
  // A template of a reserved launch targets one capacity reservation and launches nowhere else
  // (CapacityReservationPreference capacity-reservations-only); "" for the others.
  std::string capacity_reservation_id;
  // The CapacityReservationPreference of a template without `capacity_reservation_id`: "none"
  // keeps its launches out of open reservations (upstream's targeted launch mode, on with the
  // ReservedCapacity feature gate); "" leaves EC2's default (open).
  std::string capacity_reservation_preference;
  // The market of a capacity block ("capacity-block"), "" for the others.
  std::string market_type;
};

struct LaunchTemplate {
  std::string id;
  std::string name;
  int64_t latest_version = 0;
  Tags tags;
};

struct FleetOverride {
  std::string instance_type;
  std::string subnet_id;
  std::string zone;
  std::string image_id;  // "" to use the template's
  double priority = 0;   // lower first, for the prioritized strategies
  // The launch template this override launches from; "" for the request's. Overrides of one
  // template go into one LaunchTemplateConfigs entry, the templates in the order they first
  // appear, so one fleet can launch several templates (one per AMI and max-pods value).
  std::string launch_template_name;
};

struct FleetRequest {
  std::string launch_template_name;      // the template of overrides that name none
  std::vector<FleetOverride> overrides;  // at most kMaxFleetOverrides over all templates
  bool spot = false;
  // Into capacity blocks: DefaultTargetCapacityType capacity-block and no on-demand options.
  bool capacity_block = false;
  // Into interruptible capacity reservations: DefaultTargetCapacityType reserved-capacity.
  bool interruptible_reservation = false;
  int count = 1;
  Tags tags;  // on the instances and volumes
  // Makes a retried CreateFleet launch nothing twice; Ec2Client draws one when empty.
  std::string client_token;
};

struct FleetError {
  FleetOverride failed_override;
  std::string code;  // e.g. "InsufficientInstanceCapacity"
  std::string message;
};

struct FleetInstance {
  std::string id;
  std::string instance_type;
  std::string subnet_id;
  std::string zone;
  bool spot = false;
};

struct FleetResult {
  std::string fleet_id;
  std::vector<FleetInstance> instances;
  std::vector<FleetError> errors;
};

// A capacity reservation as DescribeCapacityReservations answers.
struct CapacityReservationInfo {
  std::string id;
  std::string instance_type;
  std::string zone;
  std::string owner_id;
  std::string instance_match_criteria;  // "open" | "targeted"
  std::string reservation_type;         // "default" | "capacity-block"
  std::string state;                    // "active", ...
  std::string end_date;                 // RFC 3339; empty when it does not end
  int64_t available_instance_count = 0;
  bool interruptible = false;
};

// What a dry-run RunInstances asks for: one instance of the class's image and type in one subnet,
// as upstream's validation controller sends it.
struct RunInstancesDryRun {
  std::string image_id;
  std::string instance_type;
  std::string instance_profile_name;
  std::string subnet_id;
  std::vector<std::string> security_group_ids;
  int metadata_hop_limit = 1;
  bool metadata_ipv6 = false;
  Tags tags;  // on the instance, its volumes and its network interface
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
  // Upstream caps a CreateFleet at 60 instance-type overrides.
  static constexpr size_t kMaxFleetOverrides = 60;

  // `random` draws CreateFleet client tokens.
  Ec2Client(AwsClient& client, Random& random) : client_(client), random_(random) {}

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
  // By id (then EC2 refuses MaxResults) or by filters.
  absl::StatusOr<std::vector<CapacityReservationInfo>> DescribeCapacityReservations(
      const std::vector<std::string>& ids, const std::vector<Filter>& filters);
  absl::StatusOr<std::vector<Instance>> DescribeInstances(
      const std::vector<std::string>& instance_ids, const std::vector<Filter>& filters,
      int page_size = 500);

  // The latest prices per (type, zone) for Linux/UNIX, newest first as EC2 returns them.
  absl::StatusOr<std::vector<SpotPrice>> DescribeSpotPriceHistory(
      const std::vector<std::string>& instance_types, absl::Time start_time);

  absl::StatusOr<LaunchTemplate> CreateLaunchTemplate(const LaunchTemplateSpec& spec);
  // By name; kNotFound when none of the names exist (EC2's own answer for named lookups).
  absl::StatusOr<std::vector<LaunchTemplate>> DescribeLaunchTemplates(
      const std::vector<std::string>& names, const std::vector<Filter>& filters);
  absl::Status DeleteLaunchTemplate(const std::string& name);
  // Type `instant`: the answer lists the instances launched and the per-override errors (ICE).
  // Spot uses price-capacity-optimized, on-demand lowest-price, as upstream.
  absl::StatusOr<FleetResult> CreateFleet(const FleetRequest& request);
  absl::Status CreateTags(const std::vector<std::string>& resource_ids, const Tags& tags);
  // The same requests with DryRun=true (upstream's authorization checks): OK when EC2 answers
  // DryRunOperation, else its error (PermissionDenied carrying UnauthorizedOperation when the
  // caller may not make the call). Nothing is created.
  absl::Status DryRunCreateLaunchTemplate(const LaunchTemplateSpec& spec);
  absl::Status DryRunCreateFleet(const FleetRequest& request);
  absl::Status DryRunRunInstances(const RunInstancesDryRun& run);
  // The instances' states after the call ("shutting-down", ...), by id.
  absl::StatusOr<std::map<std::string, std::string>> TerminateInstances(
      const std::vector<std::string>& instance_ids);

  // Pages requested so far (for the pagination tests).
  int pages() const { return pages_.load(); }

 private:
  QueryRequest LaunchTemplateRequest(const LaunchTemplateSpec& spec);
  absl::StatusOr<QueryRequest> FleetRequestOf(const FleetRequest& fleet);
  // Sends `request` once per page, each with the previous answer's nextToken, and hands every
  // answer's root to `read`. kInternal when a token repeats or pages exceed kMaxPages.
  absl::Status Paginate(const QueryRequest& request,
                        const std::function<absl::Status(const XmlNode&)>& read);

  AwsClient& client_;
  Random& random_;
  std::atomic<int> pages_ = 0;
};

}  // namespace karpenter::aws
