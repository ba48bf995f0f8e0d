#!/usr/bin/env bash
# Builds promtool (Prometheus's checker; `promtool check metrics` is the strict exposition-format parser our
# simulator tests use) from its Go module, once, into
#   ${MODELPLANE_CACHE:-~/.cache/modelplane}/promtool/<version>/promtool
# and prints that path as the last line of stdout. Needs Go and the Go module proxy. Progress goes to stderr.
set -euo pipefail
# The first version whose whole dependency graph the module proxy serves wins (newer ones may pin pseudo-versions
# a proxy mirror lacks); PROMTOOL_VERSION forces one.
versions="${PROMTOOL_VERSION:-v0.316.0 v0.310.0 v0.305.0 v0.300.1 v0.55.1}"
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
  echo "promtool: building github.com/prometheus/prometheus/cmd/promtool@$version (first run only)" >&2
  if GOBIN="$tmp" GOFLAGS=-mod=mod go install "github.com/prometheus/prometheus/cmd/promtool@$version" >&2; then
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
