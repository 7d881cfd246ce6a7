//go:build schedperf

// Package schedperf runs upstream's scheduler_perf benchmark
// (k8s.io/kubernetes/test/integration/scheduler_perf, unmodified) with the
// LibSched plugin registered, either with upstream's stock scheduler
// configuration or with a KubeSchedulerConfiguration that uses LibSched
// (-libsched-config). bench/scheduler-perf.sh builds it and runs both
// columns; see there for the flags it passes. It builds only with the tag
// schedperf, so that `go test ./...` (scripts/test-kube-scheduler.sh) does
// not compile upstream's integration framework.
package schedperf

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/scheme"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
	perf "k8s.io/kubernetes/test/integration/scheduler_perf"
	"sigs.k8s.io/yaml"

	"github.com/libsched/libsched/kube-scheduler/plugin"
)

var (
	// Registered before perf.InitTests, which keeps them on its flag set.
	perfConfig = flag.String("schedperf-config", "",
		"upstream's performance-config.yaml to run (its templates are read relative to the working directory)")
	topic          = flag.String("schedperf-topic", "", "scheduler_perf topic name (misc, affinity, ...), part of the data items' file name")
	libschedConfig = flag.String("libsched-config", "",
		"KubeSchedulerConfiguration every test case runs with (it may enable LibSched); empty: upstream's default")
)

func TestMain(m *testing.M) {
	if err := perf.InitTests(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

func BenchmarkPerfScheduling(b *testing.B) {
	if *perfConfig == "" || *topic == "" {
		b.Fatal("-schedperf-config and -schedperf-topic are required")
	}
	configFile, registry := *perfConfig, frameworkruntime.Registry{}
	if *libschedConfig != "" {
		cfg, err := loadConfig(*libschedConfig)
		if err != nil {
			b.Fatal(err)
		}
		// plugin.NewFactory needs the configuration the scheduler runs
		// with; scheduler_perf loads the same file (schedulerConfigPath).
		registry[plugin.Name] = plugin.NewFactory(cfg)
		if configFile, err = withSchedulerConfig(b.TempDir(), *perfConfig, *libschedConfig); err != nil {
			b.Fatal(err)
		}
		perf.PluginNames = append(perf.PluginNames, plugin.Name)
	}
	perf.RunBenchmarkPerfScheduling(b, configFile, *topic, registry)
}

// loadConfig decodes and defaults a KubeSchedulerConfiguration file as
// scheduler_perf does (scheme.Codecs.UniversalDecoder).
func loadConfig(path string) (*config.KubeSchedulerConfiguration, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	obj, gvk, err := scheme.Codecs.UniversalDecoder().Decode(data, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	cfg, ok := obj.(*config.KubeSchedulerConfiguration)
	if !ok {
		return nil, fmt.Errorf("%s: got %s, want a KubeSchedulerConfiguration", path, gvk)
	}
	return cfg, nil
}

// withSchedulerConfig writes into dir a copy of upstream's test cases
// (perfConfig) with schedulerConfigPath set to schedConfig in every test
// case, and returns its path. A test case that names its own scheduler
// configuration is refused: replacing it would change what it measures.
func withSchedulerConfig(dir, perfConfig, schedConfig string) (string, error) {
	data, err := os.ReadFile(perfConfig)
	if err != nil {
		return "", err
	}
	var cases []map[string]any
	if err := yaml.Unmarshal(data, &cases); err != nil {
		return "", fmt.Errorf("%s: %w", perfConfig, err)
	}
	abs, err := filepath.Abs(schedConfig)
	if err != nil {
		return "", err
	}
	for i, tc := range cases {
		if p, ok := tc["schedulerConfigPath"]; ok {
			return "", fmt.Errorf("%s: [%d] (%v).schedulerConfigPath: already set to %v", perfConfig, i, tc["name"], p)
		}
		tc["schedulerConfigPath"] = abs
	}
	out, err := yaml.Marshal(cases)
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, "performance-config.yaml")
	return path, os.WriteFile(path, out, 0o644)
}
