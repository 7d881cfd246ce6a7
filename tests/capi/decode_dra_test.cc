// DecodeResourceSlice, DecodeDeviceClass, DecodeResourceClaim,
// DecodeResourceClaimTemplate through DecodeChanges, and a pod's
// spec.resourceClaims with status.resourceClaimStatuses. The objects follow
// the resource.k8s.io/v1 examples of the Kubernetes documentation's DRA
// pages (a GPU driver's slice, class, claim and template).
#include <gtest/gtest.h>

#include <string>

#include "tests/capi/decode_test_util.h"

namespace sched::capi {
namespace decode_dra_test {
namespace {

using ::sched::capi::testing::CaseName;
using ::sched::capi::testing::ErrorCase;
using ::sched::capi::testing::ParseAndDecodePod;

ApiStatus DecodeDoc(const std::string& json, Interner& in, ChangeSet* out) {
  JsonDoc doc;
  CAPI_RETURN_IF_ERROR(ParseJson(json, &doc));
  return DecodeChanges(doc.get(), in, out);
}

TEST(DecodeDraTest, ResourceSlice) {
  Interner in;
  ChangeSet cs;
  const ApiStatus s = DecodeDoc(R"({"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice",
      "metadata":{"name":"worker-1-gpu.example.com-x7k2p"},
      "spec":{"driver":"gpu.example.com","nodeName":"worker-1",
        "pool":{"name":"worker-1","generation":3,"resourceSliceCount":2},
        "devices":[
          {"name":"gpu-0","attributes":{"model":{"string":"LATEST-GPU-MODEL"},
             "gpu.example.com/index":{"int":0},"healthy":{"bool":true},
             "driverVersion":{"version":"1.2.3"}},
           "capacity":{"memory":{"value":"80Gi"},"cores":{"value":128}}},
          {"name":"gpu-1","taints":[{"key":"k","effect":"NoSchedule"}],
           "allowMultipleAllocations":true}]}})",
                                in, &cs);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(cs.changes.size(), 1u);
  EXPECT_EQ(cs.changes[0].op, Change::Op::kUpsertResourceSlice);
  EXPECT_EQ(cs.changes[0].key, "worker-1-gpu.example.com-x7k2p");
  const ResourceSlice& slice = *cs.changes[0].resource_slice;
  EXPECT_EQ(slice.driver, "gpu.example.com");
  EXPECT_EQ(slice.pool, "worker-1");
  EXPECT_EQ(slice.generation, 3);
  EXPECT_EQ(slice.resource_slice_count, 2);
  EXPECT_EQ(slice.node.node_name, "worker-1");
  ASSERT_EQ(slice.devices.size(), 2u);
  const DraDevice& gpu = slice.devices[0];
  ASSERT_EQ(gpu.attributes.size(), 4u);
  EXPECT_EQ(gpu.attributes[0].first, "model");
  EXPECT_EQ(gpu.attributes[0].second.text, "LATEST-GPU-MODEL");
  EXPECT_EQ(gpu.attributes[1].second.kind, DraAttribute::Kind::kInt);
  EXPECT_EQ(gpu.attributes[2].second.kind, DraAttribute::Kind::kBool);
  EXPECT_TRUE(gpu.attributes[2].second.bool_value);
  EXPECT_EQ(gpu.attributes[3].second.kind, DraAttribute::Kind::kVersion);
  ASSERT_NE(gpu.FindAttribute("gpu.example.com", "gpu.example.com/model"), nullptr);
  EXPECT_EQ(gpu.FindAttribute("gpu.example.com", "other.example.com/model"), nullptr);
  ASSERT_EQ(gpu.capacity.size(), 2u);
  EXPECT_EQ(gpu.capacity[0].name, "memory");
  EXPECT_EQ(gpu.capacity[0].text, "80Gi");
  EXPECT_EQ(gpu.capacity[1].name, "cores");
  EXPECT_EQ(gpu.capacity[1].text, "128");
  EXPECT_TRUE(gpu.capacity[1].value == DraCounterValue{128} * 1000000000);
  EXPECT_FALSE(gpu.capacity[1].policy);
  EXPECT_TRUE(gpu.taints.empty());
  ASSERT_EQ(slice.devices[1].taints.size(), 1u);
  EXPECT_EQ(slice.devices[1].taints[0].key, "k");
  EXPECT_EQ(slice.devices[1].taints[0].value, "");
  EXPECT_EQ(slice.devices[1].taints[0].effect, "NoSchedule");
  EXPECT_TRUE(slice.devices[1].allow_multiple_allocations);
}

// DRAPartitionableDevices: sharedCounters and consumesCounters, values
// exact in nano-units.
TEST(DecodeDraTest, Counters) {
  Interner in;
  ChangeSet cs;
  const ApiStatus s = DecodeDoc(R"({"kind":"List","items":[
      {"kind":"ResourceSlice","metadata":{"name":"counters"},
       "spec":{"driver":"d","pool":{"name":"p","resourceSliceCount":2},
         "sharedCounters":[{"name":"gpu-0","counters":{"memory":{"value":"80Gi"},
                                                       "sm":{"value":100}}}]}},
      {"kind":"ResourceSlice","metadata":{"name":"devices"},
       "spec":{"driver":"d","nodeName":"n","pool":{"name":"p","resourceSliceCount":2},
         "devices":[{"name":"gpu-0-half","consumesCounters":[
           {"counterSet":"gpu-0","counters":{"memory":{"value":"40Gi"},"sm":{"value":"500m"}}}]}]}}]})",
                                in, &cs);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(cs.changes.size(), 2u);
  const ResourceSlice& counters = *cs.changes[0].resource_slice;
  ASSERT_EQ(counters.shared_counters.size(), 1u);
  EXPECT_EQ(counters.shared_counters[0].name, "gpu-0");
  const DraCounterValue gi = static_cast<DraCounterValue>(int64_t{1} << 30) * 1000000000;
  EXPECT_TRUE(counters.shared_counters[0].counters ==
              (DraCounters{{"memory", 80 * gi}, {"sm", DraCounterValue{100} * 1000000000}}));
  const DraDevice& half = cs.changes[1].resource_slice->devices[0];
  ASSERT_EQ(half.consumes_counters.size(), 1u);
  EXPECT_EQ(half.consumes_counters[0].name, "gpu-0");
  EXPECT_TRUE(half.consumes_counters[0].counters ==
              (DraCounters{{"memory", 40 * gi}, {"sm", DraCounterValue{500000000}}}));
}

