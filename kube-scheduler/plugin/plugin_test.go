package plugin

import (
	"testing"

	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
)

// TestPodMayHelp: a Pod update queues the pods LibSched rejected exactly
// when it changes something the engine reads of other pods.
func TestPodMayHelp(t *testing.T) {
	base := func() *v1.Pod {
		return &v1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns", Labels: map[string]string{"app": "a"}},
			Spec: v1.PodSpec{NodeName: "n1", Containers: []v1.Container{{Name: "c", Resources: v1.ResourceRequirements{
				Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse("1")}}}}},
			Status: v1.PodStatus{Phase: v1.PodRunning},
		}
	}
	cpu := func(q string) *v1.ResourceRequirements {
		return &v1.ResourceRequirements{Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse(q)}}
	}
	for _, tc := range []struct {
		name   string
		change func(*v1.Pod)
		want   fwk.QueueingHint
	}{
		{"nothing", func(*v1.Pod) {}, fwk.QueueSkip},
		{"an annotation", func(p *v1.Pod) { p.Annotations = map[string]string{"x": "y"} }, fwk.QueueSkip},
		{"preemption's DisruptionTarget condition", func(p *v1.Pod) {
			p.Status.Conditions = append(p.Status.Conditions, v1.PodCondition{Type: v1.DisruptionTarget, Status: v1.ConditionTrue, Reason: "PreemptionByScheduler"})
		}, fwk.QueueSkip},
		{"labels", func(p *v1.Pod) { p.Labels["app"] = "b" }, fwk.Queue},
		{"node", func(p *v1.Pod) { p.Spec.NodeName = "n2" }, fwk.Queue},
		{"a container's requests", func(p *v1.Pod) { p.Spec.Containers[0].Resources.Requests[v1.ResourceCPU] = resource.MustParse("500m") }, fwk.Queue},
		{"pod-level spec.resources", func(p *v1.Pod) { p.Spec.Resources = cpu("500m") }, fwk.Queue},
		{"overhead", func(p *v1.Pod) { p.Spec.Overhead = v1.ResourceList{v1.ResourceCPU: resource.MustParse("10m")} }, fwk.Queue},
		{"pod-level status.resources", func(p *v1.Pod) { p.Status.Resources = cpu("500m") }, fwk.Queue},
		{"status.allocatedResources", func(p *v1.Pod) {
			p.Status.AllocatedResources = v1.ResourceList{v1.ResourceCPU: resource.MustParse("500m")}
		}, fwk.Queue},
		{"an init container's status", func(p *v1.Pod) {
			p.Status.InitContainerStatuses = []v1.ContainerStatus{{Name: "i", Resources: cpu("100m")}}
		}, fwk.Queue},
		{"PodResizePending", func(p *v1.Pod) {
			p.Status.Conditions = append(p.Status.Conditions, v1.PodCondition{Type: v1.PodResizePending, Status: v1.ConditionTrue, Reason: "Infeasible"})
		}, fwk.Queue},
		{"finished", func(p *v1.Pod) { p.Status.Phase = v1.PodSucceeded }, fwk.Queue},
		{"being deleted", func(p *v1.Pod) { p.DeletionTimestamp = &metav1.Time{} }, fwk.Queue},
	} {
		t.Run(tc.name, func(t *testing.T) {
			newPod := base()
			tc.change(newPod)
			got, err := podMayHelp(klog.Background(), nil, base(), newPod)
			if err != nil || got != tc.want {
				t.Errorf("podMayHelp = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
	if got, _ := podMayHelp(klog.Background(), nil, nil, base()); got != fwk.Queue {
		t.Errorf("an added pod: %v, want Queue", got)
	}
}
