#!/usr/bin/env bash
# Installs Azurite, the Azure Storage emulator whose Blob service the Azure download tests run against (real Shared
# Key and SAS checks), at the version pinned in package.json and package-lock.json beside this script (npm ci, every
# package checked against the lock file's integrity hashes, no install scripts run), once, into
#   ${MODELPLANE_AZURITE_CACHE:-~/.cache/modelplane/azurite}/<version>/
# and reuses it afterwards. Needs only Node.js (>= 20) and npm.
#
# The last line on stdout is the directory holding the launcher azurite-blob:   dir=$(hack/azurite/install.sh | tail -1)
# Progress goes to stderr.
#
# Options:
#   --check   do not install; print the directory and exit 0 if the install is complete, exit 1 otherwise
#   --tag     print the version and exit
#   --force   reinstall even if the cache is complete
set -euo pipefail

log() { echo "azurite: $*" >&2; }
die() { log "error: $*"; exit 1; }

# Everything runs inside main, so bash has parsed the whole file before it starts.
main() {
  local here mode=build arg version base dest start
  here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
  for arg in "$@"; do
    case "$arg" in
      --check) mode=check ;;
      --tag) mode=tag ;;
      --force) mode=force ;;
      -h|--help) sed -n '2,14p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
      *) die "unknown argument: $arg" ;;
    esac
  done
  # The pinned version, read from package.json without node.
  version="$(sed -n 's/^ *"azurite": *"\([0-9][0-9.]*\)".*/\1/p' "$here/package.json" | head -1)"
  [[ -n "$version" ]] || die "no pinned azurite version in $here/package.json"
  [[ "$mode" == tag ]] && { echo "$version"; exit 0; }

  base="${MODELPLANE_AZURITE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/modelplane/azurite}"
  dest="$base/$version"
  if [[ "$mode" != force ]] && complete "$dest"; then echo "$dest/node_modules/.bin"; exit 0; fi
  [[ "$mode" == check ]] && { log "not installed: $dest"; exit 1; }
  command -v node >/dev/null || die "Node.js is not installed; install Node.js >= 20 with npm and retry"
  command -v npm >/dev/null || die "npm is not installed; install it with Node.js >= 20 and retry"
  local major
  major="$(node -p 'process.versions.node.split(".")[0]')"
  (( major >= 20 )) || die "Node.js $(node --version) is too old; Azurite $version needs Node.js >= 20"

  mkdir -p "$base"
  # Serialize concurrent installs (e.g. two test JVMs starting at once); the loser reuses the result.
  if command -v flock >/dev/null; then
    exec 9>"$base/.lock"
    if ! flock -n 9; then
      log "another install is running; waiting for it"
      flock 9
    fi
    if [[ "$mode" != force ]] && complete "$dest"; then echo "$dest/node_modules/.bin"; exit 0; fi
  fi
  # Install into a temp dir on the same file system and rename it into place at the end, so an interrupted install
  # never leaves a half-filled cache directory.
  tmp="$(mktemp -d "$base/.install-$version.XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  chmod 755 "$tmp"
  cp "$here/package.json" "$here/package-lock.json" "$tmp/"
  start=$SECONDS
  log "installing azurite@$version (npm ci)"
  (cd "$tmp" && npm ci --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error >&2)
  [[ -x "$tmp/node_modules/.bin/azurite-blob" ]] || die "npm ci finished but the launcher azurite-blob is missing"
  {
    echo "AZURITE_VERSION=$version"
    echo "NODE_VERSION=$(node --version)"
    echo "INSTALL_SECONDS=$((SECONDS - start))"
  } >"$tmp/VERSIONS"
  if [[ -e "$dest" ]]; then mv "$dest" "$tmp.old"; fi
  mv "$tmp" "$dest"
  rm -rf "$tmp.old"
  trap - EXIT
  log "installed azurite $version in $((SECONDS - start))s"
  echo "$dest/node_modules/.bin"
}

# Is "$1" a complete install?
complete() { [[ -x "$1/node_modules/.bin/azurite-blob" && -f "$1/VERSIONS" ]]; }

main "$@"
