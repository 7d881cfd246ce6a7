package plugin

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/cmd/kube-scheduler/app/options"
	"k8s.io/kubernetes/pkg/scheduler/apis/config"

	"github.com/libsched/libsched/go/sched"
	"github.com/libsched/libsched/kube-scheduler/internal/configtest"
)

// loadConfig loads a KubeSchedulerConfiguration as the command does
// (decoded, defaulted and validated by upstream's loader).
func loadConfig(t *testing.T, body string) *config.KubeSchedulerConfiguration {
	t.Helper()
	cfg, err := options.LoadConfigFromFile(klog.Background(), configtest.Write(t, body))
	if err != nil {
		t.Fatalf("loading the config: %v", err)
	}
	return cfg
}

// argsOf decodes the profile's LibSched args, as the framework hands them.
func argsOf(t *testing.T, src profileSource) Args {
	t.Helper()
	var obj runtime.Object
	if src.argsIndex >= 0 {
		obj = src.profile().PluginConfig[src.argsIndex].Args
	}
	args, err := decodeArgs(obj)
	if err != nil {
		t.Fatal(err)
	}
	return args
}

func TestEngineConfig(t *testing.T) {
	tests := []struct {
		name    string
		config  string // after configHead
		profile string // the LibSched profile's schedulerName
		want    string // the engine config, as JSON
		wantErr string
	}{{
		name:    "default profile",
		config:  "profiles:\n" + configtest.AlgorithmProfile("a", "", "      seed: 3\n"),
		profile: "a",
		want:    `{"seed":3,"profiles":[{"schedulerName":"default-scheduler","percentageOfNodesToScore":0}]}`,
	}, {
		name:    "top-level percentage",
		config:  "percentageOfNodesToScore: 40\nprofiles:\n" + configtest.AlgorithmProfile("a", "", ""),
		profile: "a",
		want:    `{"seed":0,"profiles":[{"schedulerName":"default-scheduler","percentageOfNodesToScore":40}]}`,
	}, {
		name:    "profile percentage wins",
		config:  "percentageOfNodesToScore: 40\nprofiles:\n" + configtest.AlgorithmProfile("a", "  percentageOfNodesToScore: 70\n", ""),
		profile: "a",
		want:    `{"seed":0,"profiles":[{"schedulerName":"default-scheduler","percentageOfNodesToScore":70}]}`,
	}, {
		name:    "LibSched's percentage agrees with the profile's",
		config:  "profiles:\n" + configtest.AlgorithmProfile("a", "  percentageOfNodesToScore: 70\n", "      percentageOfNodesToScore: 70\n"),
		profile: "a",
		want:    `{"seed":0,"profiles":[{"schedulerName":"default-scheduler","percentageOfNodesToScore":70}]}`,
	}, {
		name:    "LibSched's percentage differs from the profile's",
		config:  "profiles:\n" + configtest.AlgorithmProfile("a", "  percentageOfNodesToScore: 70\n", "      percentageOfNodesToScore: 30\n"),
		profile: "a",
		wantErr: "profiles[0].pluginConfig[0].args.percentageOfNodesToScore: Invalid value: 30: differs from profiles[0].percentageOfNodesToScore 70",
	}, {
		name: "plugins and args of the plugins upstream does not run",
		config: "profiles:\n" + configtest.AlgorithmProfile("a", "", `      plugins:
        score:
          enabled: [{name: NodeResourcesFit, weight: 5}]
          disabled: [{name: ImageLocality}]
  - name: NodeResourcesFit
    args:
      scoringStrategy:
        type: MostAllocated
        resources: [{name: cpu, weight: 2}]
  - name: InterPodAffinity
    args: {}
`),
		profile: "a",
		// InterPodAffinity's args are the defaults: left to the engine.
		want: `{"seed":0,"profiles":[{"schedulerName":"default-scheduler","percentageOfNodesToScore":0,
			"plugins":{"score":{"enabled":[{"name":"NodeResourcesFit","weight":5}],"disabled":[{"name":"ImageLocality"}]}},
			"pluginConfig":[{"name":"NodeResourcesFit","args":{"kind":"NodeResourcesFitArgs","apiVersion":"kubescheduler.config.k8s.io/v1",
				"scoringStrategy":{"type":"MostAllocated","resources":[{"name":"cpu","weight":2}]}}}]}]}`,
	}, {
		name: "plugin mode: every node, args of the plugins LibSched replaces, not of upstream's",
		config: `profiles:
- schedulerName: p
  plugins:
    multiPoint:
      enabled: [{name: LibSched, weight: 10}]
      disabled: [{name: NodeResourcesFit}]
  pluginConfig:
  - name: NodeResourcesFit
    args: {scoringStrategy: {type: MostAllocated}}
  - name: PodTopologySpread
    args: {defaultingType: List}
`,
		profile: "p",
		want: `{"seed":0,"profiles":[{"schedulerName":"default-scheduler","percentageOfNodesToScore":100,
			"pluginConfig":[{"name":"NodeResourcesFit","args":{"kind":"NodeResourcesFitArgs","apiVersion":"kubescheduler.config.k8s.io/v1",
				"scoringStrategy":{"type":"MostAllocated","resources":[{"name":"cpu","weight":1},{"name":"memory","weight":1}]}}}]}]}`,
	}, {
		name:    "second profile",
		config:  "profiles:\n" + configtest.AlgorithmProfile("a", "", "") + configtest.AlgorithmProfile("b", "  percentageOfNodesToScore: 10\n", ""),
		profile: "b",
		want:    `{"seed":0,"profiles":[{"schedulerName":"default-scheduler","percentageOfNodesToScore":10}]}`,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := loadConfig(t, tc.config)
			src, err := findProfile(cfg, tc.profile)
			if err != nil {
				t.Fatal(err)
			}
			args := argsOf(t, src)
			doc, _, err := engineConfig(args, src)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("engineConfig error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got, want any
			if err := json.Unmarshal(doc, &got); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(tc.want), &want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("engine config\n got %s\nwant %s", doc, tc.want)
			}
			e, err := sched.New(doc)
			if err != nil {
				t.Fatalf("the engine refuses it: %v", err)
			}
			e.Close()
		})
	}
}

