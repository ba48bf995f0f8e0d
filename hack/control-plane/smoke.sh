#!/usr/bin/env bash
# Smoke test of the control-plane binaries built by build.sh: etcd + kube-apiserver (RBAC, client-cert
# admin, service-account keys) + kube-controller-manager + kube-scheduler + kwok with one fake node,
# all on 127.0.0.1. Checks /readyz and `kubectl get ns`, then that a Deployment's pod is scheduled onto
# the fake node and marked Running with a 127.x pod IP. Every wait is bounded; every process it starts
# is stopped (by PID) and its temp dir removed on exit.
#
#   hack/control-plane/smoke.sh [BIN_DIR]       (default: the dir printed by build.sh --check)
#   KEEP=1 ...  keeps the temp dir (logs, certs, kubeconfig) for inspection
#
# Network: every listener binds 127.0.0.1 and every address handed out is loopback: the fake node's
# InternalIP is 127.0.0.1, its pod CIDR 127.1.0.0/24 (kwok --cidr is set to the same range as a fallback),
# and the service range is 127.96.0.0/16, so nothing can be pointed at an address off this machine.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bin="${1:-$("$here/build.sh" --check | tail -1)}"
for b in bin/etcd bin/kube-apiserver bin/kube-controller-manager bin/kube-scheduler bin/kubectl bin/kwok etc/kwok-stages.yaml; do
  [[ -e "$bin/../$b" ]] || { echo "smoke: $bin/../$b missing; run hack/control-plane/build.sh" >&2; exit 1; }
done

