// Box<T>: an optional T kept on the heap, with value semantics.
//
// Large API structs have optional members that are rarely set (a volume's ephemeral claim
// template, a pod's affinity). As `std::optional<T>` each costs sizeof(T) in every object whether
// set or not; as `Box<T>` it costs one pointer and allocates only when set. Box copies deeply,
// compares by value and offers the subset of `std::optional`'s interface the code base uses, so
// changing a member from one to the other needs no change at its call sites:
//
//   Box<Affinity> affinity;            // empty
//   affinity.emplace().node_affinity;  // or `affinity = Affinity{...}`
//   if (affinity.has_value()) Use(*affinity);
#pragma once

#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

namespace karpenter::api {

template <class T>
class Box {
 public:
  using value_type = T;

  Box() = default;
  // Implicit, as std::optional's, so a T or std::nullopt can be assigned or passed directly.
  Box(std::nullopt_t) {}                                           // NOLINT
  Box(const T& value) : ptr_(std::make_unique<T>(value)) {}        // NOLINT
  Box(T&& value) : ptr_(std::make_unique<T>(std::move(value))) {}  // NOLINT
  Box(const Box& other) : ptr_(other.ptr_ ? std::make_unique<T>(*other.ptr_) : nullptr) {}
  Box(Box&& other) noexcept = default;
  ~Box() = default;

  Box& operator=(const Box& other) {
    if (this == &other) return *this;
    if (!other.ptr_) {
      ptr_.reset();
    } else if (ptr_) {
      *ptr_ = *other.ptr_;  // reuse the allocation
    } else {
      ptr_ = std::make_unique<T>(*other.ptr_);
    }
    return *this;
  }
  Box& operator=(Box&& other) noexcept = default;
  Box& operator=(std::nullopt_t) {
    ptr_.reset();
    return *this;
  }
  // A template, as in std::optional, so that `box = {}` picks the (non-template) move assignment
  // from an empty Box and clears the box instead of being ambiguous.
  template <class U = T>
  requires std::is_same_v<std::remove_cvref_t<U>, T> Box& operator=(U&& value) {
    if (ptr_) {
      *ptr_ = std::forward<U>(value);
    } else {
      ptr_ = std::make_unique<T>(std::forward<U>(value));
    }
    return *this;
  }

  bool has_value() const { return ptr_ != nullptr; }
  explicit operator bool() const { return has_value(); }

  // Precondition (as for std::optional): has_value().
  T& operator*() & { return *ptr_; }
  const T& operator*() const& { return *ptr_; }
  T* operator->() { return ptr_.get(); }
  const T* operator->() const { return ptr_.get(); }

  template <class... Args>
  T& emplace(Args&&... args) {
    ptr_ = std::make_unique<T>(std::forward<Args>(args)...);
    return *ptr_;
  }
  void reset() { ptr_.reset(); }

  // Lets the field-list JSON codec (json_codec.h) read and write a box as the struct it holds,
  // the way it handles `std::optional<T>`: the codec visits a struct's fields only when its JSON
  // key is present (decoding) or when the box is set (encoding omits empty boxes), so visiting an
  // empty box means "decode into a new value".
  template <class V>
  requires requires(T& t, V& v) { t.Fields(v); }
  void Fields(V& v) {
    if (!ptr_) ptr_ = std::make_unique<T>();
    ptr_->Fields(v);
  }

  friend bool operator==(const Box& a, const Box& b) {
    if (!a.ptr_ || !b.ptr_) return a.ptr_ == b.ptr_;
    return *a.ptr_ == *b.ptr_;
  }
  friend bool operator==(const Box& a, std::nullopt_t) { return !a.ptr_; }
  friend bool operator==(const Box& a, const T& b) { return a.ptr_ && *a.ptr_ == b; }

 private:
  std::unique_ptr<T> ptr_;
};

}  // namespace karpenter::api
