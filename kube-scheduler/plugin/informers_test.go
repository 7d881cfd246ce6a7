package plugin

import (
	"context"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
)

// The resource.k8s.io informers follow the DynamicResourceAllocation gate:
// an API server without resource.k8s.io/v1 must not keep the feed from
// syncing (scheduler_perf's PreemptionBasic emulates such a release).
func TestEngineInformersFollowTheDRAGate(t *testing.T) {
	f := informers.NewSharedInformerFactory(fake.NewClientset(), 0)
	draInformers := []cache.SharedIndexInformer{
		f.Resource().V1().ResourceClaims().Informer(),
		f.Resource().V1().DeviceClasses().Informer(),
		f.Resource().V1().ResourceSlices().Informer(),
	}
	has := func(infs []cache.SharedIndexInformer, want cache.SharedIndexInformer) bool {
		for _, inf := range infs {
			if inf == want {
				return true
			}
		}
		return false
	}
	without, with := engineInformers(f, false), engineInformers(f, true)
	if len(with) != len(without)+len(draInformers) {
		t.Errorf("%d informers with DRA, %d without: want %d more", len(with), len(without), len(draInformers))
	}
	for i, inf := range draInformers {
		if has(without, inf) {
			t.Errorf("DRA informer %d is watched with the gate off", i)
		}
		if !has(with, inf) {
			t.Errorf("DRA informer %d is not watched with the gate on", i)
		}
	}
	if !has(without, f.Core().V1().Pods().Informer()) {
		t.Error("the Pod informer is missing with the gate off")
	}
}

// The feed keeps this scheduler's pending pods in the engine, under the
// engine's profile name, so their nominations count in its two-pass
// filter; another scheduler's pending pods are not sent, as upstream's
// nominator never holds them.
func TestFeedCountsOnlyThisSchedulersNominations(t *testing.T) {
	tests := []struct {
		schedulerName string
		wantNode      string
	}{
		{schedulerName: "libsched", wantNode: ""},              // n1 is held for the nominated pod
		{schedulerName: v1.DefaultSchedulerName, wantNode: ""}, // the other profile shares the queue
		{schedulerName: "other-scheduler", wantNode: "n1"},     // not this scheduler's pod
	}
	for _, tc := range tests {
		t.Run(tc.schedulerName, func(t *testing.T) {
			engine := newTestEngine(t)
			f := testFeed(engine, newEngineView(nil, nil))
			f.profiles = map[string]bool{"libsched": true, v1.DefaultSchedulerName: true}
			f.apply(eventAdded, testNode("1"))
			nominated := testPod("nominated", "2", "", 1000)
			nominated.Spec.SchedulerName = tc.schedulerName
			nominated.Status.NominatedNodeName = "n1"
			f.apply(eventAdded, nominated)
			doc, err := encodePod(testPod("p", "3", "", 1000), ModeAlgorithm)
			if err != nil {
				t.Fatal(err)
			}
			res, err := engine.Schedule(context.Background(), doc)
			if err != nil {
				t.Fatal(err)
			}
			if res.Node != tc.wantNode {
				t.Errorf("pod placed on %q, want %q", res.Node, tc.wantNode)
			}
		})
	}
}
