#!/usr/bin/env bash
# Builds Helm (the chart linter and renderer the tests run against deploy/helm/modelplane) from its Go module, once,
# into
#   ${MODELPLANE_CACHE:-~/.cache/modelplane}/helm/<version>/helm
# and prints that path as the last line of stdout. Needs Go and the Go module proxy. Progress goes to stderr.
# The first version of HELM_VERSIONS whose whole dependency graph the proxy serves wins.
set -euo pipefail
versions="${HELM_VERSIONS:-v4.3.1 v4.3.0 v3.22.0}"
cache="${MODELPLANE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/modelplane}/helm"
module() { case "$1" in v3.*) echo helm.sh/helm/v3 ;; *) echo helm.sh/helm/v4 ;; esac; }
for version in $versions; do
  if [ -x "$cache/$version/helm" ]; then echo "$cache/$version/helm"; exit 0; fi
done
command -v go >/dev/null || { echo "helm: Go is not installed; install Go >= 1.24 to build Helm" >&2; exit 1; }
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
for version in $versions; do
  bin="$cache/$version/helm"
  if [ -x "$bin" ]; then echo "$bin"; exit 0; fi
  tmp="$(mktemp -d "$cache/.build.XXXXXX")"
  mod="$(module "$version")"
  echo "helm: building $mod/cmd/helm@$version (first run only, about 3 minutes on 2 cores)" >&2
  if (cd "$tmp" && go mod init modelplane.local/helm >/dev/null 2>&1 \
      && GOFLAGS=-mod=mod go get "$mod/cmd/helm@$version" >&2 \
      && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath -ldflags "-s -w -X $mod/internal/version.version=$version" \
        -o helm "$mod/cmd/helm" >&2); then
    mkdir -p "$cache/$version"
    mv "$tmp/helm" "$bin"
    rm -rf "$tmp"
    echo "$bin"
    exit 0
  fi
  rm -rf "$tmp"
  echo "helm: $version did not build here; trying the next version" >&2
done
echo "helm: no version could be built" >&2
exit 1
