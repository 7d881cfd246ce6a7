package sched_test

import (
	"context"
	"errors"
	"testing"

	"github.com/libsched/libsched/go/internal/schedtest"
	"github.com/libsched/libsched/go/sched"
)

func TestExplain(t *testing.T) {
	e := newEngine(t, "{}")
	if _, err := e.Apply(schedtest.Array(
		schedtest.Event("ADDED", schedtest.Node("n1", "2", 110)),
		schedtest.Event("ADDED", schedtest.Node("n2", "1", 110)),
		schedtest.Event("ADDED", schedtest.Node("n3", "1", 110)),
		schedtest.Event("ADDED", schedtest.Pod("bound", "250m", "n2")))); err != nil {
		t.Fatal(err)
	}
	x, err := e.Explain(context.Background(), schedtest.Pod("p", "1200m", ""))
	if err != nil {
		t.Fatal(err)
	}
	if x.Error || x.NumAllNodes != 3 || x.FeasibleNodes != 1 || x.Message != "1/3 nodes are feasible." {
		t.Errorf("Explain = %+v", x)
	}
	// n3 lacks 200m, n2 450m: the smallest shortfall is reported.
	if len(x.NearestMisses) != 1 || x.NearestMisses[0].Text != "needs 200m more cpu on 2 nodes" ||
		len(x.NearestMisses[0].Shortfalls) != 1 || x.NearestMisses[0].Shortfalls[0].Amount != 200 {
		t.Errorf("NearestMisses = %+v", x.NearestMisses)
	}
	if len(x.Reasons) != 1 || x.Reasons[0] != (sched.ReasonCount{Reason: "Insufficient cpu", Nodes: 2}) {
		t.Errorf("Reasons = %+v", x.Reasons)
	}
	if len(x.Nodes) != 3 {
		t.Fatalf("Nodes = %+v", x.Nodes)
	}
	for _, n := range x.Nodes {
		if n.Feasible != (n.Node == "n1") || len(n.Filters) == 0 {
			t.Errorf("node %+v", n)
		}
		if n.Feasible && len(n.Scores) != len(x.ScorePlugins) {
			t.Errorf("scores of %s: %+v for %d plugins", n.Node, n.Scores, len(x.ScorePlugins))
		}
		if !n.Feasible && (n.Plugin != "NodeResourcesFit" || n.Code != "UnschedulableAndUnresolvable") { // 1200m > 1 CPU: no preemption helps
			t.Errorf("verdict of %s: %+v", n.Node, n.Verdict)
		}
	}

	// A bad pod is an error with its path; a closed engine says so.
	var serr *sched.Error
	if _, err := e.Explain(context.Background(), []byte(`{"kind":"Node"}`)); !errors.As(err, &serr) || serr.Path != "kind" {
		t.Errorf("bad pod: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Explain(ctx, schedtest.Pod("p", "1", "")); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled: %v", err)
	}
	e.Close()
	if _, err := e.Explain(context.Background(), schedtest.Pod("p", "1", "")); !errors.Is(err, sched.ErrClosed) {
		t.Errorf("closed: %v", err)
	}
}
