#include "libsched/plugins/dynamic_resources.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "libsched/framework/framework.h"
#include "libsched/framework/node_to_status.h"
#include "libsched/framework/profile.h"
#include "libsched/plugins/helper/device_selector.h"
#include "libsched/plugins/helper/dra_allocator.h"
#include "libsched/plugins/helper/dra_capacity.h"
#include "libsched/testing/builders.h"

namespace sched {
namespace dynamic_resources_test {
namespace {

using testing::NodeBuilder;

constexpr Code kReject = Code::kUnschedulableAndUnresolvable;
constexpr const char* kDriver = "some-driver";
constexpr const char* kClass = "my-resource-class";
constexpr const char* kPodUid = "1234";
constexpr const char* kNoCel = "CEL device selectors are not supported by this build of libsched";

// The objects of upstream's dynamicresources_test.go, in the engine's model.
DraDevice Device(std::string name, std::vector<std::pair<std::string, DraAttribute>> attrs = {}) {
  DraDevice d;
  d.name = std::move(name);
  d.attributes = std::move(attrs);
  return d;
}

DraAttribute Str(std::string v) {
  DraAttribute a;
  a.text = std::move(v);
  return a;
}

std::shared_ptr<ResourceSlice> Slice(std::string name, std::string node,
                                     std::vector<DraDevice> devices, std::string pool = "",
                                     int64_t generation = 1, int64_t count = 1) {
  auto s = std::make_shared<ResourceSlice>();
  s->name = std::move(name);
  s->driver = kDriver;
  s->pool = pool.empty() ? node : pool;
  s->generation = generation;
  s->resource_slice_count = count;
  s->node.node_name = std::move(node);
  s->devices = std::move(devices);
  return s;
}

DraRequest Exact(std::string name, int64_t count = 1,
                 DraRequest::Mode mode = DraRequest::Mode::kExactCount) {
  DraRequest r;
  r.name = std::move(name);
  r.device_class_name = kClass;
  r.count = count;
  r.mode = mode;
  return r;
}

DraDeviceRequest Request(DraRequest r) {
  DraDeviceRequest d;
  d.name = r.name;
  d.exactly = std::move(r);
  return d;
}

DraDeviceRequest FirstAvailable(std::string name, std::vector<DraRequest> subs) {
  DraDeviceRequest d;
  d.name = std::move(name);
  d.first_available = std::move(subs);
  return d;
}

std::shared_ptr<ResourceClaim> Claim(std::string name,
                                     std::vector<DraRequest> requests = {Exact("req-1")}) {
  auto c = std::make_shared<ResourceClaim>();
  c->ns = "default";
  c->name = std::move(name);
  c->uid = c->name + "-uid";
  c->controller_uid = kPodUid;
  for (DraRequest& r : requests) c->spec.requests.push_back(Request(std::move(r)));
  return c;
}

// An allocation of `device` on the worker's pool, available on `node` only
// ("" for everywhere).
DraAllocation AllocatedOn(Interner& in, const std::string& device, const std::string& node) {
  DraAllocation a;
  a.devices.push_back({"req-1", kDriver, "worker", device, false});
  if (!node.empty()) {
    Requirement field;
    field.values = {in.Pin(node)};
    a.node_selector.emplace().terms.emplace_back().match_fields.push_back(field);
  }
  return a;
}

struct Fixture {
  ClusterState state;
  std::shared_ptr<Pod> pod = std::make_shared<Pod>();

