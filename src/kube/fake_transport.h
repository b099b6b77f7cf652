// A scripted Transport for tests: answers queued per "METHOD path-prefix", every request and the
// token it carried recorded, and watch streams served from queued lines.
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "src/kube/transport.h"

namespace karpenter::kube::testing {

class FakeTransport : public Transport {
 public:
  struct Sent {
    Request request;
    std::string token;
  };

  // The next request whose "METHOD path" starts with `prefix` gets `response` (queued in order;
  // the longest matching prefix wins).
  void Answer(std::string prefix, int status, std::string body) {
    std::lock_guard<std::mutex> lock(mu_);
    answers_[std::move(prefix)].push_back(Response{status, std::move(body)});
  }
  // The next watch gets these lines, then ends (or gets `status` with `body` when not 200).
  void AnswerWatch(std::vector<std::string> lines, int status = 200, std::string body = {}) {
    std::lock_guard<std::mutex> lock(mu_);
    watches_.push_back(Watch{std::move(lines), status, std::move(body)});
  }
  // The next watch gets these lines, then `meanwhile` runs (a test advances its clock), then
  // the connection breaks (a transport error).
  void CutWatch(std::vector<std::string> lines, std::function<void()> meanwhile = {}) {
    std::lock_guard<std::mutex> lock(mu_);
    watches_.push_back(Watch{std::move(lines), 200, {}, /*cut=*/true, std::move(meanwhile)});
  }

  absl::StatusOr<Response> Send(const Request& request, const Credential& credential) override {
    std::lock_guard<std::mutex> lock(mu_);
    sent_.push_back(Sent{request, credential.token});
    const std::string line = request.method + " " + request.path;
    auto best = answers_.end();
    for (auto it = answers_.begin(); it != answers_.end(); ++it) {
      if (!it->second.empty() && line.rfind(it->first, 0) == 0 &&
          (best == answers_.end() || it->first.size() > best->first.size())) {
        best = it;
      }
    }
    if (best == answers_.end()) return absl::UnavailableError("no scripted answer for " + line);
    Response response = best->second.front();
    best->second.pop_front();
    return response;
  }

  absl::StatusOr<Response> Stream(const Request& request, const Credential& credential,
                                  const std::function<bool(std::string_view)>& on_line,
                                  const std::atomic<bool>&) override {
    Watch watch;
    {
      std::lock_guard<std::mutex> lock(mu_);
      sent_.push_back(Sent{request, credential.token});
      if (watches_.empty()) return absl::UnavailableError("no scripted watch");
      watch = std::move(watches_.front());
      watches_.pop_front();
    }
    if (watch.status != 200) return Response{watch.status, watch.body};
    for (const std::string& line : watch.lines) {
      if (!on_line(line)) break;
    }
    if (watch.meanwhile) watch.meanwhile();
    if (watch.cut) return absl::UnavailableError("connection cut");
    return Response{200, ""};
  }

  std::vector<Sent> sent() const {
    std::lock_guard<std::mutex> lock(mu_);
    return sent_;
  }

 private:
  struct Watch {
    std::vector<std::string> lines;
    int status = 200;
    std::string body;
    bool cut = false;
    std::function<void()> meanwhile;
  };
  mutable std::mutex mu_;
  std::map<std::string, std::deque<Response>> answers_;
  std::deque<Watch> watches_;
  std::vector<Sent> sent_;
};

}  // namespace karpenter::kube::testing