// DRAConsumableCapacity: a capacity's requestPolicy, a request's
// capacity.requests, a result's shareID and consumedCapacity; values exact
// in nano-units.
TEST(DecodeDraTest, ConsumableCapacity) {
  Interner in;
  ChangeSet cs;
  const ApiStatus s = DecodeDoc(R"({"kind":"List","items":[
      {"kind":"ResourceSlice","metadata":{"name":"nics"},
       "spec":{"driver":"d","nodeName":"n","pool":{"name":"p","resourceSliceCount":1},
         "devices":[{"name":"nic","allowMultipleAllocations":true,"capacity":{
           "bandwidth":{"value":"10G","requestPolicy":{"default":"1G",
             "validRange":{"min":"1G","max":"4G","step":"500M"}}},
           "queues":{"value":8,"requestPolicy":{"validValues":[1,2,4]}}}}]}},
      {"kind":"ResourceClaim","metadata":{"name":"c","namespace":"ns"},
       "spec":{"devices":{"requests":[{"name":"r","exactly":{"deviceClassName":"nic",
         "capacity":{"requests":{"bandwidth":"1500M"}}}}]}},
       "status":{"allocation":{"devices":{"results":[{"request":"r","driver":"d","pool":"p",
         "device":"nic","shareID":"0f8a2c1e-4b7d-4e55-9a3c-2d1e0b9c8a77",
         "consumedCapacity":{"bandwidth":"1500M","queues":1}}]}}}}]})",
                                in, &cs);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(cs.changes.size(), 2u);
  const DraCounterValue g = 1000000000;
  const DraDevice& nic = cs.changes[0].resource_slice->devices[0];
  EXPECT_TRUE(nic.allow_multiple_allocations);
  ASSERT_EQ(nic.capacity.size(), 2u);
  ASSERT_TRUE(nic.capacity[0].policy);
  const DraCapacityPolicy& bw = *nic.capacity[0].policy;
  EXPECT_TRUE(nic.capacity[0].value == 10 * g * g);
  EXPECT_TRUE(bw.default_value == g * g);
  EXPECT_TRUE(bw.has_range);
  EXPECT_TRUE(bw.min == g * g);
  EXPECT_TRUE(bw.max == 4 * g * g);
  EXPECT_TRUE(bw.step == 500000000 * g);
  ASSERT_TRUE(nic.capacity[1].policy);
  EXPECT_FALSE(nic.capacity[1].policy->has_range);
  EXPECT_TRUE(nic.capacity[1].policy->valid_values ==
              (std::vector<DraCounterValue>{g, 2 * g, 4 * g}));
  const ResourceClaim& claim = *cs.changes[1].resource_claim;
  EXPECT_TRUE(claim.spec.requests[0].exactly->capacity_requests ==
              (DraQuantities{{"bandwidth", 1500000000 * g}}));
  const DraAllocatedDevice& d = claim.allocation->devices[0];
  EXPECT_EQ(d.share_id, "0f8a2c1e-4b7d-4e55-9a3c-2d1e0b9c8a77");
  ASSERT_TRUE(d.consumed_capacity);
  EXPECT_TRUE(*d.consumed_capacity ==
              (DraQuantities{{"bandwidth", 1500000000 * g}, {"queues", g}}));
}

