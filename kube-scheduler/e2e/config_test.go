package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"
)

// withProfile writes a copy of the configuration file config with one more
// profile (YAML) and returns its path.
func withProfile(t *testing.T, config, profile string) string {
	t.Helper()
	var extra map[string]any
	if err := yaml.Unmarshal([]byte(profile), &extra); err != nil {
		t.Fatal(err)
	}
	return rewriteConfig(t, config, func(doc map[string]any) {
		profiles, _ := doc["profiles"].([]any)
		doc["profiles"] = append(profiles, extra)
	})
}

// withExampleProfiles writes a copy of the configuration file config whose
// profiles are those of examples/FILE, and returns its path.
func withExampleProfiles(t *testing.T, config, file string) string {
	t.Helper()
	var example map[string]any
	data, err := os.ReadFile(filepath.Join("..", "examples", file))
	if err == nil {
		err = yaml.Unmarshal(data, &example)
	}
	if err != nil || example["profiles"] == nil {
		t.Fatalf("examples/%s: no profiles (%v)", file, err)
	}
	return rewriteConfig(t, config, func(doc map[string]any) { doc["profiles"] = example["profiles"] })
}

// rewriteConfig writes a copy of the configuration file config, changed by
// edit, into the test's temporary directory and returns its path.
func rewriteConfig(t *testing.T, config string, edit func(doc map[string]any)) string {
	t.Helper()
	data, err := os.ReadFile(config)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	edit(doc)
	out, err := yaml.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// packProfile is a whole-algorithm profile whose NodeResourcesFit packs.
const packProfile = `
schedulerName: libsched-pack
plugins:
  multiPoint:
    enabled: [{name: PrioritySort}, {name: SchedulingGates}, {name: DefaultBinder}, {name: LibSched}]
    disabled: [{name: "*"}]
pluginConfig:
- name: LibSched
  args: {mode: Algorithm}
- name: NodeResourcesFit
  args: {scoringStrategy: {type: MostAllocated}}
`

// TestConfigFileAgainstAPIServer: the binary with the deployed profile
// and a second one that packs (MostAllocated): the second profile's pods
// share a node, the first profile's pod goes to the other one. A profile
// the engine cannot honour stops the binary at start-up, naming the field.
func TestConfigFileAgainstAPIServer(t *testing.T) {
	e := setup(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	config := e.deploy(ctx, t)

	bad := withProfile(t, config, strings.Replace(packProfile, "type: MostAllocated}", "type: MostAllocated}}\n- name: VolumeBinding\n  args: {bindTimeoutSeconds: 30", 1))
	cmdCtx, cmdCancel := context.WithTimeout(ctx, time.Minute)
	defer cmdCancel()
	out, err := exec.CommandContext(cmdCtx, e.bin, "--config", bad, "--secure-port", "0").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "profiles[1].pluginConfig[2].name: not supported") {
		t.Errorf("kube-scheduler with VolumeBinding args for the engine: %v, output ends\n%s\nwant a failure naming profiles[1].pluginConfig[2].name",
			err, tail(string(out), 1500))
	}

	e.startScheduler(t, withProfile(t, config, packProfile), "scheduler-config")
	const ns = "config"
	e.namespace(ctx, t, ns)
	e.nodes(ctx, t, "config", 2, "4", nil)
	first := pod(ns, "pack-0", "1", nil)
	first.Spec.SchedulerName = "libsched-pack"
	e.create(ctx, t, first)
	packed := e.waitBound(ctx, t, ns, 1)["pack-0"]
	second := pod(ns, "pack-1", "1", nil)
	second.Spec.SchedulerName = "libsched-pack"
	e.create(ctx, t, second)
	e.waitBound(ctx, t, ns, 2)
	e.create(ctx, t, pod(ns, "spread", "1", nil))
	bound := e.waitBound(ctx, t, ns, 3)
	if bound["pack-1"] != packed || bound["spread"] == packed {
		t.Errorf("pods on %v: want pack-0 and pack-1 together (MostAllocated), spread elsewhere (LeastAllocated)", bound)
	}
}

// TestPluginModeAgainstAPIServer: the deployed configuration with
// examples/config.yaml's profile (LibSched in plugin mode: upstream's
// framework runs, LibSched answers PreFilter, Filter, PreScore and Score
// for the default plugins it replaces, upstream's PodTopologySpread stays,
// and LibSched's PostFilter preempts with upstream's Evaluator and
// Executor) schedules and preempts as the whole-algorithm profile does.
func TestPluginModeAgainstAPIServer(t *testing.T) {
	e := setup(t)
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	e.startScheduler(t, withExampleProfiles(t, e.deploy(ctx, t), "config.yaml"), "scheduler-plugins")
	// Names unique to the run, as in checkPreemption.
	t.Run("Schedules", func(t *testing.T) { e.checkSchedules(ctx, t, fmt.Sprintf("plugins-%d", time.Now().UnixNano())) })
	t.Run("Preemption", func(t *testing.T) { e.checkPreemption(ctx, t, "plugins-preempt") })
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}
