package main

import (
	"strings"
	"testing"
)

// TestLoadPlanEntry: --entry takes upstream's entry of that name, scaled to
// the size as the default choice is; a workload without it is an error;
// "performance" takes the entry upstream's performance job thresholds.
func TestLoadPlanEntry(t *testing.T) {
	for _, tc := range []struct {
		workload, entry string
		nodes           int
		wantEntry       string
		wantScale       float64
		wantMeasured    int
		wantErr         string
	}{
		{"SchedulingBasic", "", 5000, "5000Nodes", 1, 1000, ""},
		{"SchedulingBasic", "5000Nodes_10000Pods", 5000, "5000Nodes_10000Pods", 1, 10000, ""},
		{"SchedulingBasic", "5000Nodes_10000Pods", 500, "5000Nodes_10000Pods", 0.1, 1000, ""},
		{"SchedulingNodeAffinity", "5000Nodes_10000Pods", 5000, "5000Nodes_10000Pods", 1, 10000, ""},
		{"SchedulingOwnedPods", "5000Nodes_10000Pods", 5000, "5000Nodes_10000Pods", 1, 10000, ""},
		{"TopologySpreading", "5000Nodes_10000Pods", 5000, "", 0, 0, "no workload entry 5000Nodes_10000Pods"},
		// "performance": the first entry with that label and a threshold,
		// else the first with the label.
		{"SchedulingBasic", "performance", 5000, "5000Nodes_10000Pods", 1, 10000, ""},
		{"SchedulingPodAffinity", "performance", 5000, "5000Nodes_5000Pods", 1, 5000, ""},
		{"SchedulingPodAntiAffinity", "performance", 500, "5000Nodes_2000Pods", 0.1, 200, ""},
		{"Unschedulable", "performance", 5000, "5kNodes/100Init/10kPods", 1, 10000, ""},
		{"Preemption", "performance", 5000, "1000Nodes", 5, 5000, ""},
		{"SchedulingOwnedPods", "performance", 5000, "5000Nodes_10000Pods", 1, 10000, ""},
	} {
		t.Run(tc.workload+"/"+tc.entry, func(t *testing.T) {
			p, err := loadPlan("../../bench/corpus", tc.workload, tc.nodes, tc.entry)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want one with %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.entry != tc.wantEntry || p.scale != tc.wantScale || len(p.measured.pods) != tc.wantMeasured {
				t.Errorf("entry %s, scale %v, %d measured pods; want %s, %v, %d",
					p.entry, p.scale, len(p.measured.pods), tc.wantEntry, tc.wantScale, tc.wantMeasured)
			}
		})
	}
}
