#include "src/api/pod_resources.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace karpenter::api {
namespace {

ResourceList Res(std::initializer_list<std::pair<std::string, std::string>> entries) {
  ResourceList list;
  for (const auto& [name, text] : entries) {
    absl::StatusOr<Quantity> quantity = Quantity::Parse(text);
    EXPECT_TRUE(quantity.ok()) << text;
    list[name] = quantity.value_or(Quantity());
  }
  return list;
}

std::string Render(const ResourceList& list) {
  std::string out = "{";
  for (const auto& [name, quantity] : list) out += " " + name + "=" + quantity.String();
  return out + " }";
}

struct ContainerSpec {
  std::string cpu_request;
  std::string cpu_limit;
  bool sidecar = false;
};

Container MakeContainer(const ContainerSpec& spec) {
  Container container;
  if (!spec.cpu_request.empty()) container.resources.requests = Res({{"cpu", spec.cpu_request}});
  if (!spec.cpu_limit.empty()) container.resources.limits = Res({{"cpu", spec.cpu_limit}});
  if (spec.sidecar) container.restart_policy = "Always";
  return container;
}

struct Case {
  std::string name;
  std::vector<ContainerSpec> init_containers;
  std::vector<ContainerSpec> containers;
  std::string expected_cpu;
};

PodSpec MakeSpec(const Case& c) {
  PodSpec spec;
  for (const ContainerSpec& s : c.init_containers) spec.init_containers.push_back(MakeContainer(s));
  for (const ContainerSpec& s : c.containers) spec.containers.push_back(MakeContainer(s));
  return spec;
}

// Cases from k8s.io/component-helpers/resource TestPodResourceRequests (sidecar KEP-753).
const std::vector<Case>& RequestCases() {
  static const auto* cases = new std::vector<Case>{
      {"LargerInitContainer", {{.cpu_request = "4"}}, {{.cpu_request = "1"}}, "4"},
      {"LargerContainers",
       {{.cpu_request = "2"}},
       {{.cpu_request = "2"}, {.cpu_request = "3"}},
       "5"},
      {"RestartableInitContainer",
       {{.cpu_request = "1", .sidecar = true}},
       {{.cpu_request = "1"}},
       "2"},
      // max(5, sidecars 1+2+3 + regular 1) = 7
      {"MultipleRestartableInitContainers",
       {{.cpu_request = "5"},
        {.cpu_request = "1", .sidecar = true},
        {.cpu_request = "2", .sidecar = true},
        {.cpu_request = "3", .sidecar = true}},
       {{.cpu_request = "1"}},
       "7"},
      // init-2 needs 5 + the sidecars already running (1+2) = 8; the later sidecar does not count.
      {"MultipleRestartableAndRegularInitContainers",
       {{.cpu_request = "5"},
        {.cpu_request = "1", .sidecar = true},
        {.cpu_request = "2", .sidecar = true},
        {.cpu_request = "5"},
        {.cpu_request = "3", .sidecar = true}},
       {{.cpu_request = "1"}},
       "8"},
      {"RestartableInitThenInitAndRegular",
       {{.cpu_request = "10", .sidecar = true}, {.cpu_request = "200"}},
       {{.cpu_request = "100"}},
       "210"},
      {"SidecarsAloneExceedContainers",
       {{.cpu_request = "3", .sidecar = true}, {.cpu_request = "4", .sidecar = true}},
       {},
       "7"},
  };
  return *cases;
}

TEST(PodRequests, MatchesUpstreamSidecarAndInitContainerCases) {
  for (const Case& c : RequestCases()) {
    ResourceList got = PodRequests(MakeSpec(c));
    ResourceList want = Res({{"cpu", c.expected_cpu}});
    EXPECT_TRUE(got == want) << c.name << ": got " << Render(got) << " want " << Render(want);
  }
}

TEST(PodLimits, MatchesUpstreamSidecarAndInitContainerCases) {
  // Upstream runs the same shapes over limits with identical expectations.
  for (const Case& c : RequestCases()) {
    Case limits = c;
    for (auto* list : {&limits.init_containers, &limits.containers}) {
      for (ContainerSpec& s : *list) std::swap(s.cpu_request, s.cpu_limit);
    }
    ResourceList got = PodLimits(MakeSpec(limits));
    ResourceList want = Res({{"cpu", c.expected_cpu}});
    EXPECT_TRUE(got == want) << c.name << ": got " << Render(got) << " want " << Render(want);
  }
}

TEST(PodRequests, AddsOverheadToRequests) {
  // Upstream TestPodRequestsAndLimits "req-and-overhead" and "just-overhead".
  PodSpec spec;
  spec.containers.push_back(MakeContainer({.cpu_request = "1"}));
  spec.containers[0].resources.requests["memory"] = Res({{"m", "10"}})["m"];
  spec.overhead = Res({{"cpu", "5"}, {"memory", "5"}});
  EXPECT_TRUE(PodRequests(spec) == Res({{"cpu", "6"}, {"memory", "15"}}))
      << Render(PodRequests(spec));

  PodSpec only_overhead;
  only_overhead.containers.emplace_back();
  only_overhead.overhead = Res({{"cpu", "5"}, {"memory", "5"}});
  EXPECT_TRUE(PodRequests(only_overhead) == Res({{"cpu", "5"}, {"memory", "5"}}));
}

TEST(PodLimits, AddsOverheadOnlyToResourcesThatHaveALimit) {
  // Upstream "req-some-lim-and-overhead": cpu limited, memory unlimited stays unlimited.
  PodSpec spec;
  spec.containers.push_back(MakeContainer({.cpu_request = "1", .cpu_limit = "2"}));
  spec.containers[0].resources.requests["memory"] = Res({{"m", "10"}})["m"];
  spec.overhead = Res({{"cpu", "5"}, {"memory", "5"}});
  EXPECT_TRUE(PodLimits(spec) == Res({{"cpu", "7"}})) << Render(PodLimits(spec));
}

TEST(PodRequests, SumsEveryResourceIndependently) {
  // Upstream "two container no overhead - should just be sum of containers".
  PodSpec spec;
  spec.containers.push_back(
      Container{.resources = {.requests = Res({{"cpu", "1"}, {"memory", "5"}})}});
  spec.containers.push_back(
      Container{.resources = {.requests = Res({{"cpu", "4"}, {"memory", "12"}})}});
  spec.init_containers.push_back(Container{.resources = {.requests = Res({{"memory", "20"}})}});
  // cpu from the containers, memory from the larger init container.
  EXPECT_TRUE(PodRequests(spec) == Res({{"cpu", "5"}, {"memory", "20"}}))
      << Render(PodRequests(spec));
}

TEST(PodRequests, PodLevelRequestsReplaceSupportedResourcesOnly) {
  PodSpec spec;
  spec.containers.push_back(Container{
      .resources = {.requests = Res({{"cpu", "1"}, {"memory", "1Gi"}, {"nvidia.com/gpu", "1"}})}});
  spec.resources = ResourceRequirements{.requests = Res({{"cpu", "3"}, {"nvidia.com/gpu", "4"}})};
  spec.overhead = Res({{"cpu", "250m"}});
  // cpu comes from the pod level (plus overhead); memory keeps the container sum; an
  // unsupported pod-level resource is ignored.
  EXPECT_TRUE(PodRequests(spec) ==
              Res({{"cpu", "3250m"}, {"memory", "1Gi"}, {"nvidia.com/gpu", "1"}}))
      << Render(PodRequests(spec));
}

TEST(PodRequests, PodLevelLimitsAloneDoNotChangeRequests) {
  PodSpec spec;
  spec.containers.push_back(MakeContainer({.cpu_request = "1"}));
  spec.resources = ResourceRequirements{.limits = Res({{"cpu", "4"}})};
  EXPECT_TRUE(PodRequests(spec) == Res({{"cpu", "1"}}));
  EXPECT_TRUE(PodLimits(spec) == Res({{"cpu", "4"}}));
}

TEST(IsSidecar, OnlyRestartPolicyAlwaysCounts) {
  EXPECT_TRUE(IsSidecar(MakeContainer({.sidecar = true})));
  EXPECT_FALSE(IsSidecar(MakeContainer({})));
  Container never;
  never.restart_policy = "Never";
  EXPECT_FALSE(IsSidecar(never));
}

TEST(ResourceArithmetic, AddAndMaxMergeByName) {
  ResourceList list = Res({{"cpu", "1"}, {"memory", "1Gi"}});
  AddResources(list, Res({{"cpu", "500m"}, {"pods", "1"}}));
  EXPECT_TRUE(list == Res({{"cpu", "1500m"}, {"memory", "1Gi"}, {"pods", "1"}})) << Render(list);
  MaxResources(list, Res({{"cpu", "1"}, {"memory", "2Gi"}}));
  EXPECT_TRUE(list == Res({{"cpu", "1500m"}, {"memory", "2Gi"}, {"pods", "1"}})) << Render(list);
}

TEST(IsSupportedPodLevelResource, CpuMemoryAndHugePages) {
  EXPECT_TRUE(IsSupportedPodLevelResource("cpu"));
  EXPECT_TRUE(IsSupportedPodLevelResource("memory"));
  EXPECT_TRUE(IsSupportedPodLevelResource("hugepages-2Mi"));
  EXPECT_FALSE(IsSupportedPodLevelResource("ephemeral-storage"));
  EXPECT_FALSE(IsSupportedPodLevelResource("nvidia.com/gpu"));
}

TEST(FitsWithin, EveryPositiveRequestNeedsAsMuchOfItsName) {
  const ResourceList allocatable = Res({{"cpu", "2"}, {"memory", "4Gi"}});
  EXPECT_TRUE(FitsWithin(Res({{"cpu", "2"}, {"memory", "1Gi"}}), allocatable));
  EXPECT_FALSE(FitsWithin(Res({{"cpu", "2001m"}}), allocatable));
  // A resource the type lacks holds nothing, unless nothing of it is asked.
  EXPECT_FALSE(FitsWithin(Res({{"nvidia.com/gpu", "1"}}), allocatable));
  EXPECT_TRUE(FitsWithin(Res({{"nvidia.com/gpu", "0"}}), allocatable));
  EXPECT_TRUE(FitsWithin({}, {}));
}

}  // namespace
}  // namespace karpenter::api
