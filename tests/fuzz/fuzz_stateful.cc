// libFuzzer target: a byte stream decoded into a sequence of operations on
// one engine, run on two engines that must agree call for call.
//
// Input: one config byte, then operations of an opcode byte and argument
// bytes (missing bytes read as 0), at most kMaxOps of them:
//   add nodes (bulk, so clusters cross the 100 nodes at which the walk
//   stops early and the rotating start index moves), modify a node (zone or
//   disk relabel, taint, cordon, capacity), delete a run of nodes (a scale
//   down), re-add a deleted node, add or delete a bound pod, delete any pod
//   (assumed ones included), queue a pending pod, schedule (any flags), run
//   the queue, advance the clock, change the namespace, change a PDB,
//   score a pod on a run of nodes (sched_engine_score, as the fork's
//   PreScore asks; deleted nodes' names included).
// The config byte picks percentageOfNodesToScore (adaptive, or explicit) and
// each engine's parallelism. Engine A has the equivalence cache on, engine B
// has it off; both have the same seed. Checked after every operation:
//   - the status/error contract and result shapes (fuzz_common.h);
//   - A and B return the same status and byte-identical output, and their
//     state digests (nodes, pods, queue, node order, random source, start
//     index: capi/engine.h StateDigest) are equal.
// Nodes and pods are drawn from fixed templates, so every document is valid
// and the fuzzer spends its time on sequences, not on JSON syntax.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "capi/engine.h"
#include "sched/sched.h"
#include "tests/fuzz/fuzz_common.h"

namespace {

constexpr size_t kMaxOps = 64;
constexpr size_t kMaxNodes = 240;  // past 100, and an input stays fast

class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : p_(data), n_(size) {}
  bool empty() const { return n_ == 0; }
  uint8_t Byte() {
    if (n_ == 0) return 0;
    --n_;
    return *p_++;
  }

 private:
  const uint8_t* p_;
  size_t n_;
};

// A node from its attribute byte: bits 0-1 zone (3: no zone label), bit 2
// disk=ssd, bit 3 a NoSchedule taint, bit 4 unschedulable, bits 5-6 cpu
// 1/2/4/8, bit 7 a PreferNoSchedule taint.
std::string NodeJson(int id, uint8_t a) {
  const std::string name = "n" + std::to_string(id);
  std::string labels =
      R"("kubernetes.io/hostname":")" + name + R"(","disk":")" + (a & 4 ? "ssd" : "hdd") + "\"";
  if ((a & 3) != 3) labels += R"(,"topology.kubernetes.io/zone":"z)" + std::to_string(a & 3) + "\"";
  std::string taints;
  if (a & 8) taints += R"({"key":"dedicated","value":"gpu","effect":"NoSchedule"})";
  if (a & 128) {
    taints +=
        std::string(taints.empty() ? "" : ",") + R"({"key":"soft","effect":"PreferNoSchedule"})";
  }
  std::string spec = a & 16 ? R"("unschedulable":true)" : "";
  if (!taints.empty())
    spec += std::string(spec.empty() ? "" : ",") + R"("taints":[)" + taints + "]";
  return R"({"kind":"Node","apiVersion":"v1","metadata":{"name":")" + name + R"(","labels":{)" +
         labels + R"(}},"spec":{)" + spec + R"(},"status":{"allocatable":{"cpu":")" +
         std::to_string(1 << ((a >> 5) & 3)) +
         R"(","memory":"16Gi","pods":"20"},"images":[{"names":["app:v1"],"sizeBytes":300000000}]}})";
}

