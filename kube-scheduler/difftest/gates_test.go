package difftest

import (
	"testing"

	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/feature"
)

// TestUpstreamRunsDefaultGates checks that upstream's side (the in-tree
// registry, the DRA tracker, DefaultPreemption, all reading
// utilfeature.DefaultFeatureGate) runs kube-scheduler v1.36.3's default
// gates: emulation version 1.36 and nothing overridden, so the DRA
// features the engine follows (docs/dra.md) are on and the alpha ones off.
func TestUpstreamRunsDefaultGates(t *testing.T) {
	if v := utilfeature.DefaultMutableFeatureGate.EmulationVersion().String(); v != "1.36" {
		t.Errorf("emulation version %s, want 1.36", v)
	}
	fts := feature.NewSchedulerFeaturesFromGates(utilfeature.DefaultFeatureGate)
	for name, c := range map[string]struct{ got, want bool }{
		"DRAConsumableCapacity":        {fts.EnableDRAConsumableCapacity, true},
		"DRAPartitionableDevices":      {fts.EnableDRAPartitionableDevices, true},
		"DRADeviceTaints":              {fts.EnableDRADeviceTaints, true},
		"DRADeviceBindingConditions":   {fts.EnableDRADeviceBindingConditions, true},
		"DRAResourceClaimDeviceStatus": {fts.EnableDRAResourceClaimDeviceStatus, true},
		"DRAExtendedResource":          {fts.EnableDRAExtendedResource, true},
		"DRAPrioritizedList":           {fts.EnableDRAPrioritizedList, true},
		"DRAAdminAccess":               {fts.EnableDRAAdminAccess, true},
		"DRASchedulerFilterTimeout":    {fts.EnableDRASchedulerFilterTimeout, true},
		"DRAListTypeAttributes":        {fts.EnableDRAListTypeAttributes, false},
		"DRAWorkloadResourceClaims":    {fts.EnableDRAWorkloadResourceClaims, false},
		"DRANodeAllocatableResources":  {fts.EnableDRANodeAllocatableResources, false},
		"SchedulerAsyncPreemption":     {fts.EnableAsyncPreemption, true},
		"WorkloadAwarePreemption":      {fts.EnableWorkloadAwarePreemption, false},
	} {
		if c.got != c.want {
			t.Errorf("feature gate %s: %v, want v1.36.3's default %v", name, c.got, c.want)
		}
	}
}