  Fixture() {
    Interner& in = state.interner();
    state.UpsertNode(NodeBuilder(in, "worker").Label("kubernetes.io/hostname", "worker").Build());
    state.UpsertNode(NodeBuilder(in, "worker-2").Build());
    auto cls = std::make_shared<DeviceClass>();
    cls->name = kClass;
    state.UpsertDeviceClass(cls);
    pod->ns = "default";
    pod->name = "my-pod";
    pod->uid = kPodUid;
  }
  // The pod references the claim `name` directly.
  void UseClaim(const std::string& name) {
    PodResourceClaim& rc = pod->resource_claims.emplace_back();
    rc.name = "my-resource";
    rc.claim_name = name;
  }
  // The pod's containers request `containers[i]` (resource -> count), as
  // decode fills Pod::requests and Pod::extended_requests (init
  // containers are not used here).
  void Requests(const std::vector<std::vector<std::pair<std::string, int64_t>>>& containers) {
    Interner& in = state.interner();
    for (size_t i = 0; i < containers.size(); ++i) {
      auto sorted = containers[i];
      std::sort(sorted.begin(), sorted.end());
      ContainerExtendedRequests& c = pod->extended_requests.emplace_back();
      c.container = static_cast<int32_t>(i);
      for (size_t j = 0; j < sorted.size(); ++j) {
        const Atom name = in.Pin(sorted[j].first);
        pod->requests.AddScalar(name, sorted[j].second);
        c.entries.push_back({name, sorted[j].second, static_cast<int32_t>(j)});
      }
    }
  }
  // my-resource-class provides example.com/gpu (deviceClassWithExtendResourceName).
  void GpuClass(const std::string& name = kClass, const std::string& resource = "example.com/gpu") {
    auto cls = std::make_shared<DeviceClass>();
    cls->name = name;
    cls->extended_resource_name = resource;
    state.UpsertDeviceClass(cls);
  }
  // worker's allocatable lists example.com/gpu (a device plugin's).
  void WorkerGpu(int64_t n) {
    Interner& in = state.interner();
    state.UpsertNode(NodeBuilder(in, "worker")
                         .Label("kubernetes.io/hostname", "worker")
                         .Scalar("example.com/gpu", n)
                         .Build());
  }
  // The pod's claim comes from a template; `generated` as in its status.
  void UseTemplate(bool has_status, std::optional<std::string> generated) {
    PodResourceClaim& rc = pod->resource_claims.emplace_back();
    rc.name = "my-resource";
    rc.template_name = "my-template";
    rc.has_status = has_status;
    rc.generated_name = std::move(generated);
  }
};

struct Case {
  std::string name;
  std::function<void(Fixture&)> setup;
  Code want_pre_filter = Code::kSuccess;
  std::string want_pre_filter_msg = "";
  // worker, worker-2: "" for success, else the Filter message.
  std::vector<std::string> want_filter = {};
  Code want_filter_code = kReject;    // worker
  Code want_filter_code_2 = kReject;  // worker-2
};

std::string Filter(const DynamicResources& pl, const CycleState& cs, const Pod& pod,
                   const ClusterState& state, const std::string& node, Code want) {
  const Status s = pl.Filter(cs, pod, *state.FindNode(node));
  if (s.IsSuccess()) return "";
  EXPECT_EQ(s.code(), want) << node << ": " << s.Message();
  return s.Message();
}

// PreFilter, then Filter on worker and worker-2 (and PreEnqueue where
// PreFilter rejects for a claim itself).
void RunCases(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Fixture f;
    c.setup(f);
    DynamicResources pl;
    CycleState cs(1);
    PreFilterResult result;
    const Status pre = pl.PreFilter(cs, *f.pod, f.state, &result);
    EXPECT_EQ(pre.code(), c.want_pre_filter) << pre.Message();
    EXPECT_TRUE(result.all_nodes);
    if (!pre.IsSuccess()) {
      EXPECT_EQ(pre.Message(), c.want_pre_filter_msg);
      // PreEnqueue answers the same about the claims themselves.
      if (pre.code() == kReject && !f.pod->resource_claims.empty() &&
          c.want_pre_filter_msg.find("request") == std::string::npos) {
        EXPECT_EQ(pl.PreEnqueue(*f.pod, f.state).Message(), c.want_pre_filter_msg);
      }
      continue;
    }
    EXPECT_TRUE(pl.PreEnqueue(*f.pod, f.state).IsSuccess());
    ASSERT_EQ(c.want_filter.size(), 2u);
    EXPECT_EQ(Filter(pl, cs, *f.pod, f.state, "worker", c.want_filter_code), c.want_filter[0]);
    EXPECT_EQ(Filter(pl, cs, *f.pod, f.state, "worker-2", c.want_filter_code_2), c.want_filter[1]);
  }
}

// Cases after upstream's TestPlugin (dynamicresources_test.go) and the
// allocator's (allocator_testing.go), those that need no CEL evaluator
// first.
TEST(DynamicResourcesTest, Plugin) {
  const std::vector<Case> cases = {
      {"empty", [](Fixture&) {}, Code::kSkip},
      {"missing-claim", [](Fixture& f) { f.UseTemplate(false, std::nullopt); }, kReject,
       "pod \"default/my-pod\": ResourceClaim not created yet"},
      {"claim-not-generated", [](Fixture& f) { f.UseTemplate(true, std::nullopt); }, Code::kSkip},
      {"claim-not-found", [](Fixture& f) { f.UseClaim("my-pod-my-resource"); }, kReject,
       "could not find ResourceClaim \"default/my-pod-my-resource\""},
      {"no-fields", [](Fixture& f) { f.pod->resource_claims.emplace_back().name = "my-resource"; },
       kReject,
       "pod \"default/my-pod\", spec.resourceClaim \"my-resource\": none of the supported "
       "fields are set"},
      {"deleted-claim",
       [](Fixture& f) {
         f.UseTemplate(true, "my-pod-my-resource");
         auto c = Claim("my-pod-my-resource");
         c->deleting = true;
         f.state.UpsertResourceClaim(c);
       },
       kReject, "resourceclaim \"my-pod-my-resource\" is being deleted"},
      {"wrong-claim",
       [](Fixture& f) {
         f.UseTemplate(true, "my-pod-my-resource");
         auto c = Claim("my-pod-my-resource");
         c->controller_uid = "1234123";
         f.state.UpsertResourceClaim(c);
       },
       kReject,
       "ResourceClaim default/my-pod-my-resource was not created for Pod default/my-pod (Pod "
       "is not owner)"},
      {"missing-class",
       [](Fixture& f) {
         f.UseClaim("c");
         auto c = Claim("c");
         c->spec.requests[0].exactly->device_class_name = "does-not-exist";
         f.state.UpsertResourceClaim(c);
       },
       kReject, "request req-1: device class does-not-exist does not exist"},
      {"no-resources",
       [](Fixture& f) {
         f.UseClaim("c");
         f.state.UpsertResourceClaim(Claim("c"));
       },
       Code::kSuccess,
       "",
       {"cannot allocate all claims", "cannot allocate all claims"}},
      {"structured-on-worker",
       [](Fixture& f) {
         f.UseClaim("c");
         f.state.UpsertResourceClaim(Claim("c"));
         f.state.UpsertResourceSlice(Slice("worker-slice", "worker", {Device("instance-1")}));
       },
       Code::kSuccess,
       "",
       {"", "cannot allocate all claims"}},
      {"all-nodes-slice",
       [](Fixture& f) {
         f.UseClaim("c");
         f.state.UpsertResourceClaim(Claim("c"));
         auto s = Slice("shared", "", {Device("instance-1")}, "network");
         s->node.all_nodes = true;
         f.state.UpsertResourceSlice(s);
       },
       Code::kSuccess,
       "",
       {"", ""}},
      {"node-selector-slice",
       [](Fixture& f) {
         f.UseClaim("c");
         f.state.UpsertResourceClaim(Claim("c"));
         auto s = Slice("shared", "", {Device("instance-1")}, "network");
         Requirement r;
         r.key = f.state.interner().Pin("kubernetes.io/hostname");
         r.values = {f.state.interner().Pin("worker")};
         s->node.node_selector.emplace().terms.emplace_back().match_expressions.push_back(r);
         f.state.UpsertResourceSlice(s);
       },
       Code::kSuccess,
       "",
       {"", "cannot allocate all claims"}},
      {"per-device-node-selection",
       [](Fixture& f) {
         f.UseClaim("c");
         f.state.UpsertResourceClaim(Claim("c"));
         auto s = Slice("shared", "", {Device("on-2"), Device("on-1")}, "network");
         s->per_device_node_selection = true;
         s->devices[0].node.node_name = "worker-2";
         s->devices[1].node.node_name = "worker";
         f.state.UpsertResourceSlice(s);
       },
       Code::kSuccess,
       "",
       {"", ""}},
      {"device-in-use",
       [](Fixture& f) {
         f.UseClaim("c");
         f.state.UpsertResourceClaim(Claim("c"));
         f.state.UpsertResourceSlice(Slice("worker-slice", "worker", {Device("instance-1")}));
         auto other = Claim("other");
         other->allocation = AllocatedOn(f.state.interner(), "instance-1", "");
         f.state.UpsertResourceClaim(other);
       },
       Code::kSuccess,
       "",
       {"cannot allocate all claims", "cannot allocate all claims"}},
      {"admin-access-device-in-use",
       [](Fixture& f) {
         f.UseClaim("c");
         auto c = Claim("c");
         c->spec.requests[0].exactly->admin_access = true;
         f.state.UpsertResourceClaim(c);
         f.state.UpsertResourceSlice(Slice("worker-slice", "worker", {Device("instance-1")}));
         auto other = Claim("other");
         other->allocation = AllocatedOn(f.state.interner(), "instance-1", "");
         f.state.UpsertResourceClaim(other);
       },
       Code::kSuccess,
       "",
       {"", "cannot allocate all claims"}},
      {"allocated-claim-elsewhere",
       [](Fixture& f) {
         f.UseClaim("c");
         auto c = Claim("c");
         c->allocation = AllocatedOn(f.state.interner(), "instance-1", "worker");
         f.state.UpsertResourceClaim(c);
       },
       Code::kSuccess,
       "",
       {"", "resourceclaim not available on the node"}},
      {"allocated-claim-everywhere",
       [](Fixture& f) {
         f.UseClaim("c");
         auto c = Claim("c");
         c->allocation = AllocatedOn(f.state.interner(), "instance-1", "");
         f.state.UpsertResourceClaim(c);
       },
       Code::kSuccess,
       "",
       {"", ""}},
      {"count-two-one-device",
       [](Fixture& f) {
         f.UseClaim("c");
         f.state.UpsertResourceClaim(Claim("c", {Exact("req-1", 2)}));
         f.state.UpsertResourceSlice(Slice("worker-slice", "worker", {Device("instance-1")}));
       },
       Code::kSuccess,
       "",
       {"cannot allocate all claims", "cannot allocate all claims"}},
      {"count-two-two-devices",
       [](Fixture& f) {
         f.UseClaim("c");
         f.state.UpsertResourceClaim(Claim("c", {Exact("req-1", 2)}));
         f.state.UpsertResourceSlice(
             Slice("worker-slice", "worker", {Device("instance-1"), Device("instance-2")}));
       },
       Code::kSuccess,
       "",
       {"", "cannot allocate all claims"}},
      {"two-claims-one-device",
       [](Fixture& f) {
         f.UseClaim("c");
         f.UseClaim("d");
         f.state.UpsertResourceClaim(Claim("c"));
         f.state.UpsertResourceClaim(Claim("d"));
         f.state.UpsertResourceSlice(Slice("worker-slice", "worker", {Device("instance-1")}));
       },
       Code::kSuccess,
       "",
       {"cannot allocate all claims", "cannot allocate all claims"}},
      {"too-many-devices",
       [](Fixture& f) {
         f.UseClaim("c");
         f.state.UpsertResourceClaim(Claim("c", {Exact("req-1", 33)}));
       },
       Code::kSuccess,
       "",
       {"claim default/c: number of requested devices 33 exceeds the claim limit of 32",
        "claim default/c: number of requested devices 33 exceeds the claim limit of 32"},
       Code::kError,
       Code::kError},
      {"all-devices-incomplete-pool",
       [](Fixture& f) {
         f.UseClaim("c");
         f.state.UpsertResourceClaim(Claim("c", {Exact("req-1", 0, DraRequest::Mode::kAll)}));
         f.state.UpsertResourceSlice(
             Slice("worker-slice", "worker", {Device("instance-1")}, "", 1, 2));
       },
       Code::kSuccess,
       "",
       {"claim default/c, request req-1: asks for all devices, but resource pool "
        "some-driver/worker is currently being updated",
        "cannot allocate all claims"},
       Code::kError},
      {"incomplete-pool",
       [](Fixture& f) {
         f.UseClaim("c");
         f.state.UpsertResourceClaim(Claim("c"));
         f.state.UpsertResourceSlice(
             Slice("worker-slice", "worker", {Device("instance-1")}, "", 1, 2));
       },
       Code::kSuccess,
       "",
       {"cannot allocate all claims", "cannot allocate all claims"}},
      {"obsolete-generation",
       [](Fixture& f) {
         f.UseClaim("c");
         f.state.UpsertResourceClaim(Claim("c", {Exact("req-1", 2)}));
         // Generation 1 had two devices; generation 2 has one.
         f.state.UpsertResourceSlice(
             Slice("old", "worker", {Device("instance-1"), Device("instance-2")}, "", 1));
         f.state.UpsertResourceSlice(Slice("new", "worker", {Device("instance-1")}, "", 2));
       },
       Code::kSuccess,
       "",
       {"cannot allocate all claims", "cannot allocate all claims"}},
      {"duplicate-device-names",
       [](Fixture& f) {
         f.UseClaim("c");
         f.state.UpsertResourceClaim(Claim("c"));
         f.state.UpsertResourceSlice(Slice("a", "worker", {Device("instance-1")}, "", 1, 2));
         f.state.UpsertResourceSlice(Slice("b", "worker", {Device("instance-1")}, "", 1, 2));
       },
       Code::kSuccess,
       "",
       {"invalid resource pools were encountered", "cannot allocate all claims"}},
      {"match-attribute-mismatch",
       [](Fixture& f) {
         f.UseClaim("c");
         auto c = Claim("c", {Exact("a"), Exact("b")});
         c->spec.constraints.push_back({{}, "some-driver/model", ""});
         f.state.UpsertResourceClaim(c);
         f.state.UpsertResourceSlice(Slice("worker-slice", "worker",
                                           {Device("instance-1", {{"model", Str("x")}}),
                                            Device("instance-2", {{"model", Str("y")}})}));
       },
       Code::kSuccess,
       "",
       {"cannot allocate all claims", "cannot allocate all claims"}},
      {"match-attribute-backtracks",
       [](Fixture& f) {
         f.UseClaim("c");
         auto c = Claim("c", {Exact("a"), Exact("b")});
         c->spec.constraints.push_back({{}, "some-driver/model", ""});
         f.state.UpsertResourceClaim(c);
         f.state.UpsertResourceSlice(
             Slice("worker-slice", "worker",
                   {Device("instance-1", {{"model", Str("x")}}),
                    Device("instance-2", {{"model", Str("y")}}),
                    Device("instance-3", {{"some-driver/model", Str("y")}})}));
       },
       Code::kSuccess,
       "",
       {"", "cannot allocate all claims"}},
      {"match-attribute-missing",
       [](Fixture& f) {
         f.UseClaim("c");
         auto c = Claim("c", {Exact("a"), Exact("b")});
         c->spec.constraints.push_back({{"a", "b"}, "other-driver/model", ""});
         f.state.UpsertResourceClaim(c);
         f.state.UpsertResourceSlice(Slice("worker-slice", "worker",
                                           {Device("instance-1", {{"model", Str("x")}}),
                                            Device("instance-2", {{"model", Str("x")}})}));
       },
       Code::kSuccess,
       "",
       {"cannot allocate all claims", "cannot allocate all claims"}},
      {"distinct-attribute",
       [](Fixture& f) {
         f.UseClaim("c");
         auto c = Claim("c", {Exact("a"), Exact("b")});
         c->spec.constraints.push_back({{}, "", "some-driver/numa"});
         f.state.UpsertResourceClaim(c);
         f.state.UpsertResourceSlice(Slice("worker-slice", "worker",
                                           {Device("instance-1", {{"numa", Str("0")}}),
                                            Device("instance-2", {{"numa", Str("0")}})}));
       },
       Code::kSuccess,
       "",
       {"cannot allocate all claims", "cannot allocate all claims"}},
      {"all-mode-constraint-error",
       [](Fixture& f) {
         f.UseClaim("c");
         auto c = Claim("c", {Exact("req-1", 0, DraRequest::Mode::kAll)});
         c->spec.constraints.push_back({{}, "some-driver/model", ""});
         f.state.UpsertResourceClaim(c);
         f.state.UpsertResourceSlice(Slice("worker-slice", "worker",
                                           {Device("instance-1", {{"model", Str("x")}}),
                                            Device("instance-2", {{"model", Str("y")}})}));
       },
       Code::kSuccess,
       "",
       {"claim default/c, request req-1: cannot add device some-driver/worker/instance-2 "
        "because a claim constraint would not be satisfied",
        "cannot allocate all claims"},
       Code::kError},
      // firstAvailable (DRAPrioritizedList).
      {"first-available-missing-class",
       [](Fixture& f) {
         f.UseClaim("c");
         auto c = Claim("c", {});
         c->spec.requests.push_back(FirstAvailable("req-1", {Exact("sub-1"), Exact("sub-2")}));
         c->spec.requests[0].first_available[1].device_class_name = "does-not-exist";
         f.state.UpsertResourceClaim(c);
       },
       kReject, "request req-1/sub-2: device class does-not-exist does not exist"},
      {"first-available-second-fits",
       [](Fixture& f) {
         f.UseClaim("c");
         auto c = Claim("c", {});
         c->spec.requests.push_back(FirstAvailable("req-1", {Exact("sub-1", 2), Exact("sub-2")}));
         f.state.UpsertResourceClaim(c);
         f.state.UpsertResourceSlice(Slice("worker-slice", "worker", {Device("instance-1")}));
       },
       Code::kSuccess,
       "",
       {"", "cannot allocate all claims"}},
      // prioritized-list-too-many-in-first-subrequest: past the claim
      // limit, the next subrequest is tried.
      {"first-available-too-many-in-first",
       [](Fixture& f) {
         f.UseClaim("c");
         auto c = Claim("c", {});
         c->spec.requests.push_back(FirstAvailable("req-1", {Exact("sub-1", 500), Exact("sub-2")}));
         f.state.UpsertResourceClaim(c);
         f.state.UpsertResourceSlice(Slice("worker-slice", "worker", {Device("instance-1")}));
       },
       Code::kSuccess,
       "",
       {"", "cannot allocate all claims"}},
      {"first-available-all-too-many",
       [](Fixture& f) {
         f.UseClaim("c");
         auto c = Claim("c", {Exact("req-0", 20)});
         c->spec.requests.push_back(
             FirstAvailable("req-1", {Exact("sub-1", 20), Exact("sub-2", 13)}));
         f.state.UpsertResourceClaim(c);
       },
       Code::kSuccess,
       "",
       {"claim default/c: number of requested devices 33 exceeds the claim limit of 32",
        "claim default/c: number of requested devices 33 exceeds the claim limit of 32"},
       Code::kError,
       Code::kError},
      // DRAExtendedResource: TestPlugin's extended-resource-* cases (their
      // node is worker, worker-2 has no devices).
      {"extended-resource-name-with-node-resource",
       [](Fixture& f) {
         f.GpuClass();
         f.WorkerGpu(1);
         f.Requests({{{"example.com/gpu", 1}}});
       },
       Code::kSuccess,
       "",
       {"", "cannot allocate all claims"}},
      {"extended-resource-one-device-plugin-one-dra",
       [](Fixture& f) {
         f.GpuClass();
         f.GpuClass(std::string(kClass) + "2", "example.com/gpu2");
         f.WorkerGpu(1);
         f.state.UpsertResourceSlice(Slice("worker-slice", "worker", {Device("instance-1")}));
         f.Requests({{{"example.com/gpu", 1}, {"example.com/gpu2", 1}}});
       },
       Code::kSuccess,
       "",
       {"", "cannot allocate all claims"}},
      {"extended-resource-name-with-zero-allocatable",
       [](Fixture& f) {
         f.GpuClass();
         f.WorkerGpu(0);
         f.state.UpsertResourceSlice(Slice("worker-slice", "worker", {Device("instance-1")}));
         f.Requests({{{"example.com/gpu", 1}}});
       },
       Code::kSuccess,
       "",
       {"", "cannot allocate all claims"}},
      {"non-DRA-extended-resource-name-with-zero-allocatable",
       [](Fixture& f) {
         f.WorkerGpu(0);
         f.state.UpsertResourceSlice(Slice("worker-slice", "worker", {Device("instance-1")}));
         f.Requests({{{"example.com/gpu", 1}}});
       },
       Code::kSkip},
      {"extended-resource-name-no-resource",
       [](Fixture& f) {
         f.GpuClass();
         f.Requests({{{"example.com/gpu", 1}}});
       },
       Code::kSuccess,
       "",
       {"cannot allocate all claims", "cannot allocate all claims"}},
      {"extended-resource-name-with-resources",
       [](Fixture& f) {
         f.GpuClass();
         f.state.UpsertResourceSlice(Slice("worker-slice", "worker", {Device("instance-1")}));
         f.Requests({{{"example.com/gpu", 1}}});
       },
       Code::kSuccess,
       "",
       {"", "cannot allocate all claims"}},
      {"implicit-extended-resource-name-with-resources",
       [](Fixture& f) {
         f.GpuClass();
         f.state.UpsertResourceSlice(Slice("worker-slice", "worker",
                                           {Device("instance-1"), Device("instance-2"),
                                            Device("instance-3"), Device("instance-4")}));
         f.Requests({{{"deviceclass.resource.kubernetes.io/my-resource-class", 1},
                      {"example.com/gpu", 2}}});
       },
       Code::kSuccess,
       "",
       {"", "cannot allocate all claims"}},
      // The same with one device: the requests add up to 3.
      {"implicit-extended-resource-name-too-few-devices",
       [](Fixture& f) {
         f.GpuClass();
         f.state.UpsertResourceSlice(Slice("worker-slice", "worker", {Device("instance-1")}));
         f.Requests({{{"deviceclass.resource.kubernetes.io/my-resource-class", 1},
                      {"example.com/gpu", 2}}});
       },
       Code::kSuccess,
       "",
       {"cannot allocate all claims", "cannot allocate all claims"}},
      {"implicit-extended-resource-name-two-containers-with-resources",
       [](Fixture& f) {
         f.GpuClass();
         f.state.UpsertResourceSlice(Slice("worker-slice", "worker",
                                           {Device("instance-1"), Device("instance-2"),
                                            Device("instance-3"), Device("instance-4")}));
         f.Requests({{{"deviceclass.resource.kubernetes.io/my-resource-class", 1}},
                     {{"example.com/gpu", 2}}});
       },
       Code::kSuccess,
       "",
       {"", "cannot allocate all claims"}},
      {"extended-resource-name-with-resources-has-claim",
       [](Fixture& f) {
         f.GpuClass();
         f.state.UpsertResourceSlice(Slice("worker-slice", "worker", {Device("instance-1")}));
         f.Requests({{{"example.com/gpu", 1}}});
         auto c = Claim("my-pod-extended-resources-0", {Exact("container-0-request-0")});
         c->controller_name = "my-pod";
         c->extended_resource_claim = true;
         c->allocation = AllocatedOn(f.state.interner(), "instance-1", "worker");
         f.state.UpsertResourceClaim(c);
       },
       Code::kSuccess,
       "",
       {"cannot schedule extended resource claim", "cannot schedule extended resource claim"}},
      // A user claim and the special claim are allocated together.
      {"extended-resource-and-claim",
       [](Fixture& f) {
         f.GpuClass();
         f.UseClaim("c");
         f.state.UpsertResourceClaim(Claim("c"));
         f.state.UpsertResourceSlice(Slice("worker-slice", "worker", {Device("instance-1")}));
         f.Requests({{{"example.com/gpu", 1}}});
       },
       Code::kSuccess,
       "",
       {"cannot allocate all claims", "cannot allocate all claims"}},
      {"extended-resource-and-claim-fit",
       [](Fixture& f) {
         f.GpuClass();
         f.UseClaim("c");
         f.state.UpsertResourceClaim(Claim("c"));
         f.state.UpsertResourceSlice(
             Slice("worker-slice", "worker", {Device("instance-1"), Device("instance-2")}));
         f.Requests({{{"example.com/gpu", 1}}});
       },
       Code::kSuccess,
       "",
       {"", "cannot allocate all claims"}},
      // The node's device plugin covers the resource: only the claim is left.
      {"extended-resource-on-node-and-claim",
       [](Fixture& f) {
         f.GpuClass();
         f.WorkerGpu(1);
         f.UseClaim("c");
         f.state.UpsertResourceClaim(Claim("c"));
         f.state.UpsertResourceSlice(Slice("worker-slice", "worker", {Device("instance-1")}));
         f.Requests({{{"example.com/gpu", 1}}});
       },
       Code::kSuccess,
       "",
       {"", "cannot allocate all claims"}},
      // Neither the node nor a class provides example.com/fpga.
      {"extended-resource-not-provided",
       [](Fixture& f) {
         f.GpuClass();
         f.state.UpsertResourceSlice(Slice("worker-slice", "worker", {Device("instance-1")}));
         f.Requests({{{"example.com/fpga", 1}, {"example.com/gpu", 1}}});
       },
       Code::kSuccess,
       "",
       {"cannot fit resource", "cannot fit resource"}},
      {"extended-resource-not-backed",
       [](Fixture& f) { f.pod->requests.SetScalar(f.state.interner().Pin("example.com/fpga"), 1); },
       Code::kSkip},
      // DRADeviceTaints: an untolerated NoSchedule taint hides the device.
      {"tainted-device",
       [](Fixture& f) {
         f.UseClaim("c");
         f.state.UpsertResourceClaim(Claim("c"));
         DraDevice d = Device("instance-1");
         d.taints = {{"taint-key", "taint-value", "NoSchedule"}};
         f.state.UpsertResourceSlice(Slice("worker-slice", "worker", {d}));
       },
       Code::kSuccess,
       "",
       {"cannot allocate all claims", "cannot allocate all claims"}},
  };
  RunCases(cases);
}

// A build without a CEL evaluator (-Dcel=disabled, the Debian package)
// fails a selector as upstream fails a CEL compile error.
TEST(DynamicResourcesTest, PluginWithoutCel) {
  if (DeviceSelector::Available()) GTEST_SKIP() << "this build has a CEL evaluator";
  const std::vector<Case> cases = {
      {"claim-selector-without-cel",
       [](Fixture& f) {
         f.UseClaim("c");
         auto c = Claim("c");
         c->spec.requests[0].exactly->selectors = {"device.driver == \"some-driver\""};
         f.state.UpsertResourceClaim(c);
         f.state.UpsertResourceSlice(Slice("worker-slice", "worker", {Device("instance-1")}));
       },
       Code::kSuccess,
       "",
       {std::string("claim default/c: selector #0: CEL compile error: ") + kNoCel,
        "cannot allocate all claims"},
       Code::kError},
      {"class-selector-without-cel",
       [](Fixture& f) {
         f.UseClaim("c");
         f.state.UpsertResourceClaim(Claim("c"));
         auto cls = std::make_shared<DeviceClass>();
         cls->name = kClass;
         cls->selectors = {"true"};
         f.state.UpsertDeviceClass(cls);
         f.state.UpsertResourceSlice(Slice("worker-slice", "worker", {Device("instance-1")}));
       },
       Code::kSuccess,
       "",
       {std::string("class my-resource-class: selector #0: CEL compile error: ") + kNoCel,
        "cannot allocate all claims"},
       Code::kError},
  };
  RunCases(cases);
}

// Cases that evaluate CEL selectors: they run once a build has an
// evaluator (DeviceSelector::Available()).
TEST(DynamicResourcesTest, PluginWithCel) {
  if (!DeviceSelector::Available()) GTEST_SKIP() << "this build has no CEL evaluator";
  const std::vector<Case> cases = {
      {
          "claim-selector-with-cel",
          [](Fixture& f) {
            f.UseClaim("c");
            auto c = Claim("c");
            c->spec.requests[0].exactly->selectors = {
                "device.attributes[\"some-driver\"].model == \"y\""};
            f.state.UpsertResourceClaim(c);
            f.state.UpsertResourceSlice(Slice("worker-slice", "worker",
                                              {Device("instance-1", {{"model", Str("x")}}),
                                               Device("instance-2", {{"model", Str("y")}})}));
            auto other = Claim("other");
            other->allocation = AllocatedOn(f.state.interner(), "instance-2", "");
            f.state.UpsertResourceClaim(other);
          },
          Code::kSuccess,
          "",
          {"cannot allocate all claims", "cannot allocate all claims"},
      },
      {"class-selector-with-cel",
       [](Fixture& f) {
         f.UseClaim("c");
         f.state.UpsertResourceClaim(Claim("c"));
         auto cls = std::make_shared<DeviceClass>();
         cls->name = kClass;
         cls->selectors = {"device.driver == \"some-driver\""};
         f.state.UpsertDeviceClass(cls);
         f.state.UpsertResourceSlice(Slice("worker-slice", "worker", {Device("instance-1")}));
       },
       Code::kSuccess,
       "",
       {"", "cannot allocate all claims"}},
  };
  RunCases(cases);
}

// The allocation: which devices, in pool/slice/device order, and the node
// selector of node-local devices.
TEST(DraAllocatorTest, AllocatesInOrder) {
  Fixture f;
  auto all = Claim("all", {Exact("req-1", 0, DraRequest::Mode::kAll)});
  auto one = Claim("one", {Exact("req-1", 1)});
  f.state.UpsertResourceSlice(Slice("b", "worker", {Device("d3")}, "", 1, 2));
  f.state.UpsertResourceSlice(Slice("a", "worker", {Device("d1"), Device("d2")}, "", 1, 2));
  {
    DraAllocator alloc(f.state, {one.get()});
    const DraAllocator::Outcome out = alloc.Allocate(*f.state.FindNode("worker")->node());
    ASSERT_EQ(out.kind, DraAllocator::Outcome::Kind::kAllocated) << out.message;
    ASSERT_EQ(out.allocations.size(), 1u);
    EXPECT_EQ(out.allocations[0].devices,
              (std::vector<DraAllocatedDevice>{{"req-1", kDriver, "worker", "d1", false}}));
    ASSERT_TRUE(out.allocations[0].node_selector);
    EXPECT_TRUE(out.allocations[0].node_selector->Matches(
        {}, f.state.FindNode("worker")->node()->name_atom, f.state.interner()));
    EXPECT_FALSE(out.allocations[0].node_selector->Matches(
        {}, f.state.FindNode("worker-2")->node()->name_atom, f.state.interner()));
  }
  {
    DraAllocator alloc(f.state, {one.get(), all.get()});
    const DraAllocator::Outcome out = alloc.Allocate(*f.state.FindNode("worker")->node());
    // "all" wants every device, one of which "one" took.
    EXPECT_EQ(out.kind, DraAllocator::Outcome::Kind::kUnschedulable);
  }
  {
    DraAllocator alloc(f.state, {all.get()});
    const DraAllocator::Outcome out = alloc.Allocate(*f.state.FindNode("worker")->node());
    ASSERT_EQ(out.kind, DraAllocator::Outcome::Kind::kAllocated) << out.message;
    EXPECT_EQ(out.allocations[0].devices.size(), 3u);
  }
}

// An allocator case after allocator_testing.go: the claims to allocate on
// worker and what the allocator answers.
struct AllocCase {
  std::string name;
  std::function<std::vector<std::shared_ptr<ResourceClaim>>(Fixture&)> setup;
  std::vector<std::vector<DraAllocatedDevice>> want;  // per claim; empty: no allocation
  DraAllocator::Outcome::Kind want_kind = DraAllocator::Outcome::Kind::kAllocated;
  std::string want_message = "";
};

void RunAllocCases(const std::vector<AllocCase>& cases) {
  for (const AllocCase& c : cases) {
    SCOPED_TRACE(c.name);
    Fixture f;
    const auto claims = c.setup(f);
    std::vector<const ResourceClaim*> ptrs;
    for (const auto& claim : claims) ptrs.push_back(claim.get());
    const DraAllocator::Outcome out =
        DraAllocator(f.state, ptrs).Allocate(*f.state.FindNode("worker")->node());
    EXPECT_EQ(out.kind, c.want_kind) << out.message;
    EXPECT_EQ(out.message, c.want_message);
    std::vector<std::vector<DraAllocatedDevice>> got;
    for (const DraAllocation& a : out.allocations) {
      got.push_back(a.devices);
      for (DraAllocatedDevice& d : got.back()) {
        if (!d.share_id) continue;
        // A UUID (upstream: random; compared as its fixedShareID).
        EXPECT_EQ(d.share_id->size(), 36u);
        EXPECT_EQ(d.share_id->find_first_not_of("0123456789abcdef-"), std::string::npos);
        d.share_id = "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa";
      }
    }
    EXPECT_EQ(got, c.want);
  }
}

// A class selecting the devices of `driver` (allocator_testing.go's class()).
void AddClass(Fixture& f, const std::string& name, const std::string& driver) {
  auto cls = std::make_shared<DeviceClass>();
  cls->name = name;
  cls->selectors = {"device.driver == \"" + driver + "\""};
  f.state.UpsertDeviceClass(cls);
}

std::shared_ptr<ResourceSlice> DriverSlice(std::string name, std::string driver, std::string pool,
                                           std::vector<DraDevice> devices) {
  auto s = Slice(std::move(name), "worker", std::move(devices), std::move(pool));
  s->driver = std::move(driver);
  return s;
}

std::vector<DraDevice> Devices(int n) {
  std::vector<DraDevice> out;
  for (int i = 0; i < n; ++i) out.push_back(Device("device-" + std::to_string(i)));
  return out;
}

DraRequest Of(DraRequest r, std::string cls) {
  r.device_class_name = std::move(cls);
  return r;
}

std::vector<DraAllocatedDevice> Results(const std::string& request, const std::string& pool,
                                        int first, int n, const std::string& driver = kDriver) {
  std::vector<DraAllocatedDevice> out;
  for (int i = first; i < first + n; ++i) {
    out.push_back({request, driver, pool, "device-" + std::to_string(i), false});
  }
  return out;
}

// allocator_testing.go's prioritized-list cases (DRAPrioritizedList, GA):
// subrequests in order, results named "request/subrequest".
TEST(DraAllocatorTest, PrioritizedList) {
  using Claims = std::vector<std::shared_ptr<ResourceClaim>>;
  const DraRequest all = Exact("sub-0", 0, DraRequest::Mode::kAll);
  std::vector<AllocCase> cases = {
      {"prioritized-list-allocation-mode-all-multiple-requests",
       [&](Fixture& f) {
         auto c = Claim("claim-0", {Exact("req-0")});
         c->spec.requests.push_back(FirstAvailable("req-1", {all, Exact("sub-1")}));
         f.state.UpsertResourceSlice(Slice("slice-1", "worker", Devices(2), "pool-1"));
         return Claims{c};
       },
       {{{"req-0", kDriver, "pool-1", "device-0", false},
         {"req-1/sub-1", kDriver, "pool-1", "device-1", false}}}},
      {"prioritized-list-subrequests-with-allocation-mode-all",
       [&](Fixture& f) {
         auto c = Claim("claim-0", {});
         c->spec.requests.push_back(FirstAvailable("req-0", {all, Exact("sub-1")}));
         f.state.UpsertResourceSlice(Slice("slice-1", "worker", Devices(2), "pool-1"));
         auto other = Claim("other");
         other->allocation.emplace().devices.push_back(
             {"req-1", kDriver, "pool-1", "device-0", false});
         f.state.UpsertResourceClaim(other);
         return Claims{c};
       },
       {{{"req-0/sub-1", kDriver, "pool-1", "device-1", false}}}},
      {"prioritized-list-max-allocation-limit-request",
       [&](Fixture& f) {
         auto c = Claim("claim-0", {});
         for (const char* name : {"req-0", "req-1"}) {
           c->spec.requests.push_back(
               FirstAvailable(name, {Exact("sub-0", 32), Exact("sub-1", 16)}));
         }
         f.state.UpsertResourceSlice(Slice("slice-1", "worker", Devices(64), "pool-1"));
         return Claims{c};
       },
       {[] {
         auto r = Results("req-0/sub-1", "pool-1", 0, 16);
         auto r2 = Results("req-1/sub-1", "pool-1", 16, 16);
         r.insert(r.end(), r2.begin(), r2.end());
         return r;
       }()}},
      {"prioritized-list-non-available",
       [&](Fixture& f) {
         auto c = Claim("claim-0", {});
         c->spec.requests.push_back(
             FirstAvailable("req-0", {Exact("sub-0", 2), Exact("sub-1", 3)}));
         f.state.UpsertResourceSlice(Slice("slice-1", "worker", Devices(1), "pool-1"));
         return Claims{c};
       },
       {},
       DraAllocator::Outcome::Kind::kUnschedulable,
       "cannot allocate all claims"},
      // A constraint naming the parent request applies to its subrequests.
      {"prioritized-list-subrequests-with-constraints-ref-parent-request",
       [&](Fixture& f) {
         auto c = Claim("claim-0", {Exact("req-0")});
         c->spec.requests.push_back(FirstAvailable("req-1", {Exact("sub-0", 2), Exact("sub-1")}));
         c->spec.constraints.push_back({{"req-0", "req-1"}, "some-driver/model", ""});
         f.state.UpsertResourceSlice(Slice(
             "slice-1", "worker",
             {Device("device-0", {{"model", Str("x")}}), Device("device-1", {{"model", Str("y")}}),
              Device("device-2", {{"model", Str("x")}})},
             "pool-1"));
         return Claims{c};
       },
       {{{"req-0", kDriver, "pool-1", "device-0", false},
         {"req-1/sub-1", kDriver, "pool-1", "device-2", false}}}},
      {"prioritized-list-subrequests-with-constraints-ref-sub-request",
       [&](Fixture& f) {
         auto c = Claim("claim-0", {Exact("req-0")});
         c->spec.requests.push_back(FirstAvailable("req-1", {Exact("sub-0"), Exact("sub-1")}));
         c->spec.constraints.push_back({{"req-0", "req-1/sub-0"}, "some-driver/model", ""});
         f.state.UpsertResourceSlice(Slice(
             "slice-1", "worker",
             {Device("device-0", {{"model", Str("x")}}), Device("device-1", {{"model", Str("y")}})},
             "pool-1"));
         return Claims{c};
       },
       {{{"req-0", kDriver, "pool-1", "device-0", false},
         {"req-1/sub-1", kDriver, "pool-1", "device-1", false}}}},
  };
  if (DeviceSelector::Available()) {
    // Classes of two drivers: their selectors are CEL.
    cases.push_back(
        {"prioritized-list-first-unavailable",
         [&](Fixture& f) {
           AddClass(f, "class-a", "driver-a");
           AddClass(f, "class-b", "driver-b");
           auto c = Claim("claim-0", {});
           c->spec.requests.push_back(FirstAvailable(
               "req-0", {Of(Exact("sub-0"), "class-b"), Of(Exact("sub-1"), "class-a")}));
           f.state.UpsertResourceSlice(DriverSlice("slice-1", "driver-a", "pool-1", Devices(1)));
           return Claims{c};
         },
         {Results("req-0/sub-1", "pool-1", 0, 1, "driver-a")}});
    cases.push_back(
        {"prioritized-list-max-allocation-allocation-mode-all",
         [&](Fixture& f) {
           AddClass(f, "class-a", "driver-a");
           AddClass(f, "class-b", "driver-b");
           auto c = Claim("claim-0", {});
           c->spec.requests.push_back(
               FirstAvailable("req-0", {Of(all, "class-a"), Of(Exact("sub-1", 2), "class-a")}));
           c->spec.requests.push_back(Request(Of(Exact("req-1", 2), "class-b")));
           f.state.UpsertResourceSlice(DriverSlice("slice-1", "driver-a", "pool-1", Devices(31)));
           f.state.UpsertResourceSlice(DriverSlice("slice-2", "driver-b", "pool-2", Devices(2)));
           return Claims{c};
         },
         {[] {
           auto r = Results("req-0/sub-1", "pool-1", 0, 2, "driver-a");
           auto r2 = Results("req-1", "pool-2", 0, 2, "driver-b");
           r.insert(r.end(), r2.begin(), r2.end());
           return r;
         }()}});
    cases.push_back(
        {"all-devices-some-allocated-prioritized-list",
         [&](Fixture& f) {
           AddClass(f, "class-a", "driver-a");
           AddClass(f, "class-b", "driver-b");
           auto c = Claim("claim-0", {});
           c->spec.requests.push_back(
               FirstAvailable("req-0", {Of(all, "class-a"), Of(Exact("sub-1"), "class-b")}));
           f.state.UpsertResourceSlice(DriverSlice("slice-1", "driver-a", "pool-1", Devices(2)));
           f.state.UpsertResourceSlice(DriverSlice("slice-2", "driver-b", "pool-2", Devices(1)));
           auto other = Claim("other");
           other->allocation.emplace().devices.push_back(
               {"req-1", "driver-a", "pool-1", "device-0", false});
           f.state.UpsertResourceClaim(other);
           return Claims{c};
         },
         {Results("req-0/sub-1", "pool-2", 0, 1, "driver-b")}});
  }
  RunAllocCases(cases);
}

// allocator_testing.go's tainted-* cases (DRADeviceTaints): a NoSchedule
// or NoExecute taint keeps a device from requests that do not tolerate it;
// other effects do not.
TEST(DraAllocatorTest, DeviceTaints) {
  using Claims = std::vector<std::shared_ptr<ResourceClaim>>;
  const DraTaint none{"taint-key", "taint-value", "None"};
  const DraTaint no_schedule{"taint-key", "taint-value", "NoSchedule"};
  const DraTaint no_execute{"taint-key", "taint-value-2", "NoExecute"};
  const DraToleration tol_no_schedule{"taint-key", "Exists", "", "NoSchedule"};
  const DraToleration tol_no_execute{"taint-key", "Equal", "taint-value-2", "NoExecute"};
  auto tainted = [](std::string name, std::vector<DraTaint> taints) {
    DraDevice d = Device(std::move(name));
    d.taints = std::move(taints);
    return d;
  };
  auto slice = [&](Fixture& f, std::vector<DraDevice> devices) {
    f.state.UpsertResourceSlice(Slice("slice-1", "worker", std::move(devices), "pool-1"));
  };
  auto tolerating = [](DraRequest r, std::vector<DraToleration> t) {
    r.tolerations = std::move(t);
    return r;
  };
  const std::string kNo = "cannot allocate all claims";
  constexpr auto kUnsched = DraAllocator::Outcome::Kind::kUnschedulable;
  const std::vector<AllocCase> cases = {
      {"tainted-two-devices",
       [&](Fixture& f) {
         slice(f, {tainted("device-1", {no_schedule}), tainted("device-2", {no_execute})});
         return Claims{Claim("claim-0", {Exact("req-0")})};
       },
       {},
       kUnsched,
       kNo},
      {"tainted-one-device-two-taints",
       [&](Fixture& f) {
         slice(f, {tainted("device-1", {no_schedule, no_execute})});
         return Claims{Claim("claim-0", {Exact("req-0")})};
       },
       {},
       kUnsched,
       kNo},
      {"tainted-two-devices-tolerated",
       [&](Fixture& f) {
         slice(f, {tainted("device-1", {no_schedule}), tainted("device-2", {no_execute})});
         return Claims{Claim("claim-0", {tolerating(Exact("req-0"), {tol_no_execute})})};
       },
       {{{"req-0", kDriver, "pool-1", "device-2", false}}}},
      {"tainted-two-devices-prioritized-list-tolerated",
       [&](Fixture& f) {
         slice(f, {tainted("device-1", {no_schedule}), tainted("device-2", {no_execute})});
         auto c = Claim("claim-0", {});
         c->spec.requests.push_back(FirstAvailable(
             "req-0", {Exact("sub-0"), tolerating(Exact("sub-1"), {tol_no_execute})}));
         return Claims{c};
       },
       {{{"req-0/sub-1", kDriver, "pool-1", "device-2", false}}}},
      {"tainted-no-effect",
       [&](Fixture& f) {
         slice(f, {tainted("device-1", {none})});
         return Claims{Claim("claim-0", {Exact("req-0")})};
       },
       {{{"req-0", kDriver, "pool-1", "device-1", false}}}},
      {"tainted-unknown-effect",  // treated like None
       [&](Fixture& f) {
         slice(f, {tainted("device-1", {{"taint-key", "", "Evict"}})});
         return Claims{Claim("claim-0", {Exact("req-0")})};
       },
       {{{"req-0", kDriver, "pool-1", "device-1", false}}}},
      {"tainted-one-device-two-taints-both-tolerated",
       [&](Fixture& f) {
         slice(f, {tainted("device-1", {no_schedule, no_execute})});
         return Claims{
             Claim("claim-0", {tolerating(Exact("req-0"), {tol_no_schedule, tol_no_execute})})};
       },
       {{{"req-0", kDriver, "pool-1", "device-1", false}}}},
      {"tainted-admin-access",
       [&](Fixture& f) {
         slice(f, {tainted("device-1", {no_schedule})});
         DraRequest r = Exact("req-0");
         r.admin_access = true;
         return Claims{Claim("claim-0", {r})};
       },
       {},
       kUnsched,
       kNo},
      {"tainted-all-devices-single",
       [&](Fixture& f) {
         slice(f, {tainted("device-1", {no_schedule})});
         return Claims{Claim("claim-0", {Exact("req-0", 0, DraRequest::Mode::kAll)})};
       },
       {},
       kUnsched,
       kNo},
      // ToleratesTaint: an empty key or effect matches any; Equal compares
      // values; an empty operator is Equal.
      {"toleration-wildcard",
       [&](Fixture& f) {
         slice(f, {tainted("device-1", {no_schedule, no_execute})});
         return Claims{Claim("claim-0", {tolerating(Exact("req-0"), {{"", "Exists", "", ""}})})};
       },
       {{{"req-0", kDriver, "pool-1", "device-1", false}}}},
      {"toleration-value-mismatch",
       [&](Fixture& f) {
         slice(f, {tainted("device-1", {no_schedule})});
         return Claims{
             Claim("claim-0", {tolerating(Exact("req-0"), {{"taint-key", "", "other", ""}})})};
       },
       {},
       kUnsched,
       kNo},
  };
  RunAllocCases(cases);
}

// allocator_testing.go's partitionable-devices-* cases
// (DRAPartitionableDevices): devices draw on their pool's shared counters.
TEST(DraAllocatorTest, PartitionableDevices) {
  using Claims = std::vector<std::shared_ptr<ResourceClaim>>;
  auto gi = [](int64_t n) {
    return static_cast<DraCounterValue>(n) * (int64_t{1} << 30) * 1000000000;
  };
  auto consuming = [](std::string name, DraCounters counters, std::string set = "counter-set-1") {
    DraDevice d = Device(std::move(name));
    d.consumes_counters.push_back({std::move(set), std::move(counters)});
    return d;
  };
  // The pool: a device slice on worker and a counter set slice.
  auto pool = [&](Fixture& f, std::vector<DraDevice> devices, std::vector<DraCounterSet> sets) {
    f.state.UpsertResourceSlice(Slice("slice-1", "worker", std::move(devices), "pool-1", 1, 2));
    auto counters = Slice("slice-2", "", {}, "pool-1", 1, 2);
    counters->shared_counters = std::move(sets);
    f.state.UpsertResourceSlice(counters);
  };
  auto in_use = [](Fixture& f, const std::string& device) {
    auto other = Claim("other-" + device);
    other->allocation.emplace().devices.push_back({"req-1", kDriver, "pool-1", device, false});
    f.state.UpsertResourceClaim(other);
  };
  const std::string kNo = "cannot allocate all claims";
  constexpr auto kUnsched = DraAllocator::Outcome::Kind::kUnschedulable;
  const std::vector<AllocCase> cases = {
      {"partitionable-devices-single-device",
       [&](Fixture& f) {
         pool(f, {consuming("device-1", {{"memory", gi(4)}})},
              {{"counter-set-1", {{"memory", gi(8)}}}});
         return Claims{Claim("claim-0", {Exact("req-0")})};
       },
       {{{"req-0", kDriver, "pool-1", "device-1", false}}}},
      {"partitionable-devices-multiple-devices",
       [&](Fixture& f) {
         pool(f,
              {consuming("device-1", {{"memory", gi(4)}}),
               consuming("device-2", {{"memory", gi(6)}}),
               consuming("device-3", {{"memory", gi(4)}})},
              {{"counter-set-1", {{"memory", gi(8)}}}});
         return Claims{Claim("claim-0", {Exact("req-0"), Exact("req-1")})};
       },
       {{{"req-0", kDriver, "pool-1", "device-1", false},
         {"req-1", kDriver, "pool-1", "device-3", false}}}},
      {"partitionable-devices-prioritized-list",
       [&](Fixture& f) {
         pool(f,
              {consuming("device-1", {{"memory", gi(4)}}),
               consuming("device-2", {{"memory", gi(6)}}),
               consuming("device-3", {{"memory", gi(4)}})},
              {{"counter-set-1", {{"memory", gi(8)}}}});
         auto c = Claim("claim-0", {Exact("req-0")});
         // sub-0 needs two devices: with device-1 taken, 4Gi are left.
         c->spec.requests.push_back(FirstAvailable("req-1", {Exact("sub-0", 2), Exact("sub-1")}));
         return Claims{c};
       },
       {{{"req-0", kDriver, "pool-1", "device-1", false},
         {"req-1/sub-1", kDriver, "pool-1", "device-3", false}}}},
      {"partitionable-devices-taint-releases-counter",
       [&](Fixture& f) {
         DraDevice tainted = consuming("device-1", {{"c", 1000000000}});
         tainted.taints = {{"taint-key", "taint-value", "NoSchedule"}};
         pool(f, {tainted, consuming("device-2", {{"c", 1000000000}})},
              {{"counter-set-1", {{"c", 1000000000}}}});
         return Claims{Claim("claim-0", {Exact("req-0")})};
       },
       {{{"req-0", kDriver, "pool-1", "device-2", false}}}},
      {"partitionable-devices-constraint-releases-counter",
       [&](Fixture& f) {
         auto colour = [&](std::string name, std::string c) {
           DraDevice d = consuming(std::move(name), {{"c", 1000000000}});
           d.attributes = {{"stringAttribute", Str(std::move(c))}};
           return d;
         };
         pool(f,
              {colour("device-1", "red"), colour("device-2", "blue"), colour("device-3", "blue")},
              {{"counter-set-1", {{"c", 2000000000}}}});
         auto c = Claim("claim-0", {Exact("req-0", 2)});
         c->spec.constraints.push_back({{}, "some-driver/stringAttribute", ""});
         return Claims{c};
       },
       {{{"req-0", kDriver, "pool-1", "device-2", false},
         {"req-0", kDriver, "pool-1", "device-3", false}}}},
      {"partitionable-devices-unused-counters-in-counter-set",
       [&](Fixture& f) {
         pool(f,
              {consuming("device-1", {{"memory", gi(5)}}),
               consuming("device-2", {{"memory", gi(4)}}),
               consuming("device-3", {{"memory", gi(4)}})},
              {{"counter-set-1", {{"memory", gi(8)}, {"unused", gi(1)}}}});
         return Claims{Claim("claim-0", {Exact("req-0", 2)})};
       },
       {{{"req-0", kDriver, "pool-1", "device-2", false},
         {"req-0", kDriver, "pool-1", "device-3", false}}}},
      {"partitionable-devices-no-capacity-available",
       [&](Fixture& f) {
         pool(f,
              {consuming("device-1", {{"memory", gi(4)}}),
               consuming("device-2", {{"memory", gi(16)}})},
              {{"counter-set-1", {{"memory", gi(18)}}}});
         in_use(f, "device-2");
         return Claims{Claim("claim-0", {Exact("req-0")})};
       },
       {},
       kUnsched,
       kNo},
      // A counter left negative by allocated devices fails every device of
      // the pool, whichever counters it consumes (checkAvailableCounters
      // compares all of them).
      {"partitionable-devices-overallocated-other-counter",
       [&](Fixture& f) {
         pool(f,
              {consuming("device-1", {{"memory", gi(4)}}),
               consuming("device-2", {{"cores", 3000000000}})},
              {{"counter-set-1", {{"memory", gi(18)}, {"cores", 2000000000}}}});
         in_use(f, "device-2");
         return Claims{Claim("claim-0", {Exact("req-0")})};
       },
       {},
       kUnsched,
       kNo},
      // The counters of allocated devices in slices that do not reach the
      // node count too.
      {"partitionable-devices-other-node",
       [&](Fixture& f) {
         f.state.UpsertResourceSlice(Slice(
             "slice-1", "worker", {consuming("device-1", {{"memory", gi(4)}})}, "pool-1", 1, 3));
         f.state.UpsertResourceSlice(Slice(
             "slice-3", "worker-2", {consuming("device-2", {{"memory", gi(6)}})}, "pool-1", 1, 3));
         auto counters = Slice("slice-2", "", {}, "pool-1", 1, 3);
         counters->shared_counters = {{"counter-set-1", {{"memory", gi(8)}}}};
         f.state.UpsertResourceSlice(counters);
         in_use(f, "device-2");
         return Claims{Claim("claim-0", {Exact("req-0")})};
       },
       {},
       kUnsched,
       kNo},
      {"partitionable-devices-counter-set-not-found",
       [&](Fixture& f) {
         pool(f, {consuming("device-1", {{"memory", gi(4)}}, "other-set")},
              {{"counter-set-1", {{"memory", gi(8)}}}});
         return Claims{Claim("claim-0", {Exact("req-0")})};
       },
       {},
       kUnsched,
       "invalid resource pools were encountered"},
      {"partitionable-devices-counter-not-found",
       [&](Fixture& f) {
         pool(f, {consuming("device-1", {{"cores", 1}})}, {{"counter-set-1", {{"memory", gi(8)}}}});
         return Claims{Claim("claim-0", {Exact("req-0")})};
       },
       {},
       kUnsched,
       "invalid resource pools were encountered"},
      {"partitionable-devices-duplicate-counter-set",
       [&](Fixture& f) {
         pool(f, {consuming("device-1", {{"memory", gi(4)}})},
              {{"counter-set-1", {{"memory", gi(8)}}}, {"counter-set-1", {{"memory", gi(8)}}}});
         return Claims{Claim("claim-0", {Exact("req-0")})};
       },
       {},
       kUnsched,
       "invalid resource pools were encountered"},
  };
  RunAllocCases(cases);
}

// Score (DRAPrioritizedList): upstream's *-prioritized-list-scoring cases
// of TestPlugin, with Score taken from Filter's allocation and afresh.
// consumable_capacity_test.go (incubating): the policy arithmetic, in
// whole units (1 = 10^9 nano-units).
TEST(DraCapacityTest, ConsumableCapacity) {
  auto q = [](int64_t units) { return static_cast<DraCounterValue>(units) * 1000000000; };
  auto cap = [&](int64_t value, std::optional<DraCapacityPolicy> p) {
    DraCapacity c;
    c.name = "capacity-0";
    c.value = q(value);
    c.policy = std::move(p);
    return c;
  };
  auto range = [&](int64_t def, int64_t min, std::optional<int64_t> max = std::nullopt,
                   std::optional<int64_t> step = std::nullopt) {
    DraCapacityPolicy p;
    p.default_value = q(def);
    p.has_range = true;
    p.min = q(min);
    if (max) p.max = q(*max);
    if (step) p.step = q(*step);
    return p;
  };
  auto values = [&](int64_t def, std::vector<int64_t> v) {
    DraCapacityPolicy p;
    p.default_value = q(def);
    for (int64_t x : v) p.valid_values.push_back(q(x));
    return p;
  };
  // testViolateCapacityRequestPolicy.
  struct Violate {
    std::string name;
    int64_t requested;
    std::optional<DraCapacityPolicy> policy;
    bool want;
  };
  for (const Violate& c : std::vector<Violate>{
           {"no constraint", 1, std::nullopt, false},
           {"less than maximum", 1, range(1, 1, 2), false},
           {"more than maximum", 2, range(1, 1, 1), true},
           {"in set", 1, values(1, {1}), false},
           {"not in set", 2, values(1, {1}), true},
           {"off step", 3, range(2, 2, 4, 2), true},
       }) {
    EXPECT_EQ(DraViolatesPolicy(q(c.requested), c.policy), c.want) << c.name;
  }
  // testCalculateConsumedCapacity.
  struct Calc {
    std::string name;
    std::optional<int64_t> requested;
    int64_t value;
    DraCapacityPolicy policy;
    int64_t want;
  };
  for (const Calc& c : std::vector<Calc>{
           {"empty", std::nullopt, 1, DraCapacityPolicy{}, 1},
           {"min in range", std::nullopt, 2, range(1, 1), 1},
           {"default in set", std::nullopt, 2, values(1, {1}), 1},
           {"more than min in range", 2, 2, range(1, 1), 2},
           {"less than min in range", 1, 2, range(1, 2), 2},
           {"with step (round up)", 2, 3, range(1, 1, std::nullopt, 2), 3},
           {"with step (no remaining)", 2, 2, range(1, 1, std::nullopt, 1), 2},
           {"valid value in set", 2, 3, values(1, {1, 2, 3}), 2},
           {"set (round up)", 2, 3, values(1, {1, 3}), 3},
           {"larger than set", 3, 3, values(1, {1, 2}), 3},
       }) {
    const std::optional<DraCounterValue> r =
        c.requested ? std::optional<DraCounterValue>(q(*c.requested)) : std::nullopt;
    EXPECT_TRUE(DraConsumedCapacity(r, cap(c.value, c.policy)) == q(c.want)) << c.name;
  }
  // get-consumed-capacity-from-request: with a request and a default, the
  // request; without a request, the default; without a policy, the value.
  DraDevice d;
  d.capacity = {cap(2, range(2, 1)), cap(2, range(1, 1)), cap(1, std::nullopt)};
  d.capacity[1].name = "capacity-1";
  d.capacity[2].name = "dummy";
  const DraQuantities got = DraConsumedFromRequest({{"capacity-0", q(1)}, {"dummy", q(1)}}, d);
  EXPECT_TRUE(got == (DraQuantities{{"capacity-0", q(1)}, {"capacity-1", q(1)}, {"dummy", q(1)}}));
  // CmpRequestOverCapacity: a request for a capacity the device lacks.
  std::string error;
  EXPECT_FALSE(DraRequestFits({{"other", q(1)}}, d, nullptr, nullptr, &error));
  EXPECT_EQ(error, "some requested capacity has not been defined");
}

// allocator_testing.go's consumable-capacity-* and allow-multiple-allocations-*
// cases (DRAConsumableCapacity, beta and on). Their classes select
// `device.allowMultipleAllocations == true` (or false) where every device
// of the case is alike, so a class without selectors stands in; cases with
// request selectors need the CEL evaluator. shareIDs are compared as
// upstream's fixedShareID.
TEST(DraAllocatorTest, ConsumableCapacity) {
  using Claims = std::vector<std::shared_ptr<ResourceClaim>>;
  auto q = [](int64_t units) { return static_cast<DraCounterValue>(units) * 1000000000; };
  auto cap = [&](std::string name, int64_t value) {
    DraCapacity c;
    c.name = std::move(name);
    c.text = std::to_string(value);
    c.value = q(value);
    return c;
  };
  // A device that allows multiple allocations, with `capacity-0` of `value`
  // units (none when 0).
  auto multi = [&](std::string name, int64_t value = 0) {
    DraDevice d = Device(std::move(name));
    d.allow_multiple_allocations = true;
    if (value > 0) d.capacity.push_back(cap("capacity-0", value));
    return d;
  };
  // withCapacityRequestPolicyRange: default 2, min 2, step 2, max 4.
  auto ranged = [&](DraDevice d, int64_t value) {
    DraCapacity c = cap("capacity-0", value);
    DraCapacityPolicy& p = c.policy.emplace();
    p.default_value = q(2);
    p.has_range = true;
    p.min = q(2);
    p.step = q(2);
    p.max = q(4);
    d.capacity.push_back(std::move(c));
    return d;
  };
  // withCapacityRequestPolicyValidValues: default first, then `more`.
  auto valued = [&](DraDevice d, int64_t def, int64_t value, std::vector<int64_t> more) {
    DraCapacity c = cap("capacity-0", value);
    DraCapacityPolicy& p = c.policy.emplace();
    p.default_value = q(def);
    p.valid_values.push_back(q(def));
    for (int64_t v : more) p.valid_values.push_back(q(v));
    d.capacity.push_back(std::move(c));
    return d;
  };
  auto asks = [&](DraRequest r, int64_t units) {
    r.capacity_requests = {{"capacity-0", q(units)}};
    return r;
  };
  auto slice = [](Fixture& f, std::vector<DraDevice> devices) {
    f.state.UpsertResourceSlice(Slice("slice-1", "worker", std::move(devices), "pool-1"));
  };
  const std::string kShare = "aaaaaaaa-aaaa-aaaa-aaaa-aaaaaaaaaaaa";
  // A share's result; `consumed` units of capacity-0 (-1: none recorded).
  auto share = [&](std::string request, std::string device, int64_t consumed) {
    DraAllocatedDevice d{std::move(request), kDriver, "pool-1", std::move(device), false};
    d.share_id = kShare;
    if (consumed >= 0) d.consumed_capacity = DraQuantities{{"capacity-0", q(consumed)}};
    return d;
  };
  auto whole = [](std::string request, std::string device) {
    return DraAllocatedDevice{std::move(request), kDriver, "pool-1", std::move(device), false};
  };
  // allocatedCapacityDevices: another claim holds a share consuming `units`.
  auto shared_by_other = [&](Fixture& f, const std::string& device, int64_t units) {
    auto other = Claim("other-" + device);
    other->allocation.emplace().devices.push_back(share("req-0", device, units));
    f.state.UpsertResourceClaim(other);
  };
  constexpr auto kUnsched = DraAllocator::Outcome::Kind::kUnschedulable;
  const std::string kNo = "cannot allocate all claims";
  const DraRequest all = Exact("req-0", 0, DraRequest::Mode::kAll);
  std::vector<AllocCase> cases = {
      {"consumable-capacity-multi-allocatable-device-with-missing-capacity-request",
       [&](Fixture& f) {
         DraDevice d = multi("device-1");
         d.capacity.push_back(cap("capacity-1", 1));
         slice(f, {d});
         return Claims{Claim("claim-0", {asks(Exact("req-0"), 1)})};
       },
       {},
       kUnsched,
       kNo},
      {"consumable-capacity-multi-allocatable-device-allocation-mode-all-with-missing-capacity-"
       "request",
       [&](Fixture& f) {
         DraDevice d = multi("device-1");
         d.capacity.push_back(cap("capacity-1", 1));
         slice(f, {d});
         return Claims{Claim("claim-0", {asks(all, 1)})};
       },
       {},
       kUnsched,
       kNo},
      {"consumable-capacity-multi-allocatable-device-without-capacity-without-capacity-request",
       [&](Fixture& f) {
         slice(f, {multi("device-1")});
         return Claims{Claim("claim-0", {Exact("req-0")}), Claim("claim-1", {Exact("req-0")})};
       },
       {{share("req-0", "device-1", -1)}, {share("req-0", "device-1", -1)}}},
      {"consumable-capacity-multi-allocatable-device-without-policy-without-capacity-request",
       [&](Fixture& f) {
         slice(f, {multi("device-1", 1), multi("device-2", 1)});
         return Claims{Claim("claim-0", {Exact("req-0")}), Claim("claim-1", {Exact("req-0")})};
       },
       {{share("req-0", "device-1", 1)}, {share("req-0", "device-2", 1)}}},
      {"consumable-capacity-multi-allocatable-device-without-policy-without-capacity-request-block",
       [&](Fixture& f) {
         slice(f, {multi("device-1", 2)});
         return Claims{Claim("claim-0", {Exact("req-0")}), Claim("claim-1", {Exact("req-0")})};
       },
       {},
       kUnsched,
       kNo},
      {"consumable-capacity-multi-allocatable-device-without-policy-with-capacity-request",
       [&](Fixture& f) {
         slice(f, {multi("device-1", 2)});
         return Claims{Claim("claim-0", {asks(Exact("req-0"), 1)}),
                       Claim("claim-1", {asks(Exact("req-0"), 1)})};
       },
       {{share("req-0", "device-1", 1)}, {share("req-0", "device-1", 1)}}},
      {"consumable-capacity-multi-allocatable-device-with-policy-without-capacity-request",
       [&](Fixture& f) {
         slice(f, {ranged(multi("device-1"), 4)});
         return Claims{Claim("claim-0", {Exact("req-0")}), Claim("claim-1", {Exact("req-0")})};
       },
       {{share("req-0", "device-1", 2)}, {share("req-0", "device-1", 2)}}},
      {"consumable-capacity-multi-allocatable-device-with-zero-request-policy",
       [&](Fixture& f) {
         slice(f, {valued(multi("device-1"), 0, 1, {})});
         return Claims{Claim("claim-0", {Exact("req-0")}), Claim("claim-1", {Exact("req-0")})};
       },
       {{share("req-0", "device-1", 0)}, {share("req-0", "device-1", 0)}}},
      {"consumable-capacity-multi-allocatable-device-violates-zero-request-policy",
       [&](Fixture& f) {
         slice(f, {valued(multi("device-1"), 0, 1, {})});
         return Claims{Claim("claim-0", {asks(Exact("req-0"), 1)})};
       },
       {},
       kUnsched,
       kNo},
      {"consumable-capacity-multi-allocatable-device-with-range-policy-with-capacity-request",
       [&](Fixture& f) {
         slice(f, {ranged(multi("device-1"), 4)});
         return Claims{Claim("claim-0", {asks(Exact("req-0"), 1)}),
                       Claim("claim-1", {asks(Exact("req-0"), 1)})};
       },
       {{share("req-0", "device-1", 2)}, {share("req-0", "device-1", 2)}}},
      {"consumable-capacity-multi-allocatable-device-with-range-policy-step",
       [&](Fixture& f) {
         slice(f, {ranged(multi("device-1"), 4)});
         return Claims{Claim("claim-0", {asks(Exact("req-0"), 3)})};
       },
       {{share("req-0", "device-1", 4)}}},
      {"consumable-capacity-multi-allocatable-device-with-valid-values-policy",
       [&](Fixture& f) {
         slice(f, {valued(multi("device-1"), 1, 4, {2})});
         return Claims{Claim("claim-0", {asks(Exact("req-0"), 2)})};
       },
       {{share("req-0", "device-1", 2)}}},
      {"consumable-capacity-multi-allocatable-device-with-valid-values-policy-round-up",
       [&](Fixture& f) {
         slice(f, {valued(multi("device-1"), 1, 3, {3})});
         return Claims{Claim("claim-0", {asks(Exact("req-0"), 2)})};
       },
       {{share("req-0", "device-1", 3)}}},
      {"consumable-capacity-multi-allocatable-device-with-exceeded-consumable-capacity-request",
       [&](Fixture& f) {
         slice(f, {ranged(multi("device-1"), 2)});
         return Claims{Claim("claim-0", {asks(Exact("req-0"), 1)}),
                       Claim("claim-1", {asks(Exact("req-0"), 2)})};
       },
       {},
       kUnsched,
       kNo},
      {"consumable-capacity-multi-allocatable-device-with-request-over-max-sharing-policy",
       [&](Fixture& f) {
         slice(f, {ranged(multi("device-1"), 10)});
         return Claims{Claim("claim-0", {asks(Exact("req-0"), 6)})};
       },
       {},
       kUnsched,
       kNo},
      {"consumable-capacity-multi-allocatable-device-with-allocated-capacity-use-remaining",
       [&](Fixture& f) {
         slice(f, {ranged(multi("device-1"), 4)});
         shared_by_other(f, "device-1", 2);
         return Claims{Claim("claim-0", {asks(Exact("req-0"), 2)})};
       },
       {{share("req-0", "device-1", 2)}}},
      {"consumable-capacity-multi-allocatable-device-with-allocated-capacity-next-device",
       [&](Fixture& f) {
         slice(f, {ranged(multi("device-1"), 2), ranged(multi("device-2"), 2)});
         shared_by_other(f, "device-1", 2);
         return Claims{Claim("claim-0", {asks(Exact("req-0"), 2)})};
       },
       {{share("req-0", "device-2", 2)}}},
      {"consumable-capacity-with-multi-allocatable-device-backtrack",
       [&](Fixture& f) {
         DraDevice d2 = ranged(multi("device-2"), 2);
         d2.attributes = {{"stringAttribute", Str("stringAttributeValue1")}};
         DraDevice d1 = ranged(multi("device-1"), 4);
         d1.attributes = {{"stringAttribute", Str("stringAttributeValue2")}};
         slice(f, {d2, d1});
         auto c0 = Claim("claim-0", {asks(Exact("req-0"), 2), asks(Exact("req-1"), 2)});
         c0->spec.constraints.push_back({{}, std::string(kDriver) + "/stringAttribute", ""});
         return Claims{c0, Claim("claim-1", {asks(Exact("req-0"), 2)})};
       },
       {{share("req-0", "device-1", 2), share("req-1", "device-1", 2)},
        {share("req-0", "device-2", 2)}}},
      {"consumable-capacity-multi-allocatable-device-with-subrequest",
       [&](Fixture& f) {
         slice(f, {ranged(multi("device-1"), 2)});
         auto c = Claim("claim-0", {});
         c->spec.requests.push_back(FirstAvailable(
             "req-0", {asks(Exact("subReq-0"), 4), asks(Exact("subReq-1"), 2), Exact("subReq-2")}));
         return Claims{c};
       },
       {{share("req-0/subReq-1", "device-1", 2)}}},
      {"consumable-capacity-multi-allocatable-device-with-no-available-consumable-capacity",
       [&](Fixture& f) {
         slice(f, {ranged(multi("device-1"), 2)});
         shared_by_other(f, "device-1", 2);
         return Claims{Claim("claim-0", {asks(Exact("req-0"), 2)})};
       },
       {},
       kUnsched,
       kNo},
      {"consumable-capacity-multi-allocatable-device-allocation-mode-all-filter-out-no-capacity",
       [&](Fixture& f) {
         slice(f, {multi("device-1", 2), multi("device-2")});
         return Claims{Claim("claim-0", {asks(all, 2)})};
       },
       {{share("req-0", "device-1", 2)}}},
      {"consumable-capacity-multi-allocatable-device-allocation-mode-all-filter-out-insufficient-"
       "capacity",
       [&](Fixture& f) {
         slice(f, {multi("device-1", 2), multi("device-2", 1)});
         return Claims{Claim("claim-0", {asks(all, 2)})};
       },
       {{share("req-0", "device-1", 2)}}},
      {"consumable-capacity-multi-allocatable-device-allocation-mode-all-allocating-sufficient",
       [&](Fixture& f) {
         slice(f, {multi("device-1", 2), multi("device-2", 1)});
         DraRequest all1 = asks(all, 1);
         all1.name = "req-1";
         return Claims{Claim("claim-0", {asks(Exact("req-0"), 1), all1})};
       },
       {{share("req-0", "device-1", 1), share("req-1", "device-1", 1),
         share("req-1", "device-2", 1)}}},
      {"consumable-capacity-multi-allocatable-device-allocation-mode-all-in-use-sufficient",
       [&](Fixture& f) {
         slice(f, {multi("device-1", 2), multi("device-2", 1)});
         shared_by_other(f, "device-1", 1);
         return Claims{Claim("claim-0", {asks(all, 1)})};
       },
       {{share("req-0", "device-1", 1), share("req-0", "device-2", 1)}}},
      {"consumable-capacity-multi-allocatable-device-allocation-mode-all-allocating-insufficient",
       [&](Fixture& f) {
         slice(f, {multi("device-1", 1), multi("device-2", 1)});
         DraRequest all1 = asks(all, 1);
         all1.name = "req-1";
         return Claims{Claim("claim-0", {asks(Exact("req-0"), 1), all1})};
       },
       {},
       kUnsched,
       kNo},
      {"consumable-capacity-multi-allocatable-device-allocation-mode-all-in-use-insufficient",
       [&](Fixture& f) {
         slice(f, {multi("device-1", 1), multi("device-2", 1)});
         shared_by_other(f, "device-1", 1);
         return Claims{Claim("claim-0", {asks(all, 1)})};
       },
       {{share("req-0", "device-2", 1)}}},
      {"consumable-capacity-dedicated-device-with-consumable-capacity-request",
       [&](Fixture& f) {
         DraDevice d = Device("device-1");
         d.capacity.push_back(cap("capacity-0", 1));
         slice(f, {d});
         return Claims{Claim("claim-0", {asks(Exact("req-0"), 1)})};
       },
       {{whole("req-0", "device-1")}}},
      {"consumable-capacity-dedicated-device-with-multiple-consumable-capacity-request",
       [&](Fixture& f) {
         slice(f, {ranged(Device("device-1"), 2)});
         return Claims{Claim("claim-0", {asks(Exact("req-0"), 1)}),
                       Claim("claim-1", {asks(Exact("req-0"), 1)})};
       },
       {},
       kUnsched,
       kNo},
      {"allow-multiple-allocations-not-allocate-multi-allocatable-device-which-already-dedicated",
       [&](Fixture& f) {
         slice(f, {ranged(multi("device-1"), 2)});
         auto other = Claim("other");
         other->allocation.emplace().devices.push_back(whole("req-0", "device-1"));
         f.state.UpsertResourceClaim(other);
         return Claims{Claim("claim-0", {asks(Exact("req-0"), 1)})};
       },
       {},
       kUnsched,
       kNo},
      {"allow-multiple-allocations-not-allocate-dedicated-device-which-change-from-multi-"
       "allocatable",
       [&](Fixture& f) {
         slice(f, {ranged(Device("device-1"), 2)});
         shared_by_other(f, "device-1", 1);
         return Claims{Claim("claim-0", {asks(Exact("req-0"), 1)})};
       },
       {},
       kUnsched,
       kNo},
  };
  // For the cases with request selectors (the setups run after this
  // block, so what they use lives here).
  const std::string attr = std::string("device.attributes[\"") + kDriver + "\"]";
  auto selecting = [](DraRequest r, std::string expr) {
    r.selectors.push_back(std::move(expr));
    return r;
  };
  auto kind = [](DraDevice d, std::string k) {
    d.attributes.push_back({"kind", Str(std::move(k))});
    return d;
  };
  auto consumes = [&](DraDevice d, std::string counter, int64_t units) {
    d.consumes_counters.push_back({"counter-set-1", {{counter, q(units)}}});
    return d;
  };
  auto pool = [&](Fixture& f, std::vector<DraDevice> devices, std::string counter, int64_t units) {
    f.state.UpsertResourceSlice(Slice("slice-1", "worker", std::move(devices), "pool-1", 1, 2));
    auto counters = Slice("slice-2", "", {}, "pool-1", 1, 2);
    counters->shared_counters = {{"counter-set-1", {{std::move(counter), q(units)}}}};
    f.state.UpsertResourceSlice(counters);
  };
  if (DeviceSelector::Available()) {
    cases.push_back(
        {"partitionable-consumable-capacity-backtrack-releases-counter",
         [&](Fixture& f) {
           pool(f,
                {consumes(kind(multi("device-1"), "shared"), "c", 1),
                 kind(Device("device-2"), "shared"),
                 consumes(kind(Device("device-3"), "counteronly"), "c", 1)},
                "c", 1);
           return Claims{
               Claim("claim-0", {selecting(Exact("req-0"), attr + ".kind == \"shared\""),
                                 selecting(Exact("req-1"), attr + ".kind == \"counteronly\"")})};
         },
         {{whole("req-0", "device-2"), whole("req-1", "device-3")}}});
    cases.push_back(
        {"consumable-capacity-rejection-rolls-back-constraints",
         [&](Fixture& f) {
           DraDevice d1 = multi("device-1", 2);
           d1.attributes = {{"stringAttribute", Str("cap")}};
           DraDevice d2 = Device("device-2");
           d2.attributes = {{"stringAttribute", Str("fb")}};
           slice(f, {d1, d2});
           auto c0 =
               Claim("claim-0",
                     {selecting(asks(Exact("req-0"), 2), attr + ".stringAttribute == \"cap\"")});
           auto c1 = Claim("claim-1", {});
           DraRequest sub0 = selecting(asks(all, 2), attr + ".stringAttribute == \"cap\"");
           sub0.name = "subReq-0";
           c1->spec.requests.push_back(FirstAvailable(
               "req-0", {sub0, selecting(Exact("subReq-1"), attr + ".stringAttribute == \"fb\"")}));
           c1->spec.constraints.push_back({{}, std::string(kDriver) + "/stringAttribute", ""});
           return Claims{c0, c1};
         },
         {{share("req-0", "device-1", 2)}, {whole("req-0/subReq-1", "device-2")}}});
    cases.push_back(
        {"partitionable-empty-capacity-multiple-share-backtrack-keeps-counter-ownership",
         [&](Fixture& f) {
           DraDevice d1 = consumes(kind(multi("device-1"), "shared"), "c", 1);
           d1.attributes.push_back({"stringAttribute", Str("red")});
           DraDevice d2 = kind(Device("device-2"), "fallback");
           d2.attributes.push_back({"stringAttribute", Str("blue")});
           DraDevice d3 = kind(Device("device-3"), "gate");
           d3.attributes.push_back({"stringAttribute", Str("blue")});
           pool(f, {d1, d2, d3}, "c", 1);
           auto c1 =
               Claim("claim-1", {selecting(Exact("req-1"), attr + ".kind == \"shared\" || " + attr +
                                                               ".kind == \"fallback\""),
                                 selecting(Exact("req-2"), attr + ".kind == \"gate\""),
                                 selecting(Exact("req-3"), attr + ".kind == \"shared\"")});
           c1->spec.constraints.push_back(
               {{"req-1", "req-2"}, std::string(kDriver) + "/stringAttribute", ""});
           return Claims{
               Claim("claim-0", {selecting(Exact("req-0"), attr + ".kind == \"shared\"")}), c1};
         },
         {{share("req-0", "device-1", -1)},
          {whole("req-1", "device-2"), whole("req-2", "device-3"),
           share("req-3", "device-1", -1)}}});
    cases.push_back({"allow-multiple-allocations-with-shared-device-counter-cross-cycle",
                     [&](Fixture& f) {
                       DraDevice d1 = consumes(multi("device-1", 1), "capacity-0", 1);
                       d1.attributes = {{"mode", Str("a")}};
                       DraDevice d2 = consumes(multi("device-2", 1), "capacity-0", 1);
                       d2.attributes = {{"mode", Str("b")}};
                       pool(f, {d1, d2}, "capacity-0", 1);
                       shared_by_other(f, "device-1", 1);
                       return Claims{Claim("claim-0", {selecting(asks(Exact("req-0"), 1),
                                                                 attr + ".mode == \"b\"")})};
                     },
                     {},
                     kUnsched,
                     kNo});
  }
  RunAllocCases(cases);
}

TEST(DynamicResourcesTest, Score) {
  struct ScoreCase {
    std::string name;
    std::function<void(Fixture&)> setup;
    std::vector<int64_t> want_raw;         // worker, worker-2, worker-3
    std::vector<int64_t> want_normalized;  // of the nodes that pass Filter
  };
  auto slices = [](Fixture& f, std::vector<int> devices) {
    for (size_t i = 0; i < devices.size(); ++i) {
      const std::string node = i == 0 ? "worker" : "worker-" + std::to_string(i + 1);
      f.state.UpsertResourceSlice(Slice(node + "-slice", node, Devices(devices[i])));
    }
  };
  const std::vector<ScoreCase> cases = {
      {"multiple-claims-prioritized-list-scoring",
       [&](Fixture& f) {
         auto c = Claim("c", {});
         c->spec.requests.push_back(FirstAvailable("req-1", {Exact("subreq-1")}));
         auto d = Claim("d", {});
         d->spec.requests.push_back(
             FirstAvailable("req-1", {Exact("subreq-1", 4), Exact("subreq-2", 3),
                                      Exact("subreq-3", 2), Exact("subreq-4", 1)}));
         f.UseClaim("c");
         f.UseClaim("d");
         f.state.UpsertResourceClaim(c);
         f.state.UpsertResourceClaim(d);
         slices(f, {4, 2, 1});
       },
       {15, 13, 0},
       {100, 86}},
      {"multiple-requests-prioritized-list-scoring",
       [&](Fixture& f) {
         auto c = Claim("c", {});
         for (const char* name : {"req-1", "req-2"}) {
           c->spec.requests.push_back(
               FirstAvailable(name, {Exact("subreq-1", 2), Exact("subreq-2", 1)}));
         }
         f.UseClaim("c");
         f.state.UpsertResourceClaim(c);
         slices(f, {4, 3, 2});
       },
       {16, 15, 14},
       {100, 93, 87}},
      {"no-first-available",
       [&](Fixture& f) {
         f.UseClaim("c");
         f.state.UpsertResourceClaim(Claim("c"));
         slices(f, {1, 1, 1});
       },
       {0, 0, 0},
       {0, 0, 0}},
  };
  for (const ScoreCase& c : cases) {
    SCOPED_TRACE(c.name);
    Fixture f;
    f.state.UpsertNode(NodeBuilder(f.state.interner(), "worker-3").Build());
    c.setup(f);
    DynamicResources pl;
    for (bool filter_first : {true, false}) {
      CycleState cs(1);
      PreFilterResult result;
      ASSERT_TRUE(pl.PreFilter(cs, *f.pod, f.state, &result).IsSuccess());
      std::vector<int64_t> raw, feasible;
      for (const char* node : {"worker", "worker-2", "worker-3"}) {
        const NodeInfo& ni = *f.state.FindNode(node);
        const bool fits = pl.Filter(cs, *f.pod, ni).IsSuccess();
        int64_t score = -1;
        if (!filter_first) cs = CycleState(1), pl.PreFilter(cs, *f.pod, f.state, &result);
        ASSERT_TRUE(pl.Score(cs, *f.pod, ni, &score).IsSuccess());
        raw.push_back(fits ? score : 0);
        if (fits) feasible.push_back(score);
      }
      EXPECT_EQ(raw, c.want_raw);
      ASSERT_TRUE(pl.NormalizeScore(cs, *f.pod, feasible).IsSuccess());
      EXPECT_EQ(feasible, c.want_normalized);
    }
  }
}

// Assume records the allocation and the reservation, so the next pod's
// claim cannot have the same device (upstream: Reserve's in-flight claim,
// then PreBind's status update).
TEST(DynamicResourcesTest, AssumeAllocatesClaims) {
  Fixture f;
  f.UseClaim("c");
  f.state.UpsertResourceClaim(Claim("c"));
  f.state.UpsertResourceClaim(Claim("d"));
  f.state.UpsertResourceSlice(Slice("worker-slice", "worker", {Device("instance-1")}));
  AssumePodClaims(*f.pod, "worker", &f.state);
  const ResourceClaim& c = *f.state.resource_claims().at("default/c");
  ASSERT_TRUE(c.allocation);
  EXPECT_EQ(c.allocation->devices,
            (std::vector<DraAllocatedDevice>{{"req-1", kDriver, "worker", "instance-1", false}}));
  EXPECT_EQ(c.reserved_for, std::vector<std::string>{kPodUid});

  Fixture g;  // another pod with claim d, on the same state
  g.UseClaim("d");
  g.pod->uid = "5678";
  DynamicResources pl;
  CycleState cs(1);
  PreFilterResult result;
  ASSERT_TRUE(pl.PreFilter(cs, *g.pod, f.state, &result).IsSuccess());
  EXPECT_EQ(pl.Filter(cs, *g.pod, *f.state.FindNode("worker")).Message(),
            "cannot allocate all claims");
  // The first pod's claim, allocated, is available on worker only.
  CycleState cs2(1);
  ASSERT_TRUE(pl.PreFilter(cs2, *f.pod, f.state, &result).IsSuccess());
  EXPECT_TRUE(pl.Filter(cs2, *f.pod, *f.state.FindNode("worker")).IsSuccess());
  EXPECT_EQ(pl.Filter(cs2, *f.pod, *f.state.FindNode("worker-2")).Message(),
            "resourceclaim not available on the node");
}

// DRAExtendedResource across cycles: the special claim assumed on worker
// holds its device, so the next pod asking for it finds none; the caller's
// claim (or the pod's deletion) replaces it.
TEST(DynamicResourcesTest, AssumeAllocatesExtendedResources) {
  Fixture f;
  f.GpuClass();
  f.state.UpsertResourceSlice(Slice("worker-slice", "worker", {Device("instance-1")}));
  f.Requests({{{"example.com/gpu", 1}}});
  AssumePodClaims(*f.pod, "worker", &f.state);
  const std::string key = "default/my-pod-extended-resources-<assumed>";
  ASSERT_TRUE(f.state.resource_claims().contains(key));
  const ResourceClaim& c = *f.state.resource_claims().at(key);
  EXPECT_TRUE(c.extended_resource_claim);
  EXPECT_EQ(c.controller_uid, kPodUid);
  ASSERT_EQ(c.spec.requests.size(), 1u);
  EXPECT_EQ(c.spec.requests[0].name, "container-0-request-0");
  ASSERT_TRUE(c.allocation);
  EXPECT_EQ(c.allocation->devices,
            (std::vector<DraAllocatedDevice>{
                {"container-0-request-0", kDriver, "worker", "instance-1", false}}));
  EXPECT_EQ(c.reserved_for, std::vector<std::string>{kPodUid});

  Fixture g;  // another pod asking for the same, on the same state
  g.pod->name = "other-pod";
  g.pod->uid = "5678";
  g.Requests({{{"example.com/gpu", 1}}});
  DynamicResources pl;
  CycleState cs(1);
  PreFilterResult result;
  ASSERT_TRUE(pl.PreFilter(cs, *g.pod, f.state, &result).IsSuccess());
  EXPECT_EQ(pl.Filter(cs, *g.pod, *f.state.FindNode("worker")).Message(),
            "cannot allocate all claims");
  // The first pod's own next cycle finds its claim, with requests.
  CycleState cs2(1);
  ASSERT_TRUE(pl.PreFilter(cs2, *f.pod, f.state, &result).IsSuccess());
  EXPECT_EQ(pl.Filter(cs2, *f.pod, *f.state.FindNode("worker")).Message(),
            "cannot schedule extended resource claim");

  DropAssumedExtendedClaim("default", "my-pod", &f.state);
  EXPECT_FALSE(f.state.resource_claims().contains(key));
  CycleState cs3(1);
  ASSERT_TRUE(pl.PreFilter(cs3, *g.pod, f.state, &result).IsSuccess());
  EXPECT_TRUE(pl.Filter(cs3, *g.pod, *f.state.FindNode("worker")).IsSuccess());
}

// DRAConsumableCapacity across cycles: each assumed share of a device that
// allows multiple allocations records what it consumes, and the next pod
// sees the device's capacity less the shares.
TEST(DynamicResourcesTest, AssumeSharesDevice) {
  Fixture f;
  DraDevice nic = Device("nic");
  nic.allow_multiple_allocations = true;
  nic.capacity.push_back({"bw", "2", DraCounterValue{2} * 1000000000, std::nullopt});
  f.state.UpsertResourceSlice(Slice("worker-slice", "worker", {nic}));
  std::vector<std::string> share_ids;
  for (const std::string name : {"a", "b", "c"}) {
    DraRequest r = Exact("req-1");
    r.capacity_requests = {{"bw", DraCounterValue{1} * 1000000000}};
    f.state.UpsertResourceClaim(Claim(name, {r}));
    Fixture g;
    g.UseClaim(name);
    g.pod->uid = "uid-" + name;
    DynamicResources pl;
    CycleState cs(1);
    PreFilterResult result;
    ASSERT_TRUE(pl.PreFilter(cs, *g.pod, f.state, &result).IsSuccess());
    const Status s = pl.Filter(cs, *g.pod, *f.state.FindNode("worker"));
    if (name == "c") {  // a and b hold the whole bandwidth
      EXPECT_EQ(s.Message(), "cannot allocate all claims");
      break;
    }
    ASSERT_TRUE(s.IsSuccess()) << name << ": " << s.Message();
    AssumePodClaims(*g.pod, "worker", &f.state);
    const ResourceClaim& c = *f.state.resource_claims().at("default/" + name);
    ASSERT_TRUE(c.allocation);
    ASSERT_EQ(c.allocation->devices.size(), 1u);
    const DraAllocatedDevice& d = c.allocation->devices[0];
    ASSERT_TRUE(d.share_id);
    share_ids.push_back(*d.share_id);
    EXPECT_TRUE(d.consumed_capacity == (DraQuantities{{"bw", DraCounterValue{1} * 1000000000}}));
  }
  ASSERT_EQ(share_ids.size(), 2u);
  EXPECT_NE(share_ids[0], share_ids[1]);
}

// allocator_testing.go's binding-conditions cases (DRADeviceBindingConditions,
// beta and on in v1.36.3): results copy the device's bindingConditions and
// bindingFailureConditions; pools with such devices come last.
TEST(DraAllocatorTest, BindingConditions) {
  using Claims = std::vector<std::shared_ptr<ResourceClaim>>;
  using Strings = std::vector<std::string>;
  auto binding = [](std::string name, Strings conditions, Strings failure) {
    DraDevice d = Device(std::move(name));
    d.binding_conditions = std::move(conditions);
    d.binding_failure_conditions = std::move(failure);
    return d;
  };
  auto result = [](std::string request, std::string device, Strings conditions = {},
                   Strings failure = {}) {
    DraAllocatedDevice d{std::move(request), kDriver, "pool-1", std::move(device), false};
    d.binding_conditions = std::move(conditions);
    d.binding_failure_conditions = std::move(failure);
    return d;
  };
  auto slice = [](Fixture& f, std::vector<DraDevice> devices, std::string pool = "pool-1") {
    f.state.UpsertResourceSlice(Slice("slice-" + pool, "worker", std::move(devices), pool));
  };
  const Strings prepare{"IsPrepare"}, failed{"BindingFailed"};
  const std::vector<AllocCase> cases = {
      {"device-binding-conditions",
       [&](Fixture& f) {
         slice(f, {binding("device-1", prepare, failed)});
         return Claims{Claim("claim-0", {Exact("req-0")})};
       },
       {{result("req-0", "device-1", prepare, failed)}}},
      {"binding-conditions-multiple-devices",
       [&](Fixture& f) {
         slice(f, {binding("device-1", prepare, failed),
                   binding("device-2", {"IsPrepare2"}, {"BindingFailed2"}),
                   binding("device-3", {"IsPrepare3"}, {"BindingFailed3"})});
         return Claims{Claim("claim-0", {Exact("req-0", 2), Exact("req-1")})};
       },
       {{result("req-0", "device-1", prepare, failed),
         result("req-0", "device-2", {"IsPrepare2"}, {"BindingFailed2"}),
         result("req-1", "device-3", {"IsPrepare3"}, {"BindingFailed3"})}}},
      {"binding-conditions-with-and-without",
       [&](Fixture& f) {
         slice(f, {Device("device-1"), binding("device-2", prepare, failed)});
         return Claims{Claim("claim-0", {Exact("req-0"), Exact("req-1")})};
       },
       {{result("req-0", "device-1"), result("req-1", "device-2", prepare, failed)}}},
      {"partitionable-devices-with-binding-conditions",
       [&](Fixture& f) {
         const DraCounterValue gi = DraCounterValue{1} * (int64_t{1} << 30) * 1000000000;
         DraDevice d = binding("device-1", prepare, failed);
         d.consumes_counters.push_back({"counter-set-1", {{"memory", 4 * gi}}});
         f.state.UpsertResourceSlice(Slice("slice-1", "worker", {d}, "pool-1", 1, 2));
         auto counters = Slice("slice-2", "", {}, "pool-1", 1, 2);
         counters->shared_counters.push_back({"counter-set-1", {{"memory", 8 * gi}}});
         f.state.UpsertResourceSlice(counters);
         return Claims{Claim("claim-0", {Exact("req-0")})};
       },
       {{result("req-0", "device-1", prepare, failed)}}},
      // pools_incubating.go: the pool "pool-0", first by name, has a device
      // with binding conditions, so "pool-1" is tried first.
      {"binding-conditions-pool-last",
       [&](Fixture& f) {
         slice(f, {binding("device-1", prepare, failed)}, "pool-0");
         slice(f, {Device("device-1")});
         return Claims{Claim("claim-0", {Exact("req-0")})};
       },
       {{result("req-0", "device-1")}}},
  };
  RunAllocCases(cases);
}

// allocator_testing.go's node-restriction: a device with bindsToNode in a
// slice selecting nodes by label limits the allocation to the node.
TEST(DraAllocatorTest, BindsToNode) {
  Fixture f;
  Interner& in = f.state.interner();
  Requirement label;
  label.key = in.Pin("kubernetes.io/hostname");
  label.values = {in.Pin("worker")};
  auto claim = Claim("claim-0", {Exact("req-0")});
  for (bool binds : {true, false}) {
    SCOPED_TRACE(binds);
    DraDevice d = Device("device-1");
    d.binds_to_node = binds;
    auto s = Slice("slice-1", "", {d}, "pool-1");
    s->node.node_selector.emplace().terms.emplace_back().match_expressions.push_back(label);
    f.state.UpsertResourceSlice(s);
    const DraAllocator::Outcome out =
        DraAllocator(f.state, {claim.get()}).Allocate(*f.state.FindNode("worker")->node());
    ASSERT_EQ(out.kind, DraAllocator::Outcome::Kind::kAllocated) << out.message;
    ASSERT_TRUE(out.allocations[0].node_selector);
    const NodeSelectorTerm& term = out.allocations[0].node_selector->terms.at(0);
    if (binds) {  // localNodeSelector(node1)
      EXPECT_TRUE(term.match_expressions.empty());
      ASSERT_EQ(term.match_fields.size(), 1u);
      EXPECT_EQ(term.match_fields[0].values, std::vector<Atom>{in.Pin("worker")});
    } else {  // the slice's selector
      EXPECT_TRUE(term.match_fields.empty());
      EXPECT_EQ(term.match_expressions, std::vector<Requirement>{label});
    }
  }
}

// TestPlugin's binding-conditions cases: Filter judges allocated claims by
// their status.devices[].conditions and, through the state's clock, the
// binding timeout (600 s); PostFilter then names the claim upstream would
// deallocate.
TEST(DynamicResourcesTest, BindingConditions) {
  constexpr int64_t kNow = int64_t{1'800'000'000} * 1'000'000'000;  // Unix ns
  constexpr int64_t kTimeout = int64_t{600} * 1'000'000'000;
  const std::vector<std::string> conditions{"condition"}, failure{"failed"};
  // allocationResultWithBindingConditions: instance-1 on worker.
  const auto with_conditions = [&](Fixture& f, const std::string& name,
                                   std::optional<int64_t> allocated_at) {
    auto c = Claim(name);
    c->allocation = AllocatedOn(f.state.interner(), "instance-1", "worker");
    c->allocation->devices[0].binding_conditions = conditions;
    c->allocation->devices[0].binding_failure_conditions = failure;
    c->allocation->allocation_timestamp = allocated_at;
    return c;
  };
  const auto status = [](std::vector<DraCondition> conds) {
    return std::vector<DraDeviceStatus>{{kDriver, "worker", "instance-1", std::move(conds)}};
  };
  const std::string kUnavailable = "resourceclaim not available on the node";
  const std::string kDeallocate =
      "deallocation of ResourceClaim default/c needed (libsched makes no API calls)";
  struct BindingCase {
    std::string name;
    std::optional<int64_t> allocated_at;  // allocationTimestamp
    std::vector<DraDeviceStatus> statuses;
    bool clock = true;  // the state has a clock reading kNow
    std::string want_filter;  // on worker
    std::string want_post_filter;
  };
  const std::vector<BindingCase> cases = {
      {"bound-claim-with-succeeded-binding-conditions", kNow - 2 * kTimeout,
       status({{"condition", "True"}, {"failed", "False"}}), true, "", ""},
      {"bound-claim-with-failed-binding", kNow,
       status({{"condition", "False"}, {"failed", "True"}}), true, kUnavailable, kDeallocate},
      // The failure wins over conditions that are met.
      {"failed-and-ready", kNow, status({{"condition", "True"}, {"failed", "True"}}), true,
       kUnavailable, kDeallocate},
      {"bound-claim-with-timed-out-binding", kNow - kTimeout - 1, status({}), true, kUnavailable,
       kDeallocate},
      // prebind-fail-with-binding-timeout's Filter: not timed out yet.
      {"binding-pending", kNow - kTimeout + 10'000'000'000, status({}), true, "", ""},
      // isClaimTimeout: Before, strictly.
      {"binding-pending-at-timeout", kNow - kTimeout, {}, true, "", ""},
      {"bound-claim-with-mixed-binding-conditions", kNow - kTimeout - 1,
       status({{"condition1", "True"}, {"condition2", "False"}}), true, kUnavailable, kDeallocate},
      {"no-allocation-timestamp", std::nullopt, {}, true, "", ""},
      {"no-clock", kNow - 2 * kTimeout, {}, false, "", ""},
      // getAllocatedDeviceStatus matches driver, pool and device.
      {"status-of-other-device", kNow - kTimeout - 1,
       {{kDriver, "worker", "instance-2", {{"condition", "True"}}}}, true, kUnavailable,
       kDeallocate},
  };
  const NodeToStatus statuses({}, nullptr);
  const Profile profile("default-scheduler");
  Mt19937_64 rng;
  for (const BindingCase& c : cases) {
    SCOPED_TRACE(c.name);
    Fixture f;
    if (c.clock) f.state.set_clock([] { return std::chrono::nanoseconds(int64_t{kNow}); });
    f.UseClaim("c");
    auto claim = with_conditions(f, "c", c.allocated_at);
    claim->device_statuses = c.statuses;
    f.state.UpsertResourceClaim(claim);
    DynamicResources pl;
    CycleState cs(1);
    PreFilterResult result;
    ASSERT_TRUE(pl.PreFilter(cs, *f.pod, f.state, &result).IsSuccess());
    EXPECT_EQ(Filter(pl, cs, *f.pod, f.state, "worker", kReject), c.want_filter);
    EXPECT_EQ(Filter(pl, cs, *f.pod, f.state, "worker-2", kReject), kUnavailable);
    if (c.want_post_filter.empty()) continue;
    const Status s =
        pl.PostFilter(Framework(profile, f.state, nullptr, rng), cs, *f.pod, statuses, nullptr);
    EXPECT_EQ(s.Message(), c.want_post_filter);
  }

  // multi-claims-binding-conditions-one-fail: the failed claim is named.
  Fixture f;
  f.UseClaim("c");
  f.UseClaim("d");
  auto bound = with_conditions(f, "c", kNow);
  bound->device_statuses = status({{"condition", "True"}, {"failed", "False"}});
  auto failed = with_conditions(f, "d", kNow);
  failed->allocation->devices[0].device = "instance-2";
  failed->device_statuses = {{kDriver, "worker", "instance-2", {{"failed", "True"}}}};
  f.state.UpsertResourceClaim(bound);
  f.state.UpsertResourceClaim(failed);
  DynamicResources pl;
  CycleState cs(1);
  PreFilterResult result;
  ASSERT_TRUE(pl.PreFilter(cs, *f.pod, f.state, &result).IsSuccess());
  EXPECT_EQ(Filter(pl, cs, *f.pod, f.state, "worker", kReject), kUnavailable);
  EXPECT_EQ(
      pl.PostFilter(Framework(profile, f.state, nullptr, rng), cs, *f.pod, statuses, nullptr)
          .Message(),
      "deallocation of ResourceClaim default/d needed (libsched makes no API calls)");
}

// bind-claim-with-binding-conditions up to PreBind: the allocation on the
// fabric slice (bindsToNode, binding conditions) carries the conditions and
// the node, and the assumed claim gets the state's clock as its
// allocationTimestamp; then it waits (PreBind, the caller's).
TEST(DynamicResourcesTest, AssumeWithBindingConditions) {
  constexpr int64_t kNow = int64_t{1'800'000'000} * 1'000'000'000;
  Fixture f;
  f.state.set_clock([] { return std::chrono::nanoseconds(int64_t{kNow}); });
  Interner& in = f.state.interner();
  DraDevice d = Device("instance-1");
  d.binds_to_node = true;
  d.binding_conditions = {"condition"};
  d.binding_failure_conditions = {"failed"};
  auto fabric = Slice("worker-slice", "", {d}, "worker");
  Requirement field;
  field.values = {in.Pin("worker")};
  fabric->node.node_selector.emplace().terms.emplace_back().match_fields.push_back(field);
  f.state.UpsertResourceSlice(fabric);
  f.UseClaim("c");
  f.state.UpsertResourceClaim(Claim("c"));
  DynamicResources pl;
  CycleState cs(1);
  PreFilterResult result;
  ASSERT_TRUE(pl.PreFilter(cs, *f.pod, f.state, &result).IsSuccess());
  EXPECT_EQ(Filter(pl, cs, *f.pod, f.state, "worker", kReject), "");
  EXPECT_EQ(Filter(pl, cs, *f.pod, f.state, "worker-2", kReject), "cannot allocate all claims");
  AssumePodClaims(*f.pod, "worker", &f.state);
  const ResourceClaim& c = *f.state.resource_claims().at("default/c");
  ASSERT_TRUE(c.allocation);
  DraAllocatedDevice want{"req-1", kDriver, "worker", "instance-1", false};
  want.binding_conditions = {"condition"};
  want.binding_failure_conditions = {"failed"};
  EXPECT_EQ(c.allocation->devices, std::vector<DraAllocatedDevice>{want});
  EXPECT_EQ(c.allocation->allocation_timestamp.value_or(0), kNow);
  ASSERT_TRUE(c.allocation->node_selector);
  EXPECT_EQ(c.allocation->node_selector->terms.at(0).match_fields.at(0).values,
            std::vector<Atom>{in.Pin("worker")});
  EXPECT_EQ(c.reserved_for, std::vector<std::string>{kPodUid});
  // The assumed claim waits for its conditions: still available on worker
  // to a pod sharing it, until the timeout passes on the clock.
  CycleState cs2(1);
  ASSERT_TRUE(pl.PreFilter(cs2, *f.pod, f.state, &result).IsSuccess());
  EXPECT_EQ(Filter(pl, cs2, *f.pod, f.state, "worker", kReject), "");
  f.state.set_clock([] { return std::chrono::nanoseconds(kNow + int64_t{601} * 1'000'000'000); });
  CycleState cs3(1);
  ASSERT_TRUE(pl.PreFilter(cs3, *f.pod, f.state, &result).IsSuccess());
  EXPECT_EQ(Filter(pl, cs3, *f.pod, f.state, "worker", kReject),
            "resourceclaim not available on the node");
}

// PostFilter's reasons (upstream's TestPlugin postfilter results; the
// FitError text in test/integration/dra): no claims, claims that cannot be
// helped, a claim upstream would deallocate ("wrong-topology"), and a
// cycle whose PreFilter never ran (the state read fails).
TEST(DynamicResourcesTest, PostFilter) {
  const NodeToStatus statuses({}, nullptr);
  const Profile profile("default-scheduler");
  Mt19937_64 rng;
  struct PostFilterCase {
    std::string name;
    std::function<void(Fixture&)> setup;
    std::vector<std::string> filter_on;  // nodes Filter runs on
    Code want_code;
    std::string want;
  };
  const auto allocated = [](std::vector<std::string> reserved_for) {
    return [reserved_for](Fixture& f) {
      f.UseClaim("c");
      auto c = Claim("c");
      c->allocation = AllocatedOn(f.state.interner(), "instance-1", "worker");
      c->reserved_for = reserved_for;
      f.state.UpsertResourceClaim(c);
    };
  };
  const std::vector<PostFilterCase> cases = {
      {"empty", [](Fixture&) {}, {}, Code::kUnschedulable, "no new claims to deallocate"},
      {"claim-not-created",
       [](Fixture& f) { f.UseTemplate(false, std::nullopt); },
       {},
       Code::kUnschedulable,
       "no new claims to deallocate"},
      {"in-use-elsewhere",
       allocated({"other-pod"}),
       {"worker", "worker-2"},
       Code::kUnschedulable,
       "still not schedulable"},
      {"wrong-topology",
       allocated({}),
       {"worker", "worker-2"},
       Code::kUnschedulable,
       "deallocation of ResourceClaim default/c needed (libsched makes no API calls)"},
      {"reserved-for-this-pod",
       allocated({kPodUid}),
       {"worker-2"},
       Code::kUnschedulable,
       "deallocation of ResourceClaim default/c needed (libsched makes no API calls)"},
      {"available-where-filtered",
       allocated({}),
       {"worker"},
       Code::kUnschedulable,
       "still not schedulable"},
      // extended-resource-name-with-resources-has-claim: upstream deletes
      // the claim ("deletion of ResourceClaim completed").
      {"extended-resource-claim-of-earlier-cycle",
       [](Fixture& f) {
         f.GpuClass();
         f.Requests({{{"example.com/gpu", 1}}});
         auto c = Claim("my-pod-extended-resources-0", {Exact("container-0-request-0")});
         c->controller_name = "my-pod";
         c->extended_resource_claim = true;
         c->allocation = AllocatedOn(f.state.interner(), "instance-1", "worker-2");
         f.state.UpsertResourceClaim(c);
       },
       {"worker", "worker-2"},
       Code::kUnschedulable,
       "deletion of ResourceClaim default/my-pod-extended-resources-0 needed (libsched makes no "
       "API calls)"},
      {"extended-resource-in-memory",
       [](Fixture& f) {
         f.GpuClass();
         f.Requests({{{"example.com/gpu", 1}}});
       },
       {"worker", "worker-2"},
       Code::kUnschedulable,
       "still not schedulable"},
  };
  for (const PostFilterCase& c : cases) {
    SCOPED_TRACE(c.name);
    Fixture f;
    c.setup(f);
    DynamicResources pl;
    CycleState cs(1);
    PreFilterResult result;
    pl.PreFilter(cs, *f.pod, f.state, &result);
    for (const std::string& node : c.filter_on) pl.Filter(cs, *f.pod, *f.state.FindNode(node));
    const Status s =
        pl.PostFilter(Framework(profile, f.state, nullptr, rng), cs, *f.pod, statuses, nullptr);
    EXPECT_EQ(s.code(), c.want_code);
    EXPECT_EQ(s.Message(), c.want);
  }
  Fixture f;
  const Status s = DynamicResources().PostFilter(Framework(profile, f.state, nullptr, rng),
                                                 CycleState(1), *f.pod, statuses, nullptr);
  EXPECT_EQ(s.code(), Code::kError);
  EXPECT_EQ(s.Message(), "not found");
}

// isSchedulableAfterClaimChange and isSchedulableAfterPodChange.
TEST(DynamicResourcesTest, QueueingHints) {
  Fixture f;
  f.UseClaim("c");
  auto claim = Claim("c");
  f.state.UpsertResourceClaim(claim);
  const auto events = DynamicResources().EventsToRegister(f.state);
  ASSERT_EQ(events.size(), 5u);
  const QueueingHintFn& on_claim = events[1].hint;
  const QueueingHintFn& on_pod = events[2].hint;
  EXPECT_EQ(events[1].event.resource, EventResource::kResourceClaim);
  EXPECT_EQ(events[2].event.action, action::kUpdatePodGeneratedResourceClaim);

  auto unrelated = Claim("other");
  auto allocated = std::make_shared<ResourceClaim>(*claim);
  allocated->allocation = AllocatedOn(f.state.interner(), "instance-1", "");
  auto with_status = std::make_shared<ResourceClaim>(*allocated);
  with_status->device_statuses = {{kDriver, "worker", "instance-1", {{"Ready", "True"}}}};
  auto relabeled = std::make_shared<ResourceClaim>(*claim);
  relabeled->controller_uid = kPodUid;
  struct HintCase {
    std::string name;
    EventObject old_obj, new_obj;
    QueueingHint want;
  };
  const std::vector<HintCase> cases = {
      {"claim-created", {}, claim, QueueingHint::kQueue},
      {"unrelated-claim", {}, unrelated, QueueingHint::kQueueSkip},
      {"status-changed", claim, allocated, QueueingHint::kQueue},
      {"status-unchanged", claim, relabeled, QueueingHint::kQueueSkip},
      {"device-status-changed", allocated, with_status, QueueingHint::kQueue},
      {"deallocated-unrelated", std::shared_ptr<const ResourceClaim>(allocated), unrelated,
       QueueingHint::kQueue},
  };
  for (const HintCase& c : cases) {
    EXPECT_EQ(on_claim(*f.pod, c.old_obj, c.new_obj), c.want) << c.name;
  }
  // The pod's generated claim name arrives.
  Fixture g;
  g.UseTemplate(false, std::nullopt);
  auto updated = std::make_shared<Pod>(*g.pod);
  updated->resource_claims[0].has_status = true;
  updated->resource_claims[0].generated_name = "c";
  EXPECT_EQ(on_pod(*g.pod, g.pod, std::shared_ptr<const Pod>(updated)), QueueingHint::kQueue);
  auto other = std::make_shared<Pod>(*updated);
  other->uid = "other";
  other->name = "other";
  EXPECT_EQ(on_pod(*g.pod, g.pod, std::shared_ptr<const Pod>(other)), QueueingHint::kQueueSkip);
  EXPECT_EQ(on_pod(*g.pod, g.pod, std::shared_ptr<const Pod>(g.pod)), QueueingHint::kQueueSkip);
}

// Pods with different claims never share an equivalence class.
TEST(DynamicResourcesTest, SignPod) {
  Fixture f, g;
  f.UseClaim("c");
  g.UseClaim("d");
  PodSigner a, b;
  DynamicResources().SignPod(*f.pod, a);
  DynamicResources().SignPod(*g.pod, b);
  EXPECT_NE(a.Finish(), b.Finish());
}

}  // namespace
}  // namespace dynamic_resources_test
}  // namespace sched
