#!/usr/bin/env bash
# Builds the KV-events probe (main.go beside this script: llm-d-kv-cache's subscriber, index and scorer behind a small
# HTTP API on 127.0.0.1) once into
#   ${MODELPLANE_CACHE:-~/.cache/modelplane}/kv-indexer/<llm-d-kv-cache version>-<hash of main.go, go.mod, go.sum>/kv-indexer
# so an edit of the probe or of its pins builds a new one. Prints that path as the last line of stdout. Pure Go
# (CGO_ENABLED=0); needs Go and the Go module proxy (go.sum is committed). Progress goes to stderr.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
version="$(awk '$1 == "github.com/llm-d/llm-d-kv-cache" {print $2; exit}' "$here/go.mod")"
hash="$(cat "$here/main.go" "$here/go.mod" "$here/go.sum" | sha256sum | cut -c1-12)"
cache="${MODELPLANE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/modelplane}/kv-indexer"
bin="$cache/$version-$hash/kv-indexer"
if [ -x "$bin" ]; then echo "$bin"; exit 0; fi
command -v go >/dev/null || { echo "kv-indexer: Go is not installed; install Go >= 1.24 to build it" >&2; exit 1; }
mkdir -p "$cache"
exec 9>"$cache/.lock"
flock 9
if [ -x "$bin" ]; then echo "$bin"; exit 0; fi
tmp="$(mktemp -d "$cache/.build.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
echo "kv-indexer: building against llm-d-kv-cache $version (first run only, a few minutes on 2 cores)" >&2
(cd "$here" && CGO_ENABLED=0 GOWORK=off GOFLAGS="${GOFLAGS:-} -mod=readonly" \
  go build -trimpath -ldflags "-s -w" -o "$tmp/kv-indexer" .) >&2
mkdir -p "$(dirname "$bin")"
mv "$tmp/kv-indexer" "$bin"
echo "$bin"
