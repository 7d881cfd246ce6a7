#!/usr/bin/env bash
# Real control-plane components for the fork's end-to-end tests and
# benchmarks, built from Go modules and started on 127.0.0.1:
#
#   scripts/kube-components.sh build        # etcd + kube-apiserver into $KUBE_COMPONENTS_BIN
#   scripts/kube-components.sh build etcd   # etcd only (bench/scheduler-perf.sh)
#   scripts/kube-components.sh start DIR    # start both; DIR receives data, certs, kubeconfigs
#   scripts/kube-components.sh stop DIR     # SIGTERM both, wait, keep DIR
#
# etcd is etcd's own server built from go.etcd.io/etcd/server/v3 (the small
# module kube-scheduler/tools/etcd, pinned by its go.sum); kube-apiserver is
# upstream's command from the k8s.io/kubernetes module the fork pins (a
# `tool` line of kube-scheduler/go.mod, so both use the very same release).
# Binaries are cached in $KUBE_COMPONENTS_BIN (default build-kube/bin under
# the repository root, ignored by git); `build` rebuilds only what is
# missing or older than its go.mod.
# KUBE_RACE=1 builds kube-apiserver with the race detector into
# build-kube/bin-race (the default $KUBE_COMPONENTS_BIN then): the race
# tests of the fork compile most of its packages already, so CI's
# end-to-end run shares that compile instead of building ~2,000 packages a
# second time (scripts/test-kube-e2e.sh). etcd (its own module, nothing
# shared) is built without it. Never for benchmarks: the race detector
# slows the API server several times.
#
# `start` makes a CA and a serving certificate for 127.0.0.1 (openssl), a
# service-account key pair and two static tokens: DIR/admin.kubeconfig
# (user admin, group system:masters) and DIR/scheduler.kubeconfig (user
# system:kube-scheduler, which upstream's bootstrap RBAC authorizes as a
# scheduler). Authorization is RBAC. Ports are free ones picked at start;
# DIR/env records them and the pids. It waits until /readyz answers ok
# (60 s at most) and exits non-zero if either component fails.
# The ServiceAccount admission plugin is off: nothing here runs the
# controller that creates namespaces' default ServiceAccounts.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
race=()
[[ ${KUBE_RACE:-0} == 1 ]] && race=(-race)
bin="${KUBE_COMPONENTS_BIN:-$root/build-kube/bin${race:+-race}}"

die() { echo "kube-components.sh: $*" >&2; exit 1; }

# stale FILE MODFILE: FILE is missing or older than MODFILE.
stale() { [[ ! -x $1 || $2 -nt $1 ]]; }

