// Command kube-scheduler is the upstream kube-scheduler (v1.36.3) with the
// LibSched plugin registered: enable it in a profile of the
// KubeSchedulerConfiguration (see ../../examples and ../../README.md).
package main

import (
	"os"

	"k8s.io/component-base/cli"
	_ "k8s.io/component-base/logs/json/register" // --logging-format=json, as upstream's command
	_ "k8s.io/component-base/metrics/prometheus/clientgo"
	_ "k8s.io/component-base/metrics/prometheus/version"
	"k8s.io/kubernetes/cmd/kube-scheduler/app"

	"github.com/libsched/libsched/kube-scheduler/plugin"
)

func main() {
	command := app.NewSchedulerCommand(app.WithPlugin(plugin.Name, plugin.New))
	os.Exit(cli.Run(command))
}
