#!/usr/bin/env bash
# Builds the real Kubernetes control-plane binaries (kube-apiserver, kube-controller-manager,
# kube-scheduler, kubectl, etcd, kwok) from Go modules at the versions pinned in the go.mod
# files beside this script, once, into
#   ${MODELPLANE_CONTROL_PLANE_CACHE:-~/.cache/modelplane/control-plane}/<tag>/bin
# and reuses them afterwards. Needs only Go (>= 1.26) and the Go module proxy.
#
# The last line on stdout is the bin directory:   dir=$(hack/control-plane/build.sh | tail -1)
# Progress goes to stderr.
#
# Options:
#   --check   do not build; print the bin dir and exit 0 if it is complete, exit 1 otherwise
#   --tag     print the version tag and exit
#   --force   rebuild even if the cache is complete
set -euo pipefail

# Everything runs inside main, so bash has parsed the whole file before it starts: editing or checking
# out this script while a build runs cannot change the running build.
main() {
  here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
  binaries=(kube-apiserver kube-controller-manager kube-scheduler kubectl etcd kwok)

  gocache_name=control-plane
  # shellcheck source=../lib/go-cache.sh
  source "$here/../lib/go-cache.sh"
  gocache_mode "${BASH_SOURCE[0]}" '2,15p' "$@"
  pinned() { gocache_pinned "$here/$1" "$2"; }

  k8s_version="$(pinned k8s k8s.io/kubernetes)"
  etcd_version="$(pinned etcd go.etcd.io/etcd/server/v3)"
  kwok_version="$(pinned kwok sigs.k8s.io/kwok)"
  tag="k8s-${k8s_version}_etcd-${etcd_version}_kwok-${kwok_version}"
  [[ "$mode" == tag ]] && { echo "$tag"; exit 0; }

  complete() {
    local b
    for b in "${binaries[@]}"; do [[ -x "$1/bin/$b" ]] || return 1; done
    [[ -s "$1/etc/kwok-stages.yaml" ]]
  }
  gocache_init "$gocache_name" \
    "${MODELPLANE_CONTROL_PLANE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/modelplane/control-plane}" "$tag" "$mode"

  start=$SECONDS
  # Measured cold (empty Go build cache) on a 2-core machine; warm builds take seconds.
  declare -A estimate=([k8s]="about 9 minutes" [etcd]="about 1 minute" [kwok]="about 2 minutes")
  step() { # module dir, ldflags, output (file, or dir/ for several packages), packages...
    local dir="$1" ldflags="$2" out="$3"; shift 3
    local t=$SECONDS
    log "building $* ($dir; cold on 2 cores: ${estimate[$dir]:-a few minutes})"
    (cd "$here/$dir" && go build -ldflags "$ldflags" -o "$out" "$@")
    log "  done in $((SECONDS - t))s"
  }

  # Version info the way kubernetes' hack/lib/version.sh sets it; the build date is the release's
  # module timestamp, so the binaries are reproducible.
  k8s_major="${k8s_version#v}"; k8s_major="${k8s_major%%.*}"
  k8s_minor="${k8s_version#v*.}"; k8s_minor="${k8s_minor%%.*}"
  k8s_date="$(cd "$here/k8s" && go list -m -f '{{if .Time}}{{.Time.UTC.Format "2006-01-02T15:04:05Z"}}{{end}}' k8s.io/kubernetes)"
  k8s_ldflags="-s -w"
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    k8s_ldflags+=" -X $pkg.gitVersion=$k8s_version -X $pkg.gitMajor=$k8s_major -X $pkg.gitMinor=$k8s_minor"
    k8s_ldflags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=${k8s_date:-1970-01-01T00:00:00Z}"
  done

  # One go build for the four kubernetes commands: they share most packages.
  step k8s "$k8s_ldflags" "$tmp/bin/" \
    k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager \
    k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kubectl
  step etcd "-s -w -X go.etcd.io/etcd/api/v3/version.GitSHA=$etcd_version" "$tmp/bin/etcd" go.etcd.io/etcd/server/v3
  step kwok "-s -w" "$tmp/bin/kwok" sigs.k8s.io/kwok/cmd/kwok

  # kwok has no built-in stages: `kwok` fails with "no stages found" unless a --config file holds them.
  # These are the defaults kwokctl uses (fast node init + heartbeat with lease, fast pod ready/complete/
  # delete), taken from the pinned kwok module. Use: kwok --config=<dir>/etc/kwok-stages.yaml ...
  mkdir -p "$tmp/etc"
  kwok_dir="$(cd "$here/kwok" && go list -m -f '{{.Dir}}' sigs.k8s.io/kwok)"
  for f in node/fast/node-initialize.yaml node/heartbeat-with-lease/node-heartbeat-with-lease.yaml \
           pod/fast/pod-ready.yaml pod/fast/pod-complete.yaml pod/fast/pod-delete.yaml; do
    echo "---"
    cat "$kwok_dir/kustomize/stage/$f"
  done >"$tmp/etc/kwok-stages.yaml"

  gocache_finish "K8S_VERSION=$k8s_version" "ETCD_VERSION=$etcd_version" "KWOK_VERSION=$kwok_version"
}

main "$@"
