#!/usr/bin/env bash
# Builds promtool (Prometheus's checker; `promtool check metrics` is the strict exposition-format parser and linter
# the simulator tests use) from the Go module github.com/prometheus/prometheus, once, into
#   ${MODELPLANE_CACHE:-~/.cache/modelplane}/promtool/<version>/promtool
# and prints that path as the last line of stdout. Needs Go and the Go module proxy. Progress goes to stderr.
#
# `go install …@version` refuses Prometheus's module (its go.mod has replace/exclude directives), so the build
# runs in a throw-away main module that requires it. The first version of PROMTOOL_VERSIONS whose whole
# dependency graph the proxy serves wins (the newest ones pin pseudo-versions a proxy mirror may lack).
set -euo pipefail
versions="${PROMTOOL_VERSIONS:-v0.310.0 v0.305.0 v0.300.1}"
cache="${MODELPLANE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/modelplane}/promtool"
for version in $versions; do
  if [ -x "$cache/$version/promtool" ]; then echo "$cache/$version/promtool"; exit 0; fi
done
command -v go >/dev/null || { echo "promtool: Go is not installed; install Go >= 1.24 to build promtool" >&2; exit 1; }
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
for version in $versions; do
  bin="$cache/$version/promtool"
  if [ -x "$bin" ]; then echo "$bin"; exit 0; fi
  tmp="$(mktemp -d "$cache/.build.XXXXXX")"
  echo "promtool: building github.com/prometheus/prometheus/cmd/promtool@$version (first run only, a few minutes)" >&2
  if (cd "$tmp" && go mod init modelplane.local/promtool >/dev/null 2>&1 \
      && GOFLAGS=-mod=mod go get "github.com/prometheus/prometheus/cmd/promtool@$version" >&2 \
      && GOFLAGS=-mod=mod go build -o promtool github.com/prometheus/prometheus/cmd/promtool >&2); then
    mkdir -p "$cache/$version"
    mv "$tmp/promtool" "$bin"
    rm -rf "$tmp"
    echo "$bin"
    exit 0
  fi
  rm -rf "$tmp"
  echo "promtool: $version did not build here; trying the next version" >&2
done
echo "promtool: no version could be built" >&2
exit 1
