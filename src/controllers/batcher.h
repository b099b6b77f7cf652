// Upstream: kubernetes-sigs/karpenter pkg/controllers/provisioning/batcher.go. Provisioning
// waits for pods to stop arriving before it solves: the first trigger opens a window that closes
// once no new pod has arrived for the idle duration (BATCH_IDLE_DURATION, 1 s) or the window
// has been open for the maximum (BATCH_MAX_DURATION, 10 s). A trigger repeating a pod UID the
// window has already seen does not extend it.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "karpenter/clock.h"

namespace karpenter::controllers {

class Batcher {
 public:
  // Each duration is asked for when it starts: a fixed setting in the controller, a draw from
  // the latency model in the twin (in the order idle, then max, as a window opens).
  using Duration = std::function<int64_t()>;
  // Called as the window closes, with how long it was open.
  using OnClose = std::function<void(int64_t window_millis)>;

  Batcher(Clock& clock, Duration idle, Duration max, OnClose on_close);

  // A pod needs capacity. `uid` identifies it; without one every trigger extends the window.
  void Trigger(std::optional<std::string_view> uid = std::nullopt);

  bool open() const { return open_; }

 private:
  void Check();

  Clock& clock_;
  Duration idle_;
  Duration max_;
  OnClose on_close_;
  bool open_ = false;
  int64_t started_ = 0;
  int64_t idle_until_ = 0;
  int64_t max_until_ = 0;
  std::set<std::string, std::less<>> seen_;
};

}  // namespace karpenter::controllers
