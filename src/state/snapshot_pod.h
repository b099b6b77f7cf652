// A snapshot's pods are held by pointer (SharedPod) so that successive snapshots of a host whose
// pods change a few at a time share the unchanged ones; PodSpan reads them as `const api::Pod&`.
#pragma once

#include <compare>
#include <cstddef>
#include <iterator>
#include <memory>

#include "src/api/manifest.h"

namespace karpenter::state {

// What a bound pod takes of its node, as scheduler inputs charge it.
struct PodCharge {
  api::ResourceList requests;  // api::PodRequests
  bool terminal = false;       // Succeeded or Failed: takes nothing any more
  bool daemon = false;         // owned by a DaemonSet
  bool reschedulable = false;  // IsReschedulable: its controller would recreate it elsewhere
  // Carries karpenter.sh/do-not-disrupt; whether it protects the pod now depends on the time.
  bool do_not_disrupt = false;
  // Whether a container asks for a host port, and whether a volume is a persistent or ephemeral
  // claim: most pods have neither, and a scheduler input then reads no further into them.
  bool host_ports = false;
  bool claims_volumes = false;
};

// A pod as snapshots hold it: immutable, with its charge worked out once, and shared by every
// snapshot it is carried over to (the twin builds each new snapshot from the last one, and most
// of its 20,000 pods have not changed in between).
struct SnapshotPod {
  explicit SnapshotPod(api::Pod pod_in);
  api::Pod pod;
  PodCharge charge;
};
using SharedPod = std::shared_ptr<const SnapshotPod>;

// Iterates shared pods as `const api::Pod&`.
class PodIterator {
 public:
  using iterator_category = std::random_access_iterator_tag;
  using value_type = api::Pod;
  using difference_type = std::ptrdiff_t;
  using pointer = const api::Pod*;
  using reference = const api::Pod&;

  PodIterator() = default;
  explicit PodIterator(const SharedPod* at) : at_(at) {}
  reference operator*() const { return (*at_)->pod; }
  pointer operator->() const { return &(*at_)->pod; }
  reference operator[](difference_type n) const { return at_[n]->pod; }
  PodIterator& operator++() {
    ++at_;
    return *this;
  }
  PodIterator operator++(int) { return PodIterator(at_++); }
  PodIterator& operator--() {
    --at_;
    return *this;
  }
  PodIterator operator--(int) { return PodIterator(at_--); }
  PodIterator& operator+=(difference_type n) {
    at_ += n;
    return *this;
  }
  PodIterator& operator-=(difference_type n) {
    at_ -= n;
    return *this;
  }
  friend PodIterator operator+(PodIterator it, difference_type n) { return it += n; }
  friend PodIterator operator+(difference_type n, PodIterator it) { return it += n; }
  friend PodIterator operator-(PodIterator it, difference_type n) { return it -= n; }
  friend difference_type operator-(PodIterator a, PodIterator b) { return a.at_ - b.at_; }
  friend bool operator==(PodIterator a, PodIterator b) { return a.at_ == b.at_; }
  friend auto operator<=>(PodIterator a, PodIterator b) { return a.at_ <=> b.at_; }
  // The shared pod this iterator is at.
  const SharedPod& shared() const { return *at_; }

 private:
  const SharedPod* at_ = nullptr;
};

// A run of a snapshot's pods, read as `const api::Pod&`; valid while the snapshot is.
class PodSpan {
 public:
  using value_type = api::Pod;
  using size_type = size_t;
  using const_iterator = PodIterator;
  using iterator = PodIterator;

  PodSpan() = default;
  PodSpan(PodIterator begin, PodIterator end) : begin_(begin), end_(end) {}
  PodIterator begin() const { return begin_; }
  PodIterator end() const { return end_; }
  size_t size() const { return static_cast<size_t>(end_ - begin_); }
  bool empty() const { return begin_ == end_; }
  const api::Pod& operator[](size_t i) const { return begin_[static_cast<std::ptrdiff_t>(i)]; }
  const SharedPod& shared(size_t i) const {
    return (begin_ + static_cast<std::ptrdiff_t>(i)).shared();
  }

 private:
  PodIterator begin_;
  PodIterator end_;
};

}  // namespace karpenter::state
