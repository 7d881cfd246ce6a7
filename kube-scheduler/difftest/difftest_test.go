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
	argsShare  = flag.Float64("difftest.args", 1.0/3, "share of random cases run with a pluginConfig (plugin args)")
)

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return v
	}
	return def
}

// counts says what run compared.
type counts struct {
	cases, pairs  int
	unschedulable int // cases where no node fit (upstream ran PostFilter)
	nominated     int // ... and preemption nominated a node
	tied          int // ... among two or more equally good candidates
	sharedPorts   int // unschedulable cases whose preemption was not compared (sharesHostPort)
	configured    int // cases with a pluginConfig (plugin args other than the defaults)
	configScored  int // ... in which two or more nodes were feasible (scores compared)
	claims        int // cases whose pod has ResourceClaims (DynamicResources decides)
	claimsPlaced  int // ... and fits a node
	capacity      int // cases whose pod's claims ask capacity.requests (DRAConsumableCapacity)
	capacityFit   int // ... and fits a node
	draRejected   int // (pod,node) pairs DynamicResources rejected
	// cases whose pod uses an allocated claim with binding conditions
	// (DRADeviceBindingConditions); ... and fits a node
	binding, bindingFit int
	draExtended         int // cases whose pod asks an extended resource a DeviceClass backs (DRAExtendedResource)
	draExtendedFit      int // ... and fits a node
	pluginErrors        int // cases a plugin's Error ended (its text compared)
	// unschedulable cases whose preemption hit a Filter Error (not compared)
	preemptionErrors int
}

func (c counts) String() string {
	return fmt.Sprintf("%d cases (%d with plugin args, %d of them scored; %d with ResourceClaims, %d of them placed, %d asking capacity, %d of those placed; %d using a claim with binding conditions, %d of them placed; %d asking a DRA-backed extended resource, %d of them placed), %d (pod,node) pairs compared (%d rejected by DynamicResources); %d plugin errors; %d unschedulable, %d nominated a node (%d among tied candidates), %d preemptions not compared (shared host ports), %d dry runs ended by Filter errors (compared)",
		c.cases, c.configured, c.configScored, c.claims, c.claimsPlaced, c.capacity, c.capacityFit, c.binding, c.bindingFit, c.draExtended, c.draExtendedFit,
		c.pairs, c.draRejected, c.pluginErrors, c.unschedulable, c.nominated, c.tied, c.sharedPorts, c.preemptionErrors)
}

// run compares upstream and the engine on each case; it reports each
// difference with a shrunk reproduction and returns what it compared.
func run(t *testing.T, cases func(yield func(*Case) bool)) (n counts) {
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
		n.cases++
		n.pairs += len(c.Nodes)
		if c.PluginConfig != nil {
			n.configured++
			if len(up.Scores) > 0 {
				n.configScored++
			}
		}
		if up.Message != "" {
			n.unschedulable++
		}
		if up.Error != "" {
			n.pluginErrors++
		}
		if len(c.Pod.Spec.ResourceClaims) > 0 {
			n.claims++
			if len(up.Feasible) > 0 {
				n.claimsPlaced++
			}
			if asksCapacity(c.Pod, c.ResourceClaims) {
				n.capacity++
				if len(up.Feasible) > 0 {
					n.capacityFit++
				}
			}
		}
		if usesBindingClaim(c.Pod, c.ResourceClaims) {
			n.binding++
			if len(up.Feasible) > 0 {
				n.bindingFit++
			}
		}
		if asksClassResource(c.Pod, c.DeviceClasses) {
			n.draExtended++
			if len(up.Feasible) > 0 {
				n.draExtendedFit++
			}
		}
		for _, v := range up.Rejected {
			if v.Plugin == "DynamicResources" {
				n.draRejected++
			}
		}
		if normalizeSharedPorts(c, up, eng) {
			n.sharedPorts++
		}
		if normalizePreemptionError(up, eng) {
			n.preemptionErrors++
		}
		if len(up.Nominated) > 0 {
			n.nominated++
		}
		if len(up.Nominated) > 1 {
			n.tied++
		}
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
		normalizeSharedPorts(small, up, eng)
		normalizePreemptionError(up, eng)
		t.Errorf("%s: upstream and engine differ:\n  %s\n%s", c.Name, strings.Join(compare(up, eng), "\n  "), repro(small))
	}
	return n
}

// repro prints a case as the engine received it: the cluster List and the
// pod, ready for schedsim or sched_engine_apply/sched_engine_schedule.
func repro(c *Case) string {
	cluster, pod, err := c.JSON()
	if err != nil {
		return "cannot encode the case: " + err.Error()
	}
	return fmt.Sprintf("--- config:\n%s\n--- cluster (%d nodes, %d bound pods):\n%s\n--- pod:\n%s",
		engineConfig(c.PluginConfig), len(c.Nodes), len(c.Pods), cluster, pod)
}

func TestRandomCases(t *testing.T) {
	start := time.Now()
	g := newGenerator(*seed)
	g.argsShare = *argsShare
	n := run(t, func(yield func(*Case) bool) {
		for i := range *numCases {
			if !yield(g.Case(i)) {
				return
			}
		}
	})
	t.Logf("random (seed %d): %v in %v", *seed, n, time.Since(start).Round(time.Millisecond))
	fmt.Printf("difftest: random: %v\n", n)
	// The generator's DRA features are compared only where cases reach
	// them: a run of CI's size that reaches none has lost one.
	if *numCases >= 2000 && (n.capacityFit == 0 || n.binding == 0 || n.draExtendedFit == 0) {
		t.Errorf("%d cases placed a pod asking capacity, %d had a pod using a claim with binding conditions, %d placed a pod asking a DRA-backed extended resource: want each > 0",
			n.capacityFit, n.binding, n.draExtendedFit)
	}
}

func TestCorpusCases(t *testing.T) {
	if _, err := os.Stat(*corpusDir); err != nil {
		t.Skipf("no corpus at %s (-difftest.corpus): %v", *corpusDir, err)
	}
	cases, err := corpusCases(*corpusDir)
	if err != nil {
		t.Fatal(err)
	}
	n := run(t, func(yield func(*Case) bool) {
		for _, c := range cases {
			if !yield(c) {
				return
			}
		}
	})
	t.Logf("corpus pods against %d nodes: %v", len(cases[0].Nodes), n)
	fmt.Printf("difftest: corpus: %v\n", n)
}
