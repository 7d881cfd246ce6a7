// scale_up: "these pending pods: how many nodes of type X?" at a large
// cluster (bench/RESULTS.md, "Scale-up"). Builds --nodes nodes (16 CPUs,
// 64 GiB, three zones), each nearly full with one bound pod (200m free:
// the pods are pending because they fit no existing node), then asks
// sched_engine_scale_up for --pods pending pods (four Deployments of
// 2 CPU, 1 CPU, 500m and 250m, equal shares) and one template of the same
// shape. Prints the call's wall time and the
// answer. With --slow it also times the slow path the answer is checked
// against: a twin engine given that many template nodes scheduling the
// same pods one by one (sched_engine_run), and prints the ratio. A client
// of the C API only.
#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "sched/sched.h"

namespace {

std::string Node(const std::string& name, const std::string& zone) {
  return R"({"kind":"Node","metadata":{"name":")" + name +
         R"(","labels":{"kubernetes.io/hostname":")" + name +
         R"(","topology.kubernetes.io/zone":")" + zone +
         R"("}},"status":{"allocatable":{"cpu":"16","memory":"64Gi","pods":"110"}}})";
}

std::string Pod(const std::string& name, const std::string& app, const std::string& cpu,
                const std::string& memory, const std::string& node) {
  return R"({"kind":"Pod","metadata":{"name":")" + name +
         R"(","namespace":"bench","labels":{"app":")" + app +
         R"("},"ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":")" + app +
         R"(","uid":"uid-)" + app + R"(","controller":true}]},"spec":{)" +
         (node.empty() ? "" : R"("nodeName":")" + node + "\",") +
         R"("containers":[{"name":"main","resources":{"requests":{"cpu":")" + cpu +
         R"(","memory":")" + memory + R"("}}}]}})";
}

sched_engine* Cluster(int nodes, int extra_template_nodes) {
  sched_engine* e = nullptr;
  const char config[] = R"({"seed":1})";
  if (sched_engine_new(config, sizeof config - 1, &e, nullptr) != SCHED_OK) std::abort();
  std::string events = "[";
  for (int i = 0; i < nodes; ++i) {
    const std::string n = "node-" + std::to_string(i);
    events += (i ? "," : "") + std::string(R"({"type":"ADDED","object":)") +
              Node(n, "zone-" + std::to_string(i % 3)) + "}";
    events += R"(,{"type":"ADDED","object":)" +
              Pod("bound-" + std::to_string(i), "bound", "15800m", "48Gi", n) + "}";
  }
  for (int i = 0; i < extra_template_nodes; ++i) {
    events += R"(,{"type":"ADDED","object":)" +
              Node("x-scaleup-" + std::to_string(i), "zone-" + std::to_string(i % 3)) + "}";
  }
  events += "]";
  sched_error* err = nullptr;
  if (sched_engine_apply(e, events.data(), events.size(), nullptr, &err) != SCHED_OK) {
    std::fprintf(stderr, "apply: %s\n", sched_error_message(err));
    std::exit(1);
  }
  return e;
}

struct Kind {
  const char* app;
  const char* cpu;
  const char* memory;
};
constexpr Kind kKinds[] = {
    {"a", "2", "4Gi"}, {"b", "1", "2Gi"}, {"c", "500m", "1Gi"}, {"d", "250m", "512Mi"}};

std::string PendingPod(int i) {
  const Kind& k = kKinds[i % 4];
  return Pod(std::string(k.app) + "-" + std::to_string(i), k.app, k.cpu, k.memory, "");
}

double Seconds(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

// This process's CPU time: wall time on a loaded machine says little.
double CpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

int Int(const char* s) {
  char* end = nullptr;
  const long v = std::strtol(s, &end, 10);
  if (*end != '\0' || v < 0 || v > 1000000) {
    std::fprintf(stderr, "not a count: %s\n", s);
    std::exit(2);
  }
  return static_cast<int>(v);
}

}  // namespace

int main(int argc, char** argv) {
  int nodes = 5000, pods = 10000;
  bool slow = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--nodes") && i + 1 < argc) {
      nodes = Int(argv[++i]);
    } else if (!std::strcmp(argv[i], "--pods") && i + 1 < argc) {
      pods = Int(argv[++i]);
    } else if (!std::strcmp(argv[i], "--slow")) {
      slow = true;
    } else {
      std::fprintf(stderr, "usage: scale_up [--nodes N] [--pods N] [--slow]\n");
      return 2;
    }
  }
  sched_engine* e = Cluster(nodes, 0);
  std::string request = R"({"pods":[)";
  for (int i = 0; i < pods; ++i) request += (i ? "," : "") + PendingPod(i);
  request += R"(],"nodeTemplates":[{"maxNodes":10000,"node":)" + Node("x", "zone-0") + "}]}";
  char* out = nullptr;
  sched_error* err = nullptr;
  const auto t0 = std::chrono::steady_clock::now();
  const double c0 = CpuSeconds();
  const sched_status st = sched_engine_scale_up(e, request.data(), request.size(), &out, &err);
  const double fast = Seconds(std::chrono::steady_clock::now() - t0);
  const double fast_cpu = CpuSeconds() - c0;
  if (st != SCHED_OK) {
    std::fprintf(stderr, "scale_up: %s at %s\n", sched_error_message(err), sched_error_path(err));
    return 1;
  }
  const std::string answer = out;
  sched_free(out);
  const size_t at = answer.find("\"nodes\":");
  const int estimate = at == std::string::npos ? -1 : std::atoi(answer.c_str() + at + 8);
  // "existing" comes first: its pods are the "pod" keys before "templates".
  int existing = 0;
  const size_t templates_at = answer.find("\"templates\":");
  for (size_t p = answer.find("\"pod\":"); p < templates_at; p = answer.find("\"pod\":", p + 1)) {
    ++existing;
  }
  std::printf(
      "nodes=%d pods=%d estimate=%d on_existing_nodes=%d scale_up_seconds=%.3f cpu_seconds=%.3f\n",
      nodes, pods, estimate, existing, fast, fast_cpu);
  sched_engine_free(e);
  if (!slow) return 0;
  // The slow path: the pods pending on a twin with `estimate` more nodes.
  sched_engine* twin = Cluster(nodes, estimate);
  std::string pending = "[";
  for (int i = 0; i < pods; ++i)
    pending += (i ? "," : "") + std::string(R"({"type":"ADDED","object":)") + PendingPod(i) + "}";
  pending += "]";
  const auto t1 = std::chrono::steady_clock::now();
  const double c1 = CpuSeconds();
  if (sched_engine_apply(twin, pending.data(), pending.size(), nullptr, nullptr) != SCHED_OK ||
      sched_engine_run(twin, 0, 0, &out, nullptr) != SCHED_OK) {
    return 1;
  }
  const double one_by_one = Seconds(std::chrono::steady_clock::now() - t1);
  const double one_by_one_cpu = CpuSeconds() - c1;
  const std::string run = out;
  sched_free(out);
  int unplaced = 0;
  for (size_t p = run.find("\"node\":null"); p != std::string::npos;
       p = run.find("\"node\":null", p + 1)) {
    ++unplaced;
  }
  std::printf("slow_path_seconds=%.3f cpu_seconds=%.3f unplaced=%d ratio=%.1fx cpu_ratio=%.1fx\n",
              one_by_one, one_by_one_cpu, unplaced, one_by_one / fast, one_by_one_cpu / fast_cpu);
  sched_engine_free(twin);
  return 0;
}
