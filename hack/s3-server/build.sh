#!/usr/bin/env bash
# Builds the S3-compatible server the tests run against (versitygw's gateway, posix backend, real SigV4
# checks) from its Go module at the version pinned in the go.mod beside this script, once, into
#   ${MODELPLANE_S3_SERVER_CACHE:-~/.cache/modelplane/s3-server}/<tag>/bin
# and reuses it afterwards. Needs only Go (>= 1.26) and the Go module proxy.
#
# The last line on stdout is the bin directory:   dir=$(hack/s3-server/build.sh | tail -1)
# Progress goes to stderr.
#
# Options:
#   --check   do not build; print the bin dir and exit 0 if it is complete, exit 1 otherwise
#   --tag     print the version tag and exit
#   --force   rebuild even if the cache is complete
set -euo pipefail

# Everything runs inside main, so bash has parsed the whole file before it starts.
main() {
  here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
  gocache_name=s3-server
  # shellcheck source=../lib/go-cache.sh
  source "$here/../lib/go-cache.sh"
  gocache_mode "${BASH_SOURCE[0]}" '2,13p' "$@"
  binary=versitygw
  module=github.com/versity/versitygw
  version="$(gocache_pinned "$here" "$module")"
  tag="versitygw-${version}"
  [[ "$mode" == tag ]] && { echo "$tag"; exit 0; }

  complete() { [[ -x "$1/bin/$binary" ]]; }
  gocache_init "$gocache_name" "${MODELPLANE_S3_SERVER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/modelplane/s3-server}" \
    "$tag" "$mode"

  log "building $module/cmd/$binary@$version"
  # The version variables are the ones versitygw's own Makefile sets.
  (cd "$here" && go build -ldflags "-s -w -X main.Version=$version -X main.Build=release -X main.BuildTime=unknown" \
    -o "$tmp/bin/$binary" "$module/cmd/$binary")
  gocache_finish "VERSITYGW_VERSION=$version"
}

main "$@"
