#include "src/provisioning/room_index.h"

#include <algorithm>

namespace karpenter::provisioning {
namespace {

// Below any footprint a pod can ask (requests are never negative).
constexpr ResourceFootprint kNoRoom = {-1, -1, -1};

ResourceFootprint Larger(const ResourceFootprint& a, const ResourceFootprint& b) {
  return {std::max(a.cpu, b.cpu), std::max(a.memory, b.memory), std::max(a.pods, b.pods)};
}

bool Holds(const ResourceFootprint& room, const ResourceFootprint& need) {
  return need.cpu <= room.cpu && need.memory <= room.memory && need.pods <= room.pods;
}

}  // namespace

RoomIndex::RoomIndex(std::span<const ResourceFootprint> rooms) : size_(rooms.size()) {
  leaves_ = 1;
  while (leaves_ < size_) leaves_ *= 2;
  max_.assign(2 * leaves_, kNoRoom);
  std::copy(rooms.begin(), rooms.end(), max_.begin() + static_cast<ptrdiff_t>(leaves_));
  for (size_t node = leaves_ - 1; node >= 1; --node) {
    max_[node] = Larger(max_[2 * node], max_[2 * node + 1]);
  }
}

void RoomIndex::Set(size_t index, const ResourceFootprint& room) {
  size_t node = leaves_ + index;
  max_[node] = room;
  for (node /= 2; node >= 1; node /= 2) {
    max_[node] = Larger(max_[2 * node], max_[2 * node + 1]);
  }
}

void RoomIndex::Close(size_t index) { Set(index, kNoRoom); }

size_t RoomIndex::FirstFit(size_t from, const ResourceFootprint& need) const {
  return from >= size_ ? size_ : Search(1, 0, leaves_, from, need);
}

// Depth first, left to right, into the ranges at or after `from` whose maxima hold `need`. The
// maxima are per resource, so a range may pass with no single node that holds it all: hence
// the search backtracks instead of following one path down.
size_t RoomIndex::Search(size_t node, size_t begin, size_t end, size_t from,
                         const ResourceFootprint& need) const {
  if (end <= from || begin >= size_ || !Holds(max_[node], need)) return size_;
  if (node >= leaves_) return begin;
  const size_t middle = begin + (end - begin) / 2;
  const size_t left = Search(2 * node, begin, middle, from, need);
  return left != size_ ? left : Search(2 * node + 1, middle, end, from, need);
}

}  // namespace karpenter::provisioning
