#include "libsched/framework/plugins_config.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

namespace sched {
namespace plugins_config_test {
namespace {

using EP = ExtensionPoint;
using Refs = std::vector<PluginRef>;

PluginSet Set(Refs enabled, std::vector<std::string> disabled = {}) {
  return {std::move(enabled), std::move(disabled)};
}

// Upstream's TestMergePlugins (apis/config/v1/default_plugins_test.go), on
// the Filter set; MultiPoint merges the same way.
TEST(PluginsConfigTest, MergePlugins) {
  struct Case {
    std::string name;
    PluginSet custom, defaults, want;
  };
  const std::vector<Case> cases = {
      {"AppendCustomPlugin", Set({{"CustomPlugin"}}), Set({{"DefaultPlugin1"}, {"DefaultPlugin2"}}),
       Set({{"DefaultPlugin1"}, {"DefaultPlugin2"}, {"CustomPlugin"}})},
      {"InsertAfterDefaultPlugins2",
       Set({{"CustomPlugin"}, {"DefaultPlugin2"}}, {"DefaultPlugin2"}),
       Set({{"DefaultPlugin1"}, {"DefaultPlugin2"}}),
       Set({{"DefaultPlugin1"}, {"CustomPlugin"}, {"DefaultPlugin2"}}, {"DefaultPlugin2"})},
      {"InsertBeforeAllPlugins",
       Set({{"CustomPlugin"}, {"DefaultPlugin1"}, {"DefaultPlugin2"}}, {"*"}),
       Set({{"DefaultPlugin1"}, {"DefaultPlugin2"}}),
       Set({{"CustomPlugin"}, {"DefaultPlugin1"}, {"DefaultPlugin2"}}, {"*"})},
      {"ReorderDefaultPlugins", Set({{"DefaultPlugin2"}, {"DefaultPlugin1"}}, {"*"}),
       Set({{"DefaultPlugin1"}, {"DefaultPlugin2"}}),
       Set({{"DefaultPlugin2"}, {"DefaultPlugin1"}}, {"*"})},
      {"ApplyNilCustomPlugin", Set({}), Set({{"DefaultPlugin1"}, {"DefaultPlugin2"}}),
       Set({{"DefaultPlugin1"}, {"DefaultPlugin2"}})},
      {"CustomPluginOverrideDefaultPlugin", Set({{"Plugin1", 2}, {"Plugin3", 3}}),
       Set({{"Plugin1"}, {"Plugin2"}, {"Plugin3"}}),
       Set({{"Plugin1", 2}, {"Plugin2"}, {"Plugin3", 3}})},
      {"OrderPreserveAfterOverride", Set({{"Plugin2", 2}, {"Plugin1", 1}}),
       Set({{"Plugin1"}, {"Plugin2"}, {"Plugin3"}}),
       Set({{"Plugin1", 1}, {"Plugin2", 2}, {"Plugin3"}})},
  };
  for (const Case& c : cases) {
    PluginsConfig custom, defaults;
    custom.at(EP::kFilter) = c.custom;
    defaults.at(EP::kFilter) = c.defaults;
    EXPECT_EQ(MergePlugins(defaults, custom).at(EP::kFilter), c.want) << c.name;
    custom.multi_point = c.custom;
    defaults.multi_point = c.defaults;
    EXPECT_EQ(MergePlugins(defaults, custom).multi_point, c.want) << c.name;
  }
}

// Test plugins: A filters and scores, B filters, C scores.
ExtensionPoints Points(std::string_view name) {
  const std::map<std::string_view, ExtensionPoints> m = {
      {"A", Bit(EP::kFilter) | Bit(EP::kScore)}, {"B", Bit(EP::kFilter)}, {"C", Bit(EP::kScore)}};
  return m.at(name);
}

// expandMultiPointPlugins' rules (upstream's
// TestNewFrameworkMultiPointExpansion).
TEST(PluginsConfigTest, ExpandPlugins) {
  struct Case {
    std::string name;
    PluginsConfig config;
    Refs want_filter, want_score;
  };
  auto config = [](PluginSet multi, PluginSet filter, PluginSet score) {
    PluginsConfig c;
    c.multi_point = std::move(multi);
    c.at(EP::kFilter) = std::move(filter);
    c.at(EP::kScore) = std::move(score);
    return c;
  };
  const std::vector<Case> cases = {
      {"plugins go where they implement, weights default to 1",
       config(Set({{"A", 3}, {"B"}, {"C"}}), {}, {}), Refs{{"A"}, {"B"}}, Refs{{"A", 3}, {"C", 1}}},
      {"disabled at one point only", config(Set({{"A"}, {"B"}}), Set({}, {"A"}), {}), Refs{{"B"}},
       Refs{{"A", 1}}},
      {"* skips the expansion at that point", config(Set({{"A"}, {"B"}}), Set({{"B"}}, {"*"}), {}),
       Refs{{"B"}}, Refs{{"A", 1}}},
      {"explicit entries that override MultiPoint come first, in their order; "
       "other explicit ones last",
       config(Set({{"A"}, {"B"}}), Set({{"C"}, {"B"}}), {}), Refs{{"B"}, {"A"}, {"C"}},
       Refs{{"A", 1}}},
      {"the Score set's weight beats MultiPoint's",
       config(Set({{"A", 2}, {"C", 4}}), {}, Set({{"A", 5}})), Refs{{"A"}},
       Refs{{"A", 5}, {"C", 4}}},
      {"explicit weight 0 counts as 1", config(Set({{"A", 2}}), {}, Set({{"A", 0}})), Refs{{"A"}},
       Refs{{"A", 1}}},
  };
  for (const Case& c : cases) {
    const ExpandedPlugins got = ExpandPlugins(c.config, Points);
    EXPECT_EQ(got[static_cast<size_t>(EP::kFilter)], c.want_filter) << c.name;
    EXPECT_EQ(got[static_cast<size_t>(EP::kScore)], c.want_score) << c.name;
  }
}

}  // namespace
}  // namespace plugins_config_test
}  // namespace sched
