// apply_rss: the memory one large sched_engine_apply costs. Applies a List
// of --nodes Nodes, then one List of --pods bound pods (about 1 KiB of JSON
// each, as the API server writes them), and prints the process's peak RSS,
// its RSS and heap in use before and after the pod apply, and the CPU time
// of the apply and of the schedule call after it. A client of the C API only, so the same binary
// measures another build of libsched.so through LD_LIBRARY_PATH
// (bench/RESULTS.md, "Apply memory").
//
// With --shrink-to K it measures a cluster that scales down instead: the
// heap in use of an engine that held --nodes nodes and then saw all but
// the first K deleted (with their pods, as DELETED watch events, --chunk
// events a call), against a fresh engine given only what is left; both
// schedule pods of --classes equivalence classes (default 1) before and
// after. A user expects the memory of deleted nodes to come back
// (bench/RESULTS.md, "A cluster that scales down").
#include <malloc.h>
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "sched/sched.h"

namespace {

long RssKiB() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  }
  return -1;
}

long PeakRssKiB() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

std::string Node(int i) {
  const std::string n = std::to_string(i);
  return R"({"metadata":{"name":"node-)" + n + R"(","labels":{"kubernetes.io/hostname":"node-)" +
         n + R"(","topology.kubernetes.io/zone":"zone-)" + std::to_string(i % 3) +
         R"("}},"status":{"allocatable":{"cpu":"64","memory":"256Gi","pods":"110"}}})";
}

std::string Pod(int i, int nodes) {
  const std::string n = std::to_string(i);
  return R"({"metadata":{"name":"pod-)" + n + R"(","namespace":"ns-)" + std::to_string(i % 50) +
         R"(","uid":"0b6a1e52-7c2f-4d8a-9f0e-)" + std::to_string(100000000000 + i) +
         R"(","labels":{"app":"app-)" + std::to_string(i % 500) +
         R"(","pod-template-hash":"7d9f8c6b5d","tier":"backend"},)"
         R"("annotations":{"kubernetes.io/config.seen":"2026-01-01T00:00:00Z"},)"
         R"("ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"app-)" +
         std::to_string(i % 500) + R"(-7d9f8c6b5d","uid":"5c1d7e2a-0000-4000-8000-000000000001",)"
         R"("controller":true}]},"spec":{"nodeName":"node-)" + std::to_string(i % nodes) +
         R"(","schedulerName":"default-scheduler","priority":0,"containers":[{"name":"main",)"
         R"("image":"registry.example.com/team/app:v1.2.3","ports":[{"containerPort":8080,)"
         R"("protocol":"TCP"}],"resources":{"requests":{"cpu":"100m","memory":"128Mi"},)"
         R"("limits":{"cpu":"500m","memory":"512Mi"}}},{"name":"sidecar","image":)"
         R"("registry.example.com/infra/proxy:v0.9","resources":{"requests":{"cpu":"10m",)"
         R"("memory":"32Mi"}}}],"tolerations":[{"key":"node.kubernetes.io/not-ready",)"
         R"("operator":"Exists","effect":"NoExecute","tolerationSeconds":300},)"
         R"({"key":"node.kubernetes.io/unreachable","operator":"Exists","effect":"NoExecute",)"
         R"("tolerationSeconds":300}]},"status":{"phase":"Running","qosClass":"Burstable"}})";
}

// Bytes the allocator has handed out and not had back: the engine's state,
// without the freed memory glibc keeps in the process.
double HeapInUseMiB() {
  const struct mallinfo2 m = mallinfo2();
  return static_cast<double>(m.uordblks + m.hblkhd) / 1048576.0;
}

// CPU seconds (user + system) the process has used.
double CpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto s = [](const timeval& t) { return t.tv_sec + t.tv_usec / 1e6; };
  return s(u.ru_utime) + s(u.ru_stime);
}

// `err` by reference: the call that sets it is an argument of the same
// Check call, and arguments are evaluated in no fixed order.
void Check(sched_status st, sched_error* const& err, const char* what) {
  if (st == SCHED_OK) return;
  std::fprintf(stderr, "%s: status %d: %s\n", what, static_cast<int>(st), sched_error_message(err));
  std::exit(1);
}

