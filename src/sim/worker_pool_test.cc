#include "src/sim/worker_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <memory>
#include <thread>

namespace karpenter::sim {
namespace {

// Records the thread that destroys it.
struct Capture {
  std::thread::id* destroyed_on;
  ~Capture() { *destroyed_on = std::this_thread::get_id(); }
};

// A task runs off the calling thread, and what it captured is freed there too (the background
// polls free their 1,000-node inputs on the worker).
TEST(WorkerPool, RunsTasksAndFreesTheirCapturesOnTheWorker) {
  std::thread::id ran_on;
  std::thread::id destroyed_on;
  std::promise<void> ran;
  {
    WorkerPool pool(1);
    auto capture = std::make_shared<Capture>(Capture{&destroyed_on});
    pool.Run([&ran_on, &ran, capture = std::move(capture)] {
      ran_on = std::this_thread::get_id();
      ran.set_value();
    });
    ran.get_future().wait();
  }  // joins: the capture is gone by now
  EXPECT_NE(ran_on, std::this_thread::get_id());
  EXPECT_EQ(destroyed_on, ran_on);
}

// Destroying the pool runs what is still queued before it joins.
TEST(WorkerPool, DestroyingThePoolRunsTheQueuedTasks) {
  std::atomic<int> done = 0;
  {
    WorkerPool pool(2);
    for (int i = 0; i < 50; ++i) pool.Run([&done] { ++done; });
  }
  EXPECT_EQ(done.load(), 50);
}

}  // namespace
}  // namespace karpenter::sim