// TestEngineRefuses: configs upstream accepts and the engine cannot
// honour fail with the loaded configuration's path of the field.
func TestEngineRefuses(t *testing.T) {
	tests := []struct {
		name, config, profile, wantErr string
	}{{
		name: "args of a plugin the engine runs without arguments",
		config: "profiles:\n" + configtest.AlgorithmProfile("a", "", "") + configtest.AlgorithmProfile("b", "", `  - name: VolumeBinding
    args: {bindTimeoutSeconds: 30}
`),
		profile: "b",
		wantErr: "LibSched: profiles[1].pluginConfig[1].name: not supported",
	}, {
		name:    "a plugin the engine does not have",
		config:  "profiles:\n" + configtest.AlgorithmProfile("a", "", "      plugins: {filter: {enabled: [{name: Coscheduling}]}}\n"),
		profile: "a",
		wantErr: `LibSched: profiles[0].pluginConfig[0].args.plugins.filter.enabled[0].name: plugin "Coscheduling" does not exist`,
	}, {
		name:    "a plugin at a point it does not extend",
		config:  "profiles:\n" + configtest.AlgorithmProfile("a", "", "      plugins: {score: {enabled: [{name: NodeName}]}}\n"),
		profile: "a",
		wantErr: `LibSched: profiles[0].pluginConfig[0].args.plugins.score.enabled[0].name: plugin "NodeName" does not extend ScorePlugin`,
	}, {
		name: "upstream's own plugins beside LibSched in Algorithm mode",
		config: `profiles:
- schedulerName: a
  plugins:
    multiPoint:
      enabled: [{name: LibSched}, {name: NodeResourcesFit, weight: 5}]
  pluginConfig:
  - name: LibSched
    args: {mode: Algorithm}
`,
		profile: "a",
		wantErr: `LibSched: profiles[0].plugins.multiPoint.enabled: Invalid value: "NodeUnschedulable": upstream would run it`,
	}, {
		name:    "an out-of-tree plugin's args",
		config:  "profiles:\n" + configtest.AlgorithmProfile("a", "", "  - name: Coscheduling\n    args: {permitWaitingTimeSeconds: 10}\n"),
		profile: "a",
		wantErr: "LibSched: profiles[0].pluginConfig[1].name: not supported",
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := loadConfig(t, tc.config)
			src, err := findProfile(cfg, tc.profile)
			if err != nil {
				t.Fatal(err)
			}
			args := argsOf(t, src)
			e, err := newEngine(args, src)
			if err == nil {
				e.Close()
				t.Fatal("the engine was created")
			}
			if got := err.Error(); !strings.HasPrefix(got, tc.wantErr) {
				t.Errorf("error %q, want %q first", got, tc.wantErr)
			}
		})
	}
}
