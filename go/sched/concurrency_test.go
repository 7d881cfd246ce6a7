package sched_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/libsched/libsched/go/internal/schedtest"
	"github.com/libsched/libsched/go/sched"
)

// Many goroutines apply events and schedule pods on one engine at once (run
// with -race). Each worker adds its own nodes, each with room for two pods
// and one bound pod already on it, then schedules and assumes as many pods
// as it added nodes. A worker schedules only after its own nodes arrived,
// so room always exists and every pod must be scheduled; afterwards every
// node must hold exactly one assumed pod and be full. A lost node, bound
// pod or assumed pod shows up as a failed or misplaced schedule, or as room
// left at the end.
func TestConcurrentApplyAndSchedule(t *testing.T) {
	const workers, nodesPerWorker = 32, 4
	e := newEngine(t, `{"seed":7}`)
	ctx := context.Background()

	var applied atomic.Int64
	placed := make(chan string, workers*nodesPerWorker)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			nodeName := func(i int) string { return fmt.Sprintf("w%02d-n%d", w, i) }
			apply := func(docs ...[]byte) {
				s, err := e.Apply(schedtest.Array(docs...))
				if err != nil || s.Applied != len(docs) {
					t.Errorf("worker %d: Apply = %+v, %v; want %d applied", w, s, err, len(docs))
				}
				applied.Add(int64(s.Applied))
			}
			// Each node arrives with its bound pod in one call, so no
			// scheduled pod can take the bound pod's room first.
			var adds [][]byte
			for i := 0; i < nodesPerWorker; i++ {
				adds = append(adds,
					schedtest.Event("ADDED", schedtest.Node(nodeName(i), "4", 2)),
					schedtest.Event("ADDED", schedtest.Pod(nodeName(i)+"-bound", "100m", nodeName(i))))
			}
			// A node that comes and goes; with room for no pod, it never
			// takes one.
			tmp := schedtest.Node(fmt.Sprintf("w%02d-tmp", w), "64", 0)
			apply(append(adds, schedtest.Event("ADDED", tmp))...)
			apply(schedtest.Event("MODIFIED", schedtest.Node(nodeName(0), "4", 2)),
				schedtest.Event("DELETED", tmp))
			for i := 0; i < nodesPerWorker; i++ {
				pod := schedtest.Pod(fmt.Sprintf("w%02d-p%d", w, i), "100m", "")
				r, err := e.Schedule(ctx, pod, sched.Assume)
				if err != nil || r.Reason != sched.ReasonScheduled || !r.Assumed {
					t.Errorf("worker %d: Schedule = %+v, %v; want scheduled and assumed", w, r, err)
					continue
				}
				placed <- r.Node
			}
		}(w)
	}
	wg.Wait()
	close(placed)

	const nodes = workers * nodesPerWorker
	if want := int64(workers * (2*nodesPerWorker + 1 + 2)); applied.Load() != want {
		t.Errorf("applied %d items, want %d", applied.Load(), want)
	}
	perNode := map[string]int{}
	for node := range placed {
		perNode[node]++
	}
	for node, n := range perNode {
		if n != 1 {
			t.Errorf("node %s got %d assumed pods, want 1", node, n)
		}
	}
	if len(perNode) != nodes {
		t.Errorf("pods were placed on %d nodes, want %d", len(perNode), nodes)
	}
	r, err := e.Schedule(ctx, schedtest.Pod("probe", "100m", ""), sched.NodeStatuses)
	if err != nil {
		t.Fatalf("probe: %v", err)
	}
	want := fmt.Sprintf("0/%d nodes are available: %d Too many pods. no new claims to deallocate, preemption: "+
		"0/%d nodes are available: %d No preemption victims found for incoming pod.",
		nodes, nodes, nodes, nodes)
	if r.Message != want || r.NumAllNodes != nodes || len(r.NodeStatuses) != nodes {
		t.Errorf("probe = %q on %d nodes (%d statuses), want %q",
			r.Message, r.NumAllNodes, len(r.NodeStatuses), want)
	}
}

// Close while other goroutines call the engine: every call either works or
// returns ErrClosed, and nothing crashes (run with -race and cgocheck).
func TestCloseRacesCalls(t *testing.T) {
	e, err := sched.New([]byte("{}"))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	node := schedtest.Node("n1", "64", 110)
	if _, err := e.Apply(node); err != nil {
		t.Fatalf("Apply: %v", err)
	}
	pod := schedtest.Pod("p", "1m", "")
	var started, wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		started.Add(1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				r, err := e.Schedule(context.Background(), pod)
				if err == nil && r.Node != "n1" {
					t.Errorf("Schedule = %+v", r)
				}
				if err == nil {
					_, err = e.Apply(schedtest.Event("MODIFIED", node))
				}
				if i == 0 {
					started.Done()
				}
				if err != nil {
					if !errors.Is(err, sched.ErrClosed) {
						t.Errorf("call failed: %v, want ErrClosed", err)
					}
					return
				}
			}
		}()
	}
	started.Wait()
	// Two Close calls race each other as well as the calls.
	wg.Add(1)
	go func() {
		defer wg.Done()
		e.Close()
	}()
	e.Close()
	wg.Wait()
	if _, err := e.Apply(node); !errors.Is(err, sched.ErrClosed) {
		t.Errorf("Apply after Close: %v, want ErrClosed", err)
	}
}
