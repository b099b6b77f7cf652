#include "src/aws/ec2_client.h"

#include <set>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "karpenter/common/status.h"

namespace karpenter::aws {
namespace {

int64_t Int(const XmlNode& node, std::string_view name) {
  int64_t out = 0;
  return absl::SimpleAtoi(node.ChildText(name), &out) ? out : 0;
}

bool Bool(const XmlNode& node, std::string_view name) { return node.ChildText(name) == "true"; }

std::vector<std::string> Strings(const XmlNode& list) {
  std::vector<std::string> out;
  for (const XmlNode& item : list.Children("item")) out.push_back(item.Text());
  return out;
}

Tags ReadTags(const XmlNode& node) {
  Tags out;
  for (const XmlNode& item : node.Child("tagSet").Children("item")) {
    out[item.ChildText("key")] = item.ChildText("value");
  }
  return out;
}

double Double(const XmlNode& node, std::string_view name) {
  double out = 0;
  return absl::SimpleAtod(node.ChildText(name), &out) ? out : 0;
}

// The processor, accelerator, storage and network facts beyond the basics.
void ReadInstanceTypeDetails(const XmlNode& item, InstanceTypeInfo& out) {
  const XmlNode processor = item.Child("processorInfo");
  out.cpu_manufacturer = processor.ChildText("manufacturer");
  out.clock_ghz = Double(processor, "sustainedClockSpeedInGhz");
  for (const XmlNode& device : item.Path({"neuronInfo", "neuronDevices"}).Children("item")) {
    out.neuron_devices.push_back({.name = device.ChildText("name"),
                                  .count = Int(device, "count"),
                                  .cores_per_device = Int(device.Child("coreInfo"), "count"),
                                  .memory_mib = Int(device.Child("memoryInfo"), "sizeInMiB")});
  }
  const XmlNode storage = item.Child("instanceStorageInfo");
  out.local_storage_gb = Int(storage, "totalSizeInGB");
  out.local_storage_nvme = storage.ChildText("nvmeSupport") == "required" ||
                           storage.ChildText("nvmeSupport") == "supported";
  const XmlNode network = item.Child("networkInfo");
  out.network_performance = network.ChildText("networkPerformance");
  const std::string default_card = network.ChildText("defaultNetworkCardIndex");
  for (const XmlNode& card : network.Child("networkCards").Children("item")) {
    // Pods get their addresses from the default card's interfaces only (the VPC CNI's rule).
    if (card.ChildText("networkCardIndex") == default_card) {
      out.default_card_interfaces = Int(card, "maximumNetworkInterfaces");
    }
    out.network_baseline_mbps +=
        static_cast<int64_t>(Double(card, "baselineBandwidthInGbps") * 1000 + 0.5);
  }
  out.efa_interfaces = Int(network.Child("efaInfo"), "maximumEfaInterfaces");
  out.encryption_in_transit = Bool(network, "encryptionInTransitSupported");
  out.nitro_enclaves = item.ChildText("nitroEnclavesSupport") == "supported";
  const XmlNode ebs = item.Child("ebsInfo");
  if (ebs.ChildText("ebsOptimizedSupport") == "default") {
    out.ebs_baseline_mbps = Int(ebs.Child("ebsOptimizedInfo"), "maximumBandwidthInMbps");
  }
}

std::vector<std::string> GroupIds(const XmlNode& instance) {
  std::vector<std::string> out;
  for (const XmlNode& group : instance.Child("groupSet").Children("item")) {
    out.push_back(group.ChildText("groupId"));
  }
  return out;
}

InstanceTypeInfo ReadInstanceType(const XmlNode& item) {
  InstanceTypeInfo out;
  out.name = item.ChildText("instanceType");
  out.vcpus = static_cast<int>(Int(item.Child("vCpuInfo"), "defaultVCpus"));
  out.memory_mib = Int(item.Child("memoryInfo"), "sizeInMiB");
  out.architectures = Strings(item.Path({"processorInfo", "supportedArchitectures"}));
  out.usage_classes = Strings(item.Child("supportedUsageClasses"));
  out.hypervisor = item.ChildText("hypervisor");
  out.bare_metal = Bool(item, "bareMetal");
  out.current_generation = Bool(item, "currentGeneration");
  const XmlNode network = item.Child("networkInfo");
  out.max_network_interfaces = static_cast<int>(Int(network, "maximumNetworkInterfaces"));
  out.ipv4_per_interface = static_cast<int>(Int(network, "ipv4AddressesPerInterface"));
  for (const XmlNode& gpu : item.Path({"gpuInfo", "gpus"}).Children("item")) {
    out.gpu_count += static_cast<int>(Int(gpu, "count"));
    out.gpus.push_back({.name = gpu.ChildText("name"),
                        .manufacturer = gpu.ChildText("manufacturer"),
                        .count = Int(gpu, "count"),
                        .memory_mib = Int(gpu.Child("memoryInfo"), "sizeInMiB")});
  }
  ReadInstanceTypeDetails(item, out);
  return out;
}

}  // namespace

absl::Status Ec2Client::Paginate(const QueryRequest& request,
                                 const std::function<absl::Status(const XmlNode&)>& read) {
  std::set<std::string> seen_tokens;
  std::string token;
  for (int page = 0; page < kMaxPages; ++page) {
    QueryRequest paged = request;
    if (!token.empty()) paged.Set("NextToken", token);
    ++pages_;
    KP_ASSIGN_OR_RETURN(const XmlDocument doc, client_.CallQuery(paged));
    KP_RETURN_IF_ERROR(read(doc.Root()));
    token = doc.Root().ChildText("nextToken");
    if (token.empty()) return absl::OkStatus();
    if (!seen_tokens.insert(token).second) {
      return absl::InternalError(
          absl::StrCat(request.action(), ": the server repeated NextToken ", token));
    }
  }
  return absl::InternalError(
      absl::StrCat(request.action(), ": more than ", kMaxPages, " pages; giving up"));
}

absl::StatusOr<std::vector<InstanceTypeInfo>> Ec2Client::DescribeInstanceTypes(
    const std::vector<Filter>& filters) {
  QueryRequest request("DescribeInstanceTypes", kApiVersion);
  request.SetFilters(filters).Set("MaxResults", "100");
  std::vector<InstanceTypeInfo> out;
  KP_RETURN_IF_ERROR(Paginate(request, [&](const XmlNode& root) {
    for (const XmlNode& item : root.Child("instanceTypeSet").Children("item")) {
      out.push_back(ReadInstanceType(item));
    }
    return absl::OkStatus();
  }));
  return out;
}

absl::StatusOr<std::vector<InstanceTypeOffering>> Ec2Client::DescribeInstanceTypeOfferings(
    const std::string& location_type, const std::vector<Filter>& filters) {
  QueryRequest request("DescribeInstanceTypeOfferings", kApiVersion);
  request.Set("LocationType", location_type).SetFilters(filters).Set("MaxResults", "1000");
  std::vector<InstanceTypeOffering> out;
  KP_RETURN_IF_ERROR(Paginate(request, [&](const XmlNode& root) {
    for (const XmlNode& item : root.Child("instanceTypeOfferingSet").Children("item")) {
      out.push_back({.instance_type = item.ChildText("instanceType"),
                     .location = item.ChildText("location")});
    }
    return absl::OkStatus();
  }));
  return out;
}

absl::StatusOr<std::vector<Subnet>> Ec2Client::DescribeSubnets(const std::vector<Filter>& filters) {
  QueryRequest request("DescribeSubnets", kApiVersion);
  request.SetFilters(filters).Set("MaxResults", "1000");
  std::vector<Subnet> out;
  KP_RETURN_IF_ERROR(Paginate(request, [&](const XmlNode& root) {
    for (const XmlNode& item : root.Child("subnetSet").Children("item")) {
      out.push_back({.id = item.ChildText("subnetId"),
                     .vpc_id = item.ChildText("vpcId"),
                     .zone = item.ChildText("availabilityZone"),
                     .zone_id = item.ChildText("availabilityZoneId"),
                     .available_ips = Int(item, "availableIpAddressCount"),
                     .tags = ReadTags(item)});
    }
    return absl::OkStatus();
  }));
  return out;
}

absl::StatusOr<std::vector<CapacityReservationInfo>> Ec2Client::DescribeCapacityReservations(
    const std::vector<std::string>& ids, const std::vector<Filter>& filters) {
  QueryRequest request("DescribeCapacityReservations", kApiVersion);
  request.SetList("CapacityReservationId", ids).SetFilters(filters);
  if (ids.empty()) request.Set("MaxResults", "1000");
  std::vector<CapacityReservationInfo> out;
  KP_RETURN_IF_ERROR(Paginate(request, [&](const XmlNode& root) {
    for (const XmlNode& item : root.Child("capacityReservationSet").Children("item")) {
      out.push_back({.id = item.ChildText("capacityReservationId"),
                     .instance_type = item.ChildText("instanceType"),
                     .zone = item.ChildText("availabilityZone"),
                     .owner_id = item.ChildText("ownerId"),
                     .instance_match_criteria = item.ChildText("instanceMatchCriteria"),
                     .reservation_type = item.ChildText("reservationType"),
                     .state = item.ChildText("state"),
                     .end_date = item.ChildText("endDate"),
                     .available_instance_count = Int(item, "availableInstanceCount"),
                     .interruptible = item.ChildText("interruptible") == "true"});
    }
    return absl::OkStatus();
  }));
  return out;
}

absl::StatusOr<std::vector<SecurityGroup>> Ec2Client::DescribeSecurityGroups(
    const std::vector<Filter>& filters) {
  QueryRequest request("DescribeSecurityGroups", kApiVersion);
  request.SetFilters(filters).Set("MaxResults", "1000");
  std::vector<SecurityGroup> out;
  KP_RETURN_IF_ERROR(Paginate(request, [&](const XmlNode& root) {
    for (const XmlNode& item : root.Child("securityGroupInfo").Children("item")) {
      out.push_back({.id = item.ChildText("groupId"),
                     .name = item.ChildText("groupName"),
                     .vpc_id = item.ChildText("vpcId"),
                     .tags = ReadTags(item)});
    }
    return absl::OkStatus();
  }));
  return out;
}

absl::StatusOr<std::vector<Image>> Ec2Client::DescribeImages(const ImageQuery& query) {
  QueryRequest request("DescribeImages", kApiVersion);
  request.SetList("ImageId", query.image_ids).SetList("Owner", query.owners);
  request.SetFilters(query.filters);
  // Deprecated images stay selectable (the resolver prefers others, as upstream): without this,
  // EC2 leaves another account's deprecated images out of a filtered answer.
  request.Set("IncludeDeprecated", "true");
  // EC2 refuses MaxResults together with ImageId.
  if (query.image_ids.empty()) request.Set("MaxResults", "1000");
  std::vector<Image> out;
  KP_RETURN_IF_ERROR(Paginate(request, [&](const XmlNode& root) {
    for (const XmlNode& item : root.Child("imagesSet").Children("item")) {
      out.push_back({.id = item.ChildText("imageId"),
                     .name = item.ChildText("name"),
                     .owner_id = item.ChildText("imageOwnerId"),
                     .architecture = item.ChildText("architecture"),
                     .state = item.ChildText("imageState"),
                     .creation_date = item.ChildText("creationDate"),
                     .deprecation_time = item.ChildText("deprecationTime"),
                     .tags = ReadTags(item)});
    }
    return absl::OkStatus();
  }));
  return out;
}

absl::StatusOr<std::vector<SpotPrice>> Ec2Client::DescribeSpotPriceHistory(
    const std::vector<std::string>& instance_types, absl::Time start_time) {
  QueryRequest request("DescribeSpotPriceHistory", kApiVersion);
  request.SetList("InstanceType", instance_types)
      .Set("ProductDescription.1", "Linux/UNIX")
      .Set("StartTime", absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", start_time, absl::UTCTimeZone()))
      .Set("MaxResults", "1000");
  std::vector<SpotPrice> out;
  KP_RETURN_IF_ERROR(Paginate(request, [&](const XmlNode& root) {
    for (const XmlNode& item : root.Child("spotPriceHistorySet").Children("item")) {
      SpotPrice price{.instance_type = item.ChildText("instanceType"),
                      .zone = item.ChildText("availabilityZone"),
                      .timestamp = item.ChildText("timestamp")};
      // A price that does not parse is dropped rather than read as free.
      if (!absl::SimpleAtod(item.ChildText("spotPrice"), &price.price) || price.price <= 0) {
        continue;
      }
      out.push_back(std::move(price));
    }
    return absl::OkStatus();
  }));
  return out;
}

absl::StatusOr<std::vector<Instance>> Ec2Client::DescribeInstances(
    const std::vector<std::string>& instance_ids, const std::vector<Filter>& filters,
    int page_size) {
  QueryRequest request("DescribeInstances", kApiVersion);
  request.SetList("InstanceId", instance_ids).SetFilters(filters);
  // EC2 refuses MaxResults together with InstanceId.
  if (instance_ids.empty()) request.Set("MaxResults", std::to_string(page_size));
  std::vector<Instance> out;
  KP_RETURN_IF_ERROR(Paginate(request, [&](const XmlNode& root) {
    for (const XmlNode& reservation : root.Child("reservationSet").Children("item")) {
      for (const XmlNode& item : reservation.Child("instancesSet").Children("item")) {
        out.push_back(
            {.id = item.ChildText("instanceId"),
             .instance_type = item.ChildText("instanceType"),
             .state = item.Path({"instanceState", "name"}).Text(),
             .zone = item.Path({"placement", "availabilityZone"}).Text(),
             .image_id = item.ChildText("imageId"),
             .subnet_id = item.ChildText("subnetId"),
             .lifecycle = item.ChildText("instanceLifecycle"),
             .capacity_reservation_id = item.ChildText("capacityReservationId"),
             .capacity_reservation_preference =
                 item.Path({"capacityReservationSpecification", "capacityReservationPreference"})
                     .Text(),
             .security_group_ids = GroupIds(item),
             .tags = ReadTags(item),
             .launch_time = item.ChildText("launchTime")});
      }
    }
    return absl::OkStatus();
  }));
  return out;
}

}  // namespace karpenter::aws
