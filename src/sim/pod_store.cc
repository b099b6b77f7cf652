#include "src/sim/pod_store.h"

#include <utility>

#include "src/api/pod_resources.h"
#include "src/state/pod_predicates.h"

namespace karpenter::sim {
namespace {

template <typename Indexes>
void Drop(Indexes& indexes, const std::string& name, std::string_view key) {
  auto it = indexes.find(name);
  if (it == indexes.end()) return;
  it->second.erase(key);
  if (it->second.empty()) indexes.erase(it);
}

}  // namespace

PodRecord& PodStore::Put(const std::string& key, PodRecord record) {
  auto [it, inserted] = pods_.try_emplace(key);
  if (!inserted) Remove(it);
  it->second = std::move(record);
  Add(it);
  return it->second;
}

void PodStore::Erase(Map::iterator it) {
  Remove(it);
  pods_.erase(it);
}

void PodStore::Bind(Map::iterator it, const std::string& node_name) {
  Remove(it);
  it->second.pod.spec.node_name = node_name;
  Add(it);
}

void PodStore::AddBoundRequests(const api::Pod& pod, int direction) {
  const api::ResourceList requests = api::PodRequests(pod);
  if (auto cpu = requests.find("cpu"); cpu != requests.end()) {
    bound_milli_cpu_ += direction * cpu->second.MilliValue();
  }
  if (auto memory = requests.find("memory"); memory != requests.end()) {
    bound_memory_bytes_ += direction * memory->second.Value();
  }
}

void PodStore::Add(Map::iterator it) {
  const std::string_view key = it->first;
  PodRecord* record = &it->second;
  const std::string& node = record->pod.spec.node_name;
  if (node.empty()) {
    unbound_.emplace(key, record);
  } else {
    AddBoundRequests(record->pod, +1);
    on_node_[node].emplace(key, record);
    if (!state::IsOwnedByDaemonSet(record->pod)) workload_on_[node].emplace(key, record);
  }
  if (!record->owner.empty()) owned_by_[record->owner].emplace(key, record);
}

void PodStore::Remove(Map::iterator it) {
  const std::string_view key = it->first;
  const PodRecord& record = it->second;
  const std::string& node = record.pod.spec.node_name;
  if (node.empty()) {
    unbound_.erase(key);
  } else {
    AddBoundRequests(record.pod, -1);
    Drop(on_node_, node, key);
    Drop(workload_on_, node, key);
  }
  if (!record.owner.empty()) Drop(owned_by_, record.owner, key);
}

const PodStore::Index& PodStore::Lookup(const Indexes& indexes, std::string_view name) {
  static const Index kEmpty;
  auto it = indexes.find(name);
  return it == indexes.end() ? kEmpty : it->second;
}

const PodStore::Index& PodStore::OnNode(std::string_view node_name) const {
  return Lookup(on_node_, node_name);
}

const PodStore::Index& PodStore::WorkloadOn(std::string_view node_name) const {
  return Lookup(workload_on_, node_name);
}

const PodStore::Index& PodStore::OwnedBy(std::string_view owner) const {
  return Lookup(owned_by_, owner);
}

std::string PodStore::IndexMismatch() const {
  std::unordered_map<std::string, std::map<std::string_view, const PodRecord*>> on_node;
  std::unordered_map<std::string, std::map<std::string_view, const PodRecord*>> workload_on;
  std::unordered_map<std::string, std::map<std::string_view, const PodRecord*>> owned_by;
  std::map<std::string_view, const PodRecord*> unbound;
  for (const auto& [key, record] : pods_) {
    const std::string& node = record.pod.spec.node_name;
    if (node.empty()) {
      unbound.emplace(key, &record);
    } else {
      on_node[node].emplace(key, &record);
      if (!state::IsOwnedByDaemonSet(record.pod)) workload_on[node].emplace(key, &record);
    }
    if (!record.owner.empty()) owned_by[record.owner].emplace(key, &record);
  }
  const auto same = [](const auto& want, const Index& got) {
    if (want.size() != got.size()) return false;
    auto g = got.begin();
    for (const auto& [key, record] : want) {
      if (g->first != key || g->second != record) return false;
      ++g;
    }
    return true;
  };
  const auto compare = [&](const char* what, const auto& want, const Indexes& got) -> std::string {
    if (want.size() != got.size()) return std::string(what) + ": different names";
    for (const auto& [name, pods] : want) {
      auto it = got.find(name);
      if (it == got.end() || !same(pods, it->second)) return std::string(what) + " " + name;
    }
    return "";
  };
  if (!same(unbound, unbound_)) return "unbound";
  for (std::string mismatch :
       {compare("node", on_node, on_node_), compare("workload", workload_on, workload_on_),
        compare("owner", owned_by, owned_by_)}) {
    if (!mismatch.empty()) return mismatch;
  }
  return "";
}

}  // namespace karpenter::sim
