// A node's labels as scheduler inputs hold them. An input built from a cluster snapshot lists
// every node, often a thousand of them with twenty-odd labels each, and the twin builds several
// such inputs a simulated second: copying every label map each time cost more than the solve
// that read them. SharedLabels borrows the snapshot's map instead (keeping the snapshot's nodes
// alive) and copies only when written to, as SharedVector does; reads look like a const
// std::map. Labels made here (in-flight NodeClaims, tests) are owned as usual.
#pragma once

#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <utility>

namespace karpenter::provisioning {

class SharedLabels {
 public:
  using Map = std::map<std::string, std::string>;
  using const_iterator = Map::const_iterator;

  SharedLabels() = default;
  // Implicit, so a map or a braced list can be assigned as to a std::map.
  SharedLabels(Map labels)  // NOLINT(google-explicit-constructor)
      : labels_(labels.empty() ? nullptr : std::make_shared<Map>(std::move(labels))),
        owned_(true) {}
  // NOLINTNEXTLINE(google-explicit-constructor)
  SharedLabels(std::initializer_list<Map::value_type> labels) : SharedLabels(Map(labels)) {}
  // Borrows `labels`, which `owner` keeps alive and nobody modifies while it does.
  template <class Owner>
  static SharedLabels Borrow(const std::shared_ptr<Owner>& owner, const Map& labels) {
    SharedLabels out;
    out.labels_ = std::shared_ptr<const Map>(owner, &labels);
    return out;
  }

  const Map& map() const { return labels_ ? *labels_ : Empty(); }
  operator const Map&() const { return map(); }  // NOLINT(google-explicit-constructor)
  const_iterator begin() const { return map().begin(); }
  const_iterator end() const { return map().end(); }
  template <class Key>
  const_iterator find(const Key& key) const {
    return map().find(key);
  }
  template <class Key>
  bool contains(const Key& key) const {
    return map().contains(key);
  }
  const std::string& at(const std::string& key) const { return map().at(key); }
  size_t size() const { return map().size(); }
  bool empty() const { return map().empty(); }
  // Whether the two read one map (a test of sharing; equality is operator==).
  bool SharesWith(const Map& other) const { return labels_.get() == &other; }

  // The map to modify in place: a private copy first when it is borrowed or shared.
  Map& Mutable() {
    if (!labels_ || !owned_ || labels_.use_count() > 1) {
      labels_ = std::make_shared<Map>(map());
      owned_ = true;
    }
    // Made by make_shared<Map> above or in the constructor, so not const underneath.
    return const_cast<Map&>(*labels_);
  }
  std::string& operator[](const std::string& key) { return Mutable()[key]; }

  friend bool operator==(const SharedLabels& a, const SharedLabels& b) {
    return a.labels_ == b.labels_ || a.map() == b.map();
  }

 private:
  static const Map& Empty() {
    static const Map* const kEmpty = new Map();
    return *kEmpty;
  }

  // Null when empty and not borrowed; never modified while shared (see Mutable).
  std::shared_ptr<const Map> labels_;
  bool owned_ = false;  // labels_ was made here, not borrowed
};

}  // namespace karpenter::provisioning
