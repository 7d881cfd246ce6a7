package sched_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/libsched/libsched/go/internal/schedtest"
	"github.com/libsched/libsched/go/sched"
)

// Per-call overhead of the package; internal/cloop has the same calls made
// from a C loop (bench/RESULTS.md, "Go package per-call overhead").

func benchEngine(b *testing.B) *sched.Engine {
	e := newEngine(b, "{}")
	if _, err := e.Apply(schedtest.BenchCluster); err != nil {
		b.Fatal(err)
	}
	return e
}

// BenchmarkApply applies one watch event per call.
func BenchmarkApply(b *testing.B) {
	e := benchEngine(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := e.Apply(schedtest.BenchEvent); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSchedule schedules one pod on four nodes per call, no flags.
func BenchmarkSchedule(b *testing.B) {
	e := benchEngine(b)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := e.Schedule(ctx, schedtest.BenchPod); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScheduleParallel is BenchmarkSchedule from GOMAXPROCS
// goroutines on one engine, whose calls the library serializes.
func BenchmarkScheduleParallel(b *testing.B) {
	e := benchEngine(b)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := e.Schedule(ctx, schedtest.BenchPod); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkScheduleRejectedNodes schedules a pod that 4,999 of 5,000 nodes
// reject (too little cpu) and one accepts, the shape of a pod with
// anti-affinity late in a run: with NodeStatuses the answer lists every
// rejected node (NodeStatusGroups: the same verdicts grouped, here one
// group), with NodeStatusesIfNoNode (what a whole-algorithm kube-scheduler
// fork asks for) none, as the pod is placed.
func BenchmarkScheduleRejectedNodes(b *testing.B) {
	events := make([][]byte, 0, 5000)
	for i := 1; i < 5000; i++ {
		events = append(events, schedtest.Event("ADDED", schedtest.Node(fmt.Sprintf("small-%d", i), "1", 110)))
	}
	events = append(events, schedtest.Event("ADDED", schedtest.Node("big", "64", 110)))
	e := newEngine(b, "{}")
	if _, err := e.Apply(schedtest.Array(events...)); err != nil {
		b.Fatal(err)
	}
	pod := schedtest.Pod("wide", "2", "")
	ctx := context.Background()
	for _, flags := range []struct {
		name string
		set  []sched.ScheduleFlag
	}{
		{"NodeStatuses", []sched.ScheduleFlag{sched.NodeStatuses}},
		{"NodeStatusGroups", []sched.ScheduleFlag{sched.NodeStatuses, sched.NodeStatusGroups}},
		{"NodeStatusesIfNoNode", []sched.ScheduleFlag{sched.NodeStatusesIfNoNode}},
	} {
		b.Run(flags.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				r, err := e.Schedule(ctx, pod, flags.set...)
				if err != nil || r.Node != "big" {
					b.Fatalf("Schedule: %+v, %v", r, err)
				}
			}
		})
	}
}

// BenchmarkScheduleEveryNode schedules a pod that all of 500 or 5,000
// nodes accept, with the engine at percentageOfNodesToScore 100, as a
// plugin-mode kube-scheduler fork runs it: Scores gives every node's
// per-plugin scores (what the fork asked for before ScoreTotals; it reads
// the totals only), ScoreTotals the totals grouped (what it asked for
// before Engine.Score), StatusesThenScore the rejected nodes' statuses
// then Score of the nodes upstream's framework samples
// (numFeasibleNodesToFind: 230 of 500, 500 of 5,000 nodes; what it asks
// for now), against what a whole-algorithm fork asks for.
func BenchmarkScheduleEveryNode(b *testing.B) {
	for _, nodes := range []int{500, 5000} {
		b.Run(fmt.Sprintf("%dNodes", nodes), func(b *testing.B) { benchScheduleEveryNode(b, nodes) })
	}
}

func benchScheduleEveryNode(b *testing.B, nodes int) {
	events := make([][]byte, 0, nodes)
	for i := 0; i < nodes; i++ {
		events = append(events, schedtest.Event("ADDED", schedtest.Node(fmt.Sprintf("node-%d", i), "8", 110)))
	}
	e := newEngine(b, `{"percentageOfNodesToScore":100}`)
	if _, err := e.Apply(schedtest.Array(events...)); err != nil {
		b.Fatal(err)
	}
	pod := schedtest.Pod("p", "1", "")
	ctx := context.Background()
	// The nodes upstream's framework scores at the adaptive percentage.
	sampled := make([]string, max(nodes*(50-nodes/125)/100, min(nodes, 100)))
	for i := range sampled {
		sampled[i] = fmt.Sprintf("node-%d", i)
	}
	for _, flags := range []struct {
		name  string
		set   []sched.ScheduleFlag
		score bool // then Score of the sampled nodes
	}{
		{"Scores", []sched.ScheduleFlag{sched.NodeStatuses, sched.NodeStatusGroups, sched.Scores}, false},
		{"ScoreTotals", []sched.ScheduleFlag{sched.NodeStatuses, sched.NodeStatusGroups, sched.ScoreTotals}, false},
		{"StatusesThenScore", []sched.ScheduleFlag{sched.NodeStatuses, sched.NodeStatusGroups}, true},
		{"NodeStatusesIfNoNode", []sched.ScheduleFlag{sched.NodeStatusesIfNoNode, sched.NodeStatusGroups}, false},
	} {
		b.Run(flags.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				r, err := e.Schedule(ctx, pod, flags.set...)
				if err != nil || r.Node == "" {
					b.Fatalf("Schedule: %+v, %v", r, err)
				}
				if !flags.score {
					continue
				}
				s, err := e.Score(ctx, pod, sampled)
				if err != nil || s.Error || len(s.TotalScores) != len(sampled) {
					b.Fatalf("Score: %+v, %v", s, err)
				}
			}
		})
	}
}
