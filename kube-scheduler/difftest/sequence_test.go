package difftest

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"testing"
	"time"
)

var (
	numSequences = flag.Int("difftest.sequences", envInt("DIFFTEST_SEQUENCES", 3), "random sequences to run (env DIFFTEST_SEQUENCES)")
	numSteps     = flag.Int("difftest.steps", envInt("DIFFTEST_STEPS", 150), "scheduling cycles per sequence (env DIFFTEST_STEPS)")
	minNodes     = flag.Int("difftest.minnodes", 200, "fewest nodes a sequence starts with")
	maxNodes     = flag.Int("difftest.maxnodes", envInt("DIFFTEST_MAXNODES", 500), "most nodes a sequence starts with (env DIFFTEST_MAXNODES)")
)

// TestSequences runs long random histories against the engine with its
// default config and upstream's scheduler with parallelism 1 (sequence.go):
// each cycle is compared as a single case is, plus the nodes evaluated.
// A sequence stops at its first difference (both sides' states may part).
func TestSequences(t *testing.T) {
	start := time.Now()
	ctx := context.Background()
	var n seqCounts
	for i := range *numSequences {
		s, err := newSequence(ctx, *seed, i, *minNodes, *maxNodes)
		if err != nil {
			t.Fatalf("sequence %d: %v", i, err)
		}
		n.sequences++
		var history []string
		for step := range *numSteps {
			for s.g.chance(0.3) {
				what, err := s.event()
				if err != nil {
					t.Fatalf("%s step %d: %s: %v", s.world.Name, step, what, err)
				}
				n.events++
				history = append(history, what)
			}
			diffs, pod, err := s.cycle(ctx, &n)
			if err != nil {
				t.Fatalf("%s step %d (%s): %v", s.world.Name, step, pod.Name, err)
			}
			history = append(history, "schedule "+pod.Name)
			if len(diffs) > 0 {
				t.Errorf("%s step %d: upstream and engine differ on %s:\n  %s\n%s", s.world.Name, step, pod.Name,
					strings.Join(diffs, "\n  "), s.repro(pod, history))
				break
			}
		}
		s.close()
	}
	t.Logf("sequences (seed %d): %v in %v", *seed, n, time.Since(start).Round(time.Millisecond))
	fmt.Printf("difftest: sequences: %v\n", n)
}
