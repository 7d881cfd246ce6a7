#include "libsched/plugins/image_locality.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "libsched/testing/builders.h"

namespace sched {
namespace image_locality_test {
namespace {

using testing::NodeBuilder;
using testing::PodBuilder;

constexpr int64_t kMB = 1024 * 1024;

struct Image {
  std::vector<std::string> names;
  int64_t size_mb;
};

struct TestNode {
  std::string name;
  std::vector<Image> images;
};

// Pod images as the decoder stores them: containers' images (normalized by
// the builder), then init containers' and image volumes' (given normalized).
struct TestPod {
  std::vector<std::string> containers;
  std::vector<std::string> init = {};
  std::vector<std::string> volumes = {};
};

std::shared_ptr<const Pod> MakePod(Interner& in, const TestPod& t) {
  PodBuilder b(in, "pod");
  for (const std::string& image : t.containers) b.Container(-1, -1, {}, image);
  for (size_t i = 0; i < t.init.size(); ++i) b.InitContainer(-1, -1);
  Pod p = *b.Build();
  for (const std::string& image : t.init) p.images.push_back(in.Intern(image));
  for (const std::string& image : t.volumes) p.images.push_back(in.Intern(image));
  return std::make_shared<const Pod>(std::move(p));
}

// Scores every node; PreScore sees `feasible` nodes (all when empty).
std::vector<int64_t> ScoreAll(const std::vector<TestNode>& nodes, const TestPod& t,
                         const std::vector<std::string>& feasible_names = {}) {
  ClusterState cs;
  Interner& in = cs.interner();
  for (const TestNode& n : nodes) {
    NodeBuilder b(in, n.name);
    for (const Image& img : n.images) b.Image(img.names, img.size_mb * kMB);
    cs.UpsertNode(b.Build());
  }
  auto pod = MakePod(in, t);
  std::vector<const NodeInfo*> feasible;
  for (const std::string& name : feasible_names) feasible.push_back(cs.FindNode(name));
  ImageLocality p;
  CycleState state(1);
  EXPECT_TRUE(
      p.PreScore(state, *pod, feasible_names.empty() ? cs.NodeList() : feasible, cs).IsSuccess());
  std::vector<int64_t> got;
  for (const TestNode& n : nodes) {
    int64_t score = -1;
    EXPECT_TRUE(p.Score(state, *pod, *cs.FindNode(n.name), &score).IsSuccess());
    got.push_back(score);
  }
  return got;
}

TestNode Node403002000(const std::string& name) {
  return {name,
          {{{"gcr.io/40:latest", "gcr.io/40:v1", "gcr.io/40:v1"}, 40},
           {{"gcr.io/300:latest", "gcr.io/300:v1"}, 300},
           {{"gcr.io/2000:latest"}, 2000}}};
}
TestNode Node25010(const std::string& name) {
  return {name, {{{"gcr.io/250:latest"}, 250}, {{"gcr.io/10:latest", "gcr.io/10:v1"}, 10}}};
}
TestNode Node60040900(const std::string& name) {
  return {name,
          {{{"gcr.io/600:latest"}, 600}, {{"gcr.io/40:latest"}, 40}, {{"gcr.io/900:latest"}, 900}}};
}
TestNode Node300600900(const std::string& name) {
  return {name,
          {{{"gcr.io/300:latest"}, 300},
           {{"gcr.io/600:latest"}, 600},
           {{"gcr.io/900:latest"}, 900}}};
}
TestNode Node400030(const std::string& name) {
  return {name, {{{"gcr.io/4000:latest"}, 4000}, {{"gcr.io/30:latest"}, 30}}};
}
TestNode Node203040(const std::string& name) {
  return {name,
          {{{"gcr.io/20:latest"}, 20}, {{"gcr.io/30:latest"}, 30}, {{"gcr.io/40:latest"}, 40}}};
}
TestNode NoImages(const std::string& name) { return {name, {}}; }

// image_locality_test.go TestImageLocalityPriority.
TEST(ImageLocalityTest, Score) {
  struct Case {
    std::string name;
    TestPod pod;
    std::vector<TestNode> nodes;
    std::vector<int64_t> want;
  };
  const TestPod p40250{{"gcr.io/40", "gcr.io/250"}};
  const TestPod p40300{{"gcr.io/40", "gcr.io/300"}};
  const TestPod min_max{{"gcr.io/10", "gcr.io/4000"}};
  const TestPod p300600900{{"gcr.io/300", "gcr.io/600", "gcr.io/900"}};
  const TestPod p3040{{"gcr.io/30", "gcr.io/40"}};
  const std::vector<Case> cases = {
      // node1: 40M/2 < 23M. node2: 100 * (250M/2 - 23M) / (2000M - 23M) = 5.
      {"two images spread on two nodes, prefer the larger image one", p40250,
       {Node403002000("node1"), Node25010("node2")}, {0, 5}},
      // node1: 100 * ((40M + 300M)/2 - 23M) / (2000M - 23M) = 7.
      {"two images on one node, prefer this node", p40300,
       {Node403002000("node1"), Node25010("node2")}, {7, 0}},
      {"if exceed limit, use limit", min_max, {Node400030("node1"), Node25010("node2")},
       {100, 0}},
      // node1: 100 * (4000M/3 - 23M) / (2000M - 23M) = 66.
      {"if exceed limit, use limit (with node which has no images present)", min_max,
       {Node400030("node1"), Node25010("node2"), NoImages("node3")}, {66, 0, 0}},
      // node1: 100 * (600M*2/3 + 900M*2/3 - 23M) / (3000M - 23M) = 32.
      // node2: 100 * (300M/3 + 600M*2/3 + 900M*2/3 - 23M) / (3000M - 23M) = 36.
      {"pod with multiple large images, node2 is preferred", p300600900,
       {Node60040900("node1"), Node300600900("node2"), NoImages("node3")}, {32, 36, 0}},
      // node1: 100 * (30M + 40M/2 - 23M) / (2000M - 23M) = 1.
      {"pod with multiple small images", p3040, {Node203040("node1"), Node400030("node2")},
       {1, 0}},
      // node1: 100 * (300M/2 - 23M) / (1000M - 23M) = 12: image volumes add
      // to the sum but not to the container count.
      {"pod with ImageVolume", {{"gcr.io/30"}, {}, {"gcr.io/300:latest"}},
       {Node300600900("node1"), Node400030("node2")}, {12, 0}},
      // node1: 100 * (300M/2 - 23M) / (2000M - 23M) = 6.
      {"include InitContainers", {{"gcr.io/30"}, {"gcr.io/300:latest"}},
       {Node403002000("node1"), Node203040("node2")}, {6, 0}},
      {"node image names are matched as reported, not normalized", {{"gcr.io/4000"}},
       {{"node1", {{{"gcr.io/4000"}, 4000}}}, Node400030("node2")}, {0, 100}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(ScoreAll(c.nodes, c.pod), c.want);
  }
}

TEST(ImageLocalityTest, TotalNumNodesCountsEveryNodeNotOnlyFeasibleOnes) {
  const std::vector<TestNode> nodes = {Node400030("node1"), Node25010("node2"),
                                       NoImages("node3")};
  const TestPod pod{{"gcr.io/10", "gcr.io/4000"}};
  EXPECT_EQ(ScoreAll(nodes, pod, {"node1"}), (std::vector<int64_t>{66, 0, 0}));
}

TEST(ImageLocalityTest, Name) { EXPECT_EQ(ImageLocality().Name(), "ImageLocality"); }

}  // namespace
}  // namespace image_locality_test
}  // namespace sched
