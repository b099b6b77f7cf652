// A copy-on-write vector for the long lists a solve hands out many times over: the instance
// types of NodeClaims. Thousands of claims of one solve often end up with the very same few
// hundred types; copies of a SharedVector share one buffer (a copy costs a reference-count
// increment), and a mutation first takes a private copy when the buffer is shared, so sharing
// is never observable. Reads look like a const std::vector.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <memory>
#include <utility>
#include <vector>

namespace karpenter::provisioning {

template <class T>
class SharedVector {
 public:
  using value_type = T;
  using size_type = size_t;
  using const_reference = const T&;
  using reference = const T&;
  using const_iterator = typename std::vector<T>::const_iterator;
  using iterator = const_iterator;

  SharedVector() = default;
  // Implicit, so a std::vector or a braced list can be assigned as to a std::vector.
  SharedVector(std::vector<T> items)  // NOLINT(google-explicit-constructor)
      : items_(items.empty() ? nullptr : std::make_shared<std::vector<T>>(std::move(items))) {}
  SharedVector(std::initializer_list<T> items)  // NOLINT(google-explicit-constructor)
      : SharedVector(std::vector<T>(items)) {}

  const std::vector<T>& vector() const { return items_ ? *items_ : Empty(); }
  const_iterator begin() const { return vector().begin(); }
  const_iterator end() const { return vector().end(); }
  size_t size() const { return items_ ? items_->size() : 0; }
  bool empty() const { return size() == 0; }
  const T& operator[](size_t i) const { return (*items_)[i]; }
  const T* data() const { return vector().data(); }
  const T& front() const { return items_->front(); }
  const T& back() const { return items_->back(); }
  // Whether the two share one buffer (a test of sharing; equality is operator==).
  bool SharesWith(const SharedVector& other) const {
    return items_ != nullptr && items_ == other.items_;
  }

  // The vector to modify in place; copied first when another SharedVector shares it.
  std::vector<T>& Mutable() {
    if (!items_) {
      items_ = std::make_shared<std::vector<T>>();
    } else if (items_.use_count() > 1) {
      items_ = std::make_shared<std::vector<T>>(*items_);
    }
    return *items_;
  }
  void push_back(T value) { Mutable().push_back(std::move(value)); }
  void clear() { items_.reset(); }
  void resize(size_t size) { Mutable().resize(size); }

  friend bool operator==(const SharedVector& a, const SharedVector& b) {
    return a.items_ == b.items_ || a.vector() == b.vector();
  }
  friend bool operator==(const SharedVector& a, const std::vector<T>& b) { return a.vector() == b; }

 private:
  static const std::vector<T>& Empty() {
    static const std::vector<T>* const kEmpty = new std::vector<T>();
    return *kEmpty;
  }

  // Null when empty. Never modified while shared (see Mutable).
  std::shared_ptr<std::vector<T>> items_;
};

}  // namespace karpenter::provisioning
