#!/usr/bin/env bash
# Fetches the CustomResourceDefinitions of optional projects whose objects modelplane creates (LeaderWorkerSet,
# Knative Serving, KEDA, Gateway API, Istio, Prometheus Operator) from the projects' own Go modules — the module sources are downloaded through
# the Go module proxy, nothing is built — into
#   ${MODELPLANE_UPSTREAM_CRDS_CACHE:-~/.cache/modelplane/upstream-crds}/<set>-<version>/
# and reuses them afterwards. Tests install them into the real control plane to prove the objects are valid.
#
# Usage: hack/control-plane/upstream-crds.sh SET
#   SET: lws | knative-serving | keda | gateway-api | istio | prometheus-operator
# The last line on stdout is the directory holding the set's CRD files. Progress goes to stderr.
set -euo pipefail

main() {
  local set="${1:-}" module version files=()
  case "$set" in
    lws) module=sigs.k8s.io/lws version=v0.7.0
      files=(config/crd/bases/leaderworkerset.x-k8s.io_leaderworkersets.yaml) ;;
    knative-serving) module=knative.dev/serving version=v0.51.0
      files=(config/core/300-resources/service.yaml config/core/300-resources/configuration.yaml
        config/core/300-resources/revision.yaml config/core/300-resources/route.yaml) ;;
    keda) module=github.com/kedacore/keda/v2 version=v2.21.0
      files=(config/crd/bases/keda.sh_scaledobjects.yaml config/crd/bases/keda.sh_triggerauthentications.yaml) ;;
    gateway-api) module=sigs.k8s.io/gateway-api version=v1.6.3
      files=(config/crd/standard/gateway.networking.k8s.io_gatewayclasses.yaml
        config/crd/standard/gateway.networking.k8s.io_gateways.yaml
        config/crd/standard/gateway.networking.k8s.io_httproutes.yaml
        config/crd/standard/gateway.networking.k8s.io_referencegrants.yaml) ;;
    istio) module=istio.io/api version=v1.29.1
      files=(kubernetes/customresourcedefinitions.gen.yaml) ;;
    prometheus-operator) module=github.com/prometheus-operator/prometheus-operator version=v0.90.1
      files=(example/prometheus-operator-crd/monitoring.coreos.com_podmonitors.yaml
        example/prometheus-operator-crd/monitoring.coreos.com_servicemonitors.yaml) ;;
    *) echo "usage: $0 lws|knative-serving|keda|gateway-api|istio|prometheus-operator" >&2; exit 2 ;;
  esac
  local cache="${MODELPLANE_UPSTREAM_CRDS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/modelplane/upstream-crds}"
  local dest="$cache/$set-$version" f complete=1
  for f in "${files[@]}"; do [[ -s "$dest/$(basename "$f")" ]] || complete=0; done
  if (( complete )); then echo "$dest"; return 0; fi
  command -v go >/dev/null || { echo "upstream-crds: Go is needed to fetch $module@$version (install Go 1.26+)" >&2; exit 1; }
  echo "upstream-crds: fetching $module@$version" >&2
  local work dir
  work="$(mktemp -d)"
  trap 'rm -rf "${work:-}"' EXIT
  # Outside any module, `go mod download` fetches the module zip (sources and YAML) into the module cache.
  dir="$(cd "$work" && GOFLAGS= go mod download -json "$module@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",*$/\1/p')"
  [[ -n "$dir" && -d "$dir" ]] || { echo "upstream-crds: could not download $module@$version" >&2; exit 1; }
  mkdir -p "$dest.tmp"
  for f in "${files[@]}"; do
    [[ -s "$dir/$f" ]] || { echo "upstream-crds: $module@$version has no $f" >&2; exit 1; }
    cp "$dir/$f" "$dest.tmp/"
  done
  chmod -R u+w "$dest.tmp"
  rm -rf "$dest" && mv "$dest.tmp" "$dest"
  echo "$dest"
}

main "$@"
