// Threads that run tasks for the twin's thread, which collects their results later (the
// disruption controller's background polls). Tasks start in the order given; a task must own
// or share everything it touches, since the pool outlives nothing it is given.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace karpenter::sim {

class WorkerPool {
 public:
  // The threads start with the first task: a pool given none costs nothing.
  explicit WorkerPool(size_t threads) : size_(threads) {}
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;
  // Runs the tasks still queued, then joins the threads.
  ~WorkerPool();

  // The task, and whatever it captured, is destroyed on the worker thread once it has run.
  void Run(std::function<void()> task);

 private:
  void Work();

  const size_t size_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> tasks_;  // guarded by mutex_
  bool stopping_ = false;                    // guarded by mutex_
  std::vector<std::thread> threads_;
};

}  // namespace karpenter::sim
