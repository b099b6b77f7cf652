// The production Clock (tools/check_banned.sh exempts real_*.cc from the real-clock rule).
#include "src/kube/real_clock.h"

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <queue>
#include <thread>
#include <vector>

namespace karpenter::kube {
namespace {

// Set on the timer thread of every RealClock.
thread_local bool t_runs_real_clock_timers = false;

class RealClock final : public Clock {
 public:
  RealClock() : origin_(std::chrono::steady_clock::now()), thread_([this] { Loop(); }) {}
  ~RealClock() override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stopping_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

  int64_t NowMillis() const override {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                 origin_)
        .count();
  }
  api::Time Now() const override {
    return api::Time::FromUnixNanos(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::system_clock::now().time_since_epoch())
                                        .count());
  }
  void After(int64_t delay_millis, std::function<void()> action) override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      timers_.push(
          Timer{NowMillis() + std::max<int64_t>(0, delay_millis), next_++, std::move(action)});
    }
    cv_.notify_all();
  }

 private:
  struct Timer {
    int64_t at;
    uint64_t sequence;
    std::function<void()> action;
  };
  struct Later {
    bool operator()(const Timer& a, const Timer& b) const {
      return a.at != b.at ? a.at > b.at : a.sequence > b.sequence;
    }
  };

  void Loop() {
    t_runs_real_clock_timers = true;
    std::unique_lock<std::mutex> lock(mu_);
    while (!stopping_) {
      if (timers_.empty()) {
        cv_.wait(lock);
        continue;
      }
      const int64_t wait = timers_.top().at - NowMillis();
      if (wait > 0) {
        cv_.wait_for(lock, std::chrono::milliseconds(wait));
        continue;
      }
      std::function<void()> action = timers_.top().action;
      timers_.pop();
      lock.unlock();
      action();
      lock.lock();
    }
  }

  const std::chrono::steady_clock::time_point origin_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::priority_queue<Timer, std::vector<Timer>, Later> timers_;
  uint64_t next_ = 0;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace

std::unique_ptr<Clock> NewRealClock() { return std::make_unique<RealClock>(); }

bool SleepIfRealClockTimerThread(int64_t delay_millis) {
  if (!t_runs_real_clock_timers) return false;
  if (delay_millis > 0) std::this_thread::sleep_for(std::chrono::milliseconds(delay_millis));
  return true;
}

}  // namespace karpenter::kube
