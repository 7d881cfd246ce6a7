package cloop_test

import (
	"testing"

	"github.com/libsched/libsched/go/internal/cloop"
	"github.com/libsched/libsched/go/internal/schedtest"
)

func newEngine(b *testing.B) *cloop.Engine {
	e, err := cloop.New(schedtest.BenchCluster)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(e.Close)
	return e
}

// BenchmarkCLoopApply is BenchmarkApply of package sched without cgo.
func BenchmarkCLoopApply(b *testing.B) {
	e := newEngine(b)
	b.ResetTimer()
	if err := e.ApplyN(schedtest.BenchEvent, b.N); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkCLoopSchedule is BenchmarkSchedule of package sched without cgo.
func BenchmarkCLoopSchedule(b *testing.B) {
	e := newEngine(b)
	b.ResetTimer()
	if err := e.ScheduleN(schedtest.BenchPod, b.N); err != nil {
		b.Fatal(err)
	}
}
