// schedsim: a kube-scheduler simulator over libsched's C API. See Usage().
#include <filesystem>
#include <iostream>

#include "cli.h"
#include "cluster.h"
#include "input.h"
#include "output.h"
#include "sim.h"

namespace {

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
    if (o.files.empty()) o.files.push_back(ExamplesDir());
    const JsonPtr config = o.config.empty() ? nullptr : ReadConfig(o.config);
    Cluster cluster = BuildCluster(ReadInput(o.files), ProfileNames(config.get()));
    SimResult r = Simulate(cluster, SimOptions{o.seed, o.explain, config.get(), o.config});
    if (o.output == OutputFormat::kJson) {
      PrintJson(std::cout, r);
    } else {
      PrintTable(std::cout, r);
    }
    std::cout.flush();
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