TEST(DecodeDraTest, DeviceClassClaimAndTemplate) {
  Interner in;
  ChangeSet cs;
  const ApiStatus s = DecodeDoc(R"({"kind":"List","items":[
      {"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"gpu.example.com"},
       "spec":{"selectors":[{"cel":{"expression":"device.driver == 'gpu.example.com'"}}]}},
      {"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim",
       "metadata":{"name":"pod-gpu-abc12","namespace":"ml","uid":"claim-uid",
         "ownerReferences":[{"apiVersion":"v1","kind":"Pod","name":"pod","uid":"pod-uid",
                             "controller":true}]},
       "spec":{"devices":{
         "requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu.example.com",
                        "allocationMode":"ExactCount","count":2,
                        "selectors":[{"cel":{"expression":"device.attributes['gpu.example.com'].healthy"}}],
                        "tolerations":[{"key":"k","operator":"Exists","effect":"NoSchedule"},
                                       {"key":"k2","value":"v","tolerationSeconds":30}]}},
                     {"name":"nic","firstAvailable":[{"name":"fast","deviceClassName":"nic"},
                                                     {"name":"any","deviceClassName":"nic","allocationMode":"All"}]}],
         "constraints":[{"requests":["gpu"],"matchAttribute":"gpu.example.com/numa"}],
         "config":[{"opaque":{"driver":"gpu.example.com","parameters":{"x":1}}}]}},
       "status":{"allocation":{"devices":{"results":[
           {"request":"gpu","driver":"gpu.example.com","pool":"worker-1","device":"gpu-0"},
           {"request":"gpu","driver":"gpu.example.com","pool":"worker-1","device":"gpu-1","adminAccess":true}]},
         "nodeSelector":{"nodeSelectorTerms":[{"matchFields":[
           {"key":"metadata.name","operator":"In","values":["worker-1"]}]}]}},
         "reservedFor":[{"resource":"pods","name":"pod","uid":"pod-uid"}]}},
      {"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaimTemplate",
       "metadata":{"name":"gpu-template","namespace":"ml"},
       "spec":{"spec":{"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu.example.com"}}]}}}}]})",
                                in, &cs);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(cs.changes.size(), 3u);
  EXPECT_EQ(cs.summary.applied, 3);
  const DeviceClass& cls = *cs.changes[0].device_class;
  EXPECT_EQ(cls.selectors, std::vector<std::string>{"device.driver == 'gpu.example.com'"});

  EXPECT_EQ(cs.changes[1].op, Change::Op::kUpsertResourceClaim);
  EXPECT_EQ(cs.changes[1].key, "ml/pod-gpu-abc12");
  const ResourceClaim& claim = *cs.changes[1].resource_claim;
  EXPECT_EQ(claim.uid, "claim-uid");
  EXPECT_EQ(claim.controller_uid, "pod-uid");
  ASSERT_EQ(claim.spec.requests.size(), 2u);
  const DraRequest& gpu = *claim.spec.requests[0].exactly;
  EXPECT_EQ(gpu.name, "gpu");
  EXPECT_EQ(gpu.count, 2);
  EXPECT_EQ(gpu.selectors.size(), 1u);
  ASSERT_EQ(gpu.tolerations.size(), 2u);
  EXPECT_EQ(gpu.tolerations[0].op, "Exists");
  EXPECT_EQ(gpu.tolerations[0].effect, "NoSchedule");
  EXPECT_EQ(gpu.tolerations[1].key, "k2");
  EXPECT_EQ(gpu.tolerations[1].op, "");
  EXPECT_EQ(gpu.tolerations[1].value, "v");
  EXPECT_FALSE(claim.spec.requests[1].exactly);
  ASSERT_EQ(claim.spec.requests[1].first_available.size(), 2u);
  EXPECT_EQ(claim.spec.requests[1].first_available[1].mode, DraRequest::Mode::kAll);
  ASSERT_EQ(claim.spec.constraints.size(), 1u);
  EXPECT_EQ(claim.spec.constraints[0].match_attribute, "gpu.example.com/numa");
  ASSERT_TRUE(claim.allocation);
  ASSERT_EQ(claim.allocation->devices.size(), 2u);
  EXPECT_EQ(claim.allocation->devices[0].device, "gpu-0");
  EXPECT_TRUE(claim.allocation->devices[1].admin_access);
  ASSERT_TRUE(claim.allocation->node_selector);
  EXPECT_EQ(claim.reserved_for, std::vector<std::string>{"pod-uid"});

  EXPECT_EQ(cs.changes[2].op, Change::Op::kUpsertResourceClaimTemplate);
  EXPECT_EQ(cs.changes[2].key, "ml/gpu-template");
  EXPECT_EQ(cs.changes[2].resource_claim_template->spec.requests.size(), 1u);
}

