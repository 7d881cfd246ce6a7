package sched_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/libsched/libsched/go/internal/schedtest"
	"github.com/libsched/libsched/go/sched"
)

// newEngine returns an engine from config, closed when the test ends.
func newEngine(t testing.TB, config string) *sched.Engine {
	t.Helper()
	e, err := sched.New([]byte(config))
	if err != nil {
		t.Fatalf("New(%s): %v", config, err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// twoNodeEngine holds n1 (2 cpu) and n2 (1 cpu), as tests/c/capi_test.c.
func twoNodeEngine(t testing.TB) *sched.Engine {
	t.Helper()
	e := newEngine(t, "{}")
	events := schedtest.Array(
		schedtest.Event("ADDED", schedtest.Node("n1", "2", 110)),
		schedtest.Event("ADDED", schedtest.Node("n2", "1", 110)))
	if _, err := e.Apply(events); err != nil {
		t.Fatalf("Apply: %v", err)
	}
	return e
}

// wantError checks that err is an *Error with code, path and message (when
// message is not "").
func wantError(t *testing.T, err error, sentinel error, code sched.Code, path, message string) {
	t.Helper()
	if !errors.Is(err, sentinel) {
		t.Fatalf("err = %v, want errors.Is %v", err, sentinel)
	}
	var se *sched.Error
	if !errors.As(err, &se) {
		t.Fatalf("err = %T, want *sched.Error", err)
	}
	if se.Code != code || se.Path != path {
		t.Errorf("code, path = %v, %q; want %v, %q", se.Code, se.Path, code, path)
	}
	if message != "" && se.Message != message {
		t.Errorf("message = %q, want %q", se.Message, message)
	}
}

func TestNew(t *testing.T) {
	tests := []struct {
		name    string
		config  string
		path    string // "" and message "" mean success
		message string
	}{
		{name: "default profile", config: "{}"},
		{name: "full", config: `{"apiVersion":"kubescheduler.config.k8s.io/v1",` +
			`"kind":"KubeSchedulerConfiguration","percentageOfNodesToScore":50,"parallelism":4,` +
			`"seed":42,"profiles":[{"schedulerName":"a"},{"schedulerName":"b"}]}`},
		{name: "out of range", config: `{"percentageOfNodesToScore":101}`,
			path: "percentageOfNodesToScore", message: "percentageOfNodesToScore: must be between 0 and 100, got 101"},
		{name: "unknown field", config: `{"unknown":1}`, path: "unknown"},
		{name: "unknown plugin", config: `{"profiles":[{"schedulerName":"x",` +
			`"plugins":{"filter":{"enabled":[{"name":"NoSuchPlugin"}]}}}]}`,
			path: "profiles[0].plugins.filter.enabled[0].name"},
		{name: "syntax error", config: `{"seed": }`, message: "invalid JSON at byte offset 9"},
		{name: "empty", config: "", message: "empty JSON document"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, err := sched.New([]byte(tc.config))
			if tc.path == "" && tc.message == "" {
				if err != nil {
					t.Fatalf("New: %v", err)
				}
				if err := e.Close(); err != nil {
					t.Errorf("Close: %v", err)
				}
				return
			}
			if e != nil {
				t.Errorf("New returned an engine with error %v", err)
			}
			wantError(t, err, sched.ErrInvalidArgument, sched.CodeInvalidArgument, tc.path, tc.message)
		})
	}
}

func TestApply(t *testing.T) {
	pending := schedtest.Pod("p", "100m", "")
	bound := schedtest.Pod("b", "100m", "n1")
	tests := []struct {
		name   string
		events []byte
		want   sched.ApplySummary
	}{
		{"one event", schedtest.Event("ADDED", schedtest.Node("n1", "2", 110)),
			sched.ApplySummary{Applied: 1, Ignored: map[string]int{}}},
		{"single object", schedtest.Node("n1", "2", 110),
			sched.ApplySummary{Applied: 1, Ignored: map[string]int{}}},
		{"list with ignored kinds", []byte(`{"kind":"List","apiVersion":"v1","items":[` +
			string(schedtest.Node("n1", "2", 110)) + "," + string(bound) + "," + string(pending) +
			`,{"kind":"ConfigMap","apiVersion":"v1","metadata":{"name":"x"}}]}`),
			sched.ApplySummary{Applied: 2, Ignored: map[string]int{"ConfigMap": 1}, PendingPods: 1}},
		{"array of events", schedtest.Array(
			schedtest.Event("ADDED", schedtest.Node("n1", "2", 110)),
			schedtest.Event("MODIFIED", schedtest.Node("n1", "4", 110)),
			schedtest.Event("DELETED", schedtest.Node("n2", "1", 110))),
			sched.ApplySummary{Applied: 3, Ignored: map[string]int{}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := newEngine(t, "{}").Apply(tc.events)
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("summary = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestApplyIsAllOrNothing(t *testing.T) {
	e := twoNodeEngine(t)
	big := schedtest.Pod("big", "3", "")
	before, err := e.Schedule(context.Background(), big)
	if err != nil {
		t.Fatalf("Schedule: %v", err)
	}
	// A 64-cpu node, then a pod with a bad quantity: nothing is applied.
	bad := schedtest.Array(
		schedtest.Event("ADDED", schedtest.Node("n3", "64", 110)),
		schedtest.Event("ADDED", schedtest.Pod("x", "1x", "n1")))
	_, err = e.Apply(bad)
	wantError(t, err, sched.ErrInvalidArgument, sched.CodeInvalidArgument,
		"[1].object.spec.containers[0].resources.requests.cpu", "")
	if !strings.Contains(err.Error(), `invalid quantity "1x"`) {
		t.Errorf("Error() = %q, want the quantity named", err.Error())
	}
	after, err := e.Schedule(context.Background(), big)
	if err != nil {
		t.Fatalf("Schedule: %v", err)
	}
	if !reflect.DeepEqual(after, before) || after.NumAllNodes != 2 {
		t.Errorf("after a failed Apply: %+v, want %+v", after, before)
	}
}

func TestSchedule(t *testing.T) {
	tests := []struct {
		name  string
		pod   []byte
		flags []sched.ScheduleFlag
		want  sched.Result
	}{
		{name: "fits one node", pod: schedtest.Pod("web-1", "1500m", ""),
			want: sched.Result{Pod: "prod/web-1", Node: "n1", Reason: sched.ReasonScheduled,
				NumAllNodes: 2, EvaluatedNodes: 2, FeasibleNodes: 1}},
		{name: "fits nowhere", pod: schedtest.Pod("big", "3", ""),
			want: sched.Result{Pod: "prod/big", Reason: sched.ReasonUnschedulable,
				Message: "0/2 nodes are available: 2 Insufficient cpu. no new claims to deallocate, preemption: 0/2 nodes " +
					"are available: 2 Preemption is not helpful for scheduling.",
				NumAllNodes: 2, EvaluatedNodes: 2}},
		// 1500m exceeds n2's allocatable cpu: fit.go calls that unresolvable.
		{name: "node statuses", pod: schedtest.Pod("big", "1500m", ""),
			flags: []sched.ScheduleFlag{sched.NodeStatuses},
			want: sched.Result{Pod: "prod/big", Node: "n1", Reason: sched.ReasonScheduled,
				NumAllNodes: 2, EvaluatedNodes: 2, FeasibleNodes: 1,
				NodeStatuses: []sched.NodeStatus{{Node: "n2", Code: "UnschedulableAndUnresolvable",
					Plugin: "NodeResourcesFit", Reasons: []string{"Insufficient cpu"}}}}},
		{name: "node statuses if no node, placed", pod: schedtest.Pod("big", "1500m", ""),
			flags: []sched.ScheduleFlag{sched.NodeStatusesIfNoNode},
			want: sched.Result{Pod: "prod/big", Node: "n1", Reason: sched.ReasonScheduled,
				NumAllNodes: 2, EvaluatedNodes: 2, FeasibleNodes: 1}},
		{name: "node statuses if no node, placed nowhere", pod: schedtest.Pod("big", "3", ""),
			flags: []sched.ScheduleFlag{sched.NodeStatusesIfNoNode},
			want: sched.Result{Pod: "prod/big", Reason: sched.ReasonUnschedulable,
				Message: "0/2 nodes are available: 2 Insufficient cpu. no new claims to deallocate, preemption: 0/2 nodes " +
					"are available: 2 Preemption is not helpful for scheduling.",
				NumAllNodes: 2, EvaluatedNodes: 2,
				NodeStatuses: []sched.NodeStatus{
					{Node: "n1", Code: "UnschedulableAndUnresolvable", Plugin: "NodeResourcesFit", Reasons: []string{"Insufficient cpu"}},
					{Node: "n2", Code: "UnschedulableAndUnresolvable", Plugin: "NodeResourcesFit", Reasons: []string{"Insufficient cpu"}}}}},
		{name: "node status groups", pod: schedtest.Pod("big", "3", ""),
			flags: []sched.ScheduleFlag{sched.NodeStatusesIfNoNode, sched.NodeStatusGroups},
			want: sched.Result{Pod: "prod/big", Reason: sched.ReasonUnschedulable,
				Message: "0/2 nodes are available: 2 Insufficient cpu. no new claims to deallocate, preemption: 0/2 nodes " +
					"are available: 2 Preemption is not helpful for scheduling.",
				NumAllNodes: 2, EvaluatedNodes: 2,
				NodeStatusGroups: []sched.NodeStatusGroup{{Code: "UnschedulableAndUnresolvable",
					Plugin: "NodeResourcesFit", Reasons: []string{"Insufficient cpu"}, Nodes: []string{"n1", "n2"}}}}},
		{name: "scores of one feasible node", pod: schedtest.Pod("big", "1500m", ""),
			flags: []sched.ScheduleFlag{sched.Scores},
			want: sched.Result{Pod: "prod/big", Node: "n1", Reason: sched.ReasonScheduled,
				NumAllNodes: 2, EvaluatedNodes: 2, FeasibleNodes: 1,
				Scores: &sched.ScoreTable{Plugins: []string{}, Nodes: []sched.NodeScores{}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := twoNodeEngine(t).Schedule(context.Background(), tc.pod, tc.flags...)
			if err != nil {
				t.Fatalf("Schedule: %v", err)
			}
			if !reflect.DeepEqual(*got, tc.want) {
				t.Errorf("result = %+v\nwant     %+v", *got, tc.want)
			}
		})
	}
}

func TestScheduleScores(t *testing.T) {
	got, err := twoNodeEngine(t).Schedule(context.Background(), schedtest.Pod("small", "100m", ""),
		sched.Scores, sched.NodeStatuses)
	if err != nil {
		t.Fatalf("Schedule: %v", err)
	}
	if got.FeasibleNodes != 2 || len(got.NodeStatuses) != 0 || got.Scores == nil {
		t.Fatalf("result = %+v, want two feasible nodes, no statuses, scores", got)
	}
	// NodeAffinity's PreScore skips a pod without preferred terms;
	// DynamicResources has no PreScore (its Score is 0 without claims).
	wantPlugins := []string{"TaintToleration", "NodeResourcesFit", "DynamicResources",
		"NodeResourcesBalancedAllocation", "ImageLocality"}
	if !reflect.DeepEqual(got.Scores.Plugins, wantPlugins) {
		t.Errorf("plugins = %v, want %v", got.Scores.Plugins, wantPlugins)
	}
	if len(got.Scores.Nodes) != 2 {
		t.Fatalf("score rows = %+v, want 2", got.Scores.Nodes)
	}
	best := got.Scores.Nodes[0]
	for _, row := range got.Scores.Nodes {
		var sum int64
		for _, s := range row.Scores {
			sum += s
		}
		if len(row.Scores) != len(wantPlugins) || sum != row.TotalScore {
			t.Errorf("row %+v: want %d scores summing to totalScore", row, len(wantPlugins))
		}
		if row.TotalScore > best.TotalScore {
			best = row
		}
	}
	// n1 has more room left, so LeastAllocated prefers it.
	if got.Node != best.Node || got.Node != "n1" {
		t.Errorf("node = %q, best scored %q; want n1", got.Node, best.Node)
	}

	// ScoreTotals: the same totals, one group per total (n1 and n2 differ).
	totals, err := twoNodeEngine(t).Schedule(context.Background(), schedtest.Pod("small", "100m", ""),
		sched.ScoreTotals)
	if err != nil {
		t.Fatalf("Schedule: %v", err)
	}
	var want []sched.ScoreTotal
	for _, row := range got.Scores.Nodes {
		want = append(want, sched.ScoreTotal{TotalScore: row.TotalScore, Nodes: []string{row.Node}})
	}
	if totals.Scores != nil || !reflect.DeepEqual(totals.ScoreTotals, want) {
		t.Errorf("ScoreTotals: scores %+v, totals %+v; want no scores, totals %+v", totals.Scores, totals.ScoreTotals, want)
	}
}

func TestScheduleAssume(t *testing.T) {
	e := twoNodeEngine(t)
	ctx := context.Background()
	pod := func(name string) []byte { return schedtest.Pod(name, "1500m", "") }

	// Without Assume the engine is unchanged: the same answer twice.
	for i := 0; i < 2; i++ {
		r, err := e.Schedule(ctx, pod("probe"))
		if err != nil || r.Node != "n1" || r.Assumed {
			t.Fatalf("Schedule #%d = %+v, %v; want n1, not assumed", i, r, err)
		}
	}
	r, err := e.Schedule(ctx, pod("web-1"), sched.Assume)
	if err != nil || r.Node != "n1" || !r.Assumed {
		t.Fatalf("Schedule(Assume) = %+v, %v; want n1, assumed", r, err)
	}
	// The assumed pod takes n1's room.
	r, err = e.Schedule(ctx, pod("web-2"))
	if err != nil || r.Reason != sched.ReasonUnschedulable ||
		r.Message != "0/2 nodes are available: 2 Insufficient cpu. no new claims to deallocate, preemption: 0/2 nodes are "+
			"available: 1 No preemption victims found for incoming pod, 1 Preemption is not "+
			"helpful for scheduling." {
		t.Fatalf("after Assume: %+v, %v; want 2 Insufficient cpu", r, err)
	}
	// A DELETED event for the assumed pod frees the room again.
	if _, err := e.Apply(schedtest.Event("DELETED", schedtest.Pod("web-1", "1500m", "n1"))); err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if r, err = e.Schedule(ctx, pod("web-2")); err != nil || r.Node != "n1" {
		t.Fatalf("after DELETED: %+v, %v; want n1", r, err)
	}
}

func TestScheduleErrors(t *testing.T) {
	tests := []struct {
		name    string
		pod     string
		flags   []sched.ScheduleFlag
		path    string
		message string
	}{
		{name: "unknown profile", pod: `{"metadata":{"name":"o"},"spec":{"schedulerName":"other"}}`,
			path: "spec.schedulerName"},
		{name: "unknown flag bits", pod: string(schedtest.Pod("p", "1", "")),
			flags:   []sched.ScheduleFlag{sched.Assume, 0x80},
			message: "unknown flag bits 0x80 in sched_engine_schedule flags"},
		{name: "no name", pod: `{"metadata":{}}`, path: "metadata.name"},
		{name: "bad quantity", pod: string(schedtest.Pod("p", "1x", "")),
			path: "spec.containers[0].resources.requests.cpu"},
		{name: "not JSON", pod: `{"metadata" 1}`, message: "invalid JSON at byte offset 12"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := twoNodeEngine(t)
			r, err := e.Schedule(context.Background(), []byte(tc.pod), tc.flags...)
			if r != nil {
				t.Errorf("result %+v with an error", r)
			}
			wantError(t, err, sched.ErrInvalidArgument, sched.CodeInvalidArgument, tc.path, tc.message)
		})
	}
}

func TestScheduleCanceledContext(t *testing.T) {
	e := twoNodeEngine(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err := e.Schedule(ctx, schedtest.Pod("web-1", "1500m", ""), sched.Assume)
	if r != nil || !errors.Is(err, context.Canceled) {
		t.Fatalf("Schedule(canceled) = %+v, %v; want context.Canceled", r, err)
	}
	// Nothing was assumed.
	r, err = e.Schedule(context.Background(), schedtest.Pod("web-2", "1500m", ""))
	if err != nil || r.Node != "n1" {
		t.Fatalf("after a canceled call: %+v, %v; want n1", r, err)
	}
}

func TestClose(t *testing.T) {
	e, err := sched.New([]byte("{}"))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	for i := 0; i < 2; i++ {
		if err := e.Close(); err != nil {
			t.Fatalf("Close #%d: %v", i, err)
		}
	}
	if _, err := e.Apply(schedtest.Node("n1", "1", 110)); !errors.Is(err, sched.ErrClosed) {
		t.Errorf("Apply after Close: %v, want ErrClosed", err)
	}
	r, err := e.Schedule(context.Background(), schedtest.Pod("p", "1", ""))
	if r != nil || !errors.Is(err, sched.ErrClosed) || errors.Is(err, sched.ErrInvalidArgument) {
		t.Errorf("Schedule after Close: %+v, %v; want ErrClosed only", r, err)
	}
}

func TestFlagsMatchTheCHeader(t *testing.T) {
	// docs/api.md: SCHED_SCHEDULE_ASSUME 0x1, NODE_STATUSES 0x2, SCORES 0x4,
	// NODE_STATUSES_IF_NO_NODE 0x8, NODE_STATUS_GROUPS 0x10, SCORE_TOTALS 0x20.
	got := []sched.ScheduleFlag{sched.Assume, sched.NodeStatuses, sched.Scores, sched.NodeStatusesIfNoNode,
		sched.NodeStatusGroups, sched.ScoreTotals}
	if want := []sched.ScheduleFlag{1, 2, 4, 8, 16, 32}; !reflect.DeepEqual(got, want) {
		t.Errorf("flags = %v, want %v", got, want)
	}
}

func TestError(t *testing.T) {
	tests := []struct {
		err      *sched.Error
		sentinel error
		code     string
	}{
		{&sched.Error{Code: sched.CodeInvalidArgument, Message: "a.b: bad"}, sched.ErrInvalidArgument, "INVALID_ARGUMENT"},
		{&sched.Error{Code: sched.CodeOutOfMemory, Message: "m"}, sched.ErrOutOfMemory, "OUT_OF_MEMORY"},
		{&sched.Error{Code: sched.CodeInternal, Message: "m"}, sched.ErrInternal, "INTERNAL"},
		{&sched.Error{Code: 99, Message: "m"}, nil, "UNKNOWN"},
	}
	sentinels := []error{sched.ErrInvalidArgument, sched.ErrOutOfMemory, sched.ErrInternal, sched.ErrClosed}
	for _, tc := range tests {
		t.Run(tc.code, func(t *testing.T) {
			if got := tc.err.Code.String(); got != tc.code {
				t.Errorf("Code.String() = %q, want %q", got, tc.code)
			}
			if got := tc.err.Error(); got != "sched: "+tc.err.Message {
				t.Errorf("Error() = %q", got)
			}
			if got := tc.err.Unwrap(); got != tc.sentinel {
				t.Errorf("Unwrap() = %v, want %v", got, tc.sentinel)
			}
			for _, s := range sentinels {
				if errors.Is(tc.err, s) != (s == tc.sentinel) {
					t.Errorf("errors.Is(%v, %v) = %v", tc.err, s, !(s == tc.sentinel))
				}
			}
		})
	}
}

func TestVersion(t *testing.T) {
	if sched.Version() != sched.HeaderVersion {
		t.Errorf("Version() = %q, header %q", sched.Version(), sched.HeaderVersion)
	}
	var major, minor, patch int
	if _, err := fmt.Sscanf(sched.Version(), "%d.%d.%d", &major, &minor, &patch); err != nil {
		t.Fatalf("Version() = %q: %v", sched.Version(), err)
	}
	if got, want := sched.VersionNumber(), major*10000+minor*100+patch; got != want {
		t.Errorf("VersionNumber() = %d, want %d", got, want)
	}
	if got := sched.UpstreamVersion(); got != "v1.36.3" {
		t.Errorf("UpstreamVersion() = %q, want v1.36.3", got)
	}
}

// A higher-priority pod that fits only without a lower-priority one gets a
// nominated node and the victim; the engine itself evicts nothing.
func TestSchedulePreemption(t *testing.T) {
	e := twoNodeEngine(t)
	ctx := context.Background()
	if _, err := e.Apply(schedtest.Array(
		// low-1 outranks low-2, so evicting low-2 is the cheaper preemption
		// (pickOneNodeForPreemption: lowest highest-victim priority).
		schedtest.Event("ADDED", []byte(`{"kind":"Pod","metadata":{"name":"low-1","namespace":"prod"},`+
			`"spec":{"nodeName":"n1","priority":10,"containers":[{"name":"c",`+
			`"resources":{"requests":{"cpu":"1500m"}}}]}}`)),
		schedtest.Event("ADDED", schedtest.Pod("low-2", "900m", "n2")))); err != nil {
		t.Fatalf("Apply: %v", err)
	}
	high := []byte(`{"kind":"Pod","metadata":{"name":"high","namespace":"prod"},"spec":{` +
		`"priority":1000,"containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]}}`)
	r, err := e.Schedule(ctx, high, sched.Assume)
	if err != nil {
		t.Fatalf("Schedule: %v", err)
	}
	wantVictims := []sched.Victim{{Namespace: "prod", Name: "low-2", UID: "low-2-uid"}}
	if r.Node != "" || r.Assumed || r.NominatedNodeName != "n2" || !reflect.DeepEqual(r.Victims, wantVictims) {
		t.Fatalf("result = %+v; want nominated n2, victim prod/low-2, not assumed", r)
	}
	// Once the caller evicts the victim, the pod fits on its nominated node.
	if _, err := e.Apply(schedtest.Event("DELETED", schedtest.Pod("low-2", "900m", "n2"))); err != nil {
		t.Fatalf("Apply: %v", err)
	}
	nominated := []byte(`{"kind":"Pod","metadata":{"name":"high","namespace":"prod"},"spec":{` +
		`"priority":1000,"containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]},` +
		`"status":{"nominatedNodeName":"n2"}}`)
	if r, err = e.Schedule(ctx, nominated); err != nil || r.Node != "n2" || r.EvaluatedNodes != 1 {
		t.Fatalf("after eviction: %+v, %v; want n2 found on the nominated node alone", r, err)
	}
}
