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
  binary=versitygw
  module=github.com/versity/versitygw

  log() { echo "s3-server: $*" >&2; }
  die() { log "error: $*"; exit 1; }

  mode=build
  for arg in "$@"; do
    case "$arg" in
      --check) mode=check ;;
      --tag) mode=tag ;;
      --force) mode=force ;;
      -h|--help) sed -n '2,13p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
      *) die "unknown argument: $arg" ;;
    esac
  done

  # The pinned version, read from go.mod (no network, no go needed).
  version="$(awk -v m="$module" '($1 == m && $2 ~ /^v/) {print $2; exit} ($1 == "require" && $2 == m) {print $3; exit}' "$here/go.mod")"
  [[ -n "$version" ]] || die "$module is not required in $here/go.mod"
  tag="versitygw-${version}"
  [[ "$mode" == tag ]] && { echo "$tag"; exit 0; }

  base="${MODELPLANE_S3_SERVER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/modelplane/s3-server}"
  dest="$base/$tag"

  complete() { [[ -x "$1/bin/$binary" ]]; }

  if [[ "$mode" != force ]] && complete "$dest"; then echo "$dest/bin"; exit 0; fi
  [[ "$mode" == check ]] && { log "not built: $dest"; exit 1; }

  command -v go >/dev/null || die "Go is not installed; install Go >= 1.26 (https://go.dev/dl) and retry"

  mkdir -p "$base"
  # Serialize concurrent builds (two test JVMs starting at once); the loser reuses the result.
  if command -v flock >/dev/null; then
    exec 9>"$base/.lock"
    if ! flock -n 9; then
      log "another build is running; waiting for it"
      flock 9
    fi
    if [[ "$mode" != force ]] && complete "$dest"; then echo "$dest/bin"; exit 0; fi
  fi

  # Build into a temp dir on the same file system and rename it into place at the end, so an interrupted
  # build never leaves a half-filled cache directory.
  tmp="$(mktemp -d "$base/.build-$tag.XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  chmod 755 "$tmp"
  mkdir -p "$tmp/bin"

  export CGO_ENABLED=0
  export GOFLAGS="${GOFLAGS:-} -mod=readonly -trimpath"
  export GOWORK=off

  start=$SECONDS
  log "building $module/cmd/$binary@$version"
  # The version variables are the ones versitygw's own Makefile sets.
  (cd "$here" && go build -ldflags "-s -w -X main.Version=$version -X main.Build=release -X main.BuildTime=unknown" \
    -o "$tmp/bin/$binary" "$module/cmd/$binary")

  complete "$tmp" || die "build finished but $binary is missing"
  {
    echo "VERSITYGW_VERSION=$version"
    echo "GO_VERSION=$(go env GOVERSION)"
    echo "BUILD_SECONDS=$((SECONDS - start))"
  } >"$tmp/VERSIONS"

  if [[ -e "$dest" ]]; then mv "$dest" "$tmp.old"; fi
  mv "$tmp" "$dest"
  rm -rf "$tmp.old"
  trap - EXIT
  log "built $tag in $((SECONDS - start))s"
  echo "$dest/bin"
}

main "$@"
