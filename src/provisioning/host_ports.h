// Host-port bookkeeping per node (upstream scheduling.HostPortUsage): an <IP, port, protocol>
// may be used once per node, and a wildcard IP (0.0.0.0 or ::) conflicts with every IP.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "karpenter/common/status.h"
#include "src/api/pod.h"

namespace karpenter::provisioning {

struct HostPort {
  std::string ip;  // "0.0.0.0" when the container leaves hostIP empty.
  int32_t port = 0;
  std::string protocol;  // "TCP" when left empty.

  // "IP=0.0.0.0 Port=80 Proto=TCP", as upstream prints it.
  std::string ToString() const;
  bool ConflictsWith(const HostPort& other) const;
};

// The host ports a pod's containers (init containers included) expose.
std::vector<HostPort> HostPortsOf(const api::Pod& pod);
std::vector<HostPort> HostPortsOf(const std::vector<api::ContainerPort>& ports);

class HostPortUsage {
 public:
  // FailedPrecondition naming the first conflicting pair.
  absl::Status Conflicts(const std::vector<HostPort>& ports) const;
  void Add(const std::vector<HostPort>& ports);

 private:
  std::vector<HostPort> used_;
};

}  // namespace karpenter::provisioning
