package sched_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/libsched/libsched/go/internal/schedtest"
	"github.com/libsched/libsched/go/sched"
)

// Three nodes; n1 holds two pods. Draining n1 moves them as deleting n1
// and scheduling them one by one on a twin engine does.
func TestDrain(t *testing.T) {
	cluster := schedtest.Array(
		schedtest.Event("ADDED", schedtest.Node("n1", "2", 110)),
		schedtest.Event("ADDED", schedtest.Node("n2", "1", 110)),
		schedtest.Event("ADDED", schedtest.Node("n3", "1", 110)),
		schedtest.Event("ADDED", schedtest.Pod("a", "600m", "n1")),
		schedtest.Event("ADDED", schedtest.Pod("b", "600m", "n1")))
	e := newEngine(t, `{"seed":3}`)
	if _, err := e.Apply(cluster); err != nil {
		t.Fatal(err)
	}
	d, err := e.Drain(context.Background(), []string{"n1"})
	if err != nil {
		t.Fatal(err)
	}
	if !d.Removable || len(d.Nodes) != 1 || d.Nodes[0].Moved != 2 || len(d.Pods) != 2 {
		t.Fatalf("Drain = %+v", d)
	}
	slow := newEngine(t, `{"seed":3}`)
	if _, err := slow.Apply(cluster); err != nil {
		t.Fatal(err)
	}
	if _, err := slow.Apply(schedtest.Array(
		schedtest.Event("DELETED", schedtest.Pod("a", "600m", "n1")),
		schedtest.Event("DELETED", schedtest.Pod("b", "600m", "n1")),
		schedtest.Event("DELETED", schedtest.Node("n1", "2", 110)))); err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"a", "b"} {
		r, err := slow.Schedule(context.Background(), schedtest.Pod(name, "600m", ""), sched.Assume)
		if err != nil || d.Pods[i].Pod != "prod/"+name || r.Node != d.Pods[i].Node {
			t.Errorf("pod %s: slow path %+v, %v; drain %+v", name, r, err, d.Pods[i])
		}
	}
	// Draining two leaves a pod pending: the engine is unchanged, so the
	// pods are still on n1 to move.
	d, err = e.Drain(context.Background(), []string{"n1", "n2"})
	if err != nil || d.Removable || d.Nodes[0].Pending != 1 || d.Pods[1].Node != "" || d.Pods[1].Message == "" {
		t.Errorf("Drain(n1, n2) = %+v, %v", d, err)
	}
	var serr *sched.Error
	if _, err := e.Drain(context.Background(), []string{"n1", "nope"}); !errors.As(err, &serr) || serr.Path != "nodes[1]" {
		t.Errorf("unknown node: %v", err)
	}
}

// Preempt answers what Schedule answers, without changing the engine;
// deleting its victims makes room on its nominated node.
func TestPreempt(t *testing.T) {
	cluster := schedtest.Array(
		schedtest.Event("ADDED", schedtest.Node("n1", "1", 110)),
		schedtest.Event("ADDED", schedtest.Pod("low", "1", "n1")))
	high := []byte(`{"kind":"Pod","metadata":{"name":"high","namespace":"prod"},` +
		`"spec":{"priority":10,"containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]}}`)
	e := newEngine(t, `{"seed":3}`)
	real := newEngine(t, `{"seed":3}`)
	for _, x := range []*sched.Engine{e, real} {
		if _, err := x.Apply(cluster); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < 2; i++ { // twice: the first changed nothing
		w, err := e.Preempt(context.Background(), high)
		if err != nil || w.NominatedNodeName != "n1" || len(w.Victims) != 1 || w.Victims[0].Name != "low" {
			t.Fatalf("Preempt = %+v, %v", w, err)
		}
	}
	r, err := real.Schedule(context.Background(), high)
	if err != nil || fmt.Sprint(r.Victims) != "[{prod low low-uid}]" || r.NominatedNodeName != "n1" {
		t.Errorf("Schedule = %+v, %v", r, err)
	}
	var serr *sched.Error
	if _, err := e.Preempt(context.Background(), []byte(`{"kind":"Node"}`)); !errors.As(err, &serr) || serr.Path != "pod.kind" {
		t.Errorf("bad pod: %v", err)
	}
}
