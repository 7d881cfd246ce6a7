package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/kubernetes/cmd/kube-scheduler/app"
	"k8s.io/kubernetes/cmd/kube-scheduler/app/options"

	"github.com/libsched/libsched/kube-scheduler/internal/configtest"
)

// busyAndEmpty: two 4-CPU nodes, "busy" running a 2-CPU pod; "empty"
// carries a PreferNoSchedule taint when tainted.
func busyAndEmpty(tainted bool) []runtime.Object {
	var taints []v1.Taint
	if tainted {
		taints = []v1.Taint{{Key: "spare", Effect: v1.TaintEffectPreferNoSchedule}}
	}
	filler := makePod("filler", "2")
	filler.Spec.NodeName = "busy"
	return []runtime.Object{makeNode("busy", "4", nil), makeNode("empty", "4", taints), filler}
}

// TestConfigPassesThrough runs the scheduler, whole-algorithm mode, with
// each configuration: each pod must land where that configuration (and not
// the default one) puts it.
func TestConfigPassesThrough(t *testing.T) {
	const pack = "libsched-pack"
	tests := []struct {
		name   string
		config string
		// tainted puts a PreferNoSchedule taint on node "empty".
		tainted bool
		// pods maps each pod's schedulerName to the node it must land on.
		pods map[string]string
	}{
		{name: "default profile spreads", config: "profiles:\n" + configtest.AlgorithmProfile(schedulerName, "", ""),
			pods: map[string]string{schedulerName: "empty"}},
		{name: "MostAllocated packs", config: "profiles:\n" + configtest.AlgorithmProfile(schedulerName, "", `  - name: NodeResourcesFit
    args: {scoringStrategy: {type: MostAllocated}}
`), pods: map[string]string{schedulerName: "busy"}},
		{name: "RequestedToCapacityRatio packs", config: "profiles:\n" + configtest.AlgorithmProfile(schedulerName, "", `  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: RequestedToCapacityRatio
        resources: [{name: cpu, weight: 1}]
        requestedToCapacityRatio: {shape: [{utilization: 0, score: 0}, {utilization: 100, score: 10}]}
`), pods: map[string]string{schedulerName: "busy"}},
		// TaintToleration (weight 3) outweighs the resource scores.
		{name: "default weights avoid the taint", config: "profiles:\n" + configtest.AlgorithmProfile(schedulerName, "", ""), tainted: true,
			pods: map[string]string{schedulerName: "busy"}},
		{name: "TaintToleration's score disabled", tainted: true,
			config: "profiles:\n" + configtest.AlgorithmProfile(schedulerName, "", "      plugins: {score: {disabled: [{name: TaintToleration}]}}\n"),
			pods:   map[string]string{schedulerName: "empty"}},
		{name: "NodeResourcesFit weighs 100", tainted: true,
			config: "profiles:\n" + configtest.AlgorithmProfile(schedulerName, "", "      plugins: {score: {enabled: [{name: NodeResourcesFit, weight: 100}]}}\n"),
			pods:   map[string]string{schedulerName: "empty"}},
		{name: "two profiles, each its own config", config: "profiles:\n" + configtest.AlgorithmProfile(schedulerName, "", "") +
			configtest.AlgorithmProfile(pack, "", "  - name: NodeResourcesFit\n    args: {scoringStrategy: {type: MostAllocated}}\n"),
			pods: map[string]string{schedulerName: "empty", pack: "busy"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			client, s := startScheduler(ctx, t, configtest.Write(t, tc.config), busyAndEmpty(tc.tainted)...)
			defer s.Profiles.Close()
			for profile, want := range tc.pods {
				pod := makePod("pod-"+profile, "100m")
				pod.Spec.SchedulerName = profile
				if _, err := client.CoreV1().Pods(pod.Namespace).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
					t.Fatal(err)
				}
				if got := waitForNode(ctx, t, client, pod); got != want {
					t.Errorf("profile %s: pod bound to %q, want %q", profile, got, want)
				}
			}
		})
	}
}

