# Shared by the scripts that build a tool from a pinned Go module into ~/.cache/modelplane/<name>/<tag>/bin
# (hack/control-plane/build.sh, hack/s3-server/build.sh). Source it, define complete() (is "$1" a complete build?),
# then call, in order:
#   gocache_init NAME CACHE_DIR TAG MODE   # prints the bin dir and exits when there is nothing to build
#   ... go build into "$tmp/bin" ...
#   gocache_finish "KEY=value" ...          # writes VERSIONS, moves the build into place, prints the bin dir
# MODE is build, check or force (see gocache_mode). Progress goes to stderr; the last stdout line is the bin dir.

log() { echo "$gocache_name: $*" >&2; }
die() { log "error: $*"; exit 1; }

# Parses --check/--tag/--force/--help into $mode (build|check|tag|force); $1 is the script, for --help.
gocache_mode() {
  local script="$1" help_lines="$2"; shift 2
  mode=build
  for arg in "$@"; do
    case "$arg" in
      --check) mode=check ;;
      --tag) mode=tag ;;
      --force) mode=force ;;
      -h|--help) sed -n "$help_lines" "$script" | sed 's/^# \{0,1\}//'; exit 0 ;;
      *) die "unknown argument: $arg" ;;
    esac
  done
}

# The version of module $2 required in $1/go.mod (read from the file: no network, no go needed).
gocache_pinned() {
  local v
  v="$(awk -v m="$2" '($1 == m && $2 ~ /^v/) {print $2; exit} ($1 == "require" && $2 == m) {print $3; exit}' \
    "$1/go.mod")"
  [[ -n "$v" ]] || die "$2 is not required in $1/go.mod"
  echo "$v"
}

gocache_init() {
  local base="$2" tag="$3"
  mode="$4"
  dest="$base/$tag"
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
  # Build into a temp dir on the same file system and rename it into place at the end, so an interrupted build
  # never leaves a half-filled cache directory.
  tmp="$(mktemp -d "$base/.build-$tag.XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  chmod 755 "$tmp"
  mkdir -p "$tmp/bin"
  export CGO_ENABLED=0            # static binaries, no C toolchain needed (as upstream release builds)
  export GOFLAGS="${GOFLAGS:-} -mod=readonly -trimpath"
  export GOWORK=off
  gocache_start=$SECONDS
}

gocache_finish() {
  complete "$tmp" || die "build finished but something is missing: $(ls "$tmp/bin")"
  {
    printf '%s\n' "$@"
    echo "GO_VERSION=$(go env GOVERSION)"
    echo "BUILD_SECONDS=$((SECONDS - gocache_start))"
  } >"$tmp/VERSIONS"
  # Swap in with two renames (an incomplete older dest, e.g. from a previous layout, goes aside first).
  if [[ -e "$dest" ]]; then mv "$dest" "$tmp.old"; fi
  mv "$tmp" "$dest"
  rm -rf "$tmp.old"
  trap - EXIT
  log "built $(basename "$dest") in $((SECONDS - gocache_start))s"
  echo "$dest/bin"
}