// The pod scheduled after an apply (not assumed: the state is unchanged).
constexpr char kProbe[] = R"({"metadata":{"name":"new","namespace":"ns-0"},)"
                          R"("spec":{"containers":[{"name":"c","resources":{"requests":)"
                          R"({"cpu":"1"}}}]}})";

// The pods bound to nodes below `keep` (pod i is bound to node i % nodes).
std::string PodList(int pods, int nodes, int keep) {
  std::string doc = R"({"kind":"PodList","apiVersion":"v1","items":[)";
  bool first = true;
  for (int i = 0; i < pods; ++i) {
    if (i % nodes >= keep) continue;
    doc += (first ? "" : ",") + Pod(i, nodes);
    first = false;
  }
  return doc + "]}";
}

std::string NodeList(int nodes) {
  std::string doc = R"({"kind":"NodeList","apiVersion":"v1","items":[)";
  for (int i = 0; i < nodes; ++i) doc += (i ? "," : "") + Node(i);
  return doc + "]}";
}

// A DELETED event for `object` (a List item, without its kind), as a
// watch delivers it.
std::string Deleted(const char* kind, const std::string& object) {
  return R"({"type":"DELETED","object":{"apiVersion":"v1","kind":")" + std::string(kind) +
         "\"," + object.substr(1) + "}";
}

void Apply(sched_engine* e, const std::string& doc, const char* what) {
  sched_error* err = nullptr;
  Check(sched_engine_apply(e, doc.data(), doc.size(), nullptr, &err), err, what);
}

// Schedules `pod` without assuming it; returns the node chosen (or "").
std::string Schedule(sched_engine* e, const std::string& pod) {
  char* result = nullptr;
  sched_error* err = nullptr;
  Check(sched_engine_schedule(e, pod.data(), pod.size(), 0, &result, &err), err, "schedule");
  std::string out = result;
  sched_free(result);
  const std::string key = "\"node\":\"";
  const size_t at = out.find(key);
  if (at == std::string::npos) return "";
  const size_t begin = at + key.size();
  return out.substr(begin, out.find('"', begin) - begin);
}

// `classes` pods of distinct CPU requests (so distinct equivalence
// classes), scheduled without assuming; returns the first one's node.
std::string ScheduleClasses(sched_engine* e, int classes) {
  std::string first;
  for (int c = 0; c < classes; ++c) {
    const std::string pod = R"({"metadata":{"name":"probe","namespace":"ns-0"},)"
                            R"("spec":{"containers":[{"name":"c","resources":{"requests":)"
                            R"({"cpu":")" + std::to_string(1000 + c) + R"(m"}}}]}})";
    const std::string node = Schedule(e, pod);
    if (c == 0) first = node;
  }
  return first;
}

