package difftest

import (
	"strings"
	"testing"
)

// The harness must be able to fail: each perturbation of a decision is
// reported.
func TestCompareReportsDifferences(t *testing.T) {
	base := func() *Decision {
		return &Decision{
			Rejected: map[string]Verdict{"n1": {Code: "Unschedulable", Plugin: "NodeResourcesFit", Reasons: []string{"Insufficient cpu"}}},
			Feasible: []string{"n2", "n3"},
			Scores: map[string]map[string]int64{
				"n2": {"TaintToleration": 300, "NodeResourcesFit": 50},
				"n3": {"TaintToleration": 300, "NodeResourcesFit": 40},
			},
			Top: []string{"n2"},
		}
	}
	if d := compare(base(), base()); d != nil {
		t.Fatalf("equal decisions differ: %v", d)
	}
	for _, tc := range []struct {
		name    string
		perturb func(*Decision)
		want    string
	}{
		{"reason", func(d *Decision) {
			d.Rejected["n1"] = Verdict{Code: "Unschedulable", Plugin: "NodeResourcesFit", Reasons: []string{"Insufficient memory"}}
		}, "node n1: upstream"},
		{"code", func(d *Decision) {
			d.Rejected["n1"] = Verdict{Code: "UnschedulableAndUnresolvable", Plugin: "NodeResourcesFit", Reasons: []string{"Insufficient cpu"}}
		}, "node n1: upstream"},
		{"plugin", func(d *Decision) {
			d.Rejected["n1"] = Verdict{Code: "Unschedulable", Plugin: "NodePorts", Reasons: []string{"Insufficient cpu"}}
		}, "node n1: upstream"},
		{"rejected only by the engine", func(d *Decision) { d.Rejected["n2"] = Verdict{Code: "Unschedulable"} }, "node n2: upstream feasible, engine rejected"},
		{"feasible only in the engine", func(d *Decision) { delete(d.Rejected, "n1") }, "node n1: upstream rejected"},
		{"feasible set", func(d *Decision) { d.Feasible = []string{"n2"} }, "feasible nodes"},
		{"nodes evaluated", func(d *Decision) { d.Feasible = []string{"n2"}; d.Unlisted = []string{"n3"} }, "not evaluated"},
		{"score", func(d *Decision) { d.Scores["n3"]["NodeResourcesFit"] = 41 }, "node n3 plugin NodeResourcesFit: upstream score 40, engine 41"},
		{"plugin skipped", func(d *Decision) { delete(d.Scores["n3"], "TaintToleration") }, "engine absent"},
		{"no scores", func(d *Decision) { d.Scores = nil }, "scores: upstream scored 2 nodes, engine 0"},
		{"tie set", func(d *Decision) { d.Top = []string{"n2", "n3"} }, "top-score nodes"},
		{"message", func(d *Decision) { d.Message = "0/3 nodes are available" }, "FitError message"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			eng := base()
			tc.perturb(eng)
			diffs := compare(base(), eng)
			if len(diffs) == 0 || !strings.Contains(strings.Join(diffs, "\n"), tc.want) {
				t.Errorf("got %q, want a difference containing %q", diffs, tc.want)
			}
		})
	}
}

func TestTopNodes(t *testing.T) {
	got := topNodes(map[string]map[string]int64{
		"b": {"x": 1, "y": 2}, "a": {"x": 3}, "c": {"x": 2},
	})
	if strings.Join(got, ",") != "a,b" {
		t.Errorf("topNodes = %v, want [a b]", got)
	}
}

// The nominated node may be any of upstream's tied candidates; its victims
// must be upstream's for that node.
func TestCompareReportsPreemptionDifferences(t *testing.T) {
	upstream := &Decision{
		Rejected:  map[string]Verdict{"n1": {Code: "Unschedulable"}, "n2": {Code: "Unschedulable"}},
		Message:   "0/2 nodes are available: 2 Insufficient cpu.",
		Nominated: []string{"n1", "n2"},
		Victims:   map[string][]string{"n1": {"default/a"}, "n2": {"default/b"}},
	}
	engine := func(node string, victims ...string) *Decision {
		d := &Decision{Rejected: upstream.Rejected, Message: upstream.Message}
		if node != "" {
			d.Nominated = []string{node}
			d.Victims = map[string][]string{node: victims}
		}
		return d
	}
	for _, tc := range []struct {
		name string
		eng  *Decision
		want string // "" when they agree
	}{
		{"one tied candidate", engine("n2", "default/b"), ""},
		{"the other tied candidate", engine("n1", "default/a"), ""},
		{"not a candidate", engine("n3", "default/c"), "nominated node: upstream any of [n1 n2], engine n3"},
		{"no nomination", engine(""), "nominated node: upstream any of [n1 n2], engine []"},
		{"other victims", engine("n1", "default/a", "default/c"), "victims on n1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			diffs := strings.Join(compare(upstream, tc.eng), "\n")
			if (tc.want == "") != (diffs == "") || !strings.Contains(diffs, tc.want) {
				t.Errorf("got %q, want a difference containing %q", diffs, tc.want)
			}
		})
	}
	if d := compare(&Decision{Rejected: upstream.Rejected}, engine("n1", "default/a")); len(d) == 0 {
		t.Error("a nomination only the engine made is not reported")
	}
}

// Dry-run Filter Errors aggregated in another order compare equal; other
// errors, or other text, do not.
func TestNormalizePreemptionError(t *testing.T) {
	const fit = "0/3 nodes are available: 3 Insufficient cpu."
	errA := `running "DynamicResources" filter plugin: node n1: a, b`
	errB := `running "DynamicResources" filter plugin: node n2: c`
	agg := func(errs ...string) string { return fit + " preemption: [" + strings.Join(errs, ", ") + "]" }
	for _, tc := range []struct {
		name     string
		up, eng  string
		upErr    bool
		wantSame bool
	}{
		{"same order", agg(errA, errB), agg(errA, errB), true, true},
		{"other order", agg(errA, errB), agg(errB, errA), true, true},
		{"one error", fit + " preemption: " + errA, fit + " preemption: " + errA, true, true},
		{"other errors", agg(errA, errB), agg(errA, errA), true, false},
		{"the first error only", agg(errA, errB), fit + " preemption: " + errA, true, false},
		{"no upstream error", agg(errA, errB), agg(errB, errA), false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			up := &Decision{Message: tc.up, postFilterError: tc.upErr}
			eng := &Decision{Message: tc.eng}
			if got := normalizePreemptionError(up, eng); got != tc.upErr {
				t.Errorf("normalizePreemptionError = %v, want %v", got, tc.upErr)
			}
			if same := len(compare(up, eng)) == 0; same != tc.wantSame {
				t.Errorf("compare after normalizing: same = %v, want %v (%q vs %q)", same, tc.wantSame, up.Message, eng.Message)
			}
		})
	}
}
