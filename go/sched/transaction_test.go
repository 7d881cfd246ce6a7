package sched_test

import (
	"context"
	"errors"
	"testing"

	"github.com/libsched/libsched/go/internal/schedtest"
	"github.com/libsched/libsched/go/sched"
)

// podCount sums the pods bound or assumed on every node.
func podCount(t *testing.T, e *sched.Engine) int64 {
	t.Helper()
	nodes, err := e.Nodes(sched.NodeQuery{})
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	for _, node := range nodes {
		n += node.PodCount
	}
	return n
}

func TestTransactionRevertAndCommit(t *testing.T) {
	e := twoNodeEngine(t)
	ctx := context.Background()
	if err := e.Begin(); err != nil {
		t.Fatal(err)
	}
	if r, err := e.Schedule(ctx, schedtest.Pod("tried", "500m", ""), sched.Assume); err != nil || !r.Assumed {
		t.Fatalf("Schedule in a transaction = %+v, %v", r, err)
	}
	if n := podCount(t, e); n != 1 {
		t.Fatalf("pods inside the transaction = %d, want 1", n)
	}
	if err := e.Revert(); err != nil {
		t.Fatal(err)
	}
	if n := podCount(t, e); n != 0 {
		t.Fatalf("pods after Revert = %d, want 0", n)
	}
	if err := e.Begin(); err != nil {
		t.Fatal(err)
	}
	if _, err := e.Schedule(ctx, schedtest.Pod("kept", "500m", ""), sched.Assume); err != nil {
		t.Fatal(err)
	}
	if err := e.Commit(); err != nil {
		t.Fatal(err)
	}
	if n := podCount(t, e); n != 1 {
		t.Fatalf("pods after Commit = %d, want 1", n)
	}
	var se *sched.Error
	if err := e.Revert(); !errors.As(err, &se) || se.Code != sched.CodeInvalidArgument {
		t.Fatalf("Revert with none open = %v, want CodeInvalidArgument", err)
	}
}
