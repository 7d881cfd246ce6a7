// Command etcd is etcd's own server (go.etcd.io/etcd/server/v3/etcdmain),
// built from the Go module so the project's scripts can start a real etcd
// for the API server of its end-to-end tests and scheduler_perf runs
// (scripts/kube-components.sh). Flags are etcd's.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() { etcdmain.Main(os.Args) }