// DRADeviceBindingConditions: a device's bindsToNode, bindingConditions and
// bindingFailureConditions; a claim's allocation results with their copies,
// allocationTimestamp, and status.devices[].conditions.
TEST(DecodeDraTest, BindingConditions) {
  Interner in;
  ChangeSet cs;
  const ApiStatus s = DecodeDoc(R"({"kind":"List","items":[
      {"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"fabric"},
       "spec":{"driver":"fabric.example.com","allNodes":true,
         "pool":{"name":"fabric","generation":1,"resourceSliceCount":1},
         "devices":[{"name":"gpu-0","bindsToNode":true,
                     "bindingConditions":["dra.example.com/is-prepared"],
                     "bindingFailureConditions":["dra.example.com/preparing-failed"]},
                    {"name":"gpu-1"}]}},
      {"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim",
       "metadata":{"name":"c","namespace":"ml","uid":"claim-uid"},
       "status":{"allocation":{"devices":{"results":[
           {"request":"gpu","driver":"fabric.example.com","pool":"fabric","device":"gpu-0",
            "bindingConditions":["dra.example.com/is-prepared"],
            "bindingFailureConditions":["dra.example.com/preparing-failed"]}]},
           "allocationTimestamp":"2026-11-27T13:00:00Z"},
         "devices":[{"driver":"fabric.example.com","pool":"fabric","device":"gpu-0",
           "conditions":[{"type":"dra.example.com/is-prepared","status":"True",
                          "reason":"Prepared","message":"ok",
                          "lastTransitionTime":"2026-11-27T13:01:00Z"},
                         {"type":"dra.example.com/preparing-failed","status":"False"}],
           "data":{"x":1}}]}}]})",
                                in, &cs);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(cs.changes.size(), 2u);
  const ResourceSlice& slice = *cs.changes[0].resource_slice;
  ASSERT_EQ(slice.devices.size(), 2u);
  EXPECT_TRUE(slice.devices[0].binds_to_node);
  EXPECT_EQ(slice.devices[0].binding_conditions,
            std::vector<std::string>{"dra.example.com/is-prepared"});
  EXPECT_EQ(slice.devices[0].binding_failure_conditions,
            std::vector<std::string>{"dra.example.com/preparing-failed"});
  EXPECT_FALSE(slice.devices[1].binds_to_node);
  EXPECT_TRUE(slice.devices[1].binding_conditions.empty());
  const ResourceClaim& claim = *cs.changes[1].resource_claim;
  ASSERT_TRUE(claim.allocation);
  ASSERT_EQ(claim.allocation->devices.size(), 1u);
  EXPECT_EQ(claim.allocation->devices[0].binding_conditions,
            std::vector<std::string>{"dra.example.com/is-prepared"});
  EXPECT_EQ(claim.allocation->devices[0].binding_failure_conditions,
            std::vector<std::string>{"dra.example.com/preparing-failed"});
  EXPECT_EQ(claim.allocation->allocation_timestamp.value_or(0),
            int64_t{1'795'784'400} * 1'000'000'000);
  ASSERT_EQ(claim.device_statuses.size(), 1u);
  const DraDeviceStatus& st = claim.device_statuses[0];
  EXPECT_EQ(st.driver, "fabric.example.com");
  EXPECT_EQ(st.pool, "fabric");
  EXPECT_EQ(st.device, "gpu-0");
  const std::vector<DraCondition> want{{"dra.example.com/is-prepared", "True"},
                                       {"dra.example.com/preparing-failed", "False"}};
  EXPECT_EQ(st.conditions, want);
}