// Heap in use by a fresh engine holding `keep` nodes and their pods, and by
// one that held `nodes` and their pods and then saw all but `keep` nodes
// deleted with their pods, `chunk` events per apply call. Both schedule
// pods of `classes` classes before and after, so their caches hold what a
// working scheduler's do.
int ShrinkRun(int nodes, int pods, int keep, int chunk, int classes) {
  const double heap0 = HeapInUseMiB();
  sched_engine* fresh = nullptr;
  sched_error* err = nullptr;
  Check(sched_engine_new("{}", 2, &fresh, &err), err, "sched_engine_new");
  Apply(fresh, NodeList(keep), "apply nodes (fresh)");
  Apply(fresh, PodList(pods, nodes, keep), "apply pods (fresh)");
  const std::string fresh_node = ScheduleClasses(fresh, classes);
  const double fresh_heap = HeapInUseMiB() - heap0;
  sched_engine_free(fresh);

  const double heap1 = HeapInUseMiB();
  sched_engine* e = nullptr;
  Check(sched_engine_new("{}", 2, &e, &err), err, "sched_engine_new");
  Apply(e, NodeList(nodes), "apply nodes");
  Apply(e, PodList(pods, nodes, nodes), "apply pods");
  ScheduleClasses(e, classes);
  const double grown_heap = HeapInUseMiB() - heap1;
  const double start = CpuSeconds();
  std::string events = "[";
  int in_call = 0;
  auto add = [&](const char* kind, const std::string& object) {
    events += (in_call ? "," : "") + Deleted(kind, object);
    if (++in_call == chunk) {
      Apply(e, events + "]", "apply deletions");
      events = "[";
      in_call = 0;
    }
  };
  for (int n = nodes - 1; n >= keep; --n) {
    for (int i = n; i < pods; i += nodes) add("Pod", Pod(i, nodes));
    add("Node", Node(n));
  }
  if (in_call > 0) Apply(e, events + "]", "apply deletions");
  const double delete_s = CpuSeconds() - start;
  const std::string shrunk_node = ScheduleClasses(e, classes);
  const double shrunk_heap = HeapInUseMiB() - heap1;
  sched_engine_free(e);

  std::printf("cluster: %d nodes, %d pods; shrunk to %d nodes (%d events a call); %d pod "
              "classes scheduled\n", nodes, pods, keep, chunk, classes);
  std::printf("heap in use, fresh engine at %d nodes:   %.1f MiB\n", keep, fresh_heap);
  std::printf("heap in use, engine at %d nodes:         %.1f MiB\n", nodes, grown_heap);
  std::printf("heap in use, the same after the shrink:  %.1f MiB (%.2fx the fresh engine's)\n",
              shrunk_heap, shrunk_heap / fresh_heap);
  std::printf("peak RSS: %.0f MiB; CPU of the deletions: %.2f s\n", PeakRssKiB() / 1024.0,
              delete_s);
  std::printf("probe placed on: %s (fresh), %s (shrunk)\n", fresh_node.c_str(),
              shrunk_node.c_str());
  return fresh_node.empty() || shrunk_node.empty() ? 1 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  int nodes = 5000, pods = 200000, shrink_to = -1, chunk = 1000, classes = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--nodes") == 0) nodes = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--pods") == 0) pods = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--shrink-to") == 0) shrink_to = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--chunk") == 0) chunk = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--classes") == 0) classes = std::atoi(argv[i + 1]);
  }
  if (shrink_to >= 0) {
    if (shrink_to < 1 || shrink_to > nodes || chunk < 1 || classes < 1) {
      std::fprintf(stderr,
                   "--shrink-to must be in [1, --nodes], --chunk and --classes at least 1\n");
      return 2;
    }
    return ShrinkRun(nodes, pods, shrink_to, chunk, classes);
  }
  sched_engine* e = nullptr;
  sched_error* err = nullptr;
  Check(sched_engine_new("{}", 2, &e, &err), err, "sched_engine_new");

  Apply(e, NodeList(nodes), "apply nodes");

  std::string doc = PodList(pods, nodes, nodes);
  const long before = RssKiB();
  const double heap_before = HeapInUseMiB();
  const double start = CpuSeconds();
  Check(sched_engine_apply(e, doc.data(), doc.size(), nullptr, &err), err, "apply pods");
  const double apply_s = CpuSeconds() - start;
  const long peak = PeakRssKiB(), after = RssKiB();
  const double heap_after = HeapInUseMiB();

  const double next = CpuSeconds();
  Schedule(e, kProbe);
  const double next_s = CpuSeconds() - next;

  std::printf("document: %d pods, %.1f MiB\n", pods, doc.size() / 1048576.0);
  std::printf("RSS before the apply: %.0f MiB (the document included)\n", before / 1024.0);
  std::printf("RSS after the apply:  %.0f MiB (+%.0f MiB)\n", after / 1024.0,
              (after - before) / 1024.0);
  std::printf("peak RSS:             %.0f MiB (+%.0f MiB over before)\n", peak / 1024.0,
              (peak - before) / 1024.0);
  std::printf("heap in use: +%.0f MiB after the apply (the engine's state)\n",
              heap_after - heap_before);
  std::printf("CPU: apply %.2f s, next schedule %.3f s\n", apply_s, next_s);
  sched_engine_free(e);
  return 0;
}
