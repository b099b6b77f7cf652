#include "src/provisioning/room_index.h"

#include <algorithm>

namespace karpenter::provisioning {
namespace {

// Below any footprint a pod can ask (requests are never negative).
constexpr ResourceFootprint kNoRoom = {-1, -1, -1};

// Footprints count milli-units: millicores and millibytes.
constexpr double kMilliBytesPerGib = 1024.0 * 1024 * 1024 * 1000;
constexpr double kMilliCpuPerCore = 1000;

}  // namespace

// Rounding to double is monotone, so a room at least the need in cpu and memory scores at least
// the need's score at every ratio, as the pruning requires.
RoomIndex::Summary RoomIndex::Of(const ResourceFootprint& room) {
  Summary summary{.max = room, .balanced = {}};
  for (size_t k = 0; k < kGibPerCore.size(); ++k) {
    const double ratio = kGibPerCore[k] * kMilliBytesPerGib / kMilliCpuPerCore;
    summary.balanced[k] =
        std::min(static_cast<double>(room.cpu) * ratio, static_cast<double>(room.memory));
  }
  return summary;
}

RoomIndex::Summary RoomIndex::Larger(const Summary& a, const Summary& b) {
  Summary larger{.max = {std::max(a.max.cpu, b.max.cpu), std::max(a.max.memory, b.max.memory),
                         std::max(a.max.pods, b.max.pods)},
                 .balanced = {}};
  for (size_t k = 0; k < kGibPerCore.size(); ++k) {
    larger.balanced[k] = std::max(a.balanced[k], b.balanced[k]);
  }
  return larger;
}

bool RoomIndex::MayHold(const Summary& range, const Summary& need) {
  if (need.max.cpu > range.max.cpu || need.max.memory > range.max.memory ||
      need.max.pods > range.max.pods) {
    return false;
  }
  for (size_t k = 0; k < kGibPerCore.size(); ++k) {
    if (need.balanced[k] > range.balanced[k]) return false;
  }
  return true;
}

RoomIndex::RoomIndex(std::span<const ResourceFootprint> rooms) : size_(rooms.size()) {
  leaves_ = 1;
  while (leaves_ < size_) leaves_ *= 2;
  tree_.assign(2 * leaves_, Of(kNoRoom));
  for (size_t i = 0; i < rooms.size(); ++i) tree_[leaves_ + i] = Of(rooms[i]);
  for (size_t node = leaves_ - 1; node >= 1; --node) {
    tree_[node] = Larger(tree_[2 * node], tree_[2 * node + 1]);
  }
}

void RoomIndex::Set(size_t index, const ResourceFootprint& room) {
  size_t node = leaves_ + index;
  tree_[node] = Of(room);
  for (node /= 2; node >= 1; node /= 2) {
    tree_[node] = Larger(tree_[2 * node], tree_[2 * node + 1]);
  }
}

void RoomIndex::Close(size_t index) { Set(index, kNoRoom); }

size_t RoomIndex::FirstFit(size_t from, const ResourceFootprint& need) const {
  return from >= size_ ? size_ : Search(1, 0, leaves_, from, Of(need));
}

// Depth first, left to right, into the ranges at or after `from` that may hold `need`. A range
// may pass with no single node that holds it all (the summaries are maxima over its nodes):
// hence the search backtracks instead of following one path down. At a leaf the test is exact.
size_t RoomIndex::Search(size_t node, size_t begin, size_t end, size_t from,
                         const Summary& need) const {
  if (end <= from || begin >= size_ || !MayHold(tree_[node], need)) return size_;
  if (node >= leaves_) return begin;
  const size_t middle = begin + (end - begin) / 2;
  const size_t left = Search(2 * node, begin, middle, from, need);
  return left != size_ ? left : Search(2 * node + 1, middle, end, from, need);
}

}  // namespace karpenter::provisioning
