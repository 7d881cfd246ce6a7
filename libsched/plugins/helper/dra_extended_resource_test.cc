#include "libsched/plugins/helper/dra_extended_resource.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace sched {
namespace dra_extended_resource_test {
namespace {

const std::string kGpu = "example.com/gpu";
const std::string kGpu1 = "example.com/gpu1";
const std::string kGpuInit = "example.com/gpuinit";

std::shared_ptr<DeviceClass> Class(const std::string& name, const std::string& resource = "",
                                   int64_t created = 0) {
  auto c = std::make_shared<DeviceClass>();
  c->name = name;
  c->extended_resource_name = resource;
  c->created = created;
  return c;
}

// One container: its requests (sorted by name, as decode indexes them).
struct Container {
  std::vector<std::pair<std::string, int64_t>> requests;
  bool init = false;
  bool sidecar = false;
};

// A pod with `containers` (init containers first, as in the pod's order).
Pod MakePod(Interner& in, const std::vector<Container>& containers) {
  Pod pod;
  for (size_t i = 0; i < containers.size(); ++i) {
    ContainerExtendedRequests& c = pod.extended_requests.emplace_back();
    c.container = static_cast<int32_t>(i);
    c.short_lived = containers[i].init && !containers[i].sidecar;
    for (size_t j = 0; j < containers[i].requests.size(); ++j) {
      const auto& [name, count] = containers[i].requests[j];
      c.entries.push_back({in.Pin(name), count, static_cast<int32_t>(j)});
    }
  }
  return pod;
}

struct Want {
  std::string name, cls;
  int64_t count;
};

void Check(const std::vector<DraDeviceRequest>& got, const std::vector<Want>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i].name, want[i].name);
    ASSERT_TRUE(got[i].exactly);
    EXPECT_EQ(got[i].exactly->name, want[i].name);
    EXPECT_EQ(got[i].exactly->device_class_name, want[i].cls);
    EXPECT_EQ(got[i].exactly->mode, DraRequest::Mode::kExactCount);
    EXPECT_EQ(got[i].exactly->count, want[i].count);
  }
}

// extendeddynamicresources_test.go Test_createRequestsAndMappings_requests.
TEST(DraExtendedResourceTest, Requests) {
  Interner in;
  const auto cls = Class("class"), cls1 = Class("class1"), cls_init = Class("classInit");
  const Atom gpu = in.Pin(kGpu), gpu1 = in.Pin(kGpu1), gpu_init = in.Pin(kGpuInit);
  const Pod pod1 = MakePod(in, {{{{kGpu, 1}, {kGpu1, 2}}}});
  const Pod pod2 = MakePod(in, {{{{kGpu, 1}}}, {{{kGpu1, 2}}}});
  const Pod pod_init = MakePod(in, {{{{kGpuInit, 2}}, true}, {{{kGpu, 1}}}});
  const Pod pod_init2 = MakePod(in, {{{{kGpuInit, 1}}, true}, {{{kGpuInit, 2}}, true}, {{{kGpu, 1}}}});
  const Pod pod_init3 = MakePod(in, {{{{kGpuInit, 1}}, true},
                                     {{{kGpuInit, 1}}, true, true},
                                     {{{kGpuInit, 2}}, true},
                                     {{{kGpu, 1}}}});
  {
    SCOPED_TRACE("nil");
    Check(ExtendedResourceRequests(pod1, {}), {});
  }
  {
    SCOPED_TRACE("one resource match");
    Check(ExtendedResourceRequests(pod1, {{gpu, cls.get()}}), {{"container-0-request-0", "class", 1}});
  }
  {
    SCOPED_TRACE("two resources match");
    Check(ExtendedResourceRequests(pod1, {{gpu, cls.get()}, {gpu1, cls1.get()}}),
          {{"container-0-request-0", "class", 1}, {"container-0-request-1", "class1", 2}});
  }
  {
    SCOPED_TRACE("two containers match");
    Check(ExtendedResourceRequests(pod2, {{gpu, cls.get()}, {gpu1, cls1.get()}}),
          {{"container-0-request-0", "class", 1}, {"container-1-request-0", "class1", 2}});
  }
  {
    SCOPED_TRACE("one init container, one regular container");
    Check(ExtendedResourceRequests(pod_init, {{gpu, cls.get()}, {gpu_init, cls_init.get()}}),
          {{"container-0-request-0", "classInit", 2}, {"container-1-request-0", "class", 1}});
  }
  {
    SCOPED_TRACE("two init containers, one regular container");
    Check(ExtendedResourceRequests(pod_init2, {{gpu, cls.get()}, {gpu_init, cls_init.get()}}),
          {{"container-1-request-0", "classInit", 2}, {"container-2-request-0", "class", 1}});
  }
  {
    SCOPED_TRACE("three init containers, one sidecar, one regular container");
    Check(ExtendedResourceRequests(pod_init3, {{gpu, cls.get()}, {gpu_init, cls_init.get()}}),
          {{"container-1-request-0", "classInit", 1},
           {"container-2-request-0", "classInit", 2},
           {"container-3-request-0", "class", 1}});
  }
  {
    // A regular container after the init container covers part of it.
    SCOPED_TRACE("init container partly covered");
    const Pod pod = MakePod(in, {{{{kGpu, 3}}, true}, {{{kGpu, 1}}}});
    Check(ExtendedResourceRequests(pod, {{gpu, cls.get()}}),
          {{"container-0-request-0", "class", 2}, {"container-1-request-0", "class", 1}});
  }
  {
    // Names sort as strings: container-10 before container-2.
    SCOPED_TRACE("sorted by name");
    std::vector<Container> many(11);
    many[2].requests = {{kGpu, 1}};
    many[10].requests = {{kGpu, 1}};
    const Pod pod = MakePod(in, many);
    Check(ExtendedResourceRequests(pod, {{gpu, cls.get()}}),
          {{"container-10-request-0", "class", 1}, {"container-2-request-0", "class", 1}});
  }
}