// TestPercentageOfNodesToScorePassesThrough: 110 nodes, the roomiest
// created last. Evaluating 100 nodes (adaptive, or any percentage below
// 91: upstream's minimum of 100 feasible nodes) misses it; evaluating all
// (100%) finds it. The profile's percentage overrides the top-level one.
func TestPercentageOfNodesToScorePassesThrough(t *testing.T) {
	tests := []struct {
		name, config string
		wantBig      bool
	}{
		{name: "adaptive", config: "profiles:\n" + configtest.AlgorithmProfile(schedulerName, "", "")},
		{name: "top-level 100", config: "percentageOfNodesToScore: 100\nprofiles:\n" + configtest.AlgorithmProfile(schedulerName, "", ""), wantBig: true},
		{name: "top-level 100, profile 50",
			config: "percentageOfNodesToScore: 100\nprofiles:\n" + configtest.AlgorithmProfile(schedulerName, "  percentageOfNodesToScore: 50\n", "")},
		{name: "top-level 50, profile 100",
			config:  "percentageOfNodesToScore: 50\nprofiles:\n" + configtest.AlgorithmProfile(schedulerName, "  percentageOfNodesToScore: 100\n", ""),
			wantBig: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			client, s := startScheduler(ctx, t, configtest.Write(t, tc.config))
			defer s.Profiles.Close()
			// Created one by one after the informers started, so the
			// engine's node order (upstream's node tree: insertion order)
			// is creation order.
			for i := range 110 {
				n := makeNode(fmt.Sprintf("n%03d", i), "4", nil)
				if i == 109 {
					n = makeNode("big", "64", nil)
				}
				if _, err := client.CoreV1().Nodes().Create(ctx, n, metav1.CreateOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			// A cycle that meets an engine missing a node fails and is
			// retried, but has moved the engine's first node to evaluate:
			// give the informers' handlers time to deliver every node.
			if err := wait.PollUntilContextCancel(ctx, 10*time.Millisecond, true, func(context.Context) (bool, error) {
				return s.Cache.NodeCount() == 110, nil
			}); err != nil {
				t.Fatal(err)
			}
			time.Sleep(200 * time.Millisecond)
			pod := makePod("p", "1")
			if _, err := client.CoreV1().Pods(pod.Namespace).Create(ctx, pod, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			if got := waitForNode(ctx, t, client, pod); (got == "big") != tc.wantBig {
				t.Errorf("pod bound to %q; want big: %v", got, tc.wantBig)
			}
		})
	}
}

// TestConfigRefused: configurations upstream accepts and the engine cannot
// honour stop the command's setup with the field's path.
func TestConfigRefused(t *testing.T) {
	tests := []struct{ name, config, wantErr string }{
		{name: "args of a plugin the engine runs without arguments",
			config: "profiles:\n" + configtest.AlgorithmProfile(schedulerName, "", "") +
				configtest.AlgorithmProfile("second", "", "  - name: VolumeBinding\n    args: {bindTimeoutSeconds: 30}\n"),
			wantErr: "profiles[1].pluginConfig[1].name: not supported"},
		{name: "a plugin the engine does not have",
			config:  "profiles:\n" + configtest.AlgorithmProfile(schedulerName, "", "      plugins: {filter: {enabled: [{name: Coscheduling}]}}\n"),
			wantErr: `profiles[0].pluginConfig[0].args.plugins.filter.enabled[0].name: plugin "Coscheduling" does not exist`},
		{name: "upstream's default plugins beside LibSched",
			config:  "profiles:\n- schedulerName: libsched\n  plugins: {multiPoint: {enabled: [{name: LibSched}]}}\n  pluginConfig:\n  - {name: LibSched, args: {mode: Algorithm}}\n",
			wantErr: `profiles[0].plugins.multiPoint.enabled: Invalid value: "NodeUnschedulable"`},
		{name: "LibSched's percentage against the profile's",
			config:  "profiles:\n" + configtest.AlgorithmProfile(schedulerName, "  percentageOfNodesToScore: 70\n", "      percentageOfNodesToScore: 30\n"),
			wantErr: "profiles[0].pluginConfig[0].args.percentageOfNodesToScore: Invalid value: 30: differs from profiles[0].percentageOfNodesToScore 70"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := options.NewOptions()
			opts.ConfigFile = configtest.Write(t, tc.config)
			opts.Master = "http://127.0.0.1:1" // never contacted
			opts.SecureServing.BindPort = 0
			_, s, err := app.Setup(context.Background(), opts, withLibSched(func() string { return opts.ConfigFile }))
			if err == nil {
				s.Profiles.Close()
				t.Fatal("app.Setup accepted the configuration")
			}
			if !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("app.Setup error %q, want it to contain %q", err, tc.wantErr)
			}
		})
	}
}
