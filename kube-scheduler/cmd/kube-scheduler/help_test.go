package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/libsched/libsched/go/sched"
)

// TestHelpMentionsLibSched: --help names the plugin, the engine's version
// and every plugin argument.
func TestHelpMentionsLibSched(t *testing.T) {
	command := newCommand()
	var out bytes.Buffer
	command.SetOut(&out)
	command.SetErr(&out)
	command.SetArgs([]string{"--help"})
	if err := command.Execute(); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"LibSched", "engine " + sched.Version(), "mode:", "percentageOfNodesToScore:", "seed:", "plugins:", "--config"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("--help lacks %q:\n%s", want, out.String())
		}
	}
}
