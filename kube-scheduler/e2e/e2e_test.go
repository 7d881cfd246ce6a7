// Package e2e runs the fork's binary as a process against a real
// kube-apiserver and etcd (started by scripts/kube-components.sh, see
// scripts/test-kube-e2e.sh) with leader election on. The tests skip when
// LIBSCHED_E2E_DIR (the components' directory) or LIBSCHED_E2E_BIN (the
// scheduler binary) is unset, so `go test ./...` elsewhere passes them by.
package e2e

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

var nodeCount = flag.Int("e2e.nodes", 20, "Node objects to create")

const schedulerName = "libsched"

type env struct {
	dir, bin string
	client   kubernetes.Interface
}

func setup(t *testing.T) *env {
	t.Helper()
	dir, bin := os.Getenv("LIBSCHED_E2E_DIR"), os.Getenv("LIBSCHED_E2E_BIN")
	if dir == "" || bin == "" {
		t.Skip("LIBSCHED_E2E_DIR / LIBSCHED_E2E_BIN unset: run scripts/test-kube-e2e.sh")
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", filepath.Join(dir, "admin.kubeconfig"))
	if err != nil {
		t.Fatal(err)
	}
	cfg.QPS, cfg.Burst = 200, 400
	return &env{dir: dir, bin: bin, client: kubernetes.NewForConfigOrDie(cfg)}
}

// startScheduler runs the binary; the test's cleanup kills it.
func (e *env) startScheduler(t *testing.T, config, name string) *exec.Cmd {
	t.Helper()
	log, err := os.Create(filepath.Join(e.dir, name+".log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(e.bin, "--config", config, "--secure-port", "0", "-v", "2")
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		log.Close()
	})
	return cmd
}

func (e *env) namespace(ctx context.Context, t *testing.T, name string) {
	t.Helper()
	ns := &v1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
	if _, err := e.client.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

func (e *env) nodes(ctx context.Context, t *testing.T, prefix string, n int, cpu string, taints []v1.Taint) {
	t.Helper()
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("%s-%d", prefix, i)
		node := &v1.Node{
			ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{
				v1.LabelHostname: name, v1.LabelTopologyZone: fmt.Sprintf("zone-%d", i%3)}},
			Spec: v1.NodeSpec{Taints: taints},
			Status: v1.NodeStatus{
				Allocatable: v1.ResourceList{v1.ResourceCPU: resource.MustParse(cpu),
					v1.ResourceMemory: resource.MustParse("16Gi"), v1.ResourcePods: resource.MustParse("110")},
				Conditions: []v1.NodeCondition{{Type: v1.NodeReady, Status: v1.ConditionTrue}},
			},
		}
		node.Status.Capacity = node.Status.Allocatable
		created, err := e.client.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		created.Status = node.Status
		updated, err := e.client.CoreV1().Nodes().UpdateStatus(ctx, created, metav1.UpdateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		// Admission taints new nodes not-ready; no node lifecycle
		// controller runs here to lift it once the node reports Ready.
		updated.Spec.Taints = taints
		if _, err := e.client.CoreV1().Nodes().Update(ctx, updated, metav1.UpdateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		for i := 0; i < n; i++ {
			_ = e.client.CoreV1().Nodes().Delete(context.Background(), fmt.Sprintf("%s-%d", prefix, i), metav1.DeleteOptions{})
		}
	})
}

func pod(ns, name, cpu string, labels map[string]string) *v1.Pod {
	return &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: labels},
		Spec: v1.PodSpec{
			SchedulerName: schedulerName,
			Containers: []v1.Container{{Name: "c", Image: "registry.k8s.io/pause:3.10",
				Resources: v1.ResourceRequirements{Requests: v1.ResourceList{v1.ResourceCPU: resource.MustParse(cpu)}}}},
		},
	}
}

