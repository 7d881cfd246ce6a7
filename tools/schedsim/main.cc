// schedsim: a kube-scheduler simulator over libsched's C API. See Usage().
#include <sched/sched.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "cli.h"
#include "cluster.h"
#include "config.h"
#include "diag.h"
#include "explanation.h"
#include "input.h"
#include "libsched_plugin.h"
#include "output.h"
#include "sim.h"

namespace {

volatile std::sig_atomic_t g_stop = 0;

// Ctrl-C: the simulation ends after its current slice of cycles and prints
// what it has; a second Ctrl-C kills at once.
void OnInterrupt(int) {
  g_stop = 1;
  std::signal(SIGINT, SIG_DFL);
}

// The bundled example cluster: the source tree's copy when it exists (a
// build tree), else the installed one.
std::string ExamplesDir() {
  std::error_code ec;
  if (std::filesystem::is_directory(SCHEDSIM_EXAMPLES_DIR, ec)) return SCHEDSIM_EXAMPLES_DIR;
  return SCHEDSIM_INSTALLED_EXAMPLES_DIR;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace schedsim;
  try {
    Options o = ParseArgs(argc, argv);
    if (o.help) {
      std::cout << Usage();
      return 0;
    }
    if (o.version) {
      std::cout << "schedsim " << SCHEDSIM_VERSION << " (libsched " << sched_version()
                << ", kube-scheduler " << sched_upstream_version() << ")\n";
      return 0;
    }
    if (o.files.empty()) o.files.push_back(ExamplesDir());
    JsonPtr config = o.config.empty() ? nullptr : ReadConfig(o.config);
    std::string config_name = o.config;
    Diagnostics diag(std::cerr, o.strict);
    Input input = ReadInput(o.files, diag);
    if (!config && input.config.json != nullptr) {
      // A kube-scheduler-simulator export's schedulerConfig, unless --config.
      config.reset(cJSON_Duplicate(input.config.json, true));
      config_name = input.config.loc.Str();
    }
    if (config) {
      DropIgnoredConfig(config.get(), config_name, std::cerr);
      ResolveLibSchedProfiles(config.get(), config_name, std::cerr);
    }
    Cluster cluster = BuildCluster(std::move(input), ProfileNames(config.get()), diag);
    diag.Finish();
    SimOptions so{o.seed, o.explain, config.get(), config_name};
    if (o.batch_bytes) so.batch_bytes = *o.batch_bytes;
    so.progress = o.progress;
    so.pool_label = o.pool_label;
    so.explain_after = o.explain_pod;
    so.capacity = o.command == "capacity";
    so.drain_nodes = o.drain_nodes;
    if (o.max_replicas) so.max_replicas = *o.max_replicas;
    for (const std::string& t : o.templates) so.scale_up_templates.push_back(ReadNodeTemplate(t));
    if (o.max_nodes) so.max_nodes = *o.max_nodes;
    std::signal(SIGINT, OnInterrupt);
    SimResult r = Simulate(cluster, so, &g_stop);
    if (o.progress || isatty(STDERR_FILENO) == 1) {
      std::fprintf(stderr, "schedsim: %zu pods in %.3f s, %.0f pods/s\n", r.outcomes.size(),
                   r.seconds,
                   r.seconds > 0 ? static_cast<double>(r.outcomes.size()) / r.seconds : 0);
    }
    if (!o.command.empty()) {
      if (r.explanation == nullptr) {
        std::cerr << "schedsim: interrupted before the " << o.command << "\n";
        return 130;
      }
      if (o.output == OutputFormat::kJson) {
        std::cout << Print(r.explanation.get()) << "\n";
      } else if (so.capacity) {
        PrintCapacity(std::cout, r.explanation.get());
      } else if (o.command == "drain") {
        PrintDrain(std::cout, r.explanation.get());
      } else if (o.command == "scale-up") {
        PrintScaleUp(std::cout, r.explanation.get());
      } else {
        PrintExplanation(std::cout, r.explanation.get());
      }
      std::cout.flush();
      return std::cout ? 0 : 1;
    }
    if (o.output == OutputFormat::kJson) {
      PrintJson(std::cout, r);
    } else {
      PrintTable(std::cout, r);
    }
    std::cout.flush();
    if (r.interrupted) {
      std::cerr << "schedsim: interrupted: the result above is partial\n";
      return 130;  // as a shell reports SIGINT
    }
    return std::cout ? 0 : 1;
  } catch (const InputError& e) {
    std::cerr << "schedsim: " << e.what() << "\n";
    return 2;
  } catch (const std::filesystem::filesystem_error& e) {
    std::cerr << "schedsim: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "schedsim: " << e.what() << "\n";
    return 1;
  }
}
