// Package kubescheduler is a kube-scheduler (v1.36.3) that schedules with
// libsched: see README.md.
package kubescheduler

import (
	_ "github.com/libsched/libsched/go/sched"
	_ "k8s.io/kubernetes/cmd/kube-scheduler/app"
	_ "k8s.io/kubernetes/pkg/scheduler/framework/runtime"
)
