// A `moto_server` (the AWS emulator from the moto package) for integration tests: started on
// 127.0.0.1 with a port of its own choosing, ready once it says where it listens and answers
// /moto-api/, and killed with its process group when the fixture ends (and by the kernel if the
// test process dies first). Tests skip cleanly when python3 cannot import moto.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <regex>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "src/aws/aws_client.h"
#include "src/aws/endpoints.h"
#include "src/aws/environment.h"
#include "src/aws/real_http_transport.h"
#include "src/aws/test_fakes.h"

namespace karpenter::aws {

class MotoServer {
 public:
  // Starts moto; `error()` says why when `url()` is empty.
  MotoServer() { Start(); }
  ~MotoServer() { Stop(); }
  MotoServer(const MotoServer&) = delete;
  MotoServer& operator=(const MotoServer&) = delete;

  static bool Available() { return std::system("python3 -c 'import moto' >/dev/null 2>&1") == 0; }

  const std::string& url() const { return url_; }
  const std::string& error() const { return error_; }

 private:
  void Start() {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
      error_ = "pipe failed";
      return;
    }
    pid_ = fork();
    if (pid_ == 0) {
      setpgid(0, 0);
      prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlive the test
      dup2(fds[1], STDOUT_FILENO);
      dup2(fds[1], STDERR_FILENO);
      execlp("python3", "python3", "-m", "moto.server", "-H", "127.0.0.1", "-p", "0",
             static_cast<char*>(nullptr));
      _exit(127);
    }
    close(fds[1]);
    if (pid_ < 0) {
      close(fds[0]);
      error_ = "fork failed";
      return;
    }
    reader_ = std::thread([this, fd = fds[0]] { Drain(fd); });
    std::unique_lock<std::mutex> lock(mu_);
    // A cold python imports moto in 1-3 s; a minute means something is wrong, not slow.
    const bool ready = cv_.wait_for(lock, std::chrono::seconds(60), [this] {
      return eof_ || output_.find("Running on http://127.0.0.1:") != std::string::npos;
    });
    std::smatch match;
    static const std::regex kListening("Running on (http://127\\.0\\.0\\.1:[0-9]+)");
    if (!ready || !std::regex_search(output_, match, kListening)) {
      error_ = absl::StrCat("moto_server did not start: ", output_);
      return;
    }
    const std::string url = match[1];
    lock.unlock();
    auto transport = NewRealHttpTransport({.no_proxy = "*"});
    auto answer = transport->Send({.url = absl::StrCat(url, "/moto-api/")});
    if (!answer.ok() || answer->status != 200) {
      error_ = "moto_server does not answer /moto-api/";
      return;
    }
    url_ = url;
  }

  void Drain(int fd) {
    char buffer[4096];
    while (true) {
      const ssize_t n = read(fd, buffer, sizeof(buffer));
      std::lock_guard<std::mutex> lock(mu_);
      if (n <= 0) {
        eof_ = true;
        cv_.notify_all();
        break;
      }
      // Keep only the start: it holds the address; the request log after it can grow forever.
      if (output_.size() < 8192) output_.append(buffer, static_cast<size_t>(n));
      cv_.notify_all();
    }
    close(fd);
  }

  void Stop() {
    if (pid_ > 0) {
      kill(-pid_, SIGKILL);
      kill(pid_, SIGKILL);
      int status = 0;
      waitpid(pid_, &status, 0);
    }
    if (reader_.joinable()) reader_.join();
  }

  pid_t pid_ = -1;
  std::string url_;
  std::string error_;
  std::thread reader_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::string output_;
  bool eof_ = false;
};

// One moto per test (ctest runs every test in its own process), plus clients pointed at it through
// AWS_ENDPOINT_URL exactly as a user would point the provider at another endpoint.
class MotoTest : public testing::Test {
 protected:
  void SetUp() override {
    if (!MotoServer::Available()) GTEST_SKIP() << "python3 cannot import moto";
    moto_ = std::make_unique<MotoServer>();
    ASSERT_FALSE(moto_->url().empty()) << moto_->error();
    env_ = std::make_unique<MapEnvironment>(
        std::map<std::string, std::string, std::less<>>{{"AWS_ENDPOINT_URL", moto_->url()}});
  }

  AwsClient Client(const ServiceId& service, const std::string& region = "us-west-2") {
    auto endpoint = ResolveEndpoint(*env_, service, region);
    EXPECT_TRUE(endpoint.ok()) << endpoint.status();
    return AwsClient(AwsContext{*transport_, credentials_, clock_, random_, quota_}, *endpoint);
  }

  std::unique_ptr<MotoServer> moto_;
  std::unique_ptr<MapEnvironment> env_;
  std::unique_ptr<HttpTransport> transport_ = NewRealHttpTransport({.no_proxy = "*"});
  StaticCredentialsProvider credentials_{
      Credentials{.access_key_id = "AKIDMOTO", .secret_access_key = "moto-secret"}};
  FakeClock clock_;
  FakeRandom random_;
  RetryQuota quota_;
};

}  // namespace karpenter::aws