# build [etcd]: both components, or etcd only.
build() {
  command -v go >/dev/null || die "no go toolchain on PATH"
  mkdir -p "$bin"
  if stale "$bin/etcd" "$root/kube-scheduler/tools/etcd/go.mod"; then
    echo "== building etcd"
    (cd "$root/kube-scheduler/tools/etcd" && nice go build -o "$bin/etcd" .)
  fi
  if [[ ${1:-} == etcd ]]; then
    "$bin/etcd" --version | sed -n 1p  # not head: see below
    return
  fi
  if stale "$bin/kube-apiserver" "$root/kube-scheduler/go.mod"; then
    echo "== building kube-apiserver"
    (cd "$root/kube-scheduler" && nice go build "${race[@]}" -o "$bin/kube-apiserver" k8s.io/kubernetes/cmd/kube-apiserver)
  fi
  "$bin/etcd" --version | sed -n 1p  # sed reads it all: head could SIGPIPE etcd (pipefail)
  "$bin/kube-apiserver" --version
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

# kubeconfig FILE SERVER CA TOKEN
kubeconfig() {
  cat >"$1" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: local
  cluster: {server: "$2", certificate-authority: "$3"}
users:
- name: user
  user: {token: "$4"}
contexts:
- name: local
  context: {cluster: local, user: user}
current-context: local
EOF
}

certs() {
  local d=$1
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=libsched-test-ca \
    -keyout "$d/ca.key" -out "$d/ca.crt" 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -subj /CN=kube-apiserver \
    -keyout "$d/apiserver.key" -out "$d/apiserver.csr" 2>/dev/null
  printf 'subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:kubernetes.default.svc\n' >"$d/san.ext"
  openssl x509 -req -in "$d/apiserver.csr" -CA "$d/ca.crt" -CAkey "$d/ca.key" \
    -CAcreateserial -days 2 -extfile "$d/san.ext" -out "$d/apiserver.crt" 2>/dev/null
  openssl genrsa -out "$d/sa.key" 2048 2>/dev/null
  openssl rsa -in "$d/sa.key" -pubout -out "$d/sa.pub" 2>/dev/null
}

start() {
  local dir=$1
  [[ -x $bin/etcd && -x $bin/kube-apiserver ]] || die "run '$0 build' first"
  mkdir -p "$dir/certs" "$dir/etcd"
  dir=$(cd "$dir" && pwd)
  certs "$dir/certs"
  local etcd_port peer_port api_port admin_token sched_token
  etcd_port=$(free_port) peer_port=$(free_port) api_port=$(free_port)
  admin_token=$(openssl rand -hex 16) sched_token=$(openssl rand -hex 16)
  printf '%s,admin,admin,system:masters\n%s,system:kube-scheduler,kube-scheduler\n' \
    "$admin_token" "$sched_token" >"$dir/certs/tokens.csv"

  "$bin/etcd" --data-dir "$dir/etcd" --name test \
    --listen-client-urls "http://127.0.0.1:$etcd_port" --advertise-client-urls "http://127.0.0.1:$etcd_port" \
    --listen-peer-urls "http://127.0.0.1:$peer_port" --initial-advertise-peer-urls "http://127.0.0.1:$peer_port" \
    --initial-cluster "test=http://127.0.0.1:$peer_port" \
    --unsafe-no-fsync --log-level warn >"$dir/etcd.log" 2>&1 &
  local etcd_pid=$!
  "$bin/kube-apiserver" --etcd-servers "http://127.0.0.1:$etcd_port" \
    --bind-address 127.0.0.1 --advertise-address 127.0.0.1 --secure-port "$api_port" \
    --tls-cert-file "$dir/certs/apiserver.crt" --tls-private-key-file "$dir/certs/apiserver.key" \
    --client-ca-file "$dir/certs/ca.crt" --token-auth-file "$dir/certs/tokens.csv" \
    --service-account-key-file "$dir/certs/sa.pub" --service-account-signing-key-file "$dir/certs/sa.key" \
    --service-account-issuer https://kubernetes.default.svc --service-cluster-ip-range 10.0.0.0/24 \
    --authorization-mode RBAC --disable-admission-plugins ServiceAccount \
    ${KUBE_APISERVER_ARGS:-} >"$dir/apiserver.log" 2>&1 &
  local api_pid=$!
  cat >"$dir/env" <<EOF
ETCD_PID=$etcd_pid
APISERVER_PID=$api_pid
ETCD_URL=http://127.0.0.1:$etcd_port
APISERVER_URL=https://127.0.0.1:$api_port
EOF
  local server="https://127.0.0.1:$api_port"
  kubeconfig "$dir/admin.kubeconfig" "$server" "$dir/certs/ca.crt" "$admin_token"
  kubeconfig "$dir/scheduler.kubeconfig" "$server" "$dir/certs/ca.crt" "$sched_token"

  local i
  for ((i = 0; i < 120; i++)); do
    kill -0 "$etcd_pid" 2>/dev/null || die "etcd exited: $(tail -5 "$dir/etcd.log")"
    kill -0 "$api_pid" 2>/dev/null || die "kube-apiserver exited: $(tail -5 "$dir/apiserver.log")"
    if [[ $(curl -s --cacert "$dir/certs/ca.crt" -H "Authorization: Bearer $admin_token" \
      "$server/readyz" 2>/dev/null) == ok ]]; then
      echo "kube-components.sh: kube-apiserver ready at $server (etcd pid $etcd_pid, apiserver pid $api_pid)"
      echo "  KUBECONFIG=$dir/admin.kubeconfig"
      return 0
    fi
    sleep 0.5
  done
  stop "$dir"
  die "kube-apiserver not ready after 60 s: $(tail -5 "$dir/apiserver.log")"
}

stop() {
  local dir=$1 pid i
  [[ -f $dir/env ]] || die "$dir/env: not started here"
  # shellcheck disable=SC1091
  . "$dir/env"
  for pid in "$APISERVER_PID" "$ETCD_PID"; do
    kill "$pid" 2>/dev/null || continue
    for ((i = 0; i < 100; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
}

case "${1:-}" in
  build) [[ $# == 1 || ( $# == 2 && $2 == etcd ) ]] || die "usage: $0 build [etcd]"; build "${2:-}" ;;
  start) [[ $# == 2 ]] || die "usage: $0 start DIR"; start "$2" ;;
  stop) [[ $# == 2 ]] || die "usage: $0 stop DIR"; stop "$2" ;;
  *) die "usage: $0 build [etcd] | start DIR | stop DIR" ;;
esac
