#include "src/provisioning/host_ports.h"

#include "fmt/format.h"

namespace karpenter::provisioning {
namespace {

bool IsWildcard(const std::string& ip) { return ip == "0.0.0.0" || ip == "::"; }

void Collect(const std::vector<api::ContainerPort>& ports, std::vector<HostPort>* out) {
  for (const api::ContainerPort& port : ports) {
    if (port.host_port == 0) continue;
    out->push_back(HostPort{port.host_ip.empty() ? "0.0.0.0" : port.host_ip, port.host_port,
                            port.protocol.empty() ? "TCP" : port.protocol});
  }
}

}  // namespace

std::string HostPort::ToString() const {
  return fmt::format("IP={} Port={} Proto={}", ip, port, protocol);
}

bool HostPort::ConflictsWith(const HostPort& other) const {
  if (port != other.port || protocol != other.protocol) return false;
  return ip == other.ip || IsWildcard(ip) || IsWildcard(other.ip);
}

std::vector<HostPort> HostPortsOf(const api::Pod& pod) {
  std::vector<HostPort> out;
  for (const api::Container& container : pod.spec.init_containers) Collect(container.ports, &out);
  for (const api::Container& container : pod.spec.containers) Collect(container.ports, &out);
  return out;
}

std::vector<HostPort> HostPortsOf(const std::vector<api::ContainerPort>& ports) {
  std::vector<HostPort> out;
  Collect(ports, &out);
  return out;
}

absl::Status HostPortUsage::Conflicts(const std::vector<HostPort>& ports) const {
  for (const HostPort& port : ports) {
    for (const HostPort& used : used_) {
      if (port.ConflictsWith(used)) {
        return absl::FailedPreconditionError(
            fmt::format("{} conflicts with existing HostPort configuration {}", port.ToString(),
                        used.ToString()));
      }
    }
  }
  return absl::OkStatus();
}

void HostPortUsage::Add(const std::vector<HostPort>& ports) {
  used_.insert(used_.end(), ports.begin(), ports.end());
}

}  // namespace karpenter::provisioning
