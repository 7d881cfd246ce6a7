// soak: memory under churn, through the C API (bench/README.md, issue 13).
//
//   soak [--pods N] [--nodes K] [--window W] [--node-every M]
//        [--report-every R] [--config JSON] [--max-rss-mib X]
//
// A cluster of K nodes; N pods, each with label values no other pod has
// (a StatefulSet's pod-name and pod-index, a Job's controller-uid) and its
// own uid, are scheduled with SCHED_SCHEDULE_ASSUME and deleted (DELETED
// event) W pods later, so W are on the nodes at any time. Every M pods the
// oldest node is deleted and a node with a new name and labels added (the
// pods on it are deleted in their turn). Every R pods it prints a line: pods so far,
// pods/s over the interval (wall), VmRSS (/proc/self/status) in MiB, and
// the interner's strings and bytes from sched_engine_stats ("-" when the
// library does not report them). With --max-rss-mib it exits 3 when the
// last VmRSS exceeds X (the CI smoke run uses a tiny N).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <string>

#include "sched/sched.h"

namespace {

struct Options {
  long pods = 1000000;
  long nodes = 100;
  long window = 1000;
  long node_every = 100;
  long report_every = 0;  // 0: pods / 10
  std::string config = "{}";
  double max_rss_mib = 0;  // 0: no limit
};

double RssMiB() {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("VmRSS:", 0) == 0) return std::strtod(line.c_str() + 6, nullptr) / 1024;
  }
  return -1;
}

// "strings bytes" of the interner, or "- -".
std::string InternerSize(sched_engine* engine) {
  char* out = nullptr;
  std::string size = "- -";
  if (sched_engine_stats(engine, &out, nullptr) != SCHED_OK) return size;
  const char* key = "\"interner\":{\"strings\":";
  if (const char* p = std::strstr(out, key)) {
    char* end;
    const long strings = std::strtol(p + std::strlen(key), &end, 10);
    const char* b = std::strstr(end, "\"bytes\":");
    if (b != nullptr) {
      size = std::to_string(strings) + " " + std::to_string(std::strtol(b + 8, nullptr, 10));
    }
  }
  sched_free(out);
  return size;
}

[[noreturn]] void Fail(const char* what, sched_error* err) {
  std::fprintf(stderr, "soak: %s: %s\n", what, err ? sched_error_message(err) : "?");
  std::exit(1);
}

void Apply(sched_engine* engine, const std::string& doc) {
  sched_error* err = nullptr;
  if (sched_engine_apply(engine, doc.data(), doc.size(), nullptr, &err) != SCHED_OK) {
    Fail("apply", err);
  }
}

std::string NodeJson(long i) {
  const std::string n = std::to_string(i);
  return "{\"kind\":\"Node\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"node-" + n +
         "\",\"labels\":{\"kubernetes.io/hostname\":\"node-" + n +
         "\",\"topology.kubernetes.io/zone\":\"zone-" + std::to_string(i % 3) +
         "\",\"node.kubernetes.io/instance-id\":\"i-" + n +
         "\"}},\"status\":{\"allocatable\":{\"cpu\":\"64\",\"memory\":\"256Gi\","
         "\"pods\":\"110000\"}}}";
}

std::string PodJson(long i) {
  const std::string n = std::to_string(i);
  return "{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"web-" + n +
         "\",\"namespace\":\"soak\",\"uid\":\"uid-" + n +
         "\",\"labels\":{\"app\":\"web\",\"statefulset.kubernetes.io/pod-name\":\"web-" + n +
         "\",\"apps.kubernetes.io/pod-index\":\"" + n + "\",\"controller-uid\":\"cu-" + n +
         "\"}},\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"registry/web:1\","
         "\"resources\":{\"requests\":{\"cpu\":\"1m\",\"memory\":\"1Mi\"}}}]}}";
}

std::string Deleted(const std::string& object) {
  return "{\"type\":\"DELETED\",\"object\":" + object + "}";
}

int Usage() {
  std::fprintf(stderr,
               "usage: soak [--pods N] [--nodes K] [--window W] [--node-every M] "
               "[--report-every R] [--config JSON] [--max-rss-mib X]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) return Usage();
    const char* v = argv[++i];
    if (a == "--pods") {
      o.pods = std::atol(v);
    } else if (a == "--nodes") {
      o.nodes = std::atol(v);
    } else if (a == "--window") {
      o.window = std::atol(v);
    } else if (a == "--node-every") {
      o.node_every = std::atol(v);
    } else if (a == "--report-every") {
      o.report_every = std::atol(v);
    } else if (a == "--config") {
      o.config = v;
    } else if (a == "--max-rss-mib") {
      o.max_rss_mib = std::atof(v);
    } else {
      return Usage();
    }
  }
  if (o.pods <= 0 || o.nodes <= 0 || o.window <= 0 || o.node_every <= 0) return Usage();
  if (o.report_every <= 0) o.report_every = o.pods >= 10 ? o.pods / 10 : 1;

  sched_engine* engine = nullptr;
  sched_error* err = nullptr;
  if (sched_engine_new(o.config.data(), o.config.size(), &engine, &err) != SCHED_OK) {
    Fail("config", err);
  }
  std::deque<long> nodes;
  long next_node = 0;
  for (; next_node < o.nodes; ++next_node) {
    Apply(engine, NodeJson(next_node));
    nodes.push_back(next_node);
  }
  std::printf("%12s %10s %10s %16s %16s\n", "pods", "pods/s", "rss_mib", "interner_strings",
              "interner_bytes");
  std::deque<long> live;
  auto start = std::chrono::steady_clock::now();
  double rss = RssMiB();
  for (long i = 0; i < o.pods; ++i) {
    const std::string pod = PodJson(i);
    char* out = nullptr;
    if (sched_engine_schedule(engine, pod.data(), pod.size(), SCHED_SCHEDULE_ASSUME, &out, &err) !=
        SCHED_OK) {
      Fail("schedule", err);
    }
    if (std::strstr(out, "\"node\":null") != nullptr) Fail("schedule: unplaced", nullptr);
    sched_free(out);
    live.push_back(i);
    if (static_cast<long>(live.size()) > o.window) {
      Apply(engine, Deleted(PodJson(live.front())));
      live.pop_front();
    }
    if ((i + 1) % o.node_every == 0) {
      Apply(engine, Deleted(NodeJson(nodes.front())));
      nodes.pop_front();
      Apply(engine, NodeJson(next_node));
      nodes.push_back(next_node++);
    }
    if ((i + 1) % o.report_every == 0) {
      const auto now = std::chrono::steady_clock::now();
      const double secs = std::chrono::duration<double>(now - start).count();
      rss = RssMiB();
      std::printf("%12ld %10.0f %10.1f %33s\n", i + 1, o.report_every / secs, rss,
                  InternerSize(engine).c_str());
      std::fflush(stdout);
      start = std::chrono::steady_clock::now();
    }
  }
  sched_engine_free(engine);
  if (o.max_rss_mib > 0 && rss > o.max_rss_mib) {
    std::fprintf(stderr, "soak: VmRSS %.1f MiB > %.1f MiB\n", rss, o.max_rss_mib);
    return 3;
  }
  return 0;
}
