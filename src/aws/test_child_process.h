// A helper process of an integration test (moto_server, the fault proxy): started in a process
// group of its own, ready once its output names where it listens, and killed with its group when
// the object goes (and by the kernel if the test process dies first).
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <regex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"

namespace karpenter::aws {

class TestChildProcess {
 public:
  // Runs `argv` (searched on PATH) and waits up to `wait` for its output to match `ready`, a
  // regular expression whose first group is what `address()` returns; empty, with `error()`
  // saying why, when it does not.
  TestChildProcess(const std::vector<std::string>& argv, const std::string& ready,
                   std::chrono::seconds wait) {
    Start(argv, std::regex(ready), wait);
  }
  ~TestChildProcess() { Stop(); }
  TestChildProcess(const TestChildProcess&) = delete;
  TestChildProcess& operator=(const TestChildProcess&) = delete;

  const std::string& address() const { return address_; }
  const std::string& error() const { return error_; }

 private:
  void Start(const std::vector<std::string>& argv, const std::regex& ready,
             std::chrono::seconds wait) {
    int fds[2];
    if (argv.empty() || pipe2(fds, O_CLOEXEC) != 0) {
      error_ = "no command, or pipe failed";
      return;
    }
    std::vector<char*> args;
    for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
    args.push_back(nullptr);
    pid_ = fork();
    if (pid_ == 0) {
      setpgid(0, 0);
      prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlive the test
      dup2(fds[1], STDOUT_FILENO);
      dup2(fds[1], STDERR_FILENO);
      execvp(args[0], args.data());
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
    std::smatch match;
    const bool found =
        cv_.wait_for(lock, wait, [&] { return eof_ || std::regex_search(output_, match, ready); });
    if (!found || match.empty()) {
      error_ = absl::StrCat(argv[0], " did not start: ", output_);
      return;
    }
    address_ = match[1];
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
      // Keep only the start: it holds the address; a request log after it can grow forever.
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
  std::string address_;
  std::string error_;
  std::thread reader_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::string output_;
  bool eof_ = false;
};

}  // namespace karpenter::aws
