package plugin

import (
	"context"
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	resourceapi "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/utils/ptr"
)

// fakeWall is a wall clock a test sets.
type fakeWall struct{ t time.Time }

func (w *fakeWall) now() time.Time { return w.t }

// TestEngineClockFollowsTheWallTime: the engine's clock reads the wall time
// as Unix milliseconds after each advance, and never goes back.
func TestEngineClockFollowsTheWallTime(t *testing.T) {
	engine := newTestEngine(t)
	wall := &fakeWall{t: time.Date(2026, 11, 27, 16, 0, 0, 999_999, time.UTC)}
	clock := newEngineClock(wall.now)
	for _, step := range []struct {
		name string
		by   time.Duration
		want time.Time // the engine's clock afterwards, as Unix time
	}{
		{"first: the jump from 0", 0, time.Date(2026, 11, 27, 16, 0, 0, 0, time.UTC)},
		{"forward", 1500 * time.Millisecond, time.Date(2026, 11, 27, 16, 0, 1, 500_000_000, time.UTC)},
		{"the wall clock stepped back", -time.Hour, time.Date(2026, 11, 27, 16, 0, 1, 500_000_000, time.UTC)},
		{"forward again", 2 * time.Hour, time.Date(2026, 11, 27, 17, 0, 1, 500_000_000, time.UTC)},
	} {
		wall.t = wall.t.Add(step.by)
		if err := clock.advance(engine); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		q, err := engine.Queue()
		if err != nil {
			t.Fatal(err)
		}
		if q.NowMillis != step.want.UnixMilli() {
			t.Errorf("%s: engine clock %d ms, want %d (%v)", step.name, q.NowMillis, step.want.UnixMilli(), step.want)
		}
	}
}

// TestBindingTimeoutOnTheWallTime: in whole-algorithm mode, a claim whose
// device waits for binding conditions and was allocated more than
// DynamicResources' binding timeout (600 s) before the scheduler's wall
// time is refused with upstream's message (isClaimTimeout); a fresh one is
// placed, the pod waiting in PreBind.
func TestBindingTimeoutOnTheWallTime(t *testing.T) {
	wall := &fakeWall{t: time.Date(2026, 11, 27, 16, 0, 0, 0, time.UTC)}
	tests := []struct {
		name      string
		allocated time.Duration // before the wall time
		wantNode  string
	}{
		{name: "fresh", allocated: 599 * time.Second, wantNode: "n1"},
		{name: "at the timeout", allocated: 600 * time.Second, wantNode: "n1"}, // Before is strict
		{name: "timed out", allocated: 601 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			engine := newTestEngine(t)
			nodeStore, podStore := newStores()
			view := newEngineView(corelisters.NewNodeLister(nodeStore), corelisters.NewPodLister(podStore))
			f := testFeed(engine, view)
			pl := &LibSched{args: Args{Mode: ModeAlgorithm}, engine: engine, feed: f, clock: newEngineClock(wall.now)}
			node := testNode("1")
			f.apply(eventAdded, node)
			f.apply(eventAdded, waitingClaim(wall.t.Add(-tc.allocated)))
			pod := testPod("p", "2", "", 0)
			pod.Spec.ResourceClaims = []v1.PodResourceClaim{{Name: "gpu", ResourceClaimName: ptr.To("claim")}}
			ni := framework.NewNodeInfo()
			ni.SetNode(node)
			state := framework.NewCycleState()
			res, st := pl.PreFilter(context.Background(), state, pod, []fwk.NodeInfo{ni})
			if !st.IsSuccess() {
				t.Fatalf("PreFilter = %v %q, want success", st.Code(), st.Message())
			}
			if tc.wantNode != "" {
				if res == nil || !res.NodeNames.Has(tc.wantNode) {
					t.Fatalf("PreFilter result %v, want %s", res, tc.wantNode)
				}
				return
			}
			if res != nil {
				t.Fatalf("PreFilter chose %v, want no node", res.NodeNames.UnsortedList())
			}
			st = pl.Filter(context.Background(), state, pod, ni)
			if st.Code() != fwk.UnschedulableAndUnresolvable || st.Message() != "resourceclaim not available on the node" {
				t.Errorf("Filter = %v %q, want UnschedulableAndUnresolvable %q", st.Code(), st.Message(),
					"resourceclaim not available on the node")
			}
			if s, _ := readState(state); !strings.Contains(s.message, "1 resourceclaim not available on the node") {
				t.Errorf("FitError %q, want the binding timeout's reason", s.message)
			}
		})
	}
}

// waitingClaim is ns/claim, allocated at allocatedAt on a device whose
// binding condition "attached" is not reported yet (no status.devices).
func waitingClaim(allocatedAt time.Time) *resourceapi.ResourceClaim {
	return &resourceapi.ResourceClaim{
		ObjectMeta: metav1.ObjectMeta{Name: "claim", Namespace: "ns", UID: "claim-uid", ResourceVersion: "1"},
		Spec: resourceapi.ResourceClaimSpec{Devices: resourceapi.DeviceClaim{Requests: []resourceapi.DeviceRequest{
			{Name: "req", Exactly: &resourceapi.ExactDeviceRequest{DeviceClassName: "gpu"}}}}},
		Status: resourceapi.ResourceClaimStatus{Allocation: &resourceapi.AllocationResult{
			Devices: resourceapi.DeviceAllocationResult{Results: []resourceapi.DeviceRequestAllocationResult{{
				Request: "req", Driver: "gpu.example.com", Pool: "n1", Device: "gpu-0",
				BindingConditions: []string{"attached"}, BindingFailureConditions: []string{"failed"}}}},
			AllocationTimestamp: &metav1.Time{Time: allocatedAt},
		}},
	}
}
