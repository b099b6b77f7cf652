// Upstream: pkg/apis/core/validation/validation.go (kubernetes/kubernetes)
// Validation of pods, pod templates and pod specs: containers, ports, resources, volumes and
// the pod-level scalars (k8s.io/kubernetes pkg/apis/core/validation ValidatePodSpec and
// friends, for the modeled fields).
#include <cctype>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "src/api/core_validation.h"
#include "src/api/core_validation_internal.h"
#include "src/api/labels.h"
#include "src/api/pod_resources.h"
#include "src/api/selector_match.h"

namespace karpenter::api {

using validation_internal::InvalidEach;
using validation_internal::ValidateDns1123Label;
using validation_internal::ValidateDns1123Subdomain;

namespace {

constexpr char kPodDeletionCostAnnotation[] = "controller.kubernetes.io/pod-deletion-cost";

// IANA service names (IsValidPortName).
std::vector<std::string> PortNameProblems(std::string_view name) {
  std::vector<std::string> problems;
  if (name.size() > 15) problems.emplace_back("must be no more than 15 characters");
  bool alnum_or_hyphen = true;
  bool has_letter = false;
  for (char c : name) {
    const bool lower = c >= 'a' && c <= 'z';
    alnum_or_hyphen &= lower || (c >= '0' && c <= '9') || c == '-';
    has_letter |= lower;
  }
  if (!alnum_or_hyphen) {
    problems.emplace_back("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  }
  if (!has_letter) problems.emplace_back("must contain at least one letter (a-z)");
  if (name.find("--") != std::string_view::npos) {
    problems.emplace_back("must not contain consecutive hyphens");
  }
  if (!name.empty() && (name.front() == '-' || name.back() == '-')) {
    problems.emplace_back("must not begin or end with a hyphen");
  }
  return problems;
}

void ValidatePortNumber(int32_t port, const std::string& path, FieldErrors* errors) {
  if (port < 1 || port > 65535) {
    errors->Invalid(path, std::to_string(port),
                    validation_internal::InclusiveRangeMessage(1, 65535));
  }
}

void ValidateContainerPorts(const std::vector<ContainerPort>& ports, const std::string& path,
                            FieldErrors* errors) {
  std::set<std::string> names;
  for (size_t i = 0; i < ports.size(); ++i) {
    const ContainerPort& port = ports[i];
    const std::string index_path = IndexPath(path, i);
    if (!port.name.empty()) {
      std::vector<std::string> problems = PortNameProblems(port.name);
      if (!problems.empty()) {
        InvalidEach(errors, ChildPath(index_path, "name"), Quote(port.name), problems);
      } else if (!names.insert(port.name).second) {
        errors->Duplicate(ChildPath(index_path, "name"), Quote(port.name));
      }
    }
    if (port.container_port == 0) {
      errors->Required(ChildPath(index_path, "containerPort"));
    } else {
      ValidatePortNumber(port.container_port, ChildPath(index_path, "containerPort"), errors);
    }
    if (port.host_port != 0) {
      ValidatePortNumber(port.host_port, ChildPath(index_path, "hostPort"), errors);
    }
    const std::string protocol_path = ChildPath(index_path, "protocol");
    if (port.protocol.empty()) {
      errors->Required(protocol_path);
    } else if (port.protocol != kProtocolTcp && port.protocol != kProtocolUdp &&
               port.protocol != kProtocolSctp) {
      errors->NotSupported(protocol_path, port.protocol, {"SCTP", "TCP", "UDP"});
    }
  }
}

// Host ports are node-wide: <protocol, hostIP, port> must be unique among containers that run
// at the same time.
void CheckHostPortConflicts(const std::vector<const Container*>& containers,
                            const std::vector<std::string>& container_paths, FieldErrors* errors) {
  std::set<std::string> used;
  for (size_t c = 0; c < containers.size(); ++c) {
    const std::string ports_path = ChildPath(container_paths[c], "ports");
    for (size_t p = 0; p < containers[c]->ports.size(); ++p) {
      const ContainerPort& port = containers[c]->ports[p];
      if (port.host_port == 0) continue;
      std::string key = absl::StrCat(port.protocol, "/", port.host_ip, "/", port.host_port);
      if (!used.insert(key).second) {
        errors->Duplicate(ChildPath(IndexPath(ports_path, p), "hostPort"), Quote(key));
      }
    }
  }
}

void ValidateContainerClaims(const std::vector<ContainerResourceClaim>& claims,
                             const std::set<std::string>& pod_claims, const std::string& path,
                             FieldErrors* errors) {
  std::set<std::string> seen;
  for (size_t i = 0; i < claims.size(); ++i) {
    const std::string index_path = IndexPath(path, i);
    const ContainerResourceClaim& claim = claims[i];
    if (claim.name.empty()) {
      errors->Required(index_path);
      continue;
    }
    std::string key = claim.request.empty() ? claim.name : claim.name + "/" + claim.request;
    if (!seen.insert(key).second) errors->Duplicate(index_path, Quote(key));
    if (pod_claims.count(claim.name) == 0) {
      std::string detail = "must be one of the names in pod.spec.resourceClaims";
      if (pod_claims.empty()) {
        detail += " which is empty";
      } else {
        detail += ": " + absl::StrJoin(pod_claims, ", ");
      }
      errors->Add(index_path, "Not found: " + Quote(claim.name) + ": " + detail);
    }
  }
}

void ValidateContainerCommon(const Container& container, const std::set<std::string>& pod_claims,
                             const std::string& path, bool is_pod, FieldErrors* errors) {
  const std::string name_path = ChildPath(path, "name");
  if (container.name.empty()) {
    errors->Required(name_path);
  } else {
    ValidateDns1123Label(container.name, name_path, errors);
  }
  if (container.image.empty()) {
    errors->Required(ChildPath(path, "image"));
  } else if (is_pod && absl::StripAsciiWhitespace(container.image) != container.image) {
    errors->Invalid(ChildPath(path, "image"), Quote(container.image),
                    "must not have leading or trailing whitespace");
  }
  ValidateContainerPorts(container.ports, ChildPath(path, "ports"), errors);
  const std::string resources_path = ChildPath(path, "resources");
  ValidateContainerResources(container.resources, resources_path, errors);
  ValidateContainerClaims(container.resources.claims, pod_claims,
                          ChildPath(resources_path, "claims"), errors);
}

void ValidateContainers(const PodSpec& spec, const std::set<std::string>& pod_claims,
                        const std::string& path, bool is_pod, FieldErrors* errors) {
  const std::string containers_path = ChildPath(path, "containers");
  if (spec.containers.empty()) errors->Required(containers_path);
  std::set<std::string> names;
  std::vector<const Container*> running;
  std::vector<std::string> running_paths;
  for (size_t i = 0; i < spec.containers.size(); ++i) {
    const Container& container = spec.containers[i];
    const std::string container_path = IndexPath(containers_path, i);
    ValidateContainerCommon(container, pod_claims, container_path, is_pod, errors);
    if (!names.insert(container.name).second) {
      errors->Duplicate(ChildPath(container_path, "name"), Quote(container.name));
    }
    if (container.restart_policy.has_value()) {
      errors->Forbidden(ChildPath(container_path, "restartPolicy"),
                        "may not be set for non-init containers");
    }
    running.push_back(&container);
    running_paths.push_back(container_path);
  }
  CheckHostPortConflicts(running, running_paths, errors);

  const std::string init_path = ChildPath(path, "initContainers");
  for (size_t i = 0; i < spec.init_containers.size(); ++i) {
    const Container& container = spec.init_containers[i];
    const std::string container_path = IndexPath(init_path, i);
    ValidateContainerCommon(container, pod_claims, container_path, is_pod, errors);
    if (container.restart_policy.has_value() && *container.restart_policy != kRestartPolicyAlways) {
      errors->NotSupported(ChildPath(container_path, "restartPolicy"), *container.restart_policy,
                           {kRestartPolicyAlways});
    }
    // Names are unique across regular and init containers.
    if (names.count(container.name) > 0) {
      errors->Duplicate(ChildPath(container_path, "name"), Quote(container.name));
    } else if (!container.name.empty()) {
      names.insert(container.name);
    }
    // Init containers run one at a time, so only ports within one of them can collide.
    CheckHostPortConflicts({&container}, {container_path}, errors);
  }
}

void ValidateHostNetworkPorts(const PodSpec& spec, const std::string& path, bool is_pod,
                              FieldErrors* errors) {
  if (!spec.host_network) return;
  const std::string containers_path = ChildPath(path, "containers");
  for (size_t i = 0; i < spec.containers.size(); ++i) {
    const std::string ports_path = ChildPath(IndexPath(containers_path, i), "ports");
    for (size_t p = 0; p < spec.containers[i].ports.size(); ++p) {
      const ContainerPort& port = spec.containers[i].ports[p];
      // Templates may leave hostPort 0: it is defaulted when the pod is created.
      if ((is_pod || port.host_port != 0) && port.host_port != port.container_port) {
        errors->Invalid(ChildPath(IndexPath(ports_path, p), "hostPort"),
                        std::to_string(port.host_port),
                        "must match `containerPort` when `hostNetwork` is true");
      }
    }
  }
}

void ValidateVolumeSources(const Volume& volume, const std::string& path, FieldErrors* errors) {
  int sources = 0;
  // Each further source is reported at its own field.
  auto count = [&](bool present, std::string_view field) {
    if (!present) return false;
    if (++sources > 1) {
      errors->Forbidden(ChildPath(path, field), "may not specify more than 1 volume type");
      return false;
    }
    return true;
  };
  if (count(volume.host_path.has_value(), "hostPath") && volume.host_path->path.empty()) {
    errors->Required(ChildPath(ChildPath(path, "hostPath"), "path"));
  }
  if (count(volume.empty_dir.has_value(), "emptyDir") && volume.empty_dir->size_limit.has_value() &&
      volume.empty_dir->size_limit->Sign() < 0) {
    errors->Forbidden(ChildPath(ChildPath(path, "emptyDir"), "sizeLimit"),
                      "SizeLimit field must be a valid resource quantity");
  }
  if (count(volume.aws_elastic_block_store.has_value(), "awsElasticBlockStore") &&
      volume.aws_elastic_block_store->volume_id.empty()) {
    errors->Required(ChildPath(ChildPath(path, "awsElasticBlockStore"), "volumeID"));
  }
  if (count(volume.secret.has_value(), "secret") && volume.secret->secret_name.empty()) {
    errors->Required(ChildPath(ChildPath(path, "secret"), "secretName"));
  }
  if (count(volume.persistent_volume_claim.has_value(), "persistentVolumeClaim") &&
      volume.persistent_volume_claim->claim_name.empty()) {
    errors->Required(ChildPath(ChildPath(path, "persistentVolumeClaim"), "claimName"));
  }
  if (count(volume.config_map.has_value(), "configMap") && volume.config_map->name.empty()) {
    errors->Required(ChildPath(ChildPath(path, "configMap"), "name"));
  }
  if (count(volume.csi.has_value(), "csi") && volume.csi->driver.empty()) {
    errors->Required(ChildPath(ChildPath(path, "csi"), "driver"));
  }
  if (count(volume.ephemeral.has_value(), "ephemeral")) {
    const std::string template_path =
        ChildPath(ChildPath(path, "ephemeral"), "volumeClaimTemplate");
    if (!volume.ephemeral->volume_claim_template.has_value()) {
      errors->Required(template_path);
    } else {
      const PersistentVolumeClaimTemplate& claim = *volume.ephemeral->volume_claim_template;
      ValidateLabels(claim.metadata.labels, ChildPath(template_path, "labels"), errors);
      ValidateAnnotations(claim.metadata.annotations, ChildPath(template_path, "annotations"),
                          errors);
      ValidatePersistentVolumeClaimSpec(claim.spec, ChildPath(template_path, "spec"), errors);
    }
  }
  // A volume with none of the modeled sources may use one the decoder skips (nfs, projected,
  // ...), so "must specify a volume type" cannot be decided here.
}

void ValidateVolumes(const std::vector<Volume>& volumes, const std::string& path,
                     FieldErrors* errors) {
  std::set<std::string> names;
  for (size_t i = 0; i < volumes.size(); ++i) {
    const std::string index_path = IndexPath(path, i);
    const std::string name_path = ChildPath(index_path, "name");
    ValidateVolumeSources(volumes[i], index_path, errors);
    if (volumes[i].name.empty()) {
      errors->Required(name_path);
    } else {
      ValidateDns1123Label(volumes[i].name, name_path, errors);
    }
    if (!names.insert(volumes[i].name).second) {
      errors->Duplicate(name_path, Quote(volumes[i].name));
    }
  }
}

std::set<std::string> ValidatePodResourceClaims(const std::vector<PodResourceClaim>& claims,
                                                const std::string& path, FieldErrors* errors) {
  std::set<std::string> names;
  for (size_t i = 0; i < claims.size(); ++i) {
    const PodResourceClaim& claim = claims[i];
    const std::string index_path = IndexPath(path, i);
    const std::string name_path = ChildPath(index_path, "name");
    if (claim.name.empty()) {
      errors->Required(name_path);
    } else if (names.count(claim.name) > 0) {
      errors->Duplicate(name_path, Quote(claim.name));
    } else {
      ValidateDns1123Label(claim.name, name_path, errors);
      names.insert(claim.name);
    }
    const bool by_name = claim.resource_claim_name.has_value();
    const bool by_template = claim.resource_claim_template_name.has_value();
    if (by_name && by_template) {
      errors->Invalid(index_path, Quote(claim.name),
                      "at most one of `resourceClaimName` or `resourceClaimTemplateName` may be "
                      "specified");
    } else if (!by_name && !by_template) {
      errors->Invalid(index_path, Quote(claim.name),
                      "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`");
    }
  }
  return names;
}

void ValidatePodResourceName(std::string_view name, std::string_view path, FieldErrors* errors) {
  validation_internal::ValidateQualifiedName(name, path, errors);
  if (!IsSupportedPodLevelResource(name)) {
    errors->NotSupported(std::string(path), name, {"cpu", "hugepages-", "memory"});
  }
}

// Pod-level resources must cover what the containers need together.
void ValidatePodLevelResources(const PodSpec& spec, const std::string& path, FieldErrors* errors) {
  if (!spec.resources.has_value()) return;
  const ResourceRequirements& resources = *spec.resources;
  if (!resources.claims.empty()) {
    errors->Forbidden(ChildPath(path, "claims"), "claims cannot be set for Resources at pod-level");
  }
  validation_internal::ValidateRequirementsWith(resources.limits, resources.requests,
                                                &ValidatePodResourceName, path, errors);
  const std::string requests_path = ChildPath(path, "requests");
  for (const auto& [name, aggregate] : AggregateContainerRequests(spec)) {
    auto pod_level = resources.requests.find(name);
    const Quantity pod_value =
        pod_level == resources.requests.end() ? Quantity() : pod_level->second;
    if (aggregate.Cmp(pod_value) > 0) {
      errors->Invalid(
          KeyPath(requests_path, name), Quote(pod_value.String()),
          "must be greater than or equal to aggregate container requests of " + aggregate.String());
    }
  }
  for (size_t i = 0; i < spec.containers.size(); ++i) {
    for (const auto& [name, limit] : spec.containers[i].resources.limits) {
      auto pod_limit = resources.limits.find(name);
      if (pod_limit != resources.limits.end() && limit.Cmp(pod_limit->second) > 0) {
        // Kubernetes builds this path as resources.containers[i][name].limits.
        errors->Invalid(
            ChildPath(KeyPath(IndexPath(ChildPath(path, "containers"), i), name), "limits"),
            Quote(limit.String()),
            "must be less than or equal to pod limits of " + pod_limit->second.String());
      }
    }
  }
}

// Placement constraints: node selector, affinity, gates, spread, tolerations.
void ValidateSchedulingFields(const PodSpec& spec, const std::string& path, FieldErrors* errors) {
  ValidateLabels(spec.node_selector, ChildPath(path, "nodeSelector"), errors);
  if (spec.affinity.has_value()) {
    ValidateAffinity(*spec.affinity, ChildPath(path, "affinity"), errors);
  }
  const std::string gates_path = ChildPath(path, "schedulingGates");
  std::set<std::string> gates;
  for (size_t i = 0; i < spec.scheduling_gates.size(); ++i) {
    const std::string& gate = spec.scheduling_gates[i].name;
    validation_internal::ValidateQualifiedName(gate, IndexPath(gates_path, i), errors);
    if (!gates.insert(gate).second) errors->Duplicate(IndexPath(gates_path, i), Quote(gate));
  }
  ValidateTopologySpreadConstraints(spec.topology_spread_constraints,
                                    ChildPath(path, "topologySpreadConstraints"), errors);
  ValidateTolerations(spec.tolerations, ChildPath(path, "tolerations"), errors);
}

void ValidateEnum(const std::string& value, const std::string& path,
                  const std::vector<std::string_view>& allowed, FieldErrors* errors) {
  if (value.empty()) {
    errors->Required(path);
    return;
  }
  for (std::string_view candidate : allowed) {
    if (value == candidate) return;
  }
  errors->NotSupported(path, value, allowed);
}

// Names of other objects, enums and ranges.
void ValidateScalarFields(const PodSpec& spec, const std::string& path, FieldErrors* errors) {
  // An empty restart policy is what defaulting turns into Always.
  if (!spec.restart_policy.empty()) {
    ValidateEnum(spec.restart_policy, ChildPath(path, "restartPolicy"),
                 {kRestartPolicyAlways, kRestartPolicyOnFailure, kRestartPolicyNever}, errors);
  }
  const std::pair<const std::string*, std::string_view> object_names[] = {
      {&spec.service_account_name, "serviceAccountName"},
      {&spec.node_name, "nodeName"},
      {&spec.priority_class_name, "priorityClassName"},
  };
  for (const auto& [name, field] : object_names) {
    if (!name->empty()) ValidateDns1123Subdomain(*name, ChildPath(path, field), errors);
  }
  if (spec.runtime_class_name.has_value()) {
    ValidateDns1123Subdomain(*spec.runtime_class_name, ChildPath(path, "runtimeClassName"), errors);
  }
  if (spec.active_deadline_seconds.has_value()) {
    const int64_t value = *spec.active_deadline_seconds;
    const int64_t max = std::numeric_limits<int32_t>::max();
    if (value < 1 || value > max) {
      errors->Invalid(ChildPath(path, "activeDeadlineSeconds"), std::to_string(value),
                      validation_internal::InclusiveRangeMessage(1, max));
    }
  }
  if (spec.preemption_policy.has_value()) {
    ValidateEnum(*spec.preemption_policy, ChildPath(path, "preemptionPolicy"),
                 {"PreemptLowerPriority", "Never"}, errors);
  }
  if (spec.os.has_value()) {
    ValidateEnum(spec.os->name, ChildPath(ChildPath(path, "os"), "name"), {"linux", "windows"},
                 errors);
  }
}

void ValidatePodSpecImpl(const PodSpec& spec, const std::string& path, bool is_pod,
                         FieldErrors* errors) {
  ValidateVolumes(spec.volumes, ChildPath(path, "volumes"), errors);
  const std::set<std::string> pod_claims =
      ValidatePodResourceClaims(spec.resource_claims, ChildPath(path, "resourceClaims"), errors);
  ValidateContainers(spec, pod_claims, path, is_pod, errors);
  ValidatePodLevelResources(spec, ChildPath(path, "resources"), errors);
  ValidateHostNetworkPorts(spec, path, is_pod, errors);
  ValidateSchedulingFields(spec, path, errors);
  ValidateScalarFields(spec, path, errors);
  // Kubernetes validates overhead as the limits of a synthetic ResourceRequirements, hence
  // the ".limits" in its error paths.
  validation_internal::ValidateRequirementsWith(spec.overhead, {},
                                                &validation_internal::ValidateContainerResourceName,
                                                ChildPath(path, "overhead"), errors);
}

// Annotations with meaning for pods (and so for templates).
void ValidatePodSpecificAnnotations(const std::map<std::string, std::string>& annotations,
                                    const std::string& path, FieldErrors* errors) {
  auto cost = annotations.find(kPodDeletionCostAnnotation);
  if (cost == annotations.end()) return;
  // Go's strconv.ParseInt: no surrounding whitespace, must fit in 32 bits.
  int32_t parsed = 0;
  if (absl::StripAsciiWhitespace(cost->second) != cost->second ||
      !absl::SimpleAtoi(cost->second, &parsed)) {
    errors->Invalid(KeyPath(path, kPodDeletionCostAnnotation), Quote(cost->second),
                    "must be a 32bit integer");
  }
}

}  // namespace

void ValidatePodSpec(const PodSpec& spec, std::string_view path, FieldErrors* errors) {
  ValidatePodSpecImpl(spec, std::string(path), /*is_pod=*/false, errors);
}

void ValidatePodTemplateSpec(const PodTemplateSpec& pod_template, std::string_view path,
                             FieldErrors* errors) {
  // Kubernetes reports template metadata at "<template>.labels" / ".annotations".
  ValidateLabels(pod_template.metadata.labels, ChildPath(path, "labels"), errors);
  const std::string annotations_path = ChildPath(path, "annotations");
  ValidateAnnotations(pod_template.metadata.annotations, annotations_path, errors);
  ValidatePodSpecificAnnotations(pod_template.metadata.annotations, annotations_path, errors);
  ValidatePodSpecImpl(pod_template.spec, ChildPath(path, "spec"), /*is_pod=*/false, errors);
}

void ValidatePod(const Pod& pod, FieldErrors* errors) {
  ValidateObjectMeta(pod.metadata, /*namespaced=*/true, NameRule::kDns1123Subdomain, "metadata",
                     errors);
  ValidatePodSpecificAnnotations(pod.metadata.annotations, "metadata.annotations", errors);
  ValidatePodSpecImpl(pod.spec, "spec", /*is_pod=*/true, errors);
}

}  // namespace karpenter::api
