// Command kube-scheduler is the upstream kube-scheduler (v1.36.3) with the
// LibSched plugin registered: enable it in a profile of the
// KubeSchedulerConfiguration (see ../../examples and ../../README.md).
// Build it with scripts/build-kube-scheduler.sh, which stamps --version.
package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register" // --logging-format=json, as upstream's command
	_ "k8s.io/component-base/metrics/prometheus/clientgo"
	_ "k8s.io/component-base/metrics/prometheus/version"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/cmd/kube-scheduler/app"
	"k8s.io/kubernetes/cmd/kube-scheduler/app/options"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"

	"github.com/libsched/libsched/go/sched"
	"github.com/libsched/libsched/kube-scheduler/plugin"
)

func main() {
	os.Exit(cli.Run(newCommand()))
}

// newCommand is upstream's command with LibSched registered and its
// description extended, so --help says what this build adds.
func newCommand() *cobra.Command {
	var command *cobra.Command
	command = app.NewSchedulerCommand(withLibSched(func() string { return command.Flags().Lookup("config").Value.String() }))
	command.Long += fmt.Sprintf(`

This build registers the out-of-tree plugin %s, backed by the libsched
engine %s (which mirrors kube-scheduler %s). Enable it in a
profile of the --config file; its arguments go in the profile's
pluginConfig (name %s):
%s`, plugin.Name, sched.Version(), sched.UpstreamVersion(), plugin.Name, plugin.ArgsHelp)
	return command
}

// withLibSched registers LibSched's factory for the configuration file
// configFile names (--config), loaded with upstream's own loader. app.Setup
// runs registry options after loading the same file, but hands them only
// the registry: reading the file a second time is what keeps the command
// upstream's own (README.md, "Configuration").
func withLibSched(configFile func() string) app.Option {
	return func(r frameworkruntime.Registry) error {
		var cfg *config.KubeSchedulerConfiguration
		if file := configFile(); file != "" {
			var err error
			if cfg, err = options.LoadConfigFromFile(klog.Background(), file); err != nil {
				return err
			}
		}
		return r.Register(plugin.Name, plugin.NewFactory(cfg))
	}
}
