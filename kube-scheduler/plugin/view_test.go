package plugin

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/libsched/libsched/go/sched"
)

type event struct {
	eventType string
	obj       runtime.Object
}

func testNode(rv string, taints ...v1.Taint) *v1.Node {
	return &v1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: "n1", ResourceVersion: rv, Labels: map[string]string{v1.LabelHostname: "n1"}},
		Spec:       v1.NodeSpec{Taints: taints},
		Status: v1.NodeStatus{Allocatable: v1.ResourceList{v1.ResourceCPU: resource.MustParse("2"),
			v1.ResourceMemory: resource.MustParse("8Gi"), v1.ResourcePods: resource.MustParse("110")}},
	}
}

func testPod(name, rv, node string, priority int32) *v1.Pod {
	return &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns", UID: types.UID("uid-" + name), ResourceVersion: rv},
		Spec: v1.PodSpec{NodeName: node, SchedulerName: engineProfile, Priority: &priority, Containers: []v1.Container{{Name: "c",
			Resources: v1.ResourceRequirements{Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse("1500m")}}}}},
	}
}

// newTestEngine is an engine with the default config, closed when t ends.
func newTestEngine(t testing.TB) *sched.Engine {
	t.Helper()
	engine, err := sched.New([]byte(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { engine.Close() })
	return engine
}

// testFeed feeds engine for a scheduler whose one profile is the engine's.
func testFeed(engine *sched.Engine, view *engineView) *feed {
	return &feed{engine: engine, view: view, logger: klog.Background(), profiles: map[string]bool{engineProfile: true}}
}

// newStores returns stores as the Node and Pod informers index them.
func newStores() (nodes, pods cache.Indexer) {
	return cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{}),
		cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
}

// TestPreFilterCatchesUp: the engine's feed and the scheduler's cache
// follow the informers separately. PreFilter must decide on an engine at
// least as new as the snapshot: wait for events the feed has not applied
// yet (late), not wait when the feed ran ahead, and give up with an Error
// (retry from backoff) when the feed never catches up.
func TestPreFilterCatchesUp(t *testing.T) {
	taint := v1.Taint{Key: "k", Effect: v1.TaintEffectNoSchedule}
	victim := testPod("victim", "2", "n1", 0)
	assumed := testPod("assumed", "5", "n1", 0)
	pendingAgain := testPod("assumed", "6", "", 0) // a late status patch of the assumed pod
	// The assumed pod as the API server's binding writes it, and a bound
	// version that differs in what the engine reads (a label).
	bound := testPod("assumed", "7", "n1", 0)
	bound.Status.Conditions = []v1.PodCondition{{Type: v1.PodScheduled, Status: v1.ConditionTrue}}
	relabelled := bound.DeepCopy()
	relabelled.ResourceVersion, relabelled.Labels = "8", map[string]string{"app": "x"}
	tests := []struct {
		name     string
		fed      []event          // applied by the feed before PreFilter
		reserved *v1.Pod          // assumed by Reserve after fed
		fedAfter []event          // applied by the feed after Reserve
		late     []event          // applied by the feed while PreFilter runs
		store    []runtime.Object // the informers' stores
		snapshot []*v1.Pod        // pods on n1 in the scheduler's snapshot
		node     *v1.Node         // n1 in the scheduler's snapshot
		pod      *v1.Pod
		maxLag   time.Duration
		wantNode string
		wantErr  string
	}{
		{
			name: "preemption victim's deletion fed late",
			fed:  []event{{eventAdded, testNode("1")}, {eventAdded, victim}}, late: []event{{eventDeleted, victim}},
			store: []runtime.Object{testNode("1")}, node: testNode("1"),
			pod: testPod("high", "3", "", 1000), wantNode: "n1",
		},
		{
			name: "node update fed late",
			fed:  []event{{eventAdded, testNode("1", taint)}}, late: []event{{eventModified, testNode("4")}},
			store: []runtime.Object{testNode("4")}, node: testNode("4"),
			pod: testPod("p", "3", "", 0), wantNode: "n1",
		},
		{
			name: "node addition fed late", late: []event{{eventAdded, testNode("1")}},
			store: []runtime.Object{testNode("1")}, node: testNode("1"),
			pod: testPod("p", "3", "", 0), wantNode: "n1",
		},
		{
			name:  "feed ahead of the snapshot: no wait",
			fed:   []event{{eventAdded, testNode("1")}, {eventAdded, victim}, {eventDeleted, victim}},
			store: []runtime.Object{testNode("1")}, node: testNode("1"), snapshot: []*v1.Pod{victim},
			pod: testPod("high", "3", "", 1000), maxLag: time.Hour, wantNode: "n1",
		},
		{
			name:  "feed stuck",
			fed:   []event{{eventAdded, testNode("1")}, {eventAdded, victim}},
			store: []runtime.Object{testNode("1")}, node: testNode("1"),
			pod: testPod("high", "3", "", 1000), maxLag: 50 * time.Millisecond,
			wantErr: "has not applied the scheduler's version of pod ns/victim",
		},
		{
			name: "a pending update after Reserve: no wait",
			fed:  []event{{eventAdded, testNode("1")}}, reserved: assumed, fedAfter: []event{{eventModified, pendingAgain}},
			store: []runtime.Object{testNode("1"), pendingAgain}, node: testNode("1"), snapshot: []*v1.Pod{assumed},
			pod: testPod("p", "3", "", 0), maxLag: time.Hour, wantNode: "",
		},
		{
			name: "the assumed pod's binding not fed yet: no wait",
			fed:  []event{{eventAdded, testNode("1")}}, reserved: assumed,
			store: []runtime.Object{testNode("1"), bound}, node: testNode("1"), snapshot: []*v1.Pod{bound},
			pod: testPod("p", "3", "", 0), maxLag: 50 * time.Millisecond, wantNode: "",
		},
		{
			name: "the assumed pod bound and relabelled, fed late",
			fed:  []event{{eventAdded, testNode("1")}}, reserved: assumed, late: []event{{eventModified, relabelled}},
			store: []runtime.Object{testNode("1"), relabelled}, node: testNode("1"), snapshot: []*v1.Pod{relabelled},
			pod: testPod("p", "3", "", 0), wantNode: "",
		},
		{
			name: "the assumed pod bound and relabelled, never fed",
			fed:  []event{{eventAdded, testNode("1")}}, reserved: assumed,
			store: []runtime.Object{testNode("1"), relabelled}, node: testNode("1"), snapshot: []*v1.Pod{relabelled},
			pod: testPod("p", "3", "", 0), maxLag: 50 * time.Millisecond,
			wantErr: "has not applied the scheduler's version of pod ns/assumed",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			engine := newTestEngine(t)
			nodeStore, podStore := newStores()
			for _, obj := range tc.store {
				store := podStore
				if _, ok := obj.(*v1.Node); ok {
					store = nodeStore
				}
				if err := store.Add(obj); err != nil {
					t.Fatal(err)
				}
			}
			view := newEngineView(corelisters.NewNodeLister(nodeStore), corelisters.NewPodLister(podStore))
			view.maxLag = 10 * time.Second // generous: the late events come after 20 ms
			if tc.maxLag != 0 {
				view.maxLag = tc.maxLag
			}
			f := testFeed(engine, view)
			pl := &LibSched{args: Args{Mode: ModeAlgorithm}, engine: engine, feed: f, clock: newEngineClock(time.Now)}
			for _, ev := range tc.fed {
				f.apply(ev.eventType, ev.obj)
			}
			if tc.reserved != nil {
				if st := pl.Reserve(context.Background(), nil, tc.reserved, "n1"); !st.IsSuccess() {
					t.Fatal(st)
				}
			}
			for _, ev := range tc.fedAfter {
				f.apply(ev.eventType, ev.obj)
			}
			go func() {
				time.Sleep(20 * time.Millisecond)
				for _, ev := range tc.late {
					f.apply(ev.eventType, ev.obj)
				}
			}()
			ni := framework.NewNodeInfo(tc.snapshot...)
			ni.SetNode(tc.node)
			res, st := pl.PreFilter(context.Background(), framework.NewCycleState(), tc.pod, []fwk.NodeInfo{ni})
			if tc.wantErr != "" {
				if st.Code() != fwk.Error || !strings.Contains(st.Message(), tc.wantErr) {
					t.Fatalf("PreFilter = %v %q, want an Error with %q", st.Code(), st.Message(), tc.wantErr)
				}
				return
			}
			if !st.IsSuccess() {
				t.Fatalf("PreFilter = %v %q, want success", st.Code(), st.Message())
			}
			got := ""
			if res != nil {
				got = strings.Join(res.NodeNames.UnsortedList(), ",")
			}
			if got != tc.wantNode {
				t.Errorf("PreFilter chose %q, want %q", got, tc.wantNode)
			}
		})
	}
}

