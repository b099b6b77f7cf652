#include "src/controllers/reconciler.h"

#include <utility>

namespace karpenter::controllers {

namespace {
constexpr char kSingletonKey[] = "singleton";
}  // namespace

KeyedController::KeyedController(std::string name, Clock& clock, Reconcile reconcile,
                                 RateLimits limits)
    : name_(std::move(name)),
      clock_(clock),
      reconcile_(std::move(reconcile)),
      queue_(clock, limits, [this] { ScheduleDrain(); }) {}

void KeyedController::ScheduleDrain() {
  if (drain_scheduled_) return;
  drain_scheduled_ = true;
  clock_.After(0, [this] { Drain(); });
}

namespace {

ReconcileErrorHandler& Handler() {
  static ReconcileErrorHandler handler;
  return handler;
}

ReconcileObserver& Observer() {
  static ReconcileObserver observer;
  return observer;
}

// Calls `reconcile` and tells the observer how it went and how long it took.
template <class Reconcile>
auto Observed(const std::string& controller, const Clock& clock, Reconcile&& reconcile) {
  const api::Time start = clock.Now();
  absl::StatusOr<ReconcileResult> result = reconcile();
  if (Observer()) {
    std::string_view outcome = "success";
    if (!result.ok()) {
      outcome = "error";
    } else if (result->requeue_after_millis && *result->requeue_after_millis > 0) {
      outcome = "requeue_after";
    } else if (result->requeue) {
      outcome = "requeue";
    }
    Observer()(controller, outcome, static_cast<double>((clock.Now() - start).Nanos()) / 1e9);
  }
  return result;
}

}  // namespace

void SetReconcileErrorHandler(ReconcileErrorHandler handler) { Handler() = std::move(handler); }

void SetReconcileObserver(ReconcileObserver observer) { Observer() = std::move(observer); }

void ReportReconcileError(const std::string& controller, const std::string& key,
                          const absl::Status& error) {
  if (Handler()) Handler()(controller, key, error);
}

// Processes every key ready now, one after the other: what a worker does while its queue has
// items. Keys requeued with a delay come back through the queue's timers.
void KeyedController::Drain() {
  drain_scheduled_ = false;
  while (std::optional<std::string> key = queue_.Get()) {
    ++reconciles_;
    absl::StatusOr<ReconcileResult> result =
        Observed(name_, clock_, [&] { return reconcile_(*key); });
    if (!result.ok()) {
      ++errors_;
      ReportReconcileError(name_, *key, result.status());
      queue_.AddRateLimited(*key);
    } else if (result->requeue_after_millis && *result->requeue_after_millis > 0) {
      queue_.Forget(*key);
      queue_.AddAfter(*key, *result->requeue_after_millis);
    } else if (result->requeue) {
      queue_.AddRateLimited(*key);
    } else {
      queue_.Forget(*key);
    }
    queue_.Done(*key);
  }
}

SingletonLoop::SingletonLoop(std::string name, Clock& clock, Reconcile reconcile, RateLimits limits)
    : name_(std::move(name)),
      clock_(clock),
      reconcile_(std::move(reconcile)),
      limiter_(clock, limits) {}

void SingletonLoop::Start(int64_t delay_millis) {
  if (started_) return;
  started_ = true;
  clock_.After(delay_millis, [this] { Run(); });
}

void SingletonLoop::Run() {
  if (stopped_) return;
  ++reconciles_;
  absl::StatusOr<ReconcileResult> result = Observed(name_, clock_, [&] { return reconcile_(); });
  int64_t delay = 0;
  if (!result.ok()) {
    ++errors_;
    ReportReconcileError(name_, "", result.status());
    delay = limiter_.When(kSingletonKey);
  } else {
    limiter_.Forget(kSingletonKey);
    delay = result->requeue_after_millis.value_or(0);
  }
  clock_.After(delay, [this] { Run(); });
}

}  // namespace karpenter::controllers
