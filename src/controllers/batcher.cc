#include "src/controllers/batcher.h"

#include <algorithm>
#include <utility>

namespace karpenter::controllers {

Batcher::Batcher(Clock& clock, Duration idle, Duration max, OnClose on_close)
    : clock_(clock), idle_(std::move(idle)), max_(std::move(max)), on_close_(std::move(on_close)) {}

void Batcher::Trigger(std::optional<std::string_view> uid) {
  if (uid) {
    if (open_ && seen_.contains(*uid)) return;
    seen_.emplace(*uid);
  }
  const int64_t now = clock_.NowMillis();
  idle_until_ = now + idle_();
  if (open_) return;
  open_ = true;
  started_ = now;
  max_until_ = now + max_();
  clock_.After(std::min(idle_until_, max_until_) - now, [this] { Check(); });
}

void Batcher::Check() {
  const int64_t now = clock_.NowMillis();
  if (now < idle_until_ && now < max_until_) {
    clock_.After(std::min(idle_until_, max_until_) - now, [this] { Check(); });
    return;
  }
  open_ = false;
  seen_.clear();
  on_close_(now - started_);
}

}  // namespace karpenter::controllers
