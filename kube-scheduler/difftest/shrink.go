package difftest

import (
	"context"
	"slices"

	v1 "k8s.io/api/core/v1"
)

// shrink returns a smaller case that still shows a difference: it drops
// bound pods, then nodes (with their pods), one at a time, keeping each
// removal after which upstream and the engine still disagree (greedy
// delta debugging). The pod to schedule is kept as is.
func shrink(ctx context.Context, c *Case) *Case {
	differs := func(c *Case) bool {
		up, err1 := decideUpstream(ctx, c)
		eng, err2 := decideEngine(ctx, c)
		if err1 != nil || err2 != nil {
			return (err1 == nil) != (err2 == nil)
		}
		normalizeSharedPorts(c, up, eng)
		normalizePreemptionError(up, eng)
		return len(compare(up, eng)) > 0
	}
	for i := len(c.Pods) - 1; i >= 0; i-- {
		try := *c
		try.Pods = slices.Delete(slices.Clone(c.Pods), i, i+1)
		if differs(&try) {
			c = &try
		}
	}
	for i := len(c.Nodes) - 1; i >= 0 && len(c.Nodes) > 1; i-- {
		try := *c
		gone := c.Nodes[i].Name
		try.Nodes = slices.Delete(slices.Clone(c.Nodes), i, i+1)
		try.Pods = slices.DeleteFunc(slices.Clone(c.Pods), func(p *v1.Pod) bool { return p.Spec.NodeName == gone })
		if differs(&try) {
			c = &try
		}
	}
	return c
}
