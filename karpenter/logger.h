// The log seam: upstream's structured log lines, the ones operators grep `kubectl logs` for
// ("launched nodeclaim", "tainted node", "disrupting node(s)", ...). Controllers say what
// happened in upstream's words and keys; the host chooses the encoding (the controller writes
// zap-style JSON lines). Only what upstream logs at info level goes through here: failures are
// reconcile errors, and what the cluster should see are Events.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace karpenter {

struct LogField {
  // Upstream's key. A Kubernetes kind ("NodeClaim", "Node", "NodePool") names that object, as
  // upstream's klog.KObj does; hosts may render it as upstream's {"name": ...}.
  std::string key;
  std::string value;
  friend bool operator==(const LogField&, const LogField&) = default;
};

class Logger {
 public:
  virtual ~Logger() = default;
  // One informational line. Called on the controllers' thread.
  virtual void Info(std::string_view message, const std::vector<LogField>& fields) = 0;
};

}  // namespace karpenter