func (e *env) create(ctx context.Context, t *testing.T, pods ...*v1.Pod) {
	t.Helper()
	for _, p := range pods {
		if _, err := e.client.CoreV1().Pods(p.Namespace).Create(ctx, p, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
}

// waitBound waits until every pod of ns is bound and returns pod -> node.
// Up to 4 minutes: CI runs kube-apiserver and the fork under the race
// detector (scripts/test-kube-e2e.sh), several times slower than a release
// build; a healthy run binds in seconds.
func (e *env) waitBound(ctx context.Context, t *testing.T, ns string, want int) map[string]string {
	t.Helper()
	var bound map[string]string
	err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, 4*time.Minute, true, func(ctx context.Context) (bool, error) {
		list, err := e.client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		bound = map[string]string{}
		for _, p := range list.Items {
			if p.Spec.NodeName != "" {
				bound[p.Name] = p.Spec.NodeName
			}
		}
		return len(bound) == want, nil
	})
	if err != nil {
		t.Fatalf("%d of %d pods bound in %s: %v", len(bound), want, ns, err)
	}
	return bound
}

// scheduledEvents counts the Scheduled events of each pod of ns.
func (e *env) scheduledEvents(ctx context.Context, t *testing.T, ns string) map[string]int {
	t.Helper()
	list, err := e.client.EventsV1().Events(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, ev := range list.Items {
		if ev.Reason == "Scheduled" {
			n[ev.Regarding.Name]++
		}
	}
	return n
}

// TestSchedulesAgainstAPIServer: the deployed whole-algorithm profile
// schedules as upstream's Filter allows (checkSchedules).
func TestSchedulesAgainstAPIServer(t *testing.T) {
	e := setup(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	e.startScheduler(t, e.deploy(ctx, t), "scheduler-basic")
	e.checkSchedules(ctx, t, "basic")
}

// checkSchedules, against a running scheduler: pods with resources,
// anti-affinity, tolerations and a zone spread constraint land where the
// Filter allows; a pod that fits nowhere gets a FailedScheduling event with
// upstream's FitError text. name names the namespace and the nodes.
func (e *env) checkSchedules(ctx context.Context, t *testing.T, name string) {
	t.Helper()
	ns := name
	e.namespace(ctx, t, ns)
	taint := []v1.Taint{{Key: "dedicated", Value: "db", Effect: v1.TaintEffectNoSchedule}}
	e.nodes(ctx, t, name, *nodeCount, "4", nil)
	e.nodes(ctx, t, name+"-tainted", 2, "4", taint)

	var pods []*v1.Pod
	for i := 0; i < *nodeCount; i++ { // one per node: required anti-affinity on hostname
		p := pod(ns, fmt.Sprintf("spread-%d", i), "100m", map[string]string{"app": "spread"})
		p.Spec.Affinity = &v1.Affinity{PodAntiAffinity: &v1.PodAntiAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: []v1.PodAffinityTerm{{
				LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "spread"}},
				TopologyKey:   v1.LabelHostname}}}}
		pods = append(pods, p)
	}
	for i := 0; i < 2; i++ {
		p := pod(ns, fmt.Sprintf("db-%d", i), "3", nil)
		p.Spec.Tolerations = []v1.Toleration{{Key: "dedicated", Value: "db", Effect: v1.TaintEffectNoSchedule}}
		p.Spec.NodeSelector = map[string]string{v1.LabelHostname: fmt.Sprintf("%s-tainted-%d", name, i)}
		pods = append(pods, p)
	}
	const zoned = 6 // two per zone: maxSkew 1 over three zones
	for i := 0; i < zoned; i++ {
		p := pod(ns, fmt.Sprintf("zoned-%d", i), "100m", map[string]string{"app": "zoned"})
		p.Spec.TopologySpreadConstraints = []v1.TopologySpreadConstraint{{MaxSkew: 1,
			TopologyKey: v1.LabelTopologyZone, WhenUnsatisfiable: v1.DoNotSchedule,
			LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "zoned"}}}}
		pods = append(pods, p)
	}
	e.create(ctx, t, pods...)
	bound := e.waitBound(ctx, t, ns, len(pods))
	used := map[string]bool{}
	perZone := map[string]int{}
	for pod, node := range bound {
		tainted := strings.HasPrefix(node, name+"-tainted")
		switch {
		case strings.HasPrefix(pod, "spread-"):
			if used[node] || tainted {
				t.Errorf("pod %s on %s: anti-affinity or taint violated", pod, node)
			}
			used[node] = true
		case strings.HasPrefix(pod, "zoned-"):
			if tainted {
				t.Errorf("pod %s on %s: taint violated", pod, node)
			}
			var i int
			if _, err := fmt.Sscanf(strings.TrimPrefix(node, name+"-"), "%d", &i); err == nil {
				perZone[fmt.Sprintf("zone-%d", i%3)]++
			}
		}
	}
	if perZone["zone-0"] != zoned/3 || perZone["zone-1"] != zoned/3 || perZone["zone-2"] != zoned/3 {
		t.Errorf("zoned pods per zone %v: want %d in each (maxSkew 1)", perZone, zoned/3)
	}
	for i := 0; i < 2; i++ {
		if got, want := bound[fmt.Sprintf("db-%d", i)], fmt.Sprintf("%s-tainted-%d", name, i); got != want {
			t.Errorf("db-%d on %s, want %s", i, got, want)
		}
	}

	e.create(ctx, t, pod(ns, "huge", "64", nil))
	want := fmt.Sprintf("0/%d nodes are available:", *nodeCount+2)
	var msg string
	err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		list, err := e.client.EventsV1().Events(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		for _, ev := range list.Items {
			if ev.Regarding.Name == "huge" && ev.Reason == "FailedScheduling" {
				msg = ev.Note
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		t.Fatalf("no FailedScheduling event for huge: %v", err)
	}
	if !strings.HasPrefix(msg, want) || !strings.Contains(msg, "Insufficient cpu") ||
		!strings.Contains(msg, "2 node(s) had untolerated taint(s)") {
		t.Errorf("FailedScheduling message %q: want upstream's FitError (%q..., Insufficient cpu, untolerated taint)", msg, want)
	}
	// Upstream's DynamicResources gives its PostFilter reason once; plugin
	// mode's LibSched once repeated it.
	if n := strings.Count(msg, "no new claims to deallocate"); n > 1 {
		t.Errorf("FailedScheduling message %q: DynamicResources' reason %d times, upstream's has it once", msg, n)
	}
}

// TestKillAndRestart: kill -9 of the scheduler while pods are pending,
// then a restart: every pod ends bound, none twice (one Scheduled event each).
func TestKillAndRestart(t *testing.T) {
	e := setup(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	config := e.deploy(ctx, t)
	const ns = "restart"
	e.namespace(ctx, t, ns)
	e.nodes(ctx, t, "restart", *nodeCount, "8", nil)
	first := e.startScheduler(t, config, "scheduler-restart-1")
	var pods []*v1.Pod
	const n = 200
	for i := 0; i < n; i++ {
		pods = append(pods, pod(ns, fmt.Sprintf("p-%d", i), "10m", nil))
	}
	go func() { // kill once some, not all, pods are bound
		_ = wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
			list, err := e.client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
			if err != nil {
				return false, nil
			}
			b := 0
			for _, p := range list.Items {
				if p.Spec.NodeName != "" {
					b++
				}
			}
			return b >= 10, nil
		})
		_ = first.Process.Kill() // SIGKILL
	}()
	e.create(ctx, t, pods...)
	_ = first.Wait()
	e.startScheduler(t, config, "scheduler-restart-2")
	e.waitBound(ctx, t, ns, n)
	time.Sleep(time.Second) // let the last events land
	for name, c := range e.scheduledEvents(ctx, t, ns) {
		if c != 1 {
			t.Errorf("pod %s has %d Scheduled events", name, c)
		}
	}
}

