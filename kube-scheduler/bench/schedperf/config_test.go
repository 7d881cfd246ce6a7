//go:build schedperf

package schedperf

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

func TestWithSchedulerConfig(t *testing.T) {
	tests := []struct {
		name, perfConfig, wantErr string
	}{
		{name: "every test case gets the path", perfConfig: `
- name: A
  workloadTemplate: [{opcode: createNodes, countParam: $initNodes}]
  workloads: [{name: 5Nodes, params: {initNodes: 5}}]
- name: B
  workloads: [{name: 5Nodes}]
`},
		{name: "a test case's own configuration is refused", perfConfig: `
- name: A
- name: B
  schedulerConfigPath: config/b.yaml
`, wantErr: "[1] (B).schedulerConfigPath: already set to config/b.yaml"},
		{name: "not a list of test cases", perfConfig: "name: A\n", wantErr: "cannot unmarshal"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			in := filepath.Join(dir, "in.yaml")
			if err := os.WriteFile(in, []byte(tc.perfConfig), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := withSchedulerConfig(dir, in, "algorithm.yaml")
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			var cases []map[string]any
			if err := yaml.Unmarshal(data, &cases); err != nil {
				t.Fatal(err)
			}
			want, _ := filepath.Abs("algorithm.yaml")
			for i, c := range cases {
				if c["schedulerConfigPath"] != want {
					t.Errorf("case %d: schedulerConfigPath %v, want %s", i, c["schedulerConfigPath"], want)
				}
			}
			if len(cases) != 2 || cases[0]["workloadTemplate"] == nil {
				t.Errorf("test cases not kept: %v", cases)
			}
		})
	}
}

func TestLoadConfig(t *testing.T) {
	// The columns of bench/scheduler-perf.sh other than stock: each one
	// profile named default-scheduler (scheduler_perf's pods name no
	// scheduler). The fork's columns select their mode in LibSched's args;
	// the ceiling column enables no plugin beyond queue sort, gates and
	// bind (mode "": no LibSched at all).
	for _, tc := range []struct{ file, mode string }{
		{"algorithm.yaml", "Algorithm"},
		{"plugins.yaml", "Plugin"},
		{"ceiling.yaml", ""},
	} {
		t.Run(tc.file, func(t *testing.T) {
			cfg, err := loadConfig(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			if len(cfg.Profiles) != 1 || cfg.Profiles[0].SchedulerName != "default-scheduler" {
				t.Fatalf("profiles %+v, want one named default-scheduler", cfg.Profiles)
			}
			profile := cfg.Profiles[0]
			if tc.mode == "" {
				var enabled []string
				for _, p := range profile.Plugins.MultiPoint.Enabled {
					enabled = append(enabled, p.Name)
				}
				if got, want := strings.Join(enabled, ","), "PrioritySort,SchedulingGates,DefaultBinder"; got != want {
					t.Errorf("multiPoint enables %s, want only %s", got, want)
				}
				return
			}
			var args string
			for _, pc := range profile.PluginConfig {
				if pc.Name == "LibSched" && pc.Args != nil {
					data, err := json.Marshal(pc.Args)
					if err != nil {
						t.Fatal(err)
					}
					args = string(data)
				}
			}
			if want := `"mode":"` + tc.mode + `"`; !strings.Contains(args, want) {
				t.Errorf("LibSched args %s, want %s", args, want)
			}
		})
	}
	if _, err := loadConfig("no-such-file.yaml"); err == nil {
		t.Error("a missing file loaded")
	}
}
