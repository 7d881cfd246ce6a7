package sched_test

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/libsched/libsched/go/internal/schedtest"
	"github.com/libsched/libsched/go/sched"
)

// TestScoreNodes: over every feasible node, Score's totals are the
// cycle's (ScoreTotals), parallel to the order asked; an unknown node is
// an error at its path.
func TestScoreNodes(t *testing.T) {
	e := twoNodeEngine(t)
	ctx := context.Background()
	pod := schedtest.Pod("p", "100m", "")
	r, err := e.Schedule(ctx, pod, sched.ScoreTotals)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{}
	for _, g := range r.ScoreTotals {
		for _, n := range g.Nodes {
			want[n] = g.TotalScore
		}
	}
	got, err := e.Score(ctx, pod, []string{"n2", "n1"})
	if err != nil {
		t.Fatal(err)
	}
	if w := (&sched.ScoreAnswer{TotalScores: []int64{want["n2"], want["n1"]}}); !reflect.DeepEqual(got, w) {
		t.Errorf("Score = %+v, want %+v", got, w)
	}
	var serr *sched.Error
	if _, err := e.Score(ctx, pod, []string{"n1", "nope"}); !errors.As(err, &serr) || serr.Path != "nodes[1]" {
		t.Errorf("Score of an unknown node: %v, want an error at nodes[1]", err)
	}
}