// TestFailoverThroughLease: two instances with leader election; the second
// waits on the lease while the first leads, and takes over when the first
// is killed: pods created after the kill are bound.
func TestFailoverThroughLease(t *testing.T) {
	e := setup(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	config := e.deploy(ctx, t)
	const ns = "failover"
	e.namespace(ctx, t, ns)
	e.nodes(ctx, t, "failover", 3, "8", nil)
	holder := func() string {
		l, err := e.client.CoordinationV1().Leases("kube-system").Get(ctx, "libsched-scheduler", metav1.GetOptions{})
		if err != nil || l.Spec.HolderIdentity == nil {
			return ""
		}
		return *l.Spec.HolderIdentity
	}
	// Another test's instance may hold the lease until it expires.
	before := holder()
	first := e.startScheduler(t, config, "scheduler-failover-1")
	e.create(ctx, t, pod(ns, "a", "10m", nil))
	e.waitBound(ctx, t, ns, 1) // the first instance leads
	leader := holder()
	if leader == "" || leader == before {
		t.Fatalf("lease holder %q (before: %q): the first instance does not hold it", leader, before)
	}
	e.startScheduler(t, config, "scheduler-failover-2")
	time.Sleep(2 * time.Second)
	if h := holder(); h != leader {
		t.Fatalf("lease moved to %q while the first instance %q ran", h, leader)
	}
	_ = first.Process.Kill()
	_ = first.Wait()
	e.create(ctx, t, pod(ns, "b", "10m", nil))
	e.waitBound(ctx, t, ns, 2)
	if h := holder(); h == leader || h == "" {
		t.Errorf("lease holder %q after the leader was killed, want the second instance", h)
	}
}

// TestPreemptionAgainstAPIServer: the deployed whole-algorithm profile
// preempts (checkPreemption).
func TestPreemptionAgainstAPIServer(t *testing.T) {
	e := setup(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	e.startScheduler(t, e.deploy(ctx, t), "scheduler-preempt")
	e.checkPreemption(ctx, t, "preempt")
}

// checkPreemption, against a running scheduler: a high-priority pod that
// fits nowhere preempts one low-priority pod (DisruptionTarget condition,
// deleted through the API) and is bound to its node. No kubelet runs here:
// the test plays its part and removes pods that the API server left
// terminating. The namespace and nodes are named prefix-<time>.
func (e *env) checkPreemption(ctx context.Context, t *testing.T, prefix string) {
	t.Helper()
	// Names unique to the run, so -count=N reruns it against one API
	// server (no namespace controller runs here to delete a namespace).
	ns := fmt.Sprintf("%s-%d", prefix, time.Now().UnixNano())
	e.namespace(ctx, t, ns)
	e.nodes(ctx, t, ns, 3, "2", nil)
	for name, value := range map[string]int32{"e2e-low": 100, "e2e-high": 1000} {
		pc := &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: name}, Value: value}
		if _, err := e.client.SchedulingV1().PriorityClasses().Create(ctx, pc, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
			t.Fatal(err)
		}
	}
	go e.finishTerminating(ctx, ns)
	var lows []*v1.Pod
	for i := 0; i < 3; i++ {
		p := pod(ns, fmt.Sprintf("low-%d", i), "1500m", nil)
		p.Spec.PriorityClassName = "e2e-low"
		lows = append(lows, p)
	}
	e.create(ctx, t, lows...)
	e.waitBound(ctx, t, ns, 3)
	high := pod(ns, "high", "1500m", nil)
	high.Spec.PriorityClassName = "e2e-high"
	e.create(ctx, t, high)
	err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, 2*time.Minute, true, func(ctx context.Context) (bool, error) {
		p, err := e.client.CoreV1().Pods(ns).Get(ctx, "high", metav1.GetOptions{})
		return err == nil && p.Spec.NodeName != "", nil
	})
	if err != nil {
		t.Fatalf("high not bound: %v", err)
	}
	e.waitBound(ctx, t, ns, 3) // two lows and high: one victim
	list, err := e.client.EventsV1().Events(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	preempted := 0
	for _, ev := range list.Items {
		if ev.Reason == "Preempted" && strings.HasPrefix(ev.Regarding.Name, "low-") {
			preempted++
		}
	}
	if preempted != 1 {
		t.Errorf("%d Preempted events for low pods, want 1", preempted)
	}
}

// finishTerminating deletes, with grace period 0, pods of ns that the API
// server keeps terminating (bound pods wait for their kubelet), and checks
// nothing: it stands in for the kubelet.
func (e *env) finishTerminating(ctx context.Context, ns string) {
	zero := int64(0)
	for ctx.Err() == nil {
		list, err := e.client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
		if err == nil {
			for _, p := range list.Items {
				if p.DeletionTimestamp != nil {
					_ = e.client.CoreV1().Pods(ns).Delete(ctx, p.Name, metav1.DeleteOptions{GracePeriodSeconds: &zero})
				}
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
}
