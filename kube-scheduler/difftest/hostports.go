package difftest

import (
	"strings"

	v1 "k8s.io/api/core/v1"
)

// sharesHostPort reports whether two containers bound to one node use the
// same (hostIP, protocol, hostPort). Upstream's HostPortInfo.Remove then
// frees the port when preemption removes one of them though the other
// still holds it; the engine counts each use
// (docs/upstream-differences.md, "Host ports shared on a node").
func sharesHostPort(c *Case) bool {
	type use struct {
		node, ip string
		proto    v1.Protocol
		port     int32
	}
	seen := map[use]bool{}
	for _, p := range c.Pods {
		for _, ctr := range append(append([]v1.Container(nil), p.Spec.InitContainers...), p.Spec.Containers...) {
			for _, cp := range ctr.Ports {
				if cp.HostPort <= 0 {
					continue
				}
				u := use{p.Spec.NodeName, cp.HostIP, cp.Protocol, cp.HostPort}
				if u.ip == "" {
					u.ip = "0.0.0.0"
				}
				if u.proto == "" {
					u.proto = v1.ProtocolTCP
				}
				if seen[u] {
					return true
				}
				seen[u] = true
			}
		}
	}
	return false
}

// normalizeSharedPorts leaves preemption out of both decisions when no
// node fit and c shares a host port on a node; it reports whether it did.
func normalizeSharedPorts(c *Case, up, eng *Decision) bool {
	if up.Message == "" || !sharesHostPort(c) {
		return false
	}
	dropPreemption(up)
	dropPreemption(eng)
	return true
}

// dropPreemption leaves out what preemption decided: the message from
// " preemption:" on, the nomination and the victims.
func dropPreemption(d *Decision) {
	d.Message, _, _ = strings.Cut(d.Message, " preemption:")
	d.Nominated, d.Victims = nil, nil
}
