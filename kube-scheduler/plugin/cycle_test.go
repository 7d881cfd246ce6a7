package plugin

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/libsched/libsched/go/sched"
)

func TestNormalizeScores(t *testing.T) {
	tests := []struct {
		name string
		in   []int64
		want []int64
	}{
		{name: "top ties get the maximum", in: []int64{612, 700, 700, 350}, want: []int64{86, 100, 100, 49}},
		{name: "all zero is a tie", in: []int64{0, 0}, want: []int64{100, 100}},
		{name: "one node", in: []int64{5}, want: []int64{100}},
		{name: "zero below a positive top", in: []int64{0, 1000}, want: []int64{0, 100}},
		{name: "one below the top stays below", in: []int64{999, 1000}, want: []int64{98, 100}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			scores := make(fwk.NodeScoreList, len(tc.in))
			for i, s := range tc.in {
				scores[i] = fwk.NodeScore{Name: string(rune('a' + i)), Score: s}
			}
			normalizeScores(scores)
			got := make([]int64, len(scores))
			for i, s := range scores {
				got[i] = s.Score
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("normalized scores (-want +got):\n%s", diff)
			}
		})
	}
}

func TestStatusFrom(t *testing.T) {
	tests := []struct {
		code string
		want fwk.Code
	}{
		{"Unschedulable", fwk.Unschedulable},
		{"UnschedulableAndUnresolvable", fwk.UnschedulableAndUnresolvable},
		{"Error", fwk.Error},
	}
	for _, tc := range tests {
		st := statusFrom(tc.code, []string{"Insufficient cpu", "Too many pods"})
		if st.Code() != tc.want || !cmp.Equal(st.Reasons(), []string{"Insufficient cpu", "Too many pods"}) {
			t.Errorf("statusFrom(%q) = %v %v, want code %v and the engine's reasons", tc.code, st.Code(), st.Reasons(), tc.want)
		}
	}
}

func TestFilter(t *testing.T) {
	scheduled := &sched.Result{Node: "n1", Reason: sched.ReasonScheduled,
		NodeStatusGroups: []sched.NodeStatusGroup{
			{Code: "UnschedulableAndUnresolvable", Plugin: "NodeAffinity",
				Reasons: []string{"node(s) didn't match Pod's node affinity/selector"}, Nodes: []string{"n3", "n5"}},
			{Code: "Unschedulable", Plugin: "NodeResourcesFit", Reasons: []string{"Insufficient cpu"}, Nodes: []string{"n6"}}}}
	tests := []struct {
		name     string
		mode     Mode
		res      *sched.Result
		node     string
		wantCode fwk.Code
		wantMsg  string
	}{
		{name: "chosen", mode: ModePlugin, res: scheduled, node: "n1", wantCode: fwk.Success},
		{name: "feasible, plugin mode", mode: ModePlugin, res: scheduled, node: "n2", wantCode: fwk.Success},
		{name: "rejected", mode: ModePlugin, res: scheduled, node: "n3", wantCode: fwk.UnschedulableAndUnresolvable,
			wantMsg: "node(s) didn't match Pod's node affinity/selector"},
		{name: "rejected, second of its group", mode: ModePlugin, res: scheduled, node: "n5", wantCode: fwk.UnschedulableAndUnresolvable,
			wantMsg: "node(s) didn't match Pod's node affinity/selector"},
		{name: "rejected, second group", mode: ModePlugin, res: scheduled, node: "n6", wantCode: fwk.Unschedulable,
			wantMsg: "Insufficient cpu"},
		{name: "chosen, algorithm mode", mode: ModeAlgorithm, res: scheduled, node: "n1", wantCode: fwk.Success},
		{name: "feasible, algorithm mode", mode: ModeAlgorithm, res: scheduled, node: "n2", wantCode: fwk.Unschedulable, wantMsg: ErrReasonNotSelected},
		{name: "rejected, algorithm mode", mode: ModeAlgorithm, res: scheduled, node: "n6", wantCode: fwk.Unschedulable,
			wantMsg: "Insufficient cpu"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			state := framework.NewCycleState()
			state.Write(stateKey, newCycleState(tc.res))
			nodeInfo := framework.NewNodeInfo()
			nodeInfo.SetNode(&v1.Node{ObjectMeta: metav1.ObjectMeta{Name: tc.node}})
			pl := &LibSched{args: Args{Mode: tc.mode}}
			st := pl.Filter(context.Background(), state, &v1.Pod{}, nodeInfo)
			if st.Code() != tc.wantCode || st.Message() != tc.wantMsg {
				t.Errorf("Filter = %v %q, want %v %q", st.Code(), st.Message(), tc.wantCode, tc.wantMsg)
			}
		})
	}
}

