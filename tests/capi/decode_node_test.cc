// DecodeNode: the fields the scheduler reads, and errors with their paths.
#include <string>

#include <gtest/gtest.h>

#include "libsched/model/node.h"
#include "tests/capi/decode_test_util.h"

namespace sched::capi {
namespace decode_node_test {
namespace {

using ::sched::capi::testing::CaseName;
using ::sched::capi::testing::ErrorCase;
using ::sched::capi::testing::Names;
using ::sched::capi::testing::ParseAndDecodeNode;

TEST(DecodeNodeTest, DecodesWhatTheSchedulerReads) {
  Interner in;
  std::shared_ptr<const Node> node;
  const ApiStatus s = ParseAndDecodeNode(R"({
      "kind":"Node","apiVersion":"v1",
      "metadata":{"name":"n1","labels":{"topology.kubernetes.io/zone":"z1"},
                  "annotations":{"ignored":"yes"}},
      "spec":{"unschedulable":true,"podCIDR":"10.0.0.0/24","taints":[
        {"key":"dedicated","value":"gpu","effect":"NoSchedule"},
        {"key":"soft","effect":"PreferNoSchedule","timeAdded":null},
        {"key":"evict","effect":"NoExecute"}]},
      "status":{
        "capacity":{"cpu":"8"},
        "allocatable":{"cpu":"7900m","memory":"31Gi","pods":"110",
                       "ephemeral-storage":"100G","nvidia.com/gpu":"4",
                       "hugepages-1Gi":"2Gi","example":"3"},
        "images":[{"names":["docker.io/library/nginx:1.25","nginx:1.25"],"sizeBytes":70000000},
                  {"sizeBytes":5}]}})",
                                         in, &node);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(node->name, "n1");
  EXPECT_EQ(node->name_atom, in.Find("n1"));
  EXPECT_EQ(node->labels.Get(in.Intern("topology.kubernetes.io/zone")), in.Intern("z1"));
  EXPECT_TRUE(node->unschedulable);
  ASSERT_EQ(node->taints.size(), 3u);
  EXPECT_EQ(node->taints[0],
            (Taint{in.Intern("dedicated"), in.Intern("gpu"), TaintEffect::kNoSchedule}));
  EXPECT_EQ(node->taints[1],
            (Taint{in.Intern("soft"), in.Intern(""), TaintEffect::kPreferNoSchedule}));
  EXPECT_EQ(node->taints[2].effect, TaintEffect::kNoExecute);

