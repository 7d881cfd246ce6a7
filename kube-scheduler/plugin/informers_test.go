package plugin

import (
	"context"
	"fmt"
	"sync"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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

// A nomination PostFilter made (feed.nominate) outlives the pod's events
// that carry none, as upstream's nominator keeps an in-memory nomination
// through such an update: the feed's informer handler runs apart from the
// scheduler's, so the pod's Add can reach the engine after its cycle
// nominated it (TestNominationReachesTheEngineBeforeTheAPI failed so under
// load). An event that shows a nomination, clears it, binds or deletes the
// pod ends it.
func TestFeedKeepsTheNominationMadeInMemory(t *testing.T) {
	pending := func(nominated string) *v1.Pod {
		p := testPod("nominated", "2", "", 1000)
		p.Status.NominatedNodeName = nominated
		return p
	}
	// Each case's events follow the pod's Add and its cycle's nomination
	// of n1.
	tests := []struct {
		name     string
		events   func(f *feed) error
		wantNode string // where a second pod of the same priority goes
	}{
		{"a late Add and Modify without the nomination", func(f *feed) error {
			f.apply(eventAdded, pending(""))
			f.apply(eventModified, pending(""))
			return nil
		}, ""},
		{"the API shows the nomination, then clears it", func(f *feed) error {
			f.apply(eventModified, pending("n1"))
			f.apply(eventModified, pending(""))
			return nil
		}, "n1"},
		{"the cycle clears its nomination", func(f *feed) error {
			if err := f.nominate(pending("n1"), ""); err != nil {
				return err
			}
			f.apply(eventModified, pending(""))
			return nil
		}, "n1"},
		{"deleted, then added again", func(f *feed) error {
			f.apply(eventDeleted, pending(""))
			f.apply(eventAdded, pending(""))
			return nil
		}, "n1"},
		{"deleted as a tombstone, then added again", func(f *feed) error {
			f.apply(eventDeleted, cache.DeletedFinalStateUnknown{Key: "ns/nominated", Obj: pending("")})
			f.apply(eventAdded, pending(""))
			return nil
		}, "n1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			engine := newTestEngine(t)
			f := testFeed(engine, newEngineView(nil, nil))
			f.apply(eventAdded, testNode("1"))
			f.apply(eventAdded, pending(""))
			if err := f.nominate(pending(""), "n1"); err != nil {
				t.Fatal(err)
			}
			if err := tc.events(f); err != nil {
				t.Fatal(err)
			}
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

// The feed sends the engine every update it reads, status-only ones
// included: each step below changes the engine's answer for the same pod,
// so a feed that skipped or trimmed any of them would fail here.
func TestFeedAppliesEveryUpdateTheEngineReads(t *testing.T) {
	engine := newTestEngine(t)
	f := testFeed(engine, newEngineView(nil, nil))
	pod := testPod("p", "1", "", 0)
	pod.Spec.Affinity = &v1.Affinity{PodAntiAffinity: &v1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []v1.PodAffinityTerm{{
		LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "x"}}, TopologyKey: v1.LabelHostname}}}}
	doc, err := encodePod(pod, ModeAlgorithm)
	if err != nil {
		t.Fatal(err)
	}
	nominated := testPod("nominated", "2", "", 1000)
	withNomination := nominated.DeepCopy()
	withNomination.ResourceVersion, withNomination.Status.NominatedNodeName = "3", "n1"
	withoutNomination := nominated.DeepCopy()
	withoutNomination.ResourceVersion = "4"
	bound := testPod("bound", "5", "n1", 0)
	bound.Spec.Containers[0].Resources.Requests = v1.ResourceList{v1.ResourceCPU: resource.MustParse("100m")}
	relabelled := bound.DeepCopy()
	relabelled.ResourceVersion, relabelled.Labels = "6", map[string]string{"app": "x"}
	steps := []struct {
		name     string
		event    event
		wantNode string
	}{
		{"node", event{eventAdded, testNode("1")}, "n1"},
		{"pending pod", event{eventAdded, nominated}, "n1"},
		{"status-only: nominated to n1", event{eventModified, withNomination}, ""},
		{"status-only: nomination cleared", event{eventModified, withoutNomination}, "n1"},
		{"bound pod", event{eventAdded, bound}, "n1"},
		{"metadata-only: labels the pod repels", event{eventModified, relabelled}, ""},
		{"bound pod deleted", event{eventDeleted, relabelled}, "n1"},
	}
	for _, s := range steps {
		f.apply(s.event.eventType, s.event.obj)
		res, err := engine.Schedule(context.Background(), doc)
		if err != nil {
			t.Fatal(err)
		}
		if res.Node != s.wantNode {
			t.Fatalf("after %s: pod placed on %q, want %q", s.name, res.Node, s.wantNode)
		}
	}
}

// Events sent at once from several handlers (each informer's goroutine)
// share the feed's pooled buffers: every one reaches the engine intact.
func TestFeedConcurrentEvents(t *testing.T) {
	engine := newTestEngine(t)
	f := testFeed(engine, newEngineView(nil, nil))
	const senders, each = 4, 50
	var wg sync.WaitGroup
	for s := range senders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				n := testNode("1")
				n.Name = fmt.Sprintf("n-%d-%d", s, i)
				n.Labels = map[string]string{v1.LabelHostname: n.Name}
				f.apply(eventAdded, n)
			}
		}()
	}
	wg.Wait()
	doc, err := encodePod(testPod("p", "1", "", 0), ModeAlgorithm)
	if err != nil {
		t.Fatal(err)
	}
	res, err := engine.Schedule(context.Background(), doc)
	if err != nil {
		t.Fatal(err)
	}
	if res.NumAllNodes != senders*each || res.Node == "" {
		t.Errorf("engine has %d nodes (placed on %q), want %d", res.NumAllNodes, res.Node, senders*each)
	}
}
