// RapidCheck properties of Solve on random workloads mixing zone and hostname spread, hostname
// anti-affinity, bound pods and an existing node: no placement ever breaks maxSkew or a
// required anti-affinity, under upstream's packing and the opt-in cost packing alike. Runs with a
// fixed seed so failures reproduce.
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "gtest/gtest.h"
#include "rapidcheck.h"
#include "src/provisioning/scheduler.h"
#include "src/provisioning/topology_test_util.h"
#include "test/property_check.h"

namespace karpenter::provisioning {
namespace {

using namespace ::karpenter::provisioning::testing;  // NOLINT: test fixtures

constexpr property_test::PropertyOptions kProperty = {0x746f706f6c6f6779, 120,
                                                      40};  // fixed: runs are reproducible
constexpr char kExistingNode[] = "node-1";

// Pods of groups z0 and z1 spread over zones, h over hostnames (each with its own maxSkew), a
// with hostname anti-affinity against every app=a pod, plus plain app=a pods and others.
struct Workload {
  SchedulerInput input;
  // The bound pods `input` points at (heap storage: a moved Workload keeps them in place).
  std::unique_ptr<std::vector<api::Pod>> bound = std::make_unique<std::vector<api::Pod>>();
  std::map<std::string, int32_t> zone_skew;  // app -> maxSkew
  int32_t host_skew = 1;
  std::map<std::string, std::string> app_of;  // pod key -> app label
  std::set<std::string> anti;                 // pod keys with the anti-affinity
};

Workload ArbitraryWorkload() {
  Workload w;
  w.input = DefaultInput();
  w.zone_skew = {{"z0", *rc::gen::inRange(1, 4)}, {"z1", *rc::gen::inRange(1, 4)}};
  w.host_skew = *rc::gen::inRange(1, 3);
  if (*rc::gen::arbitrary<bool>()) {
    ExistingNodeView node = MakeNode(kExistingNode, "4", "16Gi", "20");
    w.input.existing_nodes.push_back(node);
    const int bound = *rc::gen::inRange(0, 4);
    for (int i = 0; i < bound; ++i) {
      const char* app = *rc::gen::element("z0", "z1", "h", "a");
      api::Pod pod = Bound("bound-" + std::to_string(i), kExistingNode, {{"app", app}});
      w.bound->push_back(pod);
      w.app_of[PodKey(pod)] = app;
    }
  }
  w.input.bound_pods = PointersTo(*w.bound);
  const int count = *rc::gen::inRange(1, 30);
  for (int i = 0; i < count; ++i) {
    const std::string cpu = std::to_string(*rc::gen::inRange(50, 3000)) + "m";
    const std::string app = *rc::gen::element<std::string>("z0", "z1", "h", "a", "a", "other");
    api::Pod pod = Labeled("pod-" + std::to_string(i), {{"app", app}}, cpu.c_str());
    const std::map<std::string, std::string> own = {{"app", app}};
    if (app == "z0" || app == "z1") {
      pod.spec.topology_spread_constraints = {Spread(kZoneKey, w.zone_skew[app], own)};
    } else if (app == "h") {
      pod.spec.topology_spread_constraints = {Spread(kHostnameKey, w.host_skew, own)};
    } else if (app == "a" && *rc::gen::arbitrary<bool>()) {
      RequireAntiAffinity(pod, AffinityTerm(kHostnameKey, own));
      w.anti.insert(PodKey(pod));
    }
    w.app_of[PodKey(pod)] = app;
    w.input.pending_pods.push_back(std::move(pod));
  }
  return w;
}

// Every node of the result (claims by index, the existing node by name) with its pods, bound
// ones included, and its zone ("" when a claim spans several).
struct PlacedNode {
  std::string zone;
  std::vector<std::string> pods;
  std::set<std::string> new_pods;
};

std::vector<PlacedNode> Nodes(const Workload& w, const SchedulerResult& result) {
  std::vector<PlacedNode> nodes;
  for (const NewNodeClaim& claim : result.new_node_claims) {
    nodes.push_back({ZoneOf(claim), claim.pods, {claim.pods.begin(), claim.pods.end()}});
  }
  if (!w.input.existing_nodes.empty()) {
    PlacedNode node{kZoneA, {}, {}};
    for (const api::Pod* pod : w.input.bound_pods) node.pods.push_back(PodKey(*pod));
    auto placed = result.existing_node_pods.find(kExistingNode);
    if (placed != result.existing_node_pods.end()) {
      node.pods.insert(node.pods.end(), placed->second.begin(), placed->second.end());
      node.new_pods.insert(placed->second.begin(), placed->second.end());
    }
    nodes.push_back(std::move(node));
  }
  return nodes;
}

constexpr PackingPolicy kPackings[] = {PackingPolicy::kUpstream, PackingPolicy::kCost};

// The placed nodes of a solve of `w` under `packing` (Nodes reads no instance type, so the
// input copy may go).
std::vector<PlacedNode> NodesWith(const Workload& w, PackingPolicy packing) {
  SchedulerInput input = w.input;
  input.options.packing = packing;
  return Nodes(w, Solve(input));
}

TEST(TopologyProperty, ZoneSpreadNeverExceedsMaxSkew) {
  property_test::CheckProperty(kProperty, "zone spread never exceeds maxSkew", [] {
    const Workload w = ArbitraryWorkload();
    for (PackingPolicy packing : kPackings) {
      const std::vector<PlacedNode> nodes = NodesWith(w, packing);
      for (const auto& [app, skew] : w.zone_skew) {
        std::map<std::string, int> count = {{kZoneA, 0}, {kZoneB, 0}, {kZoneC, 0}};
        std::set<std::string> received;  // Zones a pending pod of the group went to.
        for (const PlacedNode& node : nodes) {
          for (const std::string& pod : node.pods) {
            if (w.app_of.at(pod) != app) continue;
            RC_ASSERT(!node.zone.empty());  // A spread pod's node has one zone.
            ++count[node.zone];
            if (node.new_pods.count(pod) != 0) received.insert(node.zone);
          }
        }
        int min = count.begin()->second;
        for (const auto& [zone, n] : count) min = std::min(min, n);
        for (const std::string& zone : received) RC_ASSERT(count[zone] - min <= skew);
      }
    }
  });
}

TEST(TopologyProperty, HostnameSpreadNeverExceedsMaxSkew) {
  property_test::CheckProperty(kProperty, "hostname spread never exceeds maxSkew", [] {
    const Workload w = ArbitraryWorkload();
    for (PackingPolicy packing : kPackings) {
      for (const PlacedNode& node : NodesWith(w, packing)) {
        int count = 0;
        bool received = false;
        for (const std::string& pod : node.pods) {
          if (w.app_of.at(pod) != "h") continue;
          ++count;
          received |= node.new_pods.count(pod) != 0;
        }
        // A new node is always an empty domain, so the global minimum is 0.
        if (received) RC_ASSERT(count <= w.host_skew);
      }
    }
  });
}

TEST(TopologyProperty, AntiAffinityIsNeverViolated) {
  property_test::CheckProperty(kProperty, "anti-affinity is never violated", [] {
    const Workload w = ArbitraryWorkload();
    for (PackingPolicy packing : kPackings) {
      for (const PlacedNode& node : NodesWith(w, packing)) {
        int anti = 0;
        int app_a = 0;
        for (const std::string& pod : node.pods) {
          anti += static_cast<int>(w.anti.count(pod));
          app_a += w.app_of.at(pod) == "a" ? 1 : 0;
        }
        // A node with an anti-affinity pod holds no other app=a pod (it is one itself).
        if (anti > 0) RC_ASSERT(app_a == 1);
      }
    }
  });
}

}  // namespace
}  // namespace karpenter::provisioning