// A pod of template t % 12 (high bit: priority 1000); bound when `node` is set.
std::string PodJson(const std::string& name, uint8_t t, const std::string& node) {
  std::string spec, cpu = "500m", labels = R"("app":"web")", ports;
  switch (t % 12) {
    case 0:
      break;
    case 1:
      spec = R"("nodeSelector":{"disk":"ssd"},)";
      break;
    case 2:
      spec = R"("tolerations":[{"key":"dedicated","operator":"Exists"}],)";
      cpu = "100m";
      break;
    case 3:
      labels = R"("app":"db")";
      ports = R"(,"ports":[{"containerPort":5432,"hostPort":5432}])";
      break;
    case 4:
      spec =
          R"("affinity":{"nodeAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[)"
          R"({"weight":5,"preference":{"matchExpressions":[{"key":"topology.kubernetes.io/zone",)"
          R"("operator":"In","values":["z1"]}]}}]}},)";
      break;
    case 5:
      labels = R"("app":"anti")";
      spec = R"("affinity":{"podAntiAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":[)"
             R"({"labelSelector":{"matchLabels":{"app":"anti"}},)"
             R"("topologyKey":"kubernetes.io/hostname"}]}},)";
      break;
    case 6:
      labels = R"("app":"spread")";
      spec = R"("topologySpreadConstraints":[{"maxSkew":1,"topologyKey":)"
             R"("topology.kubernetes.io/zone","whenUnsatisfiable":"DoNotSchedule",)"
             R"("labelSelector":{"matchLabels":{"app":"spread"}}}],)";
      break;
    case 7:
      cpu = "3";
      break;
    case 8:
      cpu = "9";  // fits nowhere: preemption, the failure memo
      break;
    case 9:
      labels = R"("app":"aff")";
      spec = R"("affinity":{"podAffinity":{"preferredDuringSchedulingIgnoredDuringExecution":[)"
             R"({"weight":10,"podAffinityTerm":{"labelSelector":{"matchLabels":{"app":"web"}},)"
             R"("namespaceSelector":{"matchLabels":{"team":"a"}},)"
             R"("topologyKey":"topology.kubernetes.io/zone"}}]}},)";
      break;
    case 10:
      spec = R"("preemptionPolicy":"Never",)";
      cpu = "4";
      break;
    default:
      spec = R"("nodeSelector":{"topology.kubernetes.io/zone":"z2"},)";
      cpu = "2";
      break;
  }
  const std::string node_name = node.empty() ? "" : R"("nodeName":")" + node + "\",";
  const std::string priority = t & 128 ? R"("priority":1000,)" : "";
  return R"({"kind":"Pod","apiVersion":"v1","metadata":{"name":")" + name +
         R"(","namespace":"ns","uid":"u-)" + name + R"(","labels":{)" + labels + R"(}},"spec":{)" +
         priority + node_name + spec + R"("containers":[{"name":"c","image":"app:v1",)" +
         R"("resources":{"requests":{"cpu":")" + cpu + R"(","memory":"1Gi"}})" + ports + "}]}}";
}

std::string Event(std::string_view type, const std::string& object) {
  return R"({"type":")" + std::string(type) + R"(","object":)" + object + "}";
}

// The two engines and the model of what exists, to aim operations at it.
class Harness {
 public:
  explicit Harness(uint8_t config) {
    static constexpr int kPercentages[8] = {0, 0, 0, 10, 50, 100, 1, 30};
    const int pct = kPercentages[config & 7];
    const std::string common =
        R"({"seed":7,"percentageOfNodesToScore":)" + std::to_string(pct) + ",\"parallelism\":";
    a_ = fuzz::NewEngine(common + std::to_string(1 + ((config >> 3) & 1)) + "}");
    b_ = fuzz::NewEngine(common + std::to_string(1 + ((config >> 4) & 1)) +
                         R"(,"equivalenceCache":false})");
  }
  ~Harness() {
    sched_engine_free(a_);
    sched_engine_free(b_);
  }

