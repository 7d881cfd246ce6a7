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
	n := runSequences(t, *seed, *numSequences, *numSteps, *minNodes, *maxNodes)
	t.Logf("sequences (seed %d): %v in %v", *seed, n, time.Since(start).Round(time.Millisecond))
	fmt.Printf("difftest: sequences: %v\n", n)
}

// TestSequencesAllocateDevices: over a fixed seed, six small sequences place
// pods with claims and allocate shares of devices (DRAConsumableCapacity),
// so that the sequences keep comparing what follows an allocation; 0
// shares went unnoticed while PreBind's allocation was not written back
// (sequence_dra.go, allocate).
func TestSequencesAllocateDevices(t *testing.T) {
	n := runSequences(t, 1, 6, 80, 20, 40)
	t.Logf("%v", n)
	if n.allocated == 0 || n.shares == 0 {
		t.Errorf("%d pods with claims placed, %d device shares allocated; want both > 0", n.allocated, n.shares)
	}
}

// runSequences runs count sequences of steps cycles from seed, on
// clusters of minNodes to maxNodes nodes, and says what they compared.
func runSequences(t *testing.T, seed uint64, count, steps, minNodes, maxNodes int) seqCounts {
	ctx := context.Background()
	var n seqCounts
	for i := range count {
		s, err := newSequence(ctx, seed, i, minNodes, maxNodes)
		if err != nil {
			t.Fatalf("sequence %d: %v", i, err)
		}
		n.sequences++
		var history []string
		for step := range steps {
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
	return n
}
