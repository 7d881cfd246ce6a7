package main

import (
	"context"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clienttesting "k8s.io/client-go/testing"
)

// TestPreempts: in each example profile a high-priority pod that fits
// nowhere preempts as upstream's Evaluator does: the victim gets the
// DisruptionTarget condition and is deleted through the API, the preemptor's
// status.nominatedNodeName is set, and it is bound once the victim is gone.
func TestPreempts(t *testing.T) {
	for _, ex := range examples {
		t.Run(ex.file, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			client, s := startScheduler(ctx, t, examplePath(ex.file))
			defer s.Profiles.Close()
			if _, err := client.CoreV1().Nodes().Create(ctx, makeNode("n1", "2", nil), metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			low, high := makePod("low", "2"), makePod("high", "2")
			lowPrio, highPrio := int32(0), int32(1000)
			low.Spec.Priority, high.Spec.Priority = &lowPrio, &highPrio
			if _, err := client.CoreV1().Pods("default").Create(ctx, low, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			waitForNode(ctx, t, client, low)
			if _, err := client.CoreV1().Pods("default").Create(ctx, high, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			if got := waitForNode(ctx, t, client, high); got != "n1" {
				t.Fatalf("high bound to %q, want n1", got)
			}
			var disrupted, deleted, nominated bool
			for _, a := range client.Actions() {
				switch a := a.(type) {
				case clienttesting.PatchAction:
					patch := string(a.GetPatch())
					if a.GetName() == "low" && a.GetSubresource() == "status" && strings.Contains(patch, "DisruptionTarget") &&
						strings.Contains(patch, "PreemptionByScheduler") {
						disrupted = true
					}
					if a.GetName() == "high" && a.GetSubresource() == "status" && strings.Contains(patch, `"nominatedNodeName":"n1"`) {
						nominated = true
					}
				case clienttesting.DeleteAction:
					if a.GetResource().Resource == "pods" && a.GetName() == "low" {
						deleted = true
					}
				}
			}
			if !disrupted || !deleted || !nominated {
				t.Errorf("victim given DisruptionTarget %v, deleted %v; preemptor nominated to n1 %v: want all", disrupted, deleted, nominated)
			}
		})
	}
}