// ExtendedResourceCache.GetDeviceClass.
TEST(DraExtendedResourceTest, DeviceClassForResource) {
  ClusterState cs;
  EXPECT_EQ(DeviceClassForResource(cs, kGpu), nullptr);
  cs.UpsertDeviceClass(Class("b", kGpu, 100));
  cs.UpsertDeviceClass(Class("a", kGpu, 100));
  cs.UpsertDeviceClass(Class("c", kGpu, 50));
  cs.UpsertDeviceClass(Class("plain"));
  // The newest, of equal ones the first by name.
  ASSERT_NE(DeviceClassForResource(cs, kGpu), nullptr);
  EXPECT_EQ(DeviceClassForResource(cs, kGpu)->name, "a");
  cs.UpsertDeviceClass(Class("d", kGpu, 200));
  EXPECT_EQ(DeviceClassForResource(cs, kGpu)->name, "d");
  // Every class provides its implicit name.
  ASSERT_NE(DeviceClassForResource(cs, "deviceclass.resource.kubernetes.io/plain"), nullptr);
  EXPECT_EQ(DeviceClassForResource(cs, "deviceclass.resource.kubernetes.io/plain")->name, "plain");
  EXPECT_EQ(DeviceClassForResource(cs, "deviceclass.resource.kubernetes.io/none"), nullptr);
  EXPECT_EQ(DeviceClassForResource(cs, "example.com/other"), nullptr);

  // DraExtendedResources: the pod's extended requests, when one is backed.
  Interner& in = cs.interner();
  Pod pod;
  pod.requests.SetScalar(in.Pin(kGpu), 1);
  pod.requests.SetScalar(in.Pin("example.com/fpga"), 1);
  pod.requests.SetScalar(in.Pin("hugepages-2Mi"), 1);
  pod.requests.SetScalar(in.Pin("example.com/zero"), 0);
  const auto got = DraExtendedResources(pod, cs);
  ASSERT_EQ(got.size(), 2u);
  for (const auto& [name, c] : got) {
    if (in.Str(name) == kGpu) {
      ASSERT_NE(c, nullptr);
      EXPECT_EQ(c->name, "d");
    } else {
      EXPECT_EQ(in.Str(name), "example.com/fpga");
      EXPECT_EQ(c, nullptr);
    }
  }
  Pod unbacked;
  unbacked.requests.SetScalar(in.Pin("example.com/fpga"), 1);
  EXPECT_TRUE(DraExtendedResources(unbacked, cs).empty());
}

}  // namespace
}  // namespace dra_extended_resource_test
}  // namespace sched
