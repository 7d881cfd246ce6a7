#include "libsched/plugins/node_ports.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "libsched/testing/builders.h"

namespace sched {
namespace node_ports_test {
namespace {

using testing::PodBuilder;

// "PROTO/IP/PORT", as upstream's test helper newPod takes them.
HostPort P(const std::string& spec) {
  const size_t a = spec.find('/'), b = spec.rfind('/');
  const std::string proto = spec.substr(0, a);
  HostPort hp;
  hp.protocol = proto == "UDP"    ? Protocol::kUDP
                : proto == "SCTP" ? Protocol::kSCTP
                                  : Protocol::kTCP;
  hp.ip = spec.substr(a + 1, b - a - 1);
  hp.port = std::stoi(spec.substr(b + 1));
  return hp;
}

std::shared_ptr<const Pod> PodWithPorts(Interner& in, const std::string& name,
                                        const std::vector<std::string>& ports) {
  PodBuilder b(in, name);
  for (const auto& s : ports) {
    const HostPort hp = P(s);
    b.HostPort(hp.port, hp.protocol, hp.ip);
  }
  return b.Build();
}

// Upstream's TestNodePorts. The init-container cases are decided when a pod
// is decoded (only sidecars' ports count), so here a non-sidecar init
// container's port is simply absent and a sidecar's present.
TEST(NodePortsTest, PreFilterAndFilter) {
  struct Case {
    std::string name;
    std::vector<std::string> pod_ports;
    std::vector<std::string> used_ports;
    bool want_skip = false;
    bool want_fit = true;
  };
  const std::vector<Case> cases = {
      {"skip filter", {}, {}, true},
      {"non-sidecar initContainer using hostPort", {}, {"TCP/0.0.0.0/8001"}, true},
      {"other port", {"UDP/127.0.0.1/8080"}, {"UDP/127.0.0.1/9090"}},
      {"same udp port", {"UDP/127.0.0.1/8080"}, {"UDP/127.0.0.1/8080"}, false, false},
      {"same tcp port", {"TCP/127.0.0.1/8080"}, {"TCP/127.0.0.1/8080"}, false, false},
      {"different host ip", {"TCP/127.0.0.1/8080"}, {"TCP/127.0.0.2/8080"}},
      {"different protocol", {"UDP/127.0.0.1/8080"}, {"TCP/127.0.0.1/8080"}},
      {"second udp port conflict", {"UDP/127.0.0.1/8000", "UDP/127.0.0.1/8080"},
       {"UDP/127.0.0.1/8080"}, false, false},
      {"first tcp port conflict", {"TCP/127.0.0.1/8001", "UDP/127.0.0.1/8080"},
       {"TCP/127.0.0.1/8001", "UDP/127.0.0.1/8081"}, false, false},
      {"first tcp port conflict due to 0.0.0.0 hostIP", {"TCP/0.0.0.0/8001"},
       {"TCP/127.0.0.1/8001"}, false, false},
      {"TCP hostPort conflict due to 0.0.0.0 hostIP", {"TCP/10.0.10.10/8001", "TCP/0.0.0.0/8001"},
       {"TCP/127.0.0.1/8001"}, false, false},
      {"second tcp port conflict to 0.0.0.0 hostIP", {"TCP/127.0.0.1/8001"},
       {"TCP/0.0.0.0/8001"}, false, false},
      {"second different protocol", {"UDP/127.0.0.1/8001"}, {"TCP/0.0.0.0/8001"}},
      {"UDP hostPort conflict due to 0.0.0.0 hostIP", {"UDP/127.0.0.1/8001"},
       {"TCP/0.0.0.0/8001", "UDP/0.0.0.0/8001"}, false, false},
      {"TCP hostPort conflict from sidecar initContainer", {"TCP/0.0.0.0/8001"},
       {"TCP/0.0.0.0/8001"}, false, false},
      // Beyond upstream's table: an empty IP is 0.0.0.0 on either side.
      {"empty wanted IP is a wildcard", {"TCP//8001"}, {"TCP/127.0.0.1/8001"}, false, false},
      {"empty used IP is a wildcard", {"TCP/127.0.0.1/8001"}, {"TCP//8001"}, false, false},
      {"SCTP is its own protocol", {"SCTP/0.0.0.0/8001"}, {"TCP/0.0.0.0/8001"}},
      {"same SCTP port", {"SCTP/0.0.0.0/8001"}, {"SCTP/10.0.0.1/8001"}, false, false},
  };
  for (const Case& c : cases) {
    Interner in;
    const auto pod = PodWithPorts(in, "pod", c.pod_ports);
    NodeInfo ni;
    ni.SetNode(testing::NodeBuilder(in, "n").Build(), 1);
    ni.AddPod(PodWithPorts(in, "m1", c.used_ports), 2);

    NodePorts pl;
    ClusterState cs;
    CycleState state(1);
    PreFilterResult result;
    const Status pre = pl.PreFilter(state, *pod, cs, &result);
    EXPECT_TRUE(result.all_nodes) << c.name;
    if (c.want_skip) {
      EXPECT_TRUE(pre.IsSkip()) << c.name;
      continue;
    }
    ASSERT_TRUE(pre.IsSuccess()) << c.name;
    const Status got = pl.Filter(state, *pod, ni);
    if (c.want_fit) {
      EXPECT_TRUE(got.IsSuccess()) << c.name;
    } else {
      EXPECT_EQ(got.code(), Code::kUnschedulable) << c.name;
      EXPECT_EQ(got.reasons(), std::vector<std::string_view>{
                                   "node(s) didn't have free ports for the requested pod ports"})
          << c.name;
    }
  }
}

// Upstream's TestPreFilterDisabled.
TEST(NodePortsTest, FilterWithoutPreFilterIsAnError) {
  Interner in;
  const auto pod = PodWithPorts(in, "pod", {});
  NodeInfo ni;
  ni.SetNode(testing::NodeBuilder(in, "n").Build(), 1);
  NodePorts pl;
  CycleState state(1);
  EXPECT_EQ(pl.Filter(state, *pod, ni).code(), Code::kError);
}

TEST(NodePortsTest, Name) { EXPECT_EQ(NodePorts().Name(), "NodePorts"); }

}  // namespace
}  // namespace node_ports_test
}  // namespace sched
