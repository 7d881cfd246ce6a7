package sched_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/libsched/libsched/go/internal/schedtest"
	"github.com/libsched/libsched/go/sched"
)

func TestCapacity(t *testing.T) {
	cluster := schedtest.Array(
		schedtest.Event("ADDED", schedtest.Node("n1", "2", 110)),
		schedtest.Event("ADDED", schedtest.Node("n2", "1", 110)),
		schedtest.Event("ADDED", schedtest.Pod("bound", "250m", "n2")))
	e := newEngine(t, `{"seed":3}`)
	if _, err := e.Apply(cluster); err != nil {
		t.Fatal(err)
	}
	c, err := e.Capacity(context.Background(), schedtest.Pod("web", "500m", ""), 0)
	if err != nil {
		t.Fatal(err)
	}
	// n1 holds 4, n2 one (750m left).
	if c.Replicas != 5 || c.Capped || len(c.Placements) != 5 ||
		len(c.Nodes) != 2 || c.Nodes[0] != (sched.NodeReplicas{Node: "n1", Replicas: 4}) {
		t.Errorf("Capacity = %+v", c)
	}
	// The slow path on a twin engine: the same nodes, one by one.
	slow := newEngine(t, `{"seed":3}`)
	if _, err := slow.Apply(cluster); err != nil {
		t.Fatal(err)
	}
	for i, want := range c.Placements {
		r, err := slow.Schedule(context.Background(), schedtest.Pod(fmt.Sprintf("web-capacity-%d", i), "500m", ""), sched.Assume)
		if err != nil || r.Node != want {
			t.Fatalf("replica %d: %+v, %v; capacity placed it on %s", i, r, err, want)
		}
	}
	// The asked engine is unchanged: the same answer again.
	again, err := e.Capacity(context.Background(), schedtest.Pod("web", "500m", ""), 2)
	if err != nil || again.Replicas != 2 || !again.Capped || again.Placements[0] != c.Placements[0] {
		t.Errorf("capped: %+v, %v", again, err)
	}
	var serr *sched.Error
	if _, err := e.Capacity(context.Background(), schedtest.Pod("p", "1", "n1"), 0); !errors.As(err, &serr) || serr.Path != "pod.spec.nodeName" {
		t.Errorf("bound template: %v", err)
	}
}
