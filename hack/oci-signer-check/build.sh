#!/usr/bin/env bash
# Builds the OCI request-signing reference the tests compare modelplane's OCI signer with: a tiny program (main.go
# beside this script) that signs requests with the official OCI Go SDK at the version pinned in go.mod, once, into
#   ${MODELPLANE_OCI_SIGNER_CHECK_CACHE:-~/.cache/modelplane/oci-signer-check}/<tag>/bin
# and reuses it afterwards. Needs only Go (>= 1.26) and the Go module proxy.
#
# The last line on stdout is the bin directory:   dir=$(hack/oci-signer-check/build.sh | tail -1)
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
  gocache_name=oci-signer-check
  # shellcheck source=../lib/go-cache.sh
  source "$here/../lib/go-cache.sh"
  gocache_mode "${BASH_SOURCE[0]}" '2,14p' "$@"
  binary=oci-signer-check
  module=github.com/oracle/oci-go-sdk/v65
  version="$(gocache_pinned "$here" "$module")"
  # The program's own source is part of the tag, so a change to it builds anew.
  tag="oci-go-sdk-${version}-$(cat "$here/main.go" "$here/go.sum" | sha256sum | cut -c1-12)"
  [[ "$mode" == tag ]] && { echo "$tag"; exit 0; }

  complete() { [[ -x "$1/bin/$binary" ]]; }
  gocache_init "$gocache_name" \
    "${MODELPLANE_OCI_SIGNER_CHECK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/modelplane/oci-signer-check}" "$tag" "$mode"

  log "building $binary against $module@$version"
  (cd "$here" && go build -ldflags "-s -w" -o "$tmp/bin/$binary" .)
  gocache_finish "OCI_GO_SDK_VERSION=$version"
}

main "$@"