  const Resource& a = node->allocatable;
  EXPECT_EQ(a.milli_cpu, 7900);
  EXPECT_EQ(a.memory, 31LL << 30);
  EXPECT_EQ(a.allowed_pods, 110);
  EXPECT_EQ(a.ephemeral_storage, 100'000'000'000);
  EXPECT_EQ(a.Scalar(in.Intern("nvidia.com/gpu")), 4);
  EXPECT_EQ(a.Scalar(in.Intern("hugepages-1Gi")), 2LL << 30);
  EXPECT_EQ(in.Find("example"), kNoAtom);  // not a scalar resource name: ignored

  ASSERT_EQ(node->images.size(), 2u);
  EXPECT_EQ(Names(in, node->images[0].names),
            (std::vector<std::string>{"docker.io/library/nginx:1.25", "nginx:1.25"}));
  EXPECT_EQ(node->images[0].size_bytes, 70000000);
  EXPECT_TRUE(node->images[1].names.empty());
}

TEST(DecodeNodeTest, MinimalNode) {
  Interner in;
  std::shared_ptr<const Node> node;
  ASSERT_TRUE(ParseAndDecodeNode(R"({"metadata":{"name":"n"}})", in, &node).ok());
  EXPECT_FALSE(node->unschedulable);
  EXPECT_TRUE(node->taints.empty());
  EXPECT_TRUE(node->allocatable.IsZero());
}

class DecodeNodeErrorTest : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(DecodeNodeErrorTest, NamesPathAndReason) {
  const ErrorCase& c = GetParam();
  Interner in;
  std::shared_ptr<const Node> node;
  const ApiStatus s = ParseAndDecodeNode(c.json, in, &node);
  EXPECT_EQ(s.code(), SCHED_INVALID_ARGUMENT);
  EXPECT_EQ(s.path(), c.path);
  EXPECT_EQ(s.message(), c.message);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, DecodeNodeErrorTest,
    ::testing::Values(
        ErrorCase{"NoName", R"({"metadata":{"labels":{}}})", "metadata.name",
                  "metadata.name: Required value"},
        ErrorCase{"LabelsNotObject", R"({"metadata":{"name":"n","labels":[]}})",
                  "metadata.labels", "metadata.labels: expected an object, got an array"},
        ErrorCase{"UnschedulableType",
                  R"({"metadata":{"name":"n"},"spec":{"unschedulable":"yes"}})",
                  "spec.unschedulable", "spec.unschedulable: expected a boolean, got a string"},
        ErrorCase{"TaintsNotArray", R"({"metadata":{"name":"n"},"spec":{"taints":{}}})",
                  "spec.taints", "spec.taints: expected an array, got an object"},
        ErrorCase{"TaintEffectMissing",
                  R"({"metadata":{"name":"n"},"spec":{"taints":[{"key":"k"}]}})",
                  "spec.taints[0].effect", "spec.taints[0].effect: Required value"},
        ErrorCase{"TaintEffectUnsupported",
                  R"({"metadata":{"name":"n"},
                      "spec":{"taints":[{"key":"k","effect":"Sometimes"}]}})",
                  "spec.taints[0].effect",
                  "spec.taints[0].effect: Unsupported value: \"Sometimes\": supported values: "
                  "\"NoExecute\", \"NoSchedule\", \"PreferNoSchedule\""},
        ErrorCase{"TaintKeyType",
                  R"({"metadata":{"name":"n"},
                      "spec":{"taints":[{"key":1,"effect":"NoSchedule"}]}})",
                  "spec.taints[0].key", "spec.taints[0].key: expected a string, got a number"},
        ErrorCase{"AllocatableQuantity",
                  R"({"metadata":{"name":"n"},"status":{"allocatable":{"memory":"lots"}}})",
                  "status.allocatable.memory",
                  "status.allocatable.memory: invalid quantity \"lots\": invalid quantity syntax"},
        ErrorCase{"AllocatableOutOfRange",
                  R"({"metadata":{"name":"n"},
                      "status":{"allocatable":{"cpu":"9999999999999999999"}}})",
                  "status.allocatable.cpu",
                  "status.allocatable.cpu: invalid quantity \"9999999999999999999\": quantity out "
                  "of range"},
        ErrorCase{"AllocatableNegative",
                  R"({"metadata":{"name":"n"},"status":{"allocatable":{"cpu":"-4"}}})",
                  "status.allocatable.cpu",
                  "status.allocatable.cpu: Invalid value: \"-4\": must be greater than or "
                  "equal to 0"},
        ErrorCase{"AllocatableNegativeScalar",
                  R"({"metadata":{"name":"n"},
                      "status":{"allocatable":{"hugepages-2Mi":"-2Mi"}}})",
                  "status.allocatable.hugepages-2Mi",
                  "status.allocatable.hugepages-2Mi: Invalid value: \"-2Mi\": must be greater "
                  "than or equal to 0"},
        ErrorCase{"AllocatableNegativePods",
                  R"({"metadata":{"name":"n"},"status":{"allocatable":{"pods":-1}}})",
                  "status.allocatable.pods",
                  "status.allocatable.pods: Invalid value: \"-1\": must be greater than or "
                  "equal to 0"},
        ErrorCase{"ImageSizeNegative",
                  R"({"metadata":{"name":"n"},
                      "status":{"images":[{"names":["a"],"sizeBytes":-1}]}})",
                  "status.images[0].sizeBytes",
                  "status.images[0].sizeBytes: Invalid value: -1: must be greater than or "
                  "equal to 0"},
        ErrorCase{"ImageSizeType",
                  R"({"metadata":{"name":"n"},
                      "status":{"images":[{"names":["a"],"sizeBytes":"big"}]}})",
                  "status.images[0].sizeBytes",
                  "status.images[0].sizeBytes: expected an integer, got a string"},
        ErrorCase{"ImageSizeInexact",
                  R"({"metadata":{"name":"n"},"status":{"images":[{"sizeBytes":1e300}]}})",
                  "status.images[0].sizeBytes",
                  "status.images[0].sizeBytes: integer 1e+300 is too large to be exact "
                  "(|x| must be <= 2^53)"},
        ErrorCase{"ImageNameType",
                  R"({"metadata":{"name":"n"},
                      "status":{"images":[{"names":["a",2]}]}})",
                  "status.images[0].names[1]",
                  "status.images[0].names[1]: expected a string, got a number"}),
    CaseName);

}  // namespace
}  // namespace decode_node_test
}  // namespace sched::capi
