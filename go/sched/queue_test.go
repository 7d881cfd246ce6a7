package sched_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/libsched/libsched/go/internal/schedtest"
	"github.com/libsched/libsched/go/sched"
)

func TestRunQueueAndClock(t *testing.T) {
	e := twoNodeEngine(t)
	ctx := context.Background()
	if _, err := e.Apply(schedtest.Array(
		schedtest.Event("ADDED", schedtest.Pod("small", "500m", "")),
		schedtest.Event("ADDED", schedtest.Pod("big", "4", "")))); err != nil {
		t.Fatal(err)
	}
	run, err := e.Run(ctx, 0, sched.NodeStatuses)
	if err != nil {
		t.Fatal(err)
	}
	placed := map[string]string{}
	for _, r := range run.Results {
		placed[r.Pod] = r.Node
	}
	if len(run.Results) != 2 || placed["prod/small"] == "" || placed["prod/big"] != "" {
		t.Fatalf("Run results = %+v", run.Results)
	}
	q, err := e.Queue()
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Pods) != 1 || q.Pods[0].Queue != sched.QueueUnschedulable ||
		len(q.Pods[0].UnschedulablePlugins) != 1 || q.Pods[0].UnschedulablePlugins[0] != "NodeResourcesFit" {
		t.Fatalf("Queue = %+v", q)
	}
	// A node with room moves the pod; after its backoff, Run places it.
	if _, err := e.Apply(schedtest.Node("n3", "8", 110)); err != nil {
		t.Fatal(err)
	}
	if err := e.AdvanceClock(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	if q, _ := e.Queue(); q.NowMillis != 10000 {
		t.Errorf("NowMillis = %d, want 10000", q.NowMillis)
	}
	run, err = e.Run(ctx, 0)
	if err != nil || len(run.Results) != 1 || run.Results[0].Node != "n3" {
		t.Fatalf("Run = %+v, %v", run, err)
	}
}

func TestRunAndClockErrors(t *testing.T) {
	e := newEngine(t, "{}")
	_, err := e.Run(context.Background(), 0, sched.Assume)
	wantError(t, err, sched.ErrInvalidArgument, sched.CodeInvalidArgument, "", "")
	wantError(t, e.AdvanceClock(-time.Second), sched.ErrInvalidArgument, sched.CodeInvalidArgument, "", "")
	wantError(t, e.AdvanceClock(9_000_000_001*time.Second), sched.ErrInvalidArgument, sched.CodeInvalidArgument, "", "")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.Run(ctx, 0); err != context.Canceled {
		t.Errorf("Run(canceled) = %v", err)
	}
	e.Close()
	if _, err := e.Queue(); err != sched.ErrClosed {
		t.Errorf("Queue after Close = %v", err)
	}
	if _, err := e.Stats(); err != sched.ErrClosed {
		t.Errorf("Stats after Close = %v", err)
	}
	if err := e.AdvanceClock(time.Second); err != sched.ErrClosed {
		t.Errorf("AdvanceClock after Close = %v", err)
	}
}

func TestStats(t *testing.T) {
	for _, tc := range []struct {
		config       string
		enabled      bool
		hits, misses int64
	}{
		{"{}", true, 1, 1},
		{`{"equivalenceCache":false}`, false, 0, 0},
	} {
		e := newEngine(t, tc.config)
		if _, err := e.Apply(schedtest.Node("n1", "2", 110)); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"a", "b"} {
			if _, err := e.Schedule(context.Background(), schedtest.Pod(name, "100m", ""), sched.Assume); err != nil {
				t.Fatal(err)
			}
		}
		s, err := e.Stats()
		if err != nil {
			t.Fatal(err)
		}
		c := s.EquivalenceCache
		if c.Enabled != tc.enabled || c.Hits != tc.hits || c.Misses != tc.misses {
			t.Errorf("%s: Stats = %+v", tc.config, c)
		}
	}
}

// Run, AdvanceClock, Queue, Stats and Nodes from many goroutines on one engine
// (with -race).
func TestConcurrentQueueCalls(t *testing.T) {
	e := newEngine(t, "{}")
	if _, err := e.Apply(schedtest.Node("n1", "64", 1000)); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				var err error
				switch i % 4 {
				case 0:
					_, err = e.Apply(schedtest.Event("ADDED", schedtest.Pod(
						"p-"+string(rune('a'+g))+"-"+string(rune('a'+i)), "10m", "")))
				case 1:
					_, err = e.Run(context.Background(), 2)
				case 2:
					err = e.AdvanceClock(time.Millisecond)
				default:
					_, err = e.Queue()
					if err == nil {
						_, err = e.Stats()
					}
					if err == nil {
						_, err = e.Nodes(sched.NodeQuery{})
					}
				}
				if err != nil {
					t.Error(err)
				}
			}
		}(g)
	}
	wg.Wait()
}

// A preemptor Run nominated shows its node in the queue until it is bound.
func TestQueueShowsNomination(t *testing.T) {
	e := newEngine(t, "{}")
	ctx := context.Background()
	high := `{"type":"ADDED","object":{"kind":"Pod","metadata":{"name":"high","namespace":"prod"},` +
		`"spec":{"priority":10,"containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]}}}`
	if _, err := e.Apply(schedtest.Array(
		schedtest.Event("ADDED", schedtest.Node("n1", "1", 110)),
		schedtest.Event("ADDED", schedtest.Pod("low", "1", "n1")),
		[]byte(high))); err != nil {
		t.Fatal(err)
	}
	if run, err := e.Run(ctx, 0); err != nil || len(run.Results) != 1 || run.Results[0].NominatedNodeName != "n1" {
		t.Fatalf("Run = %+v, %v", run, err)
	}
	q, err := e.Queue()
	if err != nil || len(q.Pods) != 1 || q.Pods[0].Pod != "prod/high" || q.Pods[0].NominatedNodeName != "n1" {
		t.Fatalf("Queue = %+v, %v", q, err)
	}
}
