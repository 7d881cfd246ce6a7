#include "libsched/state/node_info.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "libsched/state/undo_log.h"
#include "libsched/testing/builders.h"

namespace sched {
namespace node_info_test {
namespace {

using testing::NodeBuilder;
using testing::PodBuilder;

// Every field of a NodeInfo, in order: what a rollback must restore.
struct Fields {
  std::vector<std::string> pods, with_affinity, with_anti_affinity;
  Resource requested, non_zero_requested;
  std::vector<HostPort> used_ports;
  bool has_node = false;
  std::vector<std::optional<int64_t>> image_sizes;
  uint64_t generation = 0;
  bool operator==(const Fields&) const = default;
};

// The NodeInfo and what it refers to (names, the pods it holds).
struct Fixture {
  Interner in;
  NodeInfo ni;
  uint64_t generation = 1;

  Fixture() {
    ni.SetNode(NodeBuilder(in, "n1").Image({"img-a", "img-b"}, 100).Build(), generation++);
    // A host ip long enough to live on the heap: restored by move, not copy.
    const std::string long_ip = "fd00:0000:0000:0000:0000:0000:0000:0001";
    Add(PodBuilder(in, "a")
            .Container(200, 1 << 20, {{"example.com/gpu", 1}})
            .HostPort(80)
            .HostPort(8080, Protocol::kTCP, long_ip)
            .RequiredPodAffinity(testing::PodTerm(in, "zone", {})));
    Add(PodBuilder(in, "b")
            .Container(300, 2 << 20, {{"example.com/fpga", 2}, {"example.com/gpu", 1}})
            .HostPort(80)
            .RequiredPodAntiAffinity(testing::PodTerm(in, "zone", {})));
    Add(PodBuilder(in, "c").Container(100, 1 << 20));
    // Counted, then gone: its name's entries stay, at zero.
    Add(PodBuilder(in, "gone").Container(100, 1 << 20, {{"example.com/old", 4}}));
    Remove("gone");
  }
  void Add(PodBuilder b, UndoLog* log = nullptr) { ni.AddPod(b.Build(), generation++, log); }
  void Remove(const std::string& name, UndoLog* log = nullptr) {
    for (const auto& p : ni.pods()) {
      if (p->name == name) {
        ASSERT_TRUE(ni.RemovePod(p.get(), generation++, log));
        return;
      }
    }
    FAIL() << "no pod " << name;
  }
  Fields Of() const {
    auto names = [](const auto& pods) {
      std::vector<std::string> out;
      for (const auto& p : pods) out.push_back(p->name);
      return out;
    };
    std::vector<std::optional<int64_t>> sizes;
    for (const char* image : {"img-a", "img-b", "img-c"}) {
      sizes.push_back(ni.ImageSize(in.Find(image)));
    }
    return {names(ni.pods()),  names(ni.pods_with_affinity()),
            names(ni.pods_with_required_anti_affinity()),
            ni.requested(),    ni.non_zero_requested(),
            ni.used_ports(),   ni.node() != nullptr,
            sizes,             ni.generation()};
  }
};

// Each change recorded into an UndoLog does what it does unrecorded, and a
// rollback restores every field exactly: the pods' order, the scalar
// entries (none left for a name first counted, a zero one kept), the ports
// (duplicates and their order), the node (the same object) and its
// images, the generation.
TEST(NodeInfoUndoTest, RollbackRestoresEveryField) {
  struct Case {
    const char* name;
    std::function<void(Fixture&, UndoLog*)> change;
  };
  auto pod = [](Fixture& f, const std::string& name) {
    return PodBuilder(f.in, name).Container(50, 1 << 10);
  };
  const std::vector<Case> cases = {
      {"add a plain pod", [&](Fixture& f, UndoLog* l) { f.Add(pod(f, "new"), l); }},
      {"add with a counted scalar",
       [&](Fixture& f, UndoLog* l) {
         f.Add(PodBuilder(f.in, "new").Container(50, 1 << 10, {{"example.com/gpu", 2}}), l);
       }},
      {"add with a name first counted",
       [&](Fixture& f, UndoLog* l) {
         f.Add(PodBuilder(f.in, "new").Container(50, 1 << 10,
                                                 {{"example.com/aaa", 1},
                                                  {"example.com/gpu", 1},
                                                  {"example.com/zzz", 3}}),
               l);
       }},
      {"add with a name left at zero",
       [&](Fixture& f, UndoLog* l) {
         f.Add(PodBuilder(f.in, "new").Container(50, 1 << 10, {{"example.com/old", 1}}), l);
       }},
      {"add with ports in use, affinity and anti-affinity",
       [&](Fixture& f, UndoLog* l) {
         f.Add(pod(f, "new")
                   .HostPort(80)
                   .HostPort(81, Protocol::kUDP)
                   .RequiredPodAffinity(testing::PodTerm(f.in, "zone", {}))
                   .RequiredPodAntiAffinity(testing::PodTerm(f.in, "zone", {})),
               l);
       }},
      {"remove the first pod (ports, scalar, affinity)",
       [&](Fixture& f, UndoLog* l) { f.Remove("a", l); }},
      {"remove a middle pod (port, scalars, anti-affinity)",
       [&](Fixture& f, UndoLog* l) { f.Remove("b", l); }},
      {"remove the last pod", [&](Fixture& f, UndoLog* l) { f.Remove("c", l); }},
      {"remove every pod",
       [&](Fixture& f, UndoLog* l) {
         f.Remove("b", l);
         f.Remove("a", l);
         f.Remove("c", l);
       }},
      {"add, remove an older pod, remove the new one",
       [&](Fixture& f, UndoLog* l) {
         f.Add(pod(f, "new").HostPort(80).Container(1, 1, {{"example.com/new", 1}}), l);
         f.Remove("a", l);
         f.Remove("new", l);
         f.Add(pod(f, "newer"), l);
       }},
      {"set a node with other images",
       [&](Fixture& f, UndoLog* l) {
         f.ni.SetNode(NodeBuilder(f.in, "n1").Image({"img-c"}, 7).Build(), f.generation++, l);
       }},
      {"clear the node, then remove a pod",
       [&](Fixture& f, UndoLog* l) {
         f.ni.ClearNode(f.generation++, l);
         f.Remove("a", l);
       }},
  };
  for (const Case& c : cases) {
    Fixture plain;
    c.change(plain, nullptr);
    const Fields changed = plain.Of();

    Fixture f;
    const Fields before = f.Of();
    const Node* const node = f.ni.node();
    ASSERT_NE(changed, before) << c.name;
    UndoLog log;
    log.Begin();
    c.change(f, &log);
    EXPECT_EQ(f.Of(), changed) << c.name;
    log.Rollback();
    EXPECT_EQ(f.Of(), before) << c.name;
    EXPECT_EQ(f.ni.node(), node) << c.name;
  }
}

}  // namespace
}  // namespace node_info_test
}  // namespace sched
