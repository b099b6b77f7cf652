// The fault proxy of the AWS integration tests (src/aws/testdata/fault_proxy.py) in front of a
// moto_server: faults on the wire (throttling, 5xx, a load balancer's HTML page, slow answers,
// connections closed before or after the service acted, truncated answers) for chosen operations,
// and EC2's ClientToken idempotency, which moto lacks.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "src/aws/real_http_transport.h"
#include "src/aws/test_child_process.h"

namespace karpenter::aws {

struct WireFault {
  std::string operation;  // a query Action or JSON operation; "" for every request
  // throttle, server_error, bad_gateway, slow, close, lose_answer, truncate, respond
  std::string kind;
  int times = -1;            // how many matching requests; negative for all
  double delay_seconds = 0;  // for "slow"
  int status = 200;          // for "respond": the answer in place of the service's
  std::string body;
};

// A request as the proxy saw it.
struct ProxiedRequest {
  std::string operation;
  std::string fault;  // the fault it met, "replayed", or "" when forwarded untouched
  bool forwarded = false;
};

class FaultProxy {
 public:
  explicit FaultProxy(const std::string& target)
      : process_({"python3", KP_SOURCE_DIR "/src/aws/testdata/fault_proxy.py", "--target", target},
                 "fault proxy listening on (http://127\\.0\\.0\\.1:[0-9]+)",
                 std::chrono::seconds(30)) {}

  const std::string& url() const { return process_.address(); }
  const std::string& error() const { return process_.error(); }

  void Add(const WireFault& fault) {
    const nlohmann::json rule = {{"operation", fault.operation}, {"kind", fault.kind},
                                 {"times", fault.times},         {"delay", fault.delay_seconds},
                                 {"status", fault.status},       {"body", fault.body}};
    Control("POST", "/fault-proxy/rules", rule.dump());
  }
  void Clear() { Control("DELETE", "/fault-proxy/rules", ""); }

  // Every request the proxy has seen, in order.
  std::vector<ProxiedRequest> Log() {
    std::vector<ProxiedRequest> out;
    const std::string body = Control("GET", "/fault-proxy/log", "");
    const nlohmann::json log = nlohmann::json::parse(body, nullptr, false);
    if (!log.is_array()) {
      ADD_FAILURE() << "the fault proxy's log is not a JSON list: " << body;
      return out;
    }
    for (const nlohmann::json& entry : log) {
      out.push_back({.operation = entry.value("operation", ""),
                     .fault = entry.value("fault", ""),
                     .forwarded = entry.value("forwarded", false)});
    }
    return out;
  }

 private:
  std::string Control(const std::string& method, const std::string& path, std::string body) {
    auto answer = transport_->Send(
        {.method = method, .url = absl::StrCat(url(), path), .body = std::move(body)});
    if (!answer.ok() || answer->status / 100 != 2) {
      ADD_FAILURE() << method << " " << path << " to the fault proxy failed: "
                    << (answer.ok() ? answer->body : answer.status().ToString());
      return "";
    }
    return answer->body;
  }

  TestChildProcess process_;
  std::unique_ptr<HttpTransport> transport_ = NewRealHttpTransport({.no_proxy = "*"});
};

}  // namespace karpenter::aws
