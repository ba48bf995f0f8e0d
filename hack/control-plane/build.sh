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

  log() { echo "control-plane: $*" >&2; }
  die() { log "error: $*"; exit 1; }

  mode=build
  for arg in "$@"; do
    case "$arg" in
      --check) mode=check ;;
      --tag) mode=tag ;;
      --force) mode=force ;;
      -h|--help) sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
      *) die "unknown argument: $arg" ;;
    esac
  done

  # Pinned version of module $2 as required in $1/go.mod (read from the file: no network, no go needed).
  pinned() {
    local v
    v="$(awk -v m="$2" '($1 == m && $2 ~ /^v/) {print $2; exit} ($1 == "require" && $2 == m) {print $3; exit}' "$here/$1/go.mod")"
    [[ -n "$v" ]] || die "$2 is not required in $here/$1/go.mod"
    echo "$v"
  }

  k8s_version="$(pinned k8s k8s.io/kubernetes)"
  etcd_version="$(pinned etcd go.etcd.io/etcd/server/v3)"
  kwok_version="$(pinned kwok sigs.k8s.io/kwok)"
  tag="k8s-${k8s_version}_etcd-${etcd_version}_kwok-${kwok_version}"
  [[ "$mode" == tag ]] && { echo "$tag"; exit 0; }

  base="${MODELPLANE_CONTROL_PLANE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/modelplane/control-plane}"
  dest="$base/$tag"

  complete() {
    local b
    for b in "${binaries[@]}"; do [[ -x "$1/bin/$b" ]] || return 1; done
    [[ -s "$1/etc/kwok-stages.yaml" ]]
  }

  if [[ "$mode" != force ]] && complete "$dest"; then echo "$dest/bin"; exit 0; fi
  [[ "$mode" == check ]] && { log "not built: $dest"; exit 1; }

  command -v go >/dev/null || die "Go is not installed; install Go >= 1.26 (https://go.dev/dl) and retry"

  mkdir -p "$base"
  # Serialize concurrent builds (e.g. two test JVMs starting at once); the loser reuses the result.
  if command -v flock >/dev/null; then
    exec 9>"$base/.lock"
    if ! flock -n 9; then
      log "another build is running; waiting for it"
      flock 9
    fi
    if [[ "$mode" != force ]] && complete "$dest"; then echo "$dest/bin"; exit 0; fi
  fi

  # Build into a temp dir on the same filesystem and rename it into place at the end, so an
  # interrupted build never leaves a half-filled cache directory.
  tmp="$(mktemp -d "$base/.build-$tag.XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  chmod 755 "$tmp"
  mkdir -p "$tmp/bin"

  export CGO_ENABLED=0            # static binaries, no C toolchain needed (as upstream release builds)
  export GOFLAGS="${GOFLAGS:-} -mod=readonly -trimpath"
  export GOWORK=off

  start=$SECONDS
  step() { # module dir, ldflags, output (file, or dir/ for several packages), packages...
    local dir="$1" ldflags="$2" out="$3"; shift 3
    local t=$SECONDS
    log "building $* ($dir)"
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

  complete "$tmp" || die "build finished but binaries are missing: $(ls "$tmp/bin")"
  {
    echo "K8S_VERSION=$k8s_version"
    echo "ETCD_VERSION=$etcd_version"
    echo "KWOK_VERSION=$kwok_version"
    echo "GO_VERSION=$(go env GOVERSION)"
    echo "BUILD_SECONDS=$((SECONDS - start))"
  } >"$tmp/VERSIONS"

  # Swap in with two renames (an incomplete older dest, e.g. from a previous layout, goes aside first).
  if [[ -e "$dest" ]]; then mv "$dest" "$tmp.old"; fi
  mv "$tmp" "$dest"
  rm -rf "$tmp.old"
  trap - EXIT
  log "built $tag in $((SECONDS - start))s"
  echo "$dest/bin"
}

main "$@"
