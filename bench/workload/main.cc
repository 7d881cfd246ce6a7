// workload: runs scheduler_perf workloads against libsched through its C
// API and reports throughput, latency and placements (bench/README.md).
//
//   workload [--corpus DIR] [--workloads A,B] [--nodes 500,5000]
//            [--placements FILE] [--table] [--require-all]
//            [--churn-interval-ms MS] [--entry NAME] [--config JSON]
//
// One JSON line per workload and size on stdout (report.h), then with
// --table a human table on stderr. --placements appends "pod node" lines
// (measured and init pods bound at the end) for bench/compare.sh.
// --require-all exits 3 when a measured pod was left unplaced (every
// measured pod of these workloads fits; the CI smoke run uses it).
// --churn-interval-ms replaces the churn ops' intervalMilliseconds (0: a
// churn tick before every scheduling cycle), so a short run still meets
// many creations and deletions (the CI churn smoke run). With 0, a
// workload whose churn pods outrank its measured pods and never fit
// (Unschedulable) never ends: every cycle tries a new churn pod.
// --entry takes upstream's workload entry of that name (e.g.
// 5000Nodes_10000Pods: ten times the measured pods of 5000Nodes, a
// steadier figure) instead of the one picked by size (plan.h);
// "performance" takes each workload's thresholded performance entry.
// --config is the engine's configuration (sched_engine_new, docs/api.md;
// default "{}"), e.g. '{"equivalenceCache":false}'.
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "plan.h"
#include "report.h"
#include "run.h"

namespace {

std::vector<std::string> Split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');) {
    if (!item.empty()) out.push_back(item);
  }
  return out;
}

double PeakRssMiB() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_maxrss) / 1024;  // ru_maxrss is in KiB on Linux
}

int Usage() {
  std::fprintf(stderr,
               "usage: workload [--corpus DIR] [--workloads A,B] [--nodes 500,5000] "
               "[--placements FILE] [--table] [--require-all] [--churn-interval-ms MS] [--entry NAME] "
               "[--config JSON]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  std::string corpus = BENCH_CORPUS_DIR;
  std::vector<std::string> workloads = bench::KnownWorkloads();
  std::vector<std::string> sizes = {"500"};
  std::string placements;
  bool table = false;
  bool require_all = false;
  bool all_placed = true;
  int churn_interval_ms = -1;
  std::string entry;
  std::string config = "{}";
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    bool has_value = i + 1 < argc;
    if (arg == "--table") {
      table = true;
    } else if (arg == "--require-all") {
      require_all = true;
    } else if (arg == "--corpus" && has_value) {
      corpus = argv[++i];
    } else if (arg == "--workloads" && has_value) {
      workloads = Split(argv[++i]);
    } else if (arg == "--nodes" && has_value) {
      sizes = Split(argv[++i]);
    } else if (arg == "--placements" && has_value) {
      placements = argv[++i];
    } else if (arg == "--entry" && has_value) {
      entry = argv[++i];
    } else if (arg == "--config" && has_value) {
      config = argv[++i];
    } else if (arg == "--churn-interval-ms" && has_value) {
      churn_interval_ms = std::atoi(argv[++i]);
      if (churn_interval_ms < 0) return Usage();
    } else {
      return Usage();
    }
  }
  std::vector<std::string> lines;
  try {
    for (const std::string& size : sizes) {
      int nodes = std::atoi(size.c_str());
      if (nodes <= 0) return Usage();
      for (const std::string& w : workloads) {
        bench::Plan plan = bench::LoadPlan(corpus, w, nodes, entry);
        if (plan.churn && churn_interval_ms >= 0) plan.churn->interval_ms = churn_interval_ms;
        bench::Outcome out = bench::RunPlan(plan, config);
        all_placed = all_placed && out.unscheduled == 0;
        lines.push_back(bench::ReportJson("libsched-capi", plan, out, PeakRssMiB()));
        std::cout << lines.back() << std::endl;
        if (!placements.empty()) {
          std::ofstream f(placements, std::ios::app);
          for (const auto& [pod, node] : out.placements) {
            f << w << ' ' << nodes << ' ' << pod << ' ' << node << '\n';
          }
        }
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "workload: %s\n", e.what());
    return 1;
  }
  if (table) std::cerr << bench::Table(lines);
  if (require_all && !all_placed) {
    std::fprintf(stderr, "workload: measured pods left unplaced\n");
    return 3;
  }
  return 0;
}
