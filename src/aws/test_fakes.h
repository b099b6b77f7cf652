// Fakes of the AWS provider's seams for tests: a clock that moves only when told (and when
// something sleeps on it), a thread-safe clock whose sleepers wait for the test to move time, a
// fixed `Random`, a transport that answers from a script and logs what it was sent, fixed
// credentials.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "src/aws/clock.h"
#include "src/aws/credentials.h"
#include "src/aws/http.h"

namespace karpenter::aws {

class FakeClock final : public Clock {
 public:
  explicit FakeClock(absl::Time now = absl::FromUnixSeconds(1'800'000'000)) : now_(now) {}
  absl::Time Now() override { return now_; }
  void SleepFor(absl::Duration duration) override {
    sleeps_.push_back(duration);
    now_ += duration;
  }
  void Advance(absl::Duration duration) { now_ += duration; }
  const std::vector<absl::Duration>& sleeps() const { return sleeps_; }

 private:
  absl::Time now_;
  std::vector<absl::Duration> sleeps_;
};

// A clock whose sleepers wait until the test moves time past their wake-up.
class ManualClock final : public Clock {
 public:
  absl::Time Now() override {
    std::lock_guard<std::mutex> lock(mu_);
    return now_;
  }
  void SleepFor(absl::Duration duration) override {
    std::unique_lock<std::mutex> lock(mu_);
    const absl::Time wake = now_ + duration;
    ++sleepers_;
    cv_.wait(lock, [&] { return now_ >= wake; });
    --sleepers_;
  }
  void Advance(absl::Duration duration) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      now_ += duration;
    }
    cv_.notify_all();
  }
  int sleepers() {
    std::lock_guard<std::mutex> lock(mu_);
    return sleepers_;
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  absl::Time now_ = absl::FromUnixSeconds(1'800'000'000);
  int sleepers_ = 0;
};

// Spins (yielding) until `done` holds: threads under test are driven by a ManualClock, not by
// the wall clock, so there is nothing to sleep on.
template <typename Predicate>
void WaitUntil(Predicate done) {
  while (!done()) std::this_thread::yield();
}

class FakeRandom final : public Random {
 public:
  explicit FakeRandom(double value = 0.5) : value_(value) {}
  double Uniform01() override { return value_; }

 private:
  double value_;
};

class FakeTransport final : public HttpTransport {
 public:
  using Handler = std::function<absl::StatusOr<HttpResponse>(const HttpRequest&)>;

  // Answers in order; once the script is used up, every call gets `fallback`.
  void Push(absl::StatusOr<HttpResponse> response) { script_.push_back(std::move(response)); }
  void Push(int status, std::string body, HttpHeaders headers = {}) {
    Push(HttpResponse{.status = status, .headers = std::move(headers), .body = std::move(body)});
  }
  // Answers by looking at the request; takes precedence over the script.
  void SetHandler(Handler handler) { handler_ = std::move(handler); }

  absl::StatusOr<HttpResponse> Send(const HttpRequest& request) override {
    requests_.push_back(request);
    if (handler_) return handler_(request);
    if (script_.empty()) return absl::UnavailableError("fake transport: no scripted answer");
    absl::StatusOr<HttpResponse> next = std::move(script_.front());
    script_.pop_front();
    return next;
  }
  const std::vector<HttpRequest>& requests() const { return requests_; }

 private:
  std::deque<absl::StatusOr<HttpResponse>> script_;
  std::vector<HttpRequest> requests_;
  Handler handler_;
};

class StaticCredentialsProvider final : public CredentialsProvider {
 public:
  explicit StaticCredentialsProvider(Credentials credentials)
      : credentials_(std::move(credentials)) {}
  absl::StatusOr<Credentials> Get() override { return credentials_; }

 private:
  Credentials credentials_;
};

}  // namespace karpenter::aws
