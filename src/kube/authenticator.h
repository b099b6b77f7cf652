// The credential each request carries: the kubeconfig's fixed token or client certificate, a
// token file re-read so rotations are seen, or an exec plugin's credential cached until its
// expirationTimestamp and run again after the server answers 401. Thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>

#include "karpenter/clock.h"
#include "src/kube/exec_plugin.h"
#include "src/kube/rest_config.h"

namespace karpenter::kube {

class Authenticator {
 public:
  using Runner = std::function<absl::StatusOr<Credential>(const RestConfig&)>;

  // `run_plugin` is the exec plugin runner (tests count its calls).
  Authenticator(RestConfig config, Clock& clock, Runner run_plugin = &RunExecPlugin);

  // The credential for the next request (empty when the config has none).
  absl::StatusOr<Credential> Current();
  // The server rejected `Current()`'s credential: the next call reads or runs it again.
  void Invalidate();

  // A token file is read again at most once a minute, as client-go does.
  static constexpr int64_t kTokenFileRefreshMillis = 60'000;

 private:
  absl::StatusOr<Credential> FromTokenFile();
  absl::StatusOr<Credential> FromPlugin();

  const RestConfig config_;
  Clock& clock_;
  const Runner run_plugin_;
  std::mutex mu_;
  std::optional<Credential> cached_;
  int64_t read_at_millis_ = 0;
};

}  // namespace karpenter::kube