// DRAExtendedResource: a class's extendedResourceName and creation time,
// the annotated claim of a pod's extended resources, and the pod's
// containers' extended requests with their index among sorted names.
TEST(DecodeDraTest, ExtendedResources) {
  Interner in;
  ChangeSet cs;
  const ApiStatus s = DecodeDoc(R"({"kind":"List","items":[
      {"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass",
       "metadata":{"name":"gpu.example.com","creationTimestamp":"2026-01-02T03:04:05Z"},
       "spec":{"extendedResourceName":"example.com/gpu"}},
      {"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim",
       "metadata":{"name":"p-extended-resources-x7","namespace":"ml",
         "annotations":{"resource.kubernetes.io/extended-resource-claim":"true"},
         "ownerReferences":[{"apiVersion":"v1","kind":"Pod","name":"other","uid":"other-uid"},
                            {"apiVersion":"v1","kind":"Pod","name":"p","uid":"pod-uid",
                             "controller":true}]},
       "spec":{"devices":{"requests":[{"name":"container-0-request-1",
         "exactly":{"deviceClassName":"gpu.example.com","count":2}}]}}},
      {"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim",
       "metadata":{"name":"c","namespace":"ml",
         "annotations":{"resource.kubernetes.io/extended-resource-claim":"false"}}}]})",
                                in, &cs);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(cs.changes.size(), 3u);
  const DeviceClass& cls = *cs.changes[0].device_class;
  EXPECT_EQ(cls.extended_resource_name, "example.com/gpu");
  EXPECT_EQ(cls.created, int64_t{1767323045} * 1000000000);
  const ResourceClaim& claim = *cs.changes[1].resource_claim;
  EXPECT_TRUE(claim.extended_resource_claim);
  EXPECT_EQ(claim.controller_uid, "pod-uid");
  EXPECT_EQ(claim.controller_name, "p");
  EXPECT_FALSE(cs.changes[2].resource_claim->extended_resource_claim);

  DecodedPod out;
  const ApiStatus ps = ParseAndDecodePod(R"({"metadata":{"name":"p","namespace":"ml"},
      "spec":{"initContainers":[
          {"name":"i","resources":{"requests":{"example.com/gpu":"2","cpu":"1"}}},
          {"name":"s","restartPolicy":"Always",
           "resources":{"requests":{"deviceclass.resource.kubernetes.io/gpu.example.com":"1"}}}],
        "containers":[{"name":"c","resources":{"requests":{"memory":"1Gi","cpu":"1",
                                                          "example.com/gpu":"1",
                                                          "hugepages-2Mi":"2Mi"}}},
                      {"name":"none","resources":{"requests":{"cpu":"1"}}}]}})",
                                         in, &out);
  ASSERT_TRUE(ps.ok()) << ps.message();
  const auto& ext = out.pod->extended_requests;
  ASSERT_EQ(ext.size(), 3u);
  const Atom gpu = in.Find("example.com/gpu");
  EXPECT_EQ(ext[0], (ContainerExtendedRequests{0, true, {{gpu, 2, 1}}}));
  EXPECT_EQ(ext[1],
            (ContainerExtendedRequests{
                1, false, {{in.Find("deviceclass.resource.kubernetes.io/gpu.example.com"), 1, 0}}}));
  // cpu, example.com/gpu, hugepages-2Mi, memory: the gpu is index 1.
  EXPECT_EQ(ext[2], (ContainerExtendedRequests{2, false, {{gpu, 1, 1}}}));
}

TEST(DecodeDraTest, Deletions) {
  Interner in;
  ChangeSet cs;
  const ApiStatus s = DecodeDoc(R"([
      {"type":"DELETED","object":{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim",
                                  "metadata":{"name":"c","namespace":"ns"}}},
      {"type":"DELETED","object":{"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass",
                                  "metadata":{"name":"d"}}},
      {"type":"ADDED","object":{"apiVersion":"resource.k8s.io/v1beta1","kind":"DeviceClass",
                                "metadata":{"name":"old"}}}])",
                                in, &cs);
  ASSERT_TRUE(s.ok()) << s.message();
  ASSERT_EQ(cs.changes.size(), 2u);
  EXPECT_EQ(cs.changes[0].op, Change::Op::kRemoveResourceClaim);
  EXPECT_EQ(cs.changes[0].key, "ns/c");
  EXPECT_EQ(cs.changes[1].op, Change::Op::kRemoveDeviceClass);
  EXPECT_EQ(cs.summary.ignored.at("DeviceClass"), 1);
}

