package plugin

import (
	"context"
	"encoding/json"
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/libsched/libsched/go/sched"
)

// scoringNode has n PreferNoSchedule taints the test pods do not tolerate.
func scoringNode(name string, n int) *v1.Node {
	node := &v1.Node{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Node"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{v1.LabelHostname: name}},
		Status: v1.NodeStatus{Allocatable: v1.ResourceList{v1.ResourceCPU: resource.MustParse("4"),
			v1.ResourceMemory: resource.MustParse("8Gi"), v1.ResourcePods: resource.MustParse("110")}},
	}
	for i := range n {
		node.Spec.Taints = append(node.Spec.Taints, v1.Taint{Key: string(rune('a' + i)), Effect: v1.TaintEffectPreferNoSchedule})
	}
	return node
}

// TestPreScoreScoresTheSampledNodes: the engine's totals in plugin mode
// are normalized over the nodes upstream scores, not over every feasible
// node. TaintToleration (weight 3) normalizes per cycle: over n0 (no
// intolerable taint), n1 (1) and n2 (2), n1 scores 50; over n0 and n1
// alone, 0. Scoring every feasible node gives n0 150 more than n1, not
// 300.
func TestPreScoreScoresTheSampledNodes(t *testing.T) {
	engine, err := sched.New([]byte(`{"percentageOfNodesToScore":100}`))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { engine.Close() })
	var infos []fwk.NodeInfo
	for i, name := range []string{"n0", "n1", "n2"} {
		node := scoringNode(name, i)
		doc, err := json.Marshal(node)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := engine.Apply(doc); err != nil {
			t.Fatal(err)
		}
		ni := framework.NewNodeInfo()
		ni.SetNode(node)
		infos = append(infos, ni)
	}
	pl := &LibSched{args: Args{Mode: ModePlugin}, engine: engine}
	pod := testPod("p", "1", "", 0)
	doc, err := encodePod(pod, ModePlugin)
	if err != nil {
		t.Fatal(err)
	}
	state := framework.NewCycleState()
	state.Write(stateKey, &cycleState{pod: doc})
	if st := pl.PreScore(context.Background(), state, pod, infos[:2]); !st.IsSuccess() {
		t.Fatalf("PreScore: %v", st)
	}
	var got [2]int64
	for i := range got {
		s, st := pl.Score(context.Background(), state, pod, infos[i])
		if !st.IsSuccess() {
			t.Fatalf("Score(%s): %v", infos[i].Node().Name, st)
		}
		got[i] = s
	}
	if got[0]-got[1] != 300 {
		t.Errorf("Score: n0 %d, n1 %d; want n0 300 above n1 (TaintToleration normalized over n0 and n1)", got[0], got[1])
	}
	if s, _ := pl.Score(context.Background(), state, pod, infos[2]); s != 0 {
		t.Errorf("Score(n2) = %d, want 0: upstream did not sample it", s)
	}
}

func TestPreScoreSkipsInAlgorithmMode(t *testing.T) {
	pl := &LibSched{args: Args{Mode: ModeAlgorithm}}
	if st := pl.PreScore(context.Background(), framework.NewCycleState(), &v1.Pod{}, nil); !st.IsSkip() {
		t.Errorf("PreScore = %v, want Skip", st)
	}
}
