package difftest

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

var (
	numCases   = flag.Int("difftest.cases", envInt("DIFFTEST_CASES", 2000), "random cases to compare (env DIFFTEST_CASES)")
	seed       = flag.Uint64("difftest.seed", 1, "seed of the random case stream")
	corpusDir  = flag.String("difftest.corpus", "../../../shared/corpus", "the shared corpus (see its SOURCES.md); skipped when absent")
	maxReports = flag.Int("difftest.reports", 5, "differences to shrink and print in full")
)

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return v
	}
	return def
}

// run compares upstream and the engine on each case; it reports each
// difference with a shrunk reproduction and returns the number of cases
// and (pod, node) pairs compared.
func run(t *testing.T, cases func(yield func(*Case) bool)) (numCases, pairs int) {
	ctx := context.Background()
	reports := 0
	for c := range cases {
		up, err := decideUpstream(ctx, c)
		if err != nil {
			t.Fatalf("%s: upstream: %v", c.Name, err)
		}
		eng, err := decideEngine(ctx, c)
		if err != nil {
			t.Errorf("%s: engine: %v\n%s", c.Name, err, repro(c))
			continue
		}
		numCases++
		pairs += len(c.Nodes)
		diffs := compare(up, eng)
		if len(diffs) == 0 {
			continue
		}
		if reports++; reports > *maxReports {
			t.Errorf("%s: %d differences (not shrunk: -difftest.reports=%d reached)", c.Name, len(diffs), *maxReports)
			continue
		}
		small := shrink(ctx, c)
		up, _ = decideUpstream(ctx, small)
		eng, _ = decideEngine(ctx, small)
		t.Errorf("%s: upstream and engine differ:\n  %s\n%s", c.Name, strings.Join(compare(up, eng), "\n  "), repro(small))
	}
	return numCases, pairs
}

// repro prints a case as the engine received it: the cluster List and the
// pod, ready for schedsim or sched_engine_apply/sched_engine_schedule.
func repro(c *Case) string {
	cluster, pod, err := c.JSON()
	if err != nil {
		return "cannot encode the case: " + err.Error()
	}
	return fmt.Sprintf("--- cluster (%d nodes, %d bound pods):\n%s\n--- pod:\n%s", len(c.Nodes), len(c.Pods), cluster, pod)
}

func TestRandomCases(t *testing.T) {
	start := time.Now()
	g := newGenerator(*seed)
	n, pairs := run(t, func(yield func(*Case) bool) {
		for i := range *numCases {
			if !yield(g.Case(i)) {
				return
			}
		}
	})
	t.Logf("compared %d random cases (seed %d), %d (pod, node) pairs in %v", n, *seed, pairs, time.Since(start).Round(time.Millisecond))
	fmt.Printf("difftest: random: %d cases, %d (pod,node) pairs compared\n", n, pairs)
}

func TestCorpusCases(t *testing.T) {
	if _, err := os.Stat(*corpusDir); err != nil {
		t.Skipf("no corpus at %s (-difftest.corpus): %v", *corpusDir, err)
	}
	cases, err := corpusCases(*corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	n, pairs := run(t, func(yield func(*Case) bool) {
		for _, c := range cases {
			if !yield(c) {
				return
			}
		}
	})
	t.Logf("compared %d corpus pods against %d nodes, %d (pod, node) pairs", n, len(cases[0].Nodes), pairs)
	fmt.Printf("difftest: corpus: %d cases, %d (pod,node) pairs compared\n", n, pairs)
}