TEST(DecodeDraTest, PodResourceClaims) {
  Interner in;
  DecodedPod out;
  const ApiStatus s = ParseAndDecodePod(R"({"metadata":{"name":"p","namespace":"ml"},
      "spec":{"containers":[{"name":"c","resources":{"claims":[{"name":"gpu"}]}}],
        "resourceClaims":[{"name":"gpu","resourceClaimTemplateName":"gpu-template"},
                          {"name":"shared","resourceClaimName":"shared-claim"},
                          {"name":"later","resourceClaimTemplateName":"t"},
                          {"name":"none","resourceClaimTemplateName":"t"}]},
      "status":{"resourceClaimStatuses":[{"name":"gpu","resourceClaimName":"p-gpu-x1"},
                                         {"name":"gpu","resourceClaimName":"ignored"},
                                         {"name":"none"}]}})",
                                        in, &out);
  ASSERT_TRUE(s.ok()) << s.message();
  const auto& rc = out.pod->resource_claims;
  ASSERT_EQ(rc.size(), 4u);
  EXPECT_EQ(rc[0].template_name, "gpu-template");
  EXPECT_TRUE(rc[0].has_status);
  EXPECT_EQ(rc[0].generated_name, "p-gpu-x1");
  EXPECT_EQ(rc[1].claim_name, "shared-claim");
  EXPECT_FALSE(rc[1].template_name);
  EXPECT_FALSE(rc[2].has_status);
  EXPECT_TRUE(rc[3].has_status);
  EXPECT_FALSE(rc[3].generated_name);
}

class DecodeDraErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(DecodeDraErrorTest, NamesPathAndReason) {
  Interner in;
  ChangeSet cs;
  const ApiStatus s = DecodeDoc(GetParam().json, in, &cs);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.path(), GetParam().path);
  EXPECT_EQ(s.message(), GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, DecodeDraErrorTest,
    ::testing::Values(
        ErrorCase{"SliceWithoutDriver",
                  R"({"kind":"ResourceSlice","metadata":{"name":"s"},
                      "spec":{"pool":{"name":"p","resourceSliceCount":1}}})",
                  "spec.driver", "spec.driver: Required value"},
        ErrorCase{"SliceWithoutPool",
                  R"({"kind":"ResourceSlice","metadata":{"name":"s"},"spec":{"driver":"d"}})",
                  "spec.pool", "spec.pool: Required value"},
        ErrorCase{"SliceCountZero",
                  R"({"kind":"ResourceSlice","metadata":{"name":"s"},
                      "spec":{"driver":"d","pool":{"name":"p"}}})",
                  "spec.pool.resourceSliceCount",
                  "spec.pool.resourceSliceCount: must be greater than zero"},
        ErrorCase{"AttributeWithTwoValues",
                  R"({"kind":"ResourceSlice","metadata":{"name":"s"},
                      "spec":{"driver":"d","pool":{"name":"p","resourceSliceCount":1},
                        "devices":[{"name":"x","attributes":{"a":{"int":1,"bool":true}}}]}})",
                  "spec.devices[0].attributes.a",
                  "spec.devices[0].attributes.a: must have exactly one of int, bool, string, "
                  "version"},
        ErrorCase{"BadCapacity",
                  R"({"kind":"ResourceSlice","metadata":{"name":"s"},
                      "spec":{"driver":"d","pool":{"name":"p","resourceSliceCount":1},
                        "devices":[{"name":"x","capacity":{"m":{"value":"lots"}}}]}})",
                  "spec.devices[0].capacity.m.value",
                  "spec.devices[0].capacity.m.value: invalid quantity \"lots\": invalid quantity "
                  "syntax"},
        ErrorCase{"BadAllocationMode",
                  R"({"kind":"ResourceClaim","metadata":{"name":"c"},"spec":{"devices":{
                      "requests":[{"name":"r","exactly":{"deviceClassName":"c",
                                   "allocationMode":"Some"}}]}}})",
                  "spec.devices.requests[0].exactly.allocationMode",
                  "spec.devices.requests[0].exactly.allocationMode: Unsupported value: \"Some\": "
                  "supported values: \"All\", \"ExactCount\""},
        ErrorCase{"RequestWithoutName",
                  R"({"kind":"ResourceClaim","metadata":{"name":"c"},"spec":{"devices":{
                      "requests":[{"exactly":{"deviceClassName":"c"}}]}}})",
                  "spec.devices.requests[0].name", "spec.devices.requests[0].name: Required value"},
        ErrorCase{"ClassBadCreationTimestamp",
                  R"({"kind":"DeviceClass","metadata":{"name":"c","creationTimestamp":"yesterday"}})",
                  "metadata.creationTimestamp",
                  "metadata.creationTimestamp: must be an RFC 3339 time like "
                  "2024-01-02T15:04:05Z"},
        ErrorCase{"SelectorWithoutExpression",
                  R"({"kind":"DeviceClass","metadata":{"name":"c"},
                      "spec":{"selectors":[{"cel":{}}]}})",
                  "spec.selectors[0].cel.expression",
                  "spec.selectors[0].cel.expression: Required value"},
        ErrorCase{"AllocatedWithoutDevice",
                  R"({"kind":"ResourceClaim","metadata":{"name":"c"},"status":{"allocation":{
                      "devices":{"results":[{"request":"r","driver":"d","pool":"p"}]}}}})",
                  "status.allocation.devices.results[0].device",
                  "status.allocation.devices.results[0].device: Required value"},
        ErrorCase{"TaintWithoutKey",
                  R"({"kind":"ResourceSlice","metadata":{"name":"s"},
                      "spec":{"driver":"d","pool":{"name":"p","resourceSliceCount":1},
                        "devices":[{"name":"x","taints":[{"effect":"NoSchedule"}]}]}})",
                  "spec.devices[0].taints[0].key", "spec.devices[0].taints[0].key: Required value"},
        ErrorCase{"TaintWithoutEffect",
                  R"({"kind":"ResourceSlice","metadata":{"name":"s"},
                      "spec":{"driver":"d","pool":{"name":"p","resourceSliceCount":1},
                        "devices":[{"name":"x","taints":[{"key":"k"}]}]}})",
                  "spec.devices[0].taints[0].effect",
                  "spec.devices[0].taints[0].effect: Required value"},
        ErrorCase{"TolerationOperator",
                  R"({"kind":"ResourceClaim","metadata":{"name":"c"},"spec":{"devices":{
                      "requests":[{"name":"r","firstAvailable":[{"name":"s","deviceClassName":"c",
                                   "tolerations":[{"key":"k","operator":"In"}]}]}]}}})",
                  "spec.devices.requests[0].firstAvailable[0].tolerations[0].operator",
                  "spec.devices.requests[0].firstAvailable[0].tolerations[0].operator: "
                  "Unsupported value: \"In\": supported values: \"Equal\", \"Exists\""},
        ErrorCase{"ConsumptionWithoutCounterSet",
                  R"({"kind":"ResourceSlice","metadata":{"name":"s"},
                      "spec":{"driver":"d","pool":{"name":"p","resourceSliceCount":1},
                        "devices":[{"name":"x","consumesCounters":[{"counters":{}}]}]}})",
                  "spec.devices[0].consumesCounters[0].counterSet",
                  "spec.devices[0].consumesCounters[0].counterSet: Required value"},
        ErrorCase{"BadCounterValue",
                  R"({"kind":"ResourceSlice","metadata":{"name":"s"},
                      "spec":{"driver":"d","pool":{"name":"p","resourceSliceCount":1},
                        "sharedCounters":[{"name":"c","counters":{"m":{"value":"x"}}}]}})",
                  "spec.sharedCounters[0].counters.m.value",
                  "spec.sharedCounters[0].counters.m.value: invalid quantity \"x\": invalid "
                  "quantity syntax"},
        ErrorCase{"RangeWithoutMin",
                  R"({"kind":"ResourceSlice","metadata":{"name":"s"},
                      "spec":{"driver":"d","pool":{"name":"p","resourceSliceCount":1},
                        "devices":[{"name":"x","capacity":{"m":{"value":4,
                          "requestPolicy":{"validRange":{"max":2}}}}}]}})",
                  "spec.devices[0].capacity.m.requestPolicy.validRange.min",
                  "spec.devices[0].capacity.m.requestPolicy.validRange.min: Required value"},
        ErrorCase{"RangeStepBelowOne",
                  R"({"kind":"ResourceSlice","metadata":{"name":"s"},
                      "spec":{"driver":"d","pool":{"name":"p","resourceSliceCount":1},
                        "devices":[{"name":"x","capacity":{"m":{"value":4,
                          "requestPolicy":{"validRange":{"min":1,"step":"500m"}}}}}]}})",
                  "spec.devices[0].capacity.m.requestPolicy.validRange.step",
                  "spec.devices[0].capacity.m.requestPolicy.validRange.step: must be at least 1"},
        ErrorCase{"ValidValuesUnsorted",
                  R"({"kind":"ResourceSlice","metadata":{"name":"s"},
                      "spec":{"driver":"d","pool":{"name":"p","resourceSliceCount":1},
                        "devices":[{"name":"x","capacity":{"m":{"value":4,
                          "requestPolicy":{"validValues":[2,1]}}}}]}})",
                  "spec.devices[0].capacity.m.requestPolicy.validValues[1]",
                  "spec.devices[0].capacity.m.requestPolicy.validValues[1]: must be sorted in "
                  "ascending order without duplicates"},
        ErrorCase{"RangeAndValidValues",
                  R"({"kind":"ResourceSlice","metadata":{"name":"s"},
                      "spec":{"driver":"d","pool":{"name":"p","resourceSliceCount":1},
                        "devices":[{"name":"x","capacity":{"m":{"value":4,
                          "requestPolicy":{"validValues":[1],"validRange":{"min":1}}}}}]}})",
                  "spec.devices[0].capacity.m.requestPolicy.validRange",
                  "spec.devices[0].capacity.m.requestPolicy.validRange: must not be set together "
                  "with validValues"},
        ErrorCase{"BadCapacityRequest",
                  R"({"kind":"ResourceClaim","metadata":{"name":"c"},"spec":{"devices":{
                      "requests":[{"name":"r","exactly":{"deviceClassName":"c",
                                   "capacity":{"requests":{"m":"lots"}}}}]}}})",
                  "spec.devices.requests[0].exactly.capacity.requests.m",
                  "spec.devices.requests[0].exactly.capacity.requests.m: invalid quantity "
                  "\"lots\": invalid quantity syntax"},
        ErrorCase{"ShareIdNotString",
                  R"({"kind":"ResourceClaim","metadata":{"name":"c"},"status":{"allocation":{
                      "devices":{"results":[{"request":"r","driver":"d","pool":"p","device":"x",
                                             "shareID":7}]}}}})",
                  "status.allocation.devices.results[0].shareID",
                  "status.allocation.devices.results[0].shareID: expected a string, got a number"},
        ErrorCase{"BadConsumedCapacity",
                  R"({"kind":"ResourceClaim","metadata":{"name":"c"},"status":{"allocation":{
                      "devices":{"results":[{"request":"r","driver":"d","pool":"p","device":"x",
                                             "consumedCapacity":{"m":true}}]}}}})",
                  "status.allocation.devices.results[0].consumedCapacity.m",
                  "status.allocation.devices.results[0].consumedCapacity.m: expected a quantity "
                  "string such as \"500m\" or \"64Gi\""},
        ErrorCase{"TooManyBindingConditions",
                  R"({"kind":"ResourceSlice","metadata":{"name":"s"},
                      "spec":{"driver":"d","pool":{"name":"p","resourceSliceCount":1},
                        "devices":[{"name":"x","bindingConditions":["a","b","c","d","e"]}]}})",
                  "spec.devices[0].bindingConditions",
                  "spec.devices[0].bindingConditions: Too many: 5: must have at most 4 items"},
        ErrorCase{"BindingFailureConditionNotString",
                  R"({"kind":"ResourceClaim","metadata":{"name":"c"},"status":{"allocation":{
                      "devices":{"results":[{"request":"r","driver":"d","pool":"p","device":"x",
                                             "bindingFailureConditions":[1]}]}}}})",
                  "status.allocation.devices.results[0].bindingFailureConditions[0]",
                  "status.allocation.devices.results[0].bindingFailureConditions[0]: expected a "
                  "string, got a number"},
        ErrorCase{"BadAllocationTimestamp",
                  R"({"kind":"ResourceClaim","metadata":{"name":"c"},"status":{"allocation":{
                      "allocationTimestamp":"yesterday"}}})",
                  "status.allocation.allocationTimestamp",
                  "status.allocation.allocationTimestamp: must be an RFC 3339 time like "
                  "2024-01-02T15:04:05Z"},
        ErrorCase{"BadDeviceConditionStatus",
                  R"({"kind":"ResourceClaim","metadata":{"name":"c"},"status":{"devices":[
                      {"driver":"d","pool":"p","device":"x",
                       "conditions":[{"type":"Ready","status":"Yes"}]}]}})",
                  "status.devices[0].conditions[0].status",
                  "status.devices[0].conditions[0].status: Unsupported value: \"Yes\": supported "
                  "values: \"False\", \"True\", \"Unknown\""},
        ErrorCase{"PodClaimNameNotString",
                  R"({"kind":"Pod","metadata":{"name":"p"},
                      "spec":{"resourceClaims":[{"name":"a","resourceClaimName":1}]}})",
                  "spec.resourceClaims[0].resourceClaimName",
                  "spec.resourceClaims[0].resourceClaimName: expected a string, got a number"}),
    CaseName);

}  // namespace
}  // namespace decode_dra_test
}  // namespace sched::capi