// TestScore: each node's total from PreScore; 0 for a node the engine did
// not score.
func TestScore(t *testing.T) {
	state := framework.NewCycleState()
	state.Write(scoresKey, scoreState{"n1": 90, "n2": 80, "n7": 80})
	pl := &LibSched{args: Args{Mode: ModePlugin}}
	for node, want := range map[string]int64{"n1": 90, "n2": 80, "n7": 80, "n4": 0} {
		nodeInfo := framework.NewNodeInfo()
		nodeInfo.SetNode(&v1.Node{ObjectMeta: metav1.ObjectMeta{Name: node}})
		if got, st := pl.Score(context.Background(), state, &v1.Pod{}, nodeInfo); got != want || !st.IsSuccess() {
			t.Errorf("Score(%s) = %d %v, want %d", node, got, st, want)
		}
	}
}

// TestEncodePodResourceClaims: plugin mode hides resource claims from the
// engine (upstream's DynamicResources judges them) without touching the
// informer's pod; whole-algorithm mode sends them for the engine to refuse.
func TestEncodePodResourceClaims(t *testing.T) {
	claim := "gpu"
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns"},
		Spec: v1.PodSpec{
			ResourceClaims: []v1.PodResourceClaim{{Name: "gpu", ResourceClaimName: &claim}},
			Containers:     []v1.Container{{Name: "c", Resources: v1.ResourceRequirements{Claims: []v1.ResourceClaim{{Name: "gpu"}}}}},
		},
	}
	tests := []struct {
		mode       Mode
		wantClaims bool
	}{
		{ModePlugin, false},
		{ModeAlgorithm, true},
	}
	for _, tt := range tests {
		t.Run(string(tt.mode), func(t *testing.T) {
			doc, err := encodePod(pod, tt.mode)
			if err != nil {
				t.Fatal(err)
			}
			var got v1.Pod
			if err := json.Unmarshal(doc, &got); err != nil {
				t.Fatal(err)
			}
			hasClaims := len(got.Spec.ResourceClaims) > 0 || len(got.Spec.Containers[0].Resources.Claims) > 0
			if hasClaims != tt.wantClaims {
				t.Errorf("engine sees claims %v, want %v: %s", hasClaims, tt.wantClaims, doc)
			}
			if len(pod.Spec.ResourceClaims) != 1 || len(pod.Spec.Containers[0].Resources.Claims) != 1 {
				t.Fatal("encodePod changed the informer's pod")
			}
		})
	}
}

// The engine's FitError up to " preemption: " gives DynamicResources'
// PostFilter reason, which upstream's FitError carries before preemption's.
func TestDynamicResourcesReasons(t *testing.T) {
	for before, want := range map[string][]string{
		"0/2 nodes are available: 2 Insufficient cpu. no new claims to deallocate,":     {"no new claims to deallocate"},
		"0/2 nodes are available: 2 cannot allocate all claims. still not schedulable,": {"still not schedulable"},
		"0/2 nodes are available: 2 Insufficient cpu.":                                  nil, // no DynamicResources
	} {
		if got := dynamicResourcesReasons(before); !slices.Equal(got, want) {
			t.Errorf("dynamicResourcesReasons(%q) = %q, want %q", before, got, want)
		}
	}
}

// PostFilter without a nominated node gives the engine's PostFilter
// reasons; DynamicResources' only where the framework does not run
// upstream's DynamicResources itself (ModeAlgorithm).
func TestPostFilterReasonsWithoutNomination(t *testing.T) {
	const msg = "0/2 nodes are available: 2 Insufficient cpu. no new claims to deallocate, preemption: not eligible due to preemptionPolicy=Never."
	for _, tc := range []struct {
		mode Mode
		want []string
	}{
		{ModeAlgorithm, []string{"no new claims to deallocate", "preemption: not eligible due to preemptionPolicy=Never."}},
		{ModePlugin, []string{"preemption: not eligible due to preemptionPolicy=Never."}},
	} {
		state := framework.NewCycleState()
		state.Write(stateKey, &cycleState{message: msg})
		pl := &LibSched{args: Args{Mode: tc.mode}}
		res, st := pl.PostFilter(context.Background(), state, &v1.Pod{}, nil)
		if res != nil || st.Code() != fwk.Unschedulable || !slices.Equal(st.Reasons(), tc.want) {
			t.Errorf("mode %v: PostFilter = %v, %v %q, want nil, Unschedulable %q", tc.mode, res, st.Code(), st.Reasons(), tc.want)
		}
	}
}
