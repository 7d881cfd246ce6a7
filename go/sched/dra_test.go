package sched_test

import (
	"context"
	"strings"
	"testing"

	"github.com/libsched/libsched/go/internal/schedtest"
	"github.com/libsched/libsched/go/sched"
)

// A pod with spec.resourceClaims is refused on every node by
// DynamicResources' PreFilter, never placed as if it had no claims
// (docs/dra.md); a pod without claims is placed.
func TestScheduleRefusesResourceClaims(t *testing.T) {
	const refusal = "pod has spec.resourceClaims: DynamicResources (resource claims) is not supported by libsched"
	withClaims := strings.Replace(string(schedtest.Pod("gpu", "100m", "")), `"spec":{`,
		`"spec":{"resourceClaims":[{"name":"gpu","resourceClaimName":"gpu-claim"}],`, 1)
	if withClaims == string(schedtest.Pod("gpu", "100m", "")) {
		t.Fatal("test pod has no spec to add claims to")
	}
	e := twoNodeEngine(t)
	got, err := e.Schedule(context.Background(), []byte(withClaims), sched.NodeStatuses)
	if err != nil {
		t.Fatalf("Schedule: %v", err)
	}
	want := "0/2 nodes are available: " + refusal + ". preemption: 0/2 nodes are available: " +
		"2 Preemption is not helpful for scheduling."
	if got.Reason != sched.ReasonUnschedulable || got.Node != "" || got.Message != want {
		t.Errorf("reason, node, message = %v, %q, %q; want Unschedulable, \"\", %q", got.Reason, got.Node, got.Message, want)
	}
	if len(got.NodeStatuses) != 2 {
		t.Fatalf("node statuses = %+v, want both nodes", got.NodeStatuses)
	}
	for _, ns := range got.NodeStatuses {
		if ns.Code != "UnschedulableAndUnresolvable" || ns.Plugin != "DynamicResources" ||
			len(ns.Reasons) != 1 || ns.Reasons[0] != refusal {
			t.Errorf("node status = %+v", ns)
		}
	}
	plain, err := e.Schedule(context.Background(), schedtest.Pod("plain", "100m", ""))
	if err != nil || plain.Reason != sched.ReasonScheduled {
		t.Errorf("pod without claims: %+v, %v; want scheduled", plain, err)
	}
}
