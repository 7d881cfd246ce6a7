#include "libsched/model/pod_signer.h"

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "libsched/plugins/registry.h"
#include "libsched/testing/builders.h"

namespace sched {
namespace pod_signer_test {
namespace {

using testing::PodBuilder;

// The class signature of `pod` under the default profile: what every
// plugin's SignPod feeds.
uint64_t Sign(const Profile& profile, const Pod& pod) {
  PodSigner s;
  for (const auto& p : profile.plugins()) p->SignPod(pod, s);
  return s.Finish();
}

TEST(PodSignerTest, SameTemplateSameClassAnyFieldReadDiffers) {
  Interner in;
  const Profile profile = NewDefaultProfile("default-scheduler", PluginArgs{});
  auto base = [&](const std::string& name) {
    PodBuilder b(in, name, "ns");
    b.Container(100, 500 << 20, {}, "app:v1").Label("app", "web");
    return b;
  };
  const std::shared_ptr<const Pod> reference = base("p0").Build();
  struct Case {
    std::string name;
    std::function<std::shared_ptr<const Pod>()> pod;
    bool same_class;
  };
  const std::vector<Case> cases = {
      {"another replica", [&] { return base("p1").Build(); }, true},
      // No node-local plugin reads labels, namespace or priority; the cache
      // bypasses the plugins that do (InterPodAffinity, PodTopologySpread).
      {"other owner's labels", [&] { return base("p2").Label("app", "api").Build(); }, true},
      {"other namespace",
       [&] { return PodBuilder(in, "p3", "other").Container(100, 500 << 20, {}, "app:v1").Build(); },
       true},
      {"priority", [&] { return base("p4").Priority(100).Build(); }, true},
      {"cpu request",
       [&] { return PodBuilder(in, "p5", "ns").Container(200, 500 << 20, {}, "app:v1").Build(); },
       false},
      {"pod overhead", [&] { return base("p6").Overhead(10, 0).Build(); }, false},
      {"init container", [&] { return base("p7").InitContainer(1000, 0).Build(); }, false},
      {"extended resource",
       [&] {
         return PodBuilder(in, "p8", "ns")
             .Container(100, 500 << 20, {{"example.com/gpu", 1}}, "app:v1")
             .Build();
       },
       false},
      {"image",
       [&] { return PodBuilder(in, "p9", "ns").Container(100, 500 << 20, {}, "app:v2").Build(); },
       false},
      {"nodeSelector", [&] { return base("p10").NodeSelector("disk", "ssd").Build(); }, false},
      {"preferred node affinity",
       [&] {
         return base("p11")
             .PreferredTerm(1, testing::Term({testing::Req(in, "disk", SelectorOp::kIn, {"ssd"})}))
             .Build();
       },
       false},
      {"toleration",
       [&] {
         return base("p12").Toleration("k", TolerationOp::kExists, "", TaintEffect::kNone).Build();
       },
       false},
      {"host port", [&] { return base("p13").HostPort(80).Build(); }, false},
      {"spec.nodeName", [&] { return base("p14").NodeName("n1").Build(); }, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(Sign(profile, *c.pod()) == Sign(profile, *reference), c.same_class);
  }
}

TEST(PodSignerTest, EncodingIsLengthPrefixed) {
  // "ab"+"c" and "a"+"bc" must not collide.
  PodSigner a, b;
  a.Add(std::string_view("ab"));
  a.Add(std::string_view("c"));
  b.Add(std::string_view("a"));
  b.Add(std::string_view("bc"));
  EXPECT_NE(a.bytes(), b.bytes());
  EXPECT_NE(a.Finish(), b.Finish());
  a.Clear();
  EXPECT_TRUE(a.bytes().empty());
}

TEST(PodSignerTest, IntegersAreEightBytesLittleEndian) {
  // Signatures must not depend on the host: the encoding is fixed.
  PodSigner s;
  s.Add(int64_t{0x0102030405060708});
  s.Add(int64_t{-2});
  s.Add(std::string_view("x"));
  const std::string want("\x08\x07\x06\x05\x04\x03\x02\x01"
                         "\xfe\xff\xff\xff\xff\xff\xff\xff"
                         "\x01\x00\x00\x00\x00\x00\x00\x00"
                         "x",
                         25);
  EXPECT_EQ(s.bytes(), want);
}

}  // namespace
}  // namespace pod_signer_test
}  // namespace sched
