#include "libsched/model/pod_requests.h"

#include <gtest/gtest.h>

#include <cctype>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libsched/model/interner.h"

namespace sched {
namespace pod_requests_test {
namespace {

constexpr int64_t kMi = 1024 * 1024;
constexpr int64_t kGi = 1024 * kMi;
constexpr int64_t kM = 1000 * 1000;  // "500M"
constexpr int64_t kNone = -1;         // no entry for the resource

Interner& In() {
  static Interner* in = new Interner();
  return *in;
}
Atom Name(const std::string& s) { return In().Intern(s); }

// A container request list; kNone leaves cpu / memory out.
ContainerResources C(int64_t milli_cpu, int64_t memory,
                     std::vector<std::pair<std::string, int64_t>> scalar = {}) {
  ContainerResources c;
  c.has_cpu = milli_cpu != kNone;
  c.has_memory = memory != kNone;
  c.requests.milli_cpu = c.has_cpu ? milli_cpu : 0;
  c.requests.memory = c.has_memory ? memory : 0;
  for (auto& [k, v] : scalar) c.requests.SetScalar(Name(k), v);
  return c;
}
ContainerResources Sidecar(ContainerResources c) {
  c.restartable = true;
  return c;
}
ContainerResources WithStatus(ContainerResources c, Resource status) {
  c.status_requests = std::move(status);
  return c;
}

Resource R(int64_t milli_cpu, int64_t memory,
           std::vector<std::pair<std::string, int64_t>> scalar = {}, int64_t ephemeral = 0) {
  Resource r;
  r.milli_cpu = milli_cpu;
  r.memory = memory;
  r.ephemeral_storage = ephemeral;
  for (auto& [k, v] : scalar) r.SetScalar(Name(k), v);
  return r;
}

struct Case {
  std::string name;
  PodResourceSpec spec;
  Resource want;
  // NonZeroRequested cpu / memory, when the case checks them.
  std::optional<std::pair<int64_t, int64_t>> want_non_zero = std::nullopt;
};

PodResourceSpec Spec(std::vector<ContainerResources> containers,
                     std::vector<ContainerResources> init = {},
                     std::optional<Resource> pod_level = std::nullopt,
                     std::optional<Resource> overhead = std::nullopt) {
  PodResourceSpec s;
  s.containers = std::move(containers);
  s.init_containers = std::move(init);
  s.pod_level = std::move(pod_level);
  s.overhead = std::move(overhead);
  return s;
}

std::vector<Case> Cases() {
  const int64_t kCpuDef = kDefaultMilliCPURequest;
  const int64_t kMemDef = kDefaultMemoryRequest;
  return {
      // helpers_test.go TestPodRequestsAndLimits (requests).
      {"just limit, no overhead", Spec({C(kNone, kNone)}), R(0, 0), {{kCpuDef, kMemDef}}},
      {"just overhead", Spec({C(kNone, kNone)}, {}, std::nullopt, R(5000, 5)), R(5000, 5)},
      {"requests and overhead", Spec({C(1000, 10)}, {}, std::nullopt, R(5000, 5)), R(6000, 15)},

      // helpers_test.go TestPodResourceRequests.
      {"larger init container", Spec({C(1000, kNone)}, {C(4000, kNone)}), R(4000, 0)},
      {"larger containers", Spec({C(2000, kNone), C(3000, kNone)}, {C(2000, kNone)}),
       R(5000, 0)},
      {"pod overhead included",
       Spec({C(2000, kNone), C(3000, kNone)}, {C(2000, kNone)}, std::nullopt, R(1000, kGi)),
       R(6000, kGi)},
      {"resized, no resize status: max(spec, status)",
       Spec({WithStatus(C(4000, kNone), R(2000, 0))}), R(4000, 0)},
      {"resized: per-resource 3-way maximum",
       // status = max(actuated 10m/30M/20G, allocated 20m/10M/30G).
       Spec({WithStatus(C(30, 20 * kM, {}), R(20, 30 * kM, {}, 30'000 * kM))}),
       R(30, 30 * kM, {}, 30'000 * kM)},
      {"resized, infeasible: the decoder stores status as the request",
       Spec({C(2000, kNone)}), R(2000, 0)},
      {"resized, infeasible and in progress: max(actuated, allocated)",
       Spec({C(4000, kNone)}), R(4000, 0)},
      {"resized sidecar, no resize status: max(spec, status)",
       Spec({}, {Sidecar(WithStatus(C(4000, kNone), R(2000, 0)))}), R(4000, 0)},
      {"resized sidecar grows: status counts",
       Spec({}, {Sidecar(WithStatus(C(2000, kNone), R(3000, 0)))}), R(3000, 0)},
      {"plain init container status is ignored",
       Spec({C(1000, kNone)}, {WithStatus(C(2000, kNone), R(5000, 0))}), R(2000, 0)},
      {"restartable init container", Spec({C(1000, kNone)}, {Sidecar(C(1000, kNone))}),
       R(2000, 0)},
      {"multiple restartable init containers",
       // max(5, sidecars (1+2+3) + regular 1) = 7
       Spec({C(1000, kNone)}, {C(5000, kNone), Sidecar(C(1000, kNone)),
                               Sidecar(C(2000, kNone)), Sidecar(C(3000, kNone))}),
       R(7000, 0)},
      {"multiple restartable and regular init containers",
       // init-2 needs 5 + the sidecars started before it (1+2) = 8.
       Spec({C(1000, kNone)},
            {C(5000, kNone), Sidecar(C(1000, kNone)), Sidecar(C(2000, kNone)),
             C(5000, kNone), Sidecar(C(3000, kNone))}),
       R(8000, 0)},
      {"restartable init, init and regular",
       Spec({C(100'000, kNone)}, {Sidecar(C(10'000, kNone)), C(200'000, kNone)}),
       R(210'000, 0)},

      // types_test.go TestCalculatePodResourcesWithResize.
      {"no pending resize", Spec({WithStatus(C(500, 500 * kM), R(500, 500 * kM))}),
       R(500, 500 * kM), {{500, 500 * kM}}},
      {"deferred resize: spec is larger",
       Spec({WithStatus(C(700, 800 * kM), R(500, 500 * kM))}), R(700, 800 * kM),
       {{700, 800 * kM}}},
      {"init container and sidecar, no pending resize",
       Spec({WithStatus(C(500, 500 * kM), R(500, 500 * kM))},
            {WithStatus(C(700, 800 * kM), R(700, 800 * kM)),
             Sidecar(WithStatus(C(700, 800 * kM), R(700, 800 * kM)))}),
       R(1200, 1300 * kM), {{1200, 1300 * kM}}},

      // helpers_test.go TestPodLevelResourceRequests.
      {"nothing", Spec({}), R(0, 0), {{0, 0}}},
      {"pod-level memory", Spec({}, {}, R(0, 2 * kMi)), R(0, 2 * kMi)},
      {"pod-level memory and container cpu", Spec({C(2, kNone)}, {}, R(0, 2 * kMi)),
       R(2, 2 * kMi)},
      {"only container-level", Spec({C(2, 3 * kMi)}), R(2, 3 * kMi)},
      {"pod-level replaces container-level", Spec({C(2, 3 * kMi)}, {}, R(8, 6 * kMi)),
       R(8, 6 * kMi)},
      {"container and init container", Spec({C(2, 3 * kMi)}, {C(4, 5 * kMi)}),
       R(4, 5 * kMi)},
      {"container and sidecar", Spec({C(2, 3 * kMi)}, {Sidecar(C(4, 5 * kMi))}),
       R(6, 8 * kMi)},
      {"container, sidecar then init",
       Spec({C(2, 3 * kMi)}, {Sidecar(C(4, 5 * kMi)), C(8, 6 * kMi)}), R(12, 11 * kMi)},
      {"pod-level over container, sidecar and init",
       Spec({C(2, 3 * kMi)}, {Sidecar(C(4, 5 * kMi)), C(8, 6 * kMi)}, R(18, 15 * kMi)),
       R(18, 15 * kMi)},
      {"pod-level hugepages, one page size",
       Spec({}, {}, R(0, 10 * kMi, {{"hugepages-2Mi", 2 * kMi}})),
       R(0, 10 * kMi, {{"hugepages-2Mi", 2 * kMi}})},
      {"pod-level hugepages, two page sizes",
       Spec({}, {}, R(1000, 0, {{"hugepages-2Mi", 2 * kMi}, {"hugepages-1Gi", kGi}})),
       R(1000, 0, {{"hugepages-2Mi", 2 * kMi}, {"hugepages-1Gi", kGi}})},
      {"pod-level hugepages replace container hugepages",
       Spec({C(kNone, kNone, {{"hugepages-2Mi", 6 * kMi}})}, {},
            R(1000, 0, {{"hugepages-2Mi", 10 * kMi}})),
       R(1000, 0, {{"hugepages-2Mi", 10 * kMi}})},
      {"pod-level and container hugepages, two page sizes",
       Spec({C(1000, kNone, {{"hugepages-1Gi", 2 * kGi}})}, {},
            R(1000, 0, {{"hugepages-2Mi", 10 * kMi}, {"hugepages-1Gi", 2 * kGi}})),
       R(1000, 0, {{"hugepages-2Mi", 10 * kMi}, {"hugepages-1Gi", 2 * kGi}})},
      {"page sizes split between pod level and container level",
       Spec({C(kNone, 4 * kMi, {{"hugepages-1Gi", kGi}})}, {},
            R(1000, 0, {{"hugepages-2Mi", 10 * kMi}})),
       R(1000, 4 * kMi, {{"hugepages-2Mi", 10 * kMi}, {"hugepages-1Gi", kGi}})},
      {"pod-level requests plus overhead", Spec({C(1, 1)}, {}, R(3, 2), R(1, 1)), R(4, 3)},

      // types_test.go TestPodInfoCalculateResources (Non0CPU / Non0Mem).
      {"requestless container", Spec({C(kNone, kNone)}), R(0, 0), {{kCpuDef, kMemDef}}},
      {"one container with requests", Spec({C(500, 500 * kM)}), R(500, 500 * kM),
       {{500, 500 * kM}}},
      {"two containers with requests", Spec({C(500, 500 * kM), C(700, 800 * kM)}),
       R(1200, 1300 * kM), {{1200, 1300 * kM}}},
      {"container and init container with pod-level requests",
       Spec({C(500, 500 * kM)}, {C(500, 500 * kM)}, R(1200, 1200 * kM)),
       R(1200, 1200 * kM), {{1200, 1200 * kM}}},
      {"container and sidecar with pod-level requests",
       Spec({C(500, 500 * kM)}, {Sidecar(C(500, 500 * kM))}, R(1200, 1200 * kM)),
       R(1200, 1200 * kM), {{1200, 1200 * kM}}},
      {"pod-level memory only: cpu default still applies",
       Spec({C(kNone, kNone)}, {C(kNone, kNone)}, R(0, 1200 * kM)), R(0, 1200 * kM),
       {{kCpuDef, 1200 * kM}}},
      {"pod-level cpu only: memory default still applies",
       Spec({C(kNone, kNone)}, {C(kNone, kNone)}, R(500, 0)), R(500, 0), {{500, kMemDef}}},
      {"container ephemeral storage with pod-level cpu",
       Spec({[] {
               ContainerResources c = C(kNone, kNone);
               c.requests.ephemeral_storage = 800 * kM;
               return c;
             }()},
            {[] {
              ContainerResources c = C(kNone, kNone);
              c.requests.ephemeral_storage = 500 * kM;
              return c;
            }()},
            R(500, 0)),
       R(500, 0, {}, 800 * kM), {{500, kMemDef}}},
      {"pod-level cpu, memory set on one container only: no memory default",
       // getNonMissingContainerRequests: the requests have a memory entry.
       Spec({C(kNone, 3 * kMi), C(kNone, kNone)}, {}, R(500, 0)), R(500, 3 * kMi),
       {{500, 3 * kMi}}},
      {"pod-level memory, cpu in the overhead: no cpu default",
       Spec({C(kNone, kNone)}, {}, R(0, 4 * kMi), R(250, 0)), R(250, 4 * kMi),
       {{250, 4 * kMi}}},

      // resource_allocation_test.go TestResourceAllocationScorerCalculateRequests.
      {"overhead only", Spec({}, {}, std::nullopt, R(1000, kMi)), R(1000, kMi),
       {{1000, kMi}}},
      {"two requestless containers", Spec({C(kNone, kNone), C(kNone, kNone)}), R(0, 0),
       {{2 * kCpuDef, 2 * kMemDef}}},
      {"request container + requestless container", Spec({C(1000, kMi), C(kNone, kNone)}),
       R(1000, kMi), {{1000 + kCpuDef, kMi + kMemDef}}},
      {"container + requestless container + overhead",
       Spec({C(1000, kMi), C(kNone, kNone)}, {}, std::nullopt, R(1000, kMi)),
       R(2000, 2 * kMi), {{2000 + kCpuDef, 2 * kMi + kMemDef}}},
      {"init container + container + requestless container + overhead",
       Spec({C(1000, kMi), C(kNone, kNone)}, {C(3000, kNone)}, std::nullopt, R(1000, kMi)),
       R(4000, 2 * kMi), {{4000, 2 * kMi + kMemDef}}},
      {"requestless init + small init + small container",
       Spec({C(3, 3)}, {C(kNone, kNone), C(1, 1)}), R(3, 3), {{kCpuDef, kMemDef}}},
      {"requestless init + small init + small container + requestless container",
       Spec({C(3, 3), C(kNone, kNone)}, {C(kNone, kNone), C(1, 1)}), R(3, 3),
       {{3 + kCpuDef, 3 + kMemDef}}},
      {"explicit zero is kept", Spec({C(0, 0)}), R(0, 0), {{0, 0}}},
      {"extended resources are summed and maxed",
       Spec({C(kNone, kNone, {{"example.com/foo", 3}}), C(kNone, kNone, {{"example.com/foo", 3}})},
            {C(kNone, kNone, {{"example.com/foo", 5}})}),
       R(0, 0, {{"example.com/foo", 6}})},
  };
}

class PodRequestsTest : public ::testing::TestWithParam<Case> {};

TEST_P(PodRequestsTest, MatchesUpstream) {
  const Case& c = GetParam();
  EXPECT_EQ(PodRequests(c.spec), c.want);
  if (c.want_non_zero) {
    const Resource nz = PodNonZeroRequests(c.spec);
    EXPECT_EQ(nz.milli_cpu, c.want_non_zero->first);
    EXPECT_EQ(nz.memory, c.want_non_zero->second);
  }
}

INSTANTIATE_TEST_SUITE_P(Table, PodRequestsTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           std::string n;
                           for (char ch : info.param.name) {
                             n += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
                           }
                           return n;
                         });

}  // namespace
}  // namespace pod_requests_test
}  // namespace sched
