package sched_test

import (
	"context"
	"testing"

	"github.com/libsched/libsched/go/internal/schedtest"
	"github.com/libsched/libsched/go/sched"
)

func TestNodes(t *testing.T) {
	e := newEngine(t, "{}")
	if _, err := e.Apply(schedtest.Array(
		schedtest.Event("ADDED", schedtest.Node("n1", "2", 110)),
		schedtest.Event("ADDED", schedtest.Node("n2", "1", 110)),
		schedtest.Event("ADDED", schedtest.Pod("bound", "250m", "n2")))); err != nil {
		t.Fatal(err)
	}
	// Only n1 has room: the assumed pod counts there.
	if r, err := e.Schedule(context.Background(), schedtest.Pod("a", "1500m", ""), sched.Assume); err != nil || r.Node != "n1" {
		t.Fatalf("Schedule = %+v, %v", r, err)
	}
	nodes, err := e.Nodes(sched.NodeQuery{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][2]int64{}
	for _, n := range nodes {
		got[n.Name] = [2]int64{n.Requested.MilliCPU, n.PodCount}
	}
	if len(nodes) != 2 || nodes[0].Name != "n1" || got["n1"] != [2]int64{1500, 1} || got["n2"] != [2]int64{250, 1} {
		t.Errorf("Nodes = %+v", nodes)
	}
	if n := nodes[0]; n.Allocatable.MilliCPU != 2000 || n.Allocatable.AllowedPodNumber != 110 ||
		n.Requested.Memory != 100<<20 || n.Labels["kubernetes.io/hostname"] != "n1" {
		t.Errorf("n1 = %+v", n)
	}

	for _, tc := range []struct {
		name string
		q    sched.NodeQuery
		want []string
	}{
		{"names", sched.NodeQuery{Names: []string{"n2", "gone"}}, []string{"n2"}},
		{"selector", sched.NodeQuery{LabelSelector: &sched.LabelSelector{
			MatchExpressions: []sched.LabelSelectorRequirement{
				{Key: "kubernetes.io/hostname", Operator: "NotIn", Values: []string{"n2"}}}}}, []string{"n1"}},
	} {
		nodes, err := e.Nodes(tc.q)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var names []string
		for _, n := range nodes {
			names = append(names, n.Name)
		}
		if len(names) != len(tc.want) || names[0] != tc.want[0] {
			t.Errorf("%s: Nodes = %v, want %v", tc.name, names, tc.want)
		}
	}

	_, err = e.Nodes(sched.NodeQuery{LabelSelector: &sched.LabelSelector{
		MatchExpressions: []sched.LabelSelectorRequirement{{Key: "k", Operator: "Bogus"}}}})
	wantError(t, err, sched.ErrInvalidArgument, sched.CodeInvalidArgument, "labelSelector.matchExpressions[0]", "")
	_, err = e.Nodes(sched.NodeQuery{Names: []string{""}})
	wantError(t, err, sched.ErrInvalidArgument, sched.CodeInvalidArgument, "names[0]", "")

	e.Close()
	if _, err := e.Nodes(sched.NodeQuery{}); err != sched.ErrClosed {
		t.Errorf("Nodes after Close = %v", err)
	}
}
