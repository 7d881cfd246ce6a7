// Package configtest writes KubeSchedulerConfiguration files for the
// fork's tests.
package configtest

import (
	"os"
	"path/filepath"
	"testing"
)

// AlgorithmProfile is a whole-algorithm profile (one element of
// `profiles`) named name: upstream runs PrioritySort, SchedulingGates,
// DefaultBinder and LibSched. profileExtra is added under the profile
// (lines indented by 2), argsExtra to LibSched's args (by 6) and may go on
// with more pluginConfig entries (by 2).
func AlgorithmProfile(name, profileExtra, argsExtra string) string {
	return `- schedulerName: ` + name + `
  plugins:
    multiPoint:
      enabled: [{name: PrioritySort}, {name: SchedulingGates}, {name: DefaultBinder}, {name: LibSched}]
      disabled: [{name: "*"}]
` + profileExtra + `  pluginConfig:
  - name: LibSched
    args:
      mode: Algorithm
` + argsExtra
}

// Write writes a KubeSchedulerConfiguration (leader election off) with the
// given top-level fields to a file of t's temporary directory.
func Write(t *testing.T, body string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "config.yaml")
	doc := "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nleaderElection:\n  leaderElect: false\n" + body
	if err := os.WriteFile(file, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	return file
}
