// The controller's allocator setting. jemalloc keeps freed pages for 10 s before it gives them
// back to the kernel (its default dirty decay), per arena, and each of the controller's threads
// (informers, the controllers' timer thread, AWS calls) allocates from an arena of its own: a
// burst of pending pods then leaves several arenas' worth of freed pages resident at once. The
// 1,000-pod burst measured 79-102 MB of peak RSS that way and 65-75 MB with pages returned at
// once, for the same CPU (docs/benchmarks.md).
#pragma once

#include "absl/status/status.h"

namespace karpenter::cli {

// Makes every arena, present and future, return freed pages at once. OK and nothing done when
// the binary does not allocate through jemalloc (sanitizer builds, -DKP_JEMALLOC=OFF).
absl::Status ReturnFreedPagesAtOnce();

}  // namespace karpenter::cli
