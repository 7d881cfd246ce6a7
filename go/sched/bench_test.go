package sched_test

import (
	"context"
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
