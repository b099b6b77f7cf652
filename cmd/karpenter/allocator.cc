#include "cmd/karpenter/allocator.h"

#ifdef KP_HAVE_JEMALLOC
#include <jemalloc/jemalloc.h>
#include <sys/types.h>

#include <string>

#include "absl/strings/str_cat.h"
#endif

namespace karpenter::cli {

absl::Status ReturnFreedPagesAtOnce() {
#ifdef KP_HAVE_JEMALLOC
  // "arenas.*" is the default of arenas made later; "arena.<all>.*" sets the ones that exist.
  const std::string all = absl::StrCat("arena.", MALLCTL_ARENAS_ALL, ".");
  for (const std::string& name :
       {std::string("arenas.dirty_decay_ms"), std::string("arenas.muzzy_decay_ms"),
        absl::StrCat(all, "dirty_decay_ms"), absl::StrCat(all, "muzzy_decay_ms")}) {
    ssize_t zero = 0;
    if (const int rc = mallctl(name.c_str(), nullptr, nullptr, &zero, sizeof(zero)); rc != 0) {
      return absl::InternalError(absl::StrCat("jemalloc refused ", name, " = 0 (error ", rc, ")"));
    }
  }
#endif
  return absl::OkStatus();
}

}  // namespace karpenter::cli
