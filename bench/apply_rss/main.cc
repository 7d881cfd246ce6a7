// apply_rss: the memory one large sched_engine_apply costs. Applies a List
// of --nodes Nodes, then one List of --pods bound pods (about 1 KiB of JSON
// each, as the API server writes them), and prints the process's peak RSS,
// its RSS and heap in use before and after the pod apply, and the CPU time
// of the apply and of the schedule call after it. A client of the C API only, so the same binary
// measures another build of libsched.so through LD_LIBRARY_PATH
// (bench/RESULTS.md, "Apply memory").
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

void Check(sched_status st, sched_error* err, const char* what) {
  if (st == SCHED_OK) return;
  std::fprintf(stderr, "%s: %s\n", what, sched_error_message(err));
  std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
  int nodes = 5000, pods = 200000;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--nodes") == 0) nodes = std::atoi(argv[i + 1]);
    if (std::strcmp(argv[i], "--pods") == 0) pods = std::atoi(argv[i + 1]);
  }
  sched_engine* e = nullptr;
  sched_error* err = nullptr;
  Check(sched_engine_new("{}", 2, &e, &err), err, "sched_engine_new");

  std::string doc = R"({"kind":"NodeList","apiVersion":"v1","items":[)";
  for (int i = 0; i < nodes; ++i) doc += (i ? "," : "") + Node(i);
  doc += "]}";
  Check(sched_engine_apply(e, doc.data(), doc.size(), nullptr, &err), err, "apply nodes");

  doc = R"({"kind":"PodList","apiVersion":"v1","items":[)";
  for (int i = 0; i < pods; ++i) doc += (i ? "," : "") + Pod(i, nodes);
  doc += "]}";
  const long before = RssKiB();
  const double heap_before = HeapInUseMiB();
  const double start = CpuSeconds();
  Check(sched_engine_apply(e, doc.data(), doc.size(), nullptr, &err), err, "apply pods");
  const double apply_s = CpuSeconds() - start;
  const long peak = PeakRssKiB(), after = RssKiB();
  const double heap_after = HeapInUseMiB();

  const std::string pod = R"({"metadata":{"name":"new","namespace":"ns-0"},)"
                          R"("spec":{"containers":[{"name":"c","resources":{"requests":)"
                          R"({"cpu":"1"}}}]}})";
  char* result = nullptr;
  const double next = CpuSeconds();
  Check(sched_engine_schedule(e, pod.data(), pod.size(), 0, &result, &err), err, "schedule");
  const double next_s = CpuSeconds() - next;
  sched_free(result);

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