  void Step(Reader& in) {
    switch (in.Byte() % 14) {
      case 0: {  // add a run of new nodes in one apply
        const int k = 1 + in.Byte() % 160;
        const uint8_t attr = in.Byte(), vary = in.Byte();
        std::string doc = "[";
        for (int i = 0; i < k && live_.size() < kMaxNodes; ++i) {
          const Node n{next_node_++, static_cast<uint8_t>(attr ^ (vary & (i * 37)))};
          doc += std::string(doc.size() > 1 ? "," : "") + Event("ADDED", NodeJson(n.id, n.attr));
          live_.push_back(n);
        }
        Apply(doc + "]");
        break;
      }
      case 1: {  // relabel, taint, cordon or resize one node
        if (live_.empty()) break;
        Node& n = live_[in.Byte() % live_.size()];
        n.attr ^= static_cast<uint8_t>(1u << (in.Byte() % 8));
        Apply(Event("MODIFIED", NodeJson(n.id, n.attr)));
        break;
      }
      case 2: {  // delete a run of nodes in one apply
        if (live_.empty()) break;
        const size_t first = in.Byte() % live_.size();
        const size_t k = std::min<size_t>(1 + in.Byte() % 128, live_.size() - first);
        std::string doc = "[";
        for (size_t i = first; i < first + k; ++i) {
          doc += std::string(doc.size() > 1 ? "," : "") +
                 Event("DELETED", NodeJson(live_[i].id, live_[i].attr));
          gone_.push_back(live_[i]);
        }
        live_.erase(live_.begin() + static_cast<std::ptrdiff_t>(first),
                    live_.begin() + static_cast<std::ptrdiff_t>(first + k));
        Apply(doc + "]");
        break;
      }
      case 3: {  // re-add a deleted node (same name, maybe new attributes)
        if (gone_.empty() || live_.size() >= kMaxNodes) break;
        const size_t i = in.Byte() % gone_.size();
        Node n = gone_[i];
        n.attr ^= in.Byte();
        gone_.erase(gone_.begin() + static_cast<std::ptrdiff_t>(i));
        live_.push_back(n);
        Apply(Event("ADDED", NodeJson(n.id, n.attr)));
        break;
      }
      case 4: {  // a bound pod on a live node (or, rarely, a deleted one)
        const uint8_t t = in.Byte(), at = in.Byte();
        std::string node = "n0";
        if (!live_.empty()) node = "n" + std::to_string(live_[at % live_.size()].id);
        const std::string name = NewPod();
        Apply(Event("ADDED", PodJson(name, t, node)));
        break;
      }
      case 5: {  // delete any pod: bound, pending or assumed
        if (pods_.empty()) break;
        const size_t i = in.Byte() % pods_.size();
        Apply(Event("DELETED", PodJson(pods_[i], 0, "")));
        pods_.erase(pods_.begin() + static_cast<std::ptrdiff_t>(i));
        break;
      }
      case 6:  // a pending pod joins the queue
        Apply(Event("ADDED", PodJson(NewPod(), in.Byte(), "")));
        break;
      case 7: {  // schedule pods of one template in a row (the cache's case)
        const uint8_t t = in.Byte(), flags = in.Byte();
        const int repeat = 1 + (flags >> 3) % 4;
        for (int i = 0; i < repeat; ++i) Schedule(t, flags & 7);
        break;
      }
      case 8: {  // run the queue
        const uint32_t cycles = in.Byte() % 6;
        const uint32_t flags = in.Byte() & (SCHED_SCHEDULE_NODE_STATUSES | SCHED_SCHEDULE_SCORES);
        Compare("run", Run(a_, cycles, flags), Run(b_, cycles, flags));
        break;
      }
      case 9: {  // advance the clock (up to ~6 minutes: backoff and the 5-minute flush)
        const uint64_t ms = uint64_t{in.Byte()} * 1500;
        Compare("advance_clock", AdvanceClock(a_, ms), AdvanceClock(b_, ms));
        break;
      }
      case 10: {  // the namespace the pods live in: labels change or it goes
        const uint8_t b = in.Byte();
        const std::string ns = std::string(R"({"kind":"Namespace","apiVersion":"v1","metadata":)") +
                               R"({"name":"ns","labels":{"team":")" + (b & 1 ? "a" : "b") + "\"}}}";
        Apply(Event(b & 2 ? "DELETED" : "ADDED", ns));
        break;
      }
      case 11: {  // a PDB over the web pods (what preemption reads)
        const uint8_t b = in.Byte();
        Apply(Event(b & 2 ? "DELETED" : "ADDED",
                    std::string(R"({"apiVersion":"policy/v1","kind":"PodDisruptionBudget",)") +
                        R"("metadata":{"name":"pdb","namespace":"ns"},"spec":{"selector":)" +
                        R"({"matchLabels":{"app":"web"}}},"status":{"disruptionsAllowed":)" +
                        std::to_string(b & 1) + "}}"));
        break;
      }
      case 13: {  // score a pod on a run of nodes, deleted ones' names too
        const uint8_t t = in.Byte(), first = in.Byte(), k = in.Byte();
        std::vector<int> ids;
        for (const Node& n : live_) ids.push_back(n.id);
        if (k & 128)
          for (const Node& n : gone_) ids.push_back(n.id);
        std::string nodes;
        for (size_t i = 0; i < (k & 127) % 64 && !ids.empty(); ++i) {
          const int id = ids[(first + i) % ids.size()];
          nodes += (nodes.empty() ? "\"n" : ",\"n") + std::to_string(id) + "\"";
        }
        const std::string request =
            R"({"pod":)" + PodJson("scored", t, "") + R"(,"nodes":[)" + nodes + "]}";
        Compare("score", Score(a_, request), Score(b_, request));
        break;
      }
      default: {  // one schedule with any flags
        const uint8_t t = in.Byte();
        Schedule(t, in.Byte() & 7);
        break;
      }
    }
  }

 private:
  struct Node {
    int id;
    uint8_t attr;
  };

  std::string NewPod() {
    pods_.push_back("p" + std::to_string(next_pod_++));
    return pods_.back();
  }

  void Apply(const std::string& doc) {
    std::string sa, sb;
    const sched_status a = fuzz::Apply(a_, doc, &sa), b = fuzz::Apply(b_, doc, &sb);
    Compare("apply", std::string(sched_status_name(a)) + sa,
            std::string(sched_status_name(b)) + sb);
  }

  void Schedule(uint8_t t, uint32_t flags) {
    const std::string name = NewPod();  // deletable later if assumed
    const std::string pod = PodJson(name, t, "");
    sched_status sa, sb;
    const std::string ra = fuzz::Schedule(a_, pod, flags, &sa);
    const std::string rb = fuzz::Schedule(b_, pod, flags, &sb);
    Compare("schedule", std::string(sched_status_name(sa)) + ra,
            std::string(sched_status_name(sb)) + rb);
  }

  // The text a call wrote to its output, or its status's name when it
  // failed (the output then untouched); `call` gets (&out, &err).
  template <typename Call>
  static std::string Answer(const char* what, Call call) {
    char* out = fuzz::Untouched();
    sched_error* err = nullptr;
    const sched_status st = call(&out, &err);
    fuzz::CheckStatus(what, st, err);
    if (st != SCHED_OK) {
      FUZZ_CHECK(out == fuzz::Untouched(), "%s failed but wrote its output", what);
      return sched_status_name(st);
    }
    cJSON_Delete(fuzz::ParseOutput(what, out));
    std::string s(out);
    sched_free(out);
    return s;
  }

  static std::string Run(sched_engine* e, uint32_t cycles, uint32_t flags) {
    return Answer("sched_engine_run", [&](char** out, sched_error** err) {
      return sched_engine_run(e, cycles, flags, out, err);
    });
  }

  // The answer of sched_engine_score, or its status when it fails. Asked
  // twice: the second answer must be the same and leave the digest as the
  // first left it (the first may intern the pod's new strings, which the
  // digest counts; nothing else may move: not the random source, not the
  // start index, not the queue).
  static std::string Score(sched_engine* e, const std::string& request) {
    const std::string first = ScoreOnce(e, request);
    const uint64_t before = e->rep->StateDigest();
    FUZZ_CHECK(ScoreOnce(e, request) == first, "sched_engine_score answered twice differently");
    FUZZ_CHECK(e->rep->StateDigest() == before, "sched_engine_score changed the engine's state");
    return first;
  }

  static std::string ScoreOnce(sched_engine* e, const std::string& request) {
    return Answer("sched_engine_score", [&](char** out, sched_error** err) {
      return sched_engine_score(e, request.data(), request.size(), out, err);
    });
  }

  static std::string AdvanceClock(sched_engine* e, uint64_t ms) {
    sched_error* err = nullptr;
    const sched_status st = sched_engine_advance_clock(e, ms, &err);
    fuzz::CheckStatus("sched_engine_advance_clock", st, err);
    return sched_status_name(st);
  }

  void Compare(const char* what, const std::string& a, const std::string& b) {
    FUZZ_CHECK(a == b, "%s: cache on and off differ\non:  %s\noff: %s", what, a.c_str(), b.c_str());
    const uint64_t da = a_->rep->StateDigest(), db = b_->rep->StateDigest();
    FUZZ_CHECK(da == db, "%s: state digests differ (%016llx vs %016llx)", what,
               static_cast<unsigned long long>(da), static_cast<unsigned long long>(db));
  }

  sched_engine* a_;  // equivalence cache on
  sched_engine* b_;  // off
  std::vector<Node> live_, gone_;
  std::vector<std::string> pods_;
  int next_node_ = 0;
  int next_pod_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Reader in(data, size);
  Harness h(in.Byte());
  for (size_t op = 0; op < kMaxOps && !in.empty(); ++op) h.Step(in);
  return 0;
}
