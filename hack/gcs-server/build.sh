#!/usr/bin/env bash
# Builds the GCS emulator the tests run against (fake-gcs-server: the JSON API with listing, media downloads with
# Range, crc32c and md5Hash metadata; it checks no credentials) from its Go module at the version pinned in the
# go.mod beside this script, once, into
#   ${MODELPLANE_GCS_SERVER_CACHE:-~/.cache/modelplane/gcs-server}/<tag>/bin
# and reuses it afterwards. Needs only Go (>= 1.26) and the Go module proxy.
#
# The last line on stdout is the bin directory:   dir=$(hack/gcs-server/build.sh | tail -1)
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
  gocache_name=gcs-server
  # shellcheck source=../lib/go-cache.sh
  source "$here/../lib/go-cache.sh"
  gocache_mode "${BASH_SOURCE[0]}" '2,14p' "$@"
  binary=fake-gcs-server
  module=github.com/fsouza/fake-gcs-server
  version="$(gocache_pinned "$here" "$module")"
  tag="fake-gcs-server-${version}"
  [[ "$mode" == tag ]] && { echo "$tag"; exit 0; }

  complete() { [[ -x "$1/bin/$binary" ]]; }
  gocache_init "$gocache_name" "${MODELPLANE_GCS_SERVER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/modelplane/gcs-server}" \
    "$tag" "$mode"

  log "building $module@$version"
  (cd "$here" && go build -ldflags "-s -w" -o "$tmp/bin/$binary" "$module")
  gocache_finish "FAKE_GCS_SERVER_VERSION=$version"
}

main "$@"