// BenchmarkPreFilterCatchUp measures catchUp's per-cycle cost beside the
// engine's cycle on the same cluster (n nodes, 10 pods each): before each
// timed catchUp, one node changes (a pod assumed on it, or forgotten) in the
// view and the snapshot, as the previous cycle's Reserve does.
// Run: go test -run '^$' -bench PreFilterCatchUp ./plugin/
func BenchmarkPreFilterCatchUp(b *testing.B) {
	for _, n := range []int{500, 5000} {
		engine := newTestEngine(b)
		nodeStore, podStore := newStores()
		view := newEngineView(corelisters.NewNodeLister(nodeStore), corelisters.NewPodLister(podStore))
		f := testFeed(engine, view)
		nodes := make([]fwk.NodeInfo, n)
		for i := range nodes {
			node := testNode("1")
			node.Name = fmt.Sprintf("n%d", i)
			f.apply(eventAdded, node)
			ni := framework.NewNodeInfo()
			ni.SetNode(node)
			for j := 0; j < 10; j++ {
				p := testPod(fmt.Sprintf("p%d-%d", i, j), "1", node.Name, 0)
				p.Spec.Containers[0].Resources.Requests[v1.ResourceCPU] = resource.MustParse("10m")
				f.apply(eventAdded, p)
				ni.AddPod(p)
			}
			nodes[i] = ni
		}
		ctx := context.Background()
		if err := view.catchUp(ctx, nodes); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("catchUp/%dNodes", n), func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				b.StopTimer() // upstream's and the feed's part
				ni := nodes[i%n].(*framework.NodeInfo)
				p := testPod(fmt.Sprintf("assumed-%d", i%n), "1", ni.Node().Name, 0)
				if i/n%2 == 0 {
					ni.AddPod(p)
					view.record(eventAdded, p, false)
				} else {
					if err := ni.RemovePod(klog.Background(), p); err != nil {
						b.Fatal(err)
					}
					view.record(eventDeleted, p, false)
				}
				b.StartTimer()
				if err := view.catchUp(ctx, nodes); err != nil {
					b.Fatal(err)
				}
			}
		})
		doc, err := encodePod(testPod("p", "1", "", 0), ModeAlgorithm)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("engineSchedule/%dNodes", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := engine.Schedule(ctx, doc, sched.NodeStatuses); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
