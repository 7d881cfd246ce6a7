package plugin

import (
	"testing"

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
