package plugin

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	fwk "k8s.io/kube-scheduler/framework"

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
		st := statusFrom(sched.NodeStatus{Node: "n", Code: tc.code, Plugin: "NodeResourcesFit", Reasons: []string{"Insufficient cpu", "Too many pods"}})
		if st.Code() != tc.want || !cmp.Equal(st.Reasons(), []string{"Insufficient cpu", "Too many pods"}) {
			t.Errorf("statusFrom(%q) = %v %v, want code %v and the engine's reasons", tc.code, st.Code(), st.Reasons(), tc.want)
		}
	}
}