work="$(mktemp -d /tmp/modelplane-smoke.XXXXXX)"
pids=()
cleanup() {
  local rc=$?
  # Stop in reverse start order (clients before kube-apiserver before etcd), each bounded to 10s.
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    kill "${pids[i]}" 2>/dev/null || continue
    for _ in $(seq 100); do kill -0 "${pids[i]}" 2>/dev/null || break; sleep 0.1; done
    kill -9 "${pids[i]}" 2>/dev/null || true
    wait "${pids[i]}" 2>/dev/null || true
  done
  if [[ $rc -ne 0 ]]; then
    for f in "$work"/*.log; do [[ -f "$f" ]] && { echo "--- tail $f" >&2; tail -15 "$f" >&2; }; done
  fi
  if [[ -n "${KEEP:-}" ]]; then echo "smoke: kept $work" >&2; else rm -rf "$work"; fi
  exit $rc
}
trap cleanup EXIT INT TERM

log() { echo "smoke: $*" >&2; }
fail() { log "FAIL: $*"; exit 1; }
now_ms() { date +%s%3N; }

# A port nobody listens on (probed with bash's /dev/tcp; small race accepted for a smoke test).
used_ports=" "
free_port() {
  local p
  for _ in $(seq 100); do
    p=$((20000 + RANDOM % 30000))
    [[ "$used_ports" == *" $p "* ]] && continue
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then used_ports+="$p "; echo "$p"; return; fi
  done
  fail "no free port"
}

# wait_for SECONDS DESCRIPTION COMMAND... : retry COMMAND every 0.2s until it succeeds or time runs out.
wait_for() {
  local secs="$1" what="$2"; shift 2
  local deadline=$((SECONDS + secs))
  until "$@" >"$work/last-wait.out" 2>&1; do
    ((SECONDS < deadline)) || fail "timed out after ${secs}s waiting for $what: $(tail -3 "$work/last-wait.out")"
    for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null || fail "process $p died while waiting for $what"; done
    sleep 0.2
  done
}

# ---- certificates -------------------------------------------------------------------------------
pki="$work/pki"; mkdir -p "$pki"
ossl() { openssl "$@" >/dev/null 2>&1 || fail "openssl $1 failed"; }
ossl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=modelplane-smoke-ca" \
  -keyout "$pki/ca.key" -out "$pki/ca.crt"
sign() { # name subject [extfile]
  ossl req -newkey rsa:2048 -nodes -subj "$2" -keyout "$pki/$1.key" -out "$pki/$1.csr"
  ossl x509 -req -in "$pki/$1.csr" -CA "$pki/ca.crt" -CAkey "$pki/ca.key" -CAcreateserial -days 2 \
    -out "$pki/$1.crt" ${3:+-extfile "$3"}
}
printf 'subjectAltName=IP:127.0.0.1,DNS:localhost,IP:127.96.0.1\nextendedKeyUsage=serverAuth\n' >"$pki/serving.ext"
printf 'extendedKeyUsage=clientAuth\n' >"$pki/client.ext"
sign apiserver "/CN=kube-apiserver" "$pki/serving.ext"
# Front-proxy CA + client (request-header authn; aggregated API servers and the components' delegated
# authn read it from the extension-apiserver-authentication ConfigMap).
ossl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=modelplane-smoke-front-proxy-ca" \
  -keyout "$pki/front-proxy-ca.key" -out "$pki/front-proxy-ca.crt"
ossl req -newkey rsa:2048 -nodes -subj "/CN=front-proxy-client" -keyout "$pki/front-proxy-client.key" -out "$pki/front-proxy-client.csr"
ossl x509 -req -in "$pki/front-proxy-client.csr" -CA "$pki/front-proxy-ca.crt" -CAkey "$pki/front-proxy-ca.key" \
  -CAcreateserial -days 2 -out "$pki/front-proxy-client.crt" -extfile "$pki/client.ext"
sign admin "/O=system:masters/CN=modelplane-admin" "$pki/client.ext"
sign controller-manager "/CN=system:kube-controller-manager" "$pki/client.ext"
sign scheduler "/CN=system:kube-scheduler" "$pki/client.ext"
ossl genrsa -out "$pki/sa.key" 2048
ossl rsa -in "$pki/sa.key" -pubout -out "$pki/sa.pub"

etcd_port="$(free_port)"; etcd_peer="$(free_port)"; api_port="$(free_port)"
kcm_port="$(free_port)"; sched_port="$(free_port)"
server="https://127.0.0.1:$api_port"

kubeconfig() { # name -> $work/<name>.kubeconfig
  local kc="$work/$1.kubeconfig"
  "$bin/kubectl" config set-cluster smoke --server="$server" --certificate-authority="$pki/ca.crt" --embed-certs --kubeconfig="$kc" >/dev/null
  "$bin/kubectl" config set-credentials "$1" --client-certificate="$pki/$1.crt" --client-key="$pki/$1.key" --embed-certs --kubeconfig="$kc" >/dev/null
  "$bin/kubectl" config set-context smoke --cluster=smoke --user="$1" --kubeconfig="$kc" >/dev/null
  "$bin/kubectl" config use-context smoke --kubeconfig="$kc" >/dev/null
}
kubeconfig admin; kubeconfig controller-manager; kubeconfig scheduler
k() { "$bin/kubectl" --kubeconfig="$work/admin.kubeconfig" "$@"; }

# ---- etcd + kube-apiserver ----------------------------------------------------------------------
t0="$(now_ms)"
"$bin/etcd" --name=smoke --data-dir="$work/etcd" \
  --listen-client-urls="http://127.0.0.1:$etcd_port" --advertise-client-urls="http://127.0.0.1:$etcd_port" \
  --listen-peer-urls="http://127.0.0.1:$etcd_peer" --initial-advertise-peer-urls="http://127.0.0.1:$etcd_peer" \
  --initial-cluster="smoke=http://127.0.0.1:$etcd_peer" --unsafe-no-fsync --log-level=warn \
  >"$work/etcd.log" 2>&1 &
pids+=($!); etcd_pid=$!

"$bin/kube-apiserver" --etcd-servers="http://127.0.0.1:$etcd_port" \
  --bind-address=127.0.0.1 --advertise-address=127.0.0.1 --secure-port="$api_port" \
  --tls-cert-file="$pki/apiserver.crt" --tls-private-key-file="$pki/apiserver.key" \
  --client-ca-file="$pki/ca.crt" --authorization-mode=RBAC --allow-privileged=true \
  --service-cluster-ip-range=127.96.0.0/16 \
  --service-account-issuer=https://kubernetes.default.svc.cluster.local \
  --service-account-key-file="$pki/sa.pub" --service-account-signing-key-file="$pki/sa.key" \
  --requestheader-client-ca-file="$pki/front-proxy-ca.crt" --requestheader-allowed-names=front-proxy-client \
  --requestheader-username-headers=X-Remote-User --requestheader-group-headers=X-Remote-Group \
  --requestheader-extra-headers-prefix=X-Remote-Extra- \
  --proxy-client-cert-file="$pki/front-proxy-client.crt" --proxy-client-key-file="$pki/front-proxy-client.key" \
  --endpoint-reconciler-type=none --enable-aggregator-routing=true --cert-dir="$work/apiserver-certs" \
  >"$work/kube-apiserver.log" 2>&1 &
pids+=($!); api_pid=$!

wait_for 90 "kube-apiserver /readyz" k get --raw=/readyz
t1="$(now_ms)"
log "etcd + kube-apiserver ready in $((t1 - t0)) ms ($("$bin/kube-apiserver" --version))"
k get ns >"$work/ns.txt" || fail "kubectl get ns"
grep -q '^kube-system ' "$work/ns.txt" || fail "kube-system namespace missing"
log "service kubernetes ClusterIP: $(k get svc kubernetes -o 'jsonpath={.spec.clusterIP}')"
log "kubectl get ns: $(awk 'NR>1{print $1}' "$work/ns.txt" | tr '\n' ' ')"

# ---- controller-manager, scheduler, kwok -------------------------------------------------------
"$bin/kube-controller-manager" --kubeconfig="$work/controller-manager.kubeconfig" \
  --authentication-kubeconfig="$work/controller-manager.kubeconfig" \
  --authorization-kubeconfig="$work/controller-manager.kubeconfig" \
  --bind-address=127.0.0.1 --secure-port="$kcm_port" --leader-elect=false \
  --use-service-account-credentials=true --service-account-private-key-file="$pki/sa.key" \
  --root-ca-file="$pki/ca.crt" --cluster-signing-cert-file="$pki/ca.crt" --cluster-signing-key-file="$pki/ca.key" \
  --cert-dir="$work/kcm-certs" \
  >"$work/kube-controller-manager.log" 2>&1 &
pids+=($!); kcm_pid=$!
"$bin/kube-scheduler" --kubeconfig="$work/scheduler.kubeconfig" \
  --authentication-kubeconfig="$work/scheduler.kubeconfig" \
  --authorization-kubeconfig="$work/scheduler.kubeconfig" \
  --bind-address=127.0.0.1 --secure-port="$sched_port" --leader-elect=false \
  --cert-dir="$work/scheduler-certs" \
  >"$work/kube-scheduler.log" 2>&1 &
pids+=($!); sched_pid=$!
# --node-ip: the InternalIP kwok gives nodes that have none; --cidr: pod IPs for nodes without
# spec.podCIDR (default 10.0.0.0/24); --node-port 0 (default): kwok serves no kubelet port.
"$bin/kwok" --kubeconfig="$work/admin.kubeconfig" --config="$bin/../etc/kwok-stages.yaml" \
  --manage-all-nodes=false --manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=fake \
  --node-ip=127.0.0.1 --cidr=127.1.0.0/24 --node-lease-duration-seconds=40 \
  >"$work/kwok.log" 2>&1 &
pids+=($!); kwok_pid=$!

# /healthz is in the always-allowed paths of both; they serve self-signed certs (hence no CA check).
healthz() {
  "$bin/kubectl" --kubeconfig=/dev/null --server="https://127.0.0.1:$1" --insecure-skip-tls-verify=true \
    --client-certificate="$pki/admin.crt" --client-key="$pki/admin.key" get --raw=/healthz
}
wait_for 60 "kube-controller-manager /healthz" healthz "$kcm_port"
wait_for 60 "kube-scheduler /healthz" healthz "$sched_port"

k apply -f - >/dev/null <<'EOF'
apiVersion: v1
kind: Node
metadata:
  name: fake-node-0
  annotations:
    kwok.x-k8s.io/node: fake
  labels:
    kubernetes.io/hostname: fake-node-0
    type: kwok
spec:
  podCIDR: 127.1.0.0/24
  podCIDRs: [127.1.0.0/24]
  taints:
  - {key: kwok.x-k8s.io/node, value: fake, effect: NoSchedule}
status:
  allocatable: {cpu: "8", memory: 32Gi, pods: "110", nvidia.com/gpu: "1"}
  capacity: {cpu: "8", memory: 32Gi, pods: "110", nvidia.com/gpu: "1"}
EOF
node_ready() { [[ "$(k get node fake-node-0 -o 'jsonpath={.status.conditions[?(@.type=="Ready")].status}')" == True ]]; }
wait_for 60 "fake node Ready" node_ready
log "node fake-node-0 Ready, InternalIP $(k get node fake-node-0 -o 'jsonpath={.status.addresses[?(@.type=="InternalIP")].address}')"

k create namespace smoke >/dev/null
# The default ServiceAccount is created by the controller-manager; pods are rejected until it exists.
wait_for 60 "default ServiceAccount" k -n smoke get serviceaccount default
k -n smoke apply -f - >/dev/null <<'EOF'
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      tolerations: [{key: kwok.x-k8s.io/node, operator: Exists, effect: NoSchedule}]
      containers:
      - name: web
        image: registry.invalid/never-pulled:1
        resources: {requests: {cpu: 100m, memory: 64Mi}}
EOF
pod_running() { [[ "$(k -n smoke get pods -l app=web -o 'jsonpath={.items[0].status.phase}')" == Running ]]; }
wait_for 60 "Deployment pod Running" pod_running
pod="$(k -n smoke get pods -l app=web -o 'jsonpath={.items[0].metadata.name}')"
node="$(k -n smoke get pod "$pod" -o 'jsonpath={.spec.nodeName}')"
ip="$(k -n smoke get pod "$pod" -o 'jsonpath={.status.podIP}')"
sched_msg="$(k -n smoke get events --field-selector "involvedObject.name=$pod,reason=Scheduled" -o 'jsonpath={.items[0].message}')"
log "pod $pod Running on $node, podIP $ip; scheduler: $sched_msg"
[[ "$node" == fake-node-0 ]] || fail "pod landed on '$node'"
[[ "$ip" == 127.* ]] || fail "pod IP $ip is not loopback"

# A pod asking for more GPUs than any node has stays Pending with the scheduler's reason.
k -n smoke run too-big --image=registry.invalid/never-pulled:1 --restart=Never \
  --overrides='{"spec":{"tolerations":[{"operator":"Exists"}],"containers":[{"name":"too-big","image":"registry.invalid/never-pulled:1","resources":{"limits":{"nvidia.com/gpu":"2"}}}]}}' >/dev/null
unschedulable() { k -n smoke get events --field-selector involvedObject.name=too-big,reason=FailedScheduling -o 'jsonpath={.items[0].message}' | grep -q 'Insufficient nvidia.com/gpu'; }
wait_for 60 "FailedScheduling event for too-big" unschedulable
log "too-big: $(k -n smoke get events --field-selector involvedObject.name=too-big,reason=FailedScheduling -o 'jsonpath={.items[0].message}')"

# Memory of the running control plane (RSS, MiB).
rss() { awk '/^VmRSS/{printf "%d", $2/1024}' "/proc/$1/status" 2>/dev/null || echo "?"; }
log "RSS MiB: etcd $(rss $etcd_pid), kube-apiserver $(rss $api_pid), kube-controller-manager $(rss $kcm_pid), kube-scheduler $(rss $sched_pid), kwok $(rss $kwok_pid)"
echo "smoke: OK (apiserver+etcd ready in $((t1 - t0)) ms; pod IP $ip)"
