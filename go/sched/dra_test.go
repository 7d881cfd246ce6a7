package sched_test

import (
	"context"
	"strings"
	"testing"

	"github.com/libsched/libsched/go/internal/schedtest"
	"github.com/libsched/libsched/go/sched"
)

// A pod whose ResourceClaim does not exist yet is refused on every node by
// DynamicResources' PreFilter with upstream's message; once the claim, its
// DeviceClass and a ResourceSlice with a device on n2 arrive, the pod is
// placed on n2, the one node with a device (docs/dra.md). A pod without
// claims is placed as before.
func TestScheduleAllocatesResourceClaims(t *testing.T) {
	const missing = `could not find ResourceClaim "prod/gpu-claim"`
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
	want := "0/2 nodes are available: " + missing + ". no new claims to deallocate, preemption: 0/2 nodes are available: " +
		"2 Preemption is not helpful for scheduling."
	if got.Reason != sched.ReasonUnschedulable || got.Node != "" || got.Message != want {
		t.Errorf("reason, node, message = %v, %q, %q; want Unschedulable, \"\", %q", got.Reason, got.Node, got.Message, want)
	}
	for _, ns := range got.NodeStatuses {
		if ns.Code != "UnschedulableAndUnresolvable" || ns.Plugin != "DynamicResources" {
			t.Errorf("node status = %+v", ns)
		}
	}
	objects := schedtest.Array(
		schedtest.Event("ADDED", []byte(`{"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass",`+
			`"metadata":{"name":"gpu.example.com"}}`)),
		schedtest.Event("ADDED", []byte(`{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim",`+
			`"metadata":{"name":"gpu-claim","namespace":"prod"},"spec":{"devices":{"requests":[`+
			`{"name":"gpu","exactly":{"deviceClassName":"gpu.example.com"}}]}}}`)),
		schedtest.Event("ADDED", []byte(`{"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice",`+
			`"metadata":{"name":"n2-gpus"},"spec":{"driver":"gpu.example.com","nodeName":"n2",`+
			`"pool":{"name":"n2","generation":1,"resourceSliceCount":1},"devices":[{"name":"gpu-0"}]}}`)))
	if _, err := e.Apply(objects); err != nil {
		t.Fatalf("Apply: %v", err)
	}
	got, err = e.Schedule(context.Background(), []byte(withClaims))
	if err != nil || got.Reason != sched.ReasonScheduled || got.Node != "n2" {
		t.Errorf("pod with a claim: %+v, %v; want scheduled on n2", got, err)
	}
	plain, err := e.Schedule(context.Background(), schedtest.Pod("plain", "100m", ""))
	if err != nil || plain.Reason != sched.ReasonScheduled {
		t.Errorf("pod without claims: %+v, %v; want scheduled", plain, err)
	}
}
