#include "src/provisioning/group_selections.h"

#include <functional>
#include <string_view>

namespace karpenter::provisioning {
namespace {

void Combine(size_t& hash, std::string_view text) {
  hash ^= std::hash<std::string_view>()(text) + 0x9e3779b97f4a7c15ULL + (hash << 6) + (hash >> 2);
}

}  // namespace

size_t LabelSets::KeyHash::operator()(const Key& key) const {
  size_t hash = key.labels->size();
  Combine(hash, *key.name_space);
  for (const auto& [name, value] : *key.labels) {
    Combine(hash, name);
    Combine(hash, value);
  }
  return hash;
}

bool LabelSets::KeyEq::operator()(const Key& a, const Key& b) const {
  return *a.name_space == *b.name_space && *a.labels == *b.labels;
}

uint32_t LabelSets::IdOf(const api::Pod& pod) {
  const Key key{&pod.metadata.namespace_, &pod.metadata.labels};
  auto [it, inserted] = ids_.try_emplace(key, static_cast<uint32_t>(representatives_.size()));
  if (inserted) representatives_.push_back(&pod);
  return it->second;
}

const std::vector<size_t>& GroupSelections::Selecting(
    uint32_t label_set, const LabelSets& label_sets,
    std::span<const std::unique_ptr<TopologyGroup>> groups) {
  if (label_set >= entries_.size()) entries_.resize(label_set + 1);
  Entry& entry = entries_[label_set];
  const api::Pod& pod = label_sets.Representative(label_set);
  for (; entry.checked < groups.size(); ++entry.checked) {
    if (groups[entry.checked]->Selects(pod)) entry.selecting.push_back(entry.checked);
  }
  return entry.selecting;
}

}  // namespace karpenter::provisioning
