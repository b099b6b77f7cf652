// Upstream: sigs.k8s.io/controller-runtime pkg/internal/controller (reconcileHandler) and
// awslabs/operatorpkg singleton. Runs reconcilers on the Clock seam:
//   - KeyedController pulls keys from a WorkQueue, one reconcile at a time on the controllers'
//     thread, and requeues each by its result as controller-runtime does: an error → rate
//     limited retry; `requeue_after` → forget failures and come back then; `requeue` → rate
//     limited; otherwise forget;
//   - SingletonLoop runs one reconcile over and over: after `requeue_after`, or with the
//     exponential backoff after an error.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "karpenter/clock.h"
#include "karpenter/common/status.h"
#include "src/controllers/work_queue.h"

namespace karpenter::controllers {

struct ReconcileResult {
  std::optional<int64_t> requeue_after_millis;
  bool requeue = false;
};

// Where reconcile errors go besides the retry (the controller host logs them, as
// controller-runtime logs "Reconciler error"); none by default. Set before the controllers run;
// called on their thread.
using ReconcileErrorHandler =
    std::function<void(const std::string& controller, const std::string& key, const absl::Status&)>;
void SetReconcileErrorHandler(ReconcileErrorHandler handler);
void ReportReconcileError(const std::string& controller, const std::string& key,
                          const absl::Status& error);

// Every reconcile's outcome, as controller-runtime counts them: `result` is "success", "error",
// "requeue" or "requeue_after", `seconds` the time it took on the Clock. The controller host
// turns them into controller_runtime_reconcile_* metrics; none by default. Set before the
// controllers run; called on their thread.
using ReconcileObserver =
    std::function<void(const std::string& controller, std::string_view result, double seconds)>;
void SetReconcileObserver(ReconcileObserver observer);

class KeyedController {
 public:
  using Reconcile = std::function<absl::StatusOr<ReconcileResult>(const std::string& key)>;

  KeyedController(std::string name, Clock& clock, Reconcile reconcile, RateLimits limits = {});

  void Enqueue(const std::string& key) { queue_.Add(key); }
  void EnqueueAfter(const std::string& key, int64_t delay_millis) {
    queue_.AddAfter(key, delay_millis);
  }

  const std::string& name() const { return name_; }
  const WorkQueue& queue() const { return queue_; }
  uint64_t reconciles() const { return reconciles_; }
  uint64_t errors() const { return errors_; }

 private:
  void ScheduleDrain();
  void Drain();

  std::string name_;
  Clock& clock_;
  Reconcile reconcile_;
  WorkQueue queue_;
  bool drain_scheduled_ = false;
  uint64_t reconciles_ = 0;
  uint64_t errors_ = 0;
};

class SingletonLoop {
 public:
  using Reconcile = std::function<absl::StatusOr<ReconcileResult>()>;

  SingletonLoop(std::string name, Clock& clock, Reconcile reconcile, RateLimits limits = {});

  // Runs the first reconcile after `delay_millis`; later ones follow from each result.
  void Start(int64_t delay_millis = 0);
  // Runs no more reconciles (one already due returns at once).
  void Stop() { stopped_ = true; }

  const std::string& name() const { return name_; }
  uint64_t reconciles() const { return reconciles_; }
  uint64_t errors() const { return errors_; }

 private:
  void Run();

  std::string name_;
  Clock& clock_;
  Reconcile reconcile_;
  RateLimiter limiter_;
  bool started_ = false;
  bool stopped_ = false;
  uint64_t reconciles_ = 0;
  uint64_t errors_ = 0;
};

}  // namespace karpenter::controllers
