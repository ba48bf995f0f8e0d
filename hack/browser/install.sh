#!/usr/bin/env bash
# Installs what the browser tests drive: Debian's Chromium (the system browser, /usr/bin/chromium; apt-get, only when
# it is missing and we are root) and the npm package playwright-core at the version pinned below, once, into
#   ${MODELPLANE_CACHE:-~/.cache/modelplane}/playwright/<version>/
# and reuses it afterwards. playwright-core never downloads a browser: the tests launch /usr/bin/chromium.
# Needs Node.js (>= 20) and npm.
#
# The last line on stdout is the directory whose node_modules holds playwright-core:
#   dir=$(hack/browser/install.sh | tail -1)
# Progress goes to stderr.
#
# Options:
#   --check   do not install; print the directory and exit 0 if Chromium and playwright-core are both there,
#             exit 1 otherwise
#   --tag     print the playwright-core version and exit
#   --force   reinstall playwright-core even if the cache is complete
set -euo pipefail

# 1.64.1 drives the Chromium Debian 12 ships (CDP); change it together with a run of the browser test.
PLAYWRIGHT_VERSION=1.64.1
CHROMIUM=/usr/bin/chromium

log() { echo "browser: $*" >&2; }
die() { log "error: $*"; exit 1; }

# Everything runs inside main, so bash has parsed the whole file before it starts.
main() {
  local mode=build arg base dest tmp start
  for arg in "$@"; do
    case "$arg" in
      --check) mode=check ;;
      --tag) mode=tag ;;
      --force) mode=force ;;
      -h|--help) sed -n '2,17p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
      *) die "unknown argument: $arg" ;;
    esac
  done
  [[ "$mode" == tag ]] && { echo "$PLAYWRIGHT_VERSION"; exit 0; }

  base="${MODELPLANE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/modelplane}/playwright"
  dest="$base/$PLAYWRIGHT_VERSION"
  if [[ "$mode" == check ]]; then
    [[ -x "$CHROMIUM" ]] || { log "not installed: $CHROMIUM (Debian package chromium)"; exit 1; }
    complete "$dest" || { log "not installed: $dest"; exit 1; }
    echo "$dest"
    exit 0
  fi
  install_chromium
  if [[ "$mode" != force ]] && complete "$dest"; then echo "$dest"; exit 0; fi
  command -v node >/dev/null || die "Node.js is not installed; install Node.js >= 20 with npm and retry"
  command -v npm >/dev/null || die "npm is not installed; install it with Node.js >= 20 and retry"
  local major
  major="$(node -p 'process.versions.node.split(".")[0]')"
  (( major >= 20 )) || die "Node.js $(node --version) is too old; playwright-core $PLAYWRIGHT_VERSION needs >= 20"

  mkdir -p "$base"
  # Serialize concurrent installs (e.g. two test JVMs starting at once); the loser reuses the result.
  if command -v flock >/dev/null; then
    exec 9>"$base/.lock"
    if ! flock -n 9; then
      log "another install is running; waiting for it"
      flock 9
    fi
    if [[ "$mode" != force ]] && complete "$dest"; then echo "$dest"; exit 0; fi
  fi
  # Install into a temp dir on the same file system and rename it into place at the end, so an interrupted install
  # never leaves a half-filled cache directory.
  tmp="$(mktemp -d "$base/.install-$PLAYWRIGHT_VERSION.XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  chmod 755 "$tmp"
  echo '{"name":"modelplane-browser-tests","private":true}' >"$tmp/package.json"
  start=$SECONDS
  log "installing playwright-core@$PLAYWRIGHT_VERSION (npm, no install scripts, no browser download)"
  (cd "$tmp" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm install --save-exact --ignore-scripts --no-audit --no-fund \
    --loglevel=error "playwright-core@$PLAYWRIGHT_VERSION" >&2)
  [[ -f "$tmp/node_modules/playwright-core/package.json" ]] \
    || die "npm install finished but node_modules/playwright-core is missing"
  {
    echo "PLAYWRIGHT_CORE_VERSION=$PLAYWRIGHT_VERSION"
    echo "NODE_VERSION=$(node --version)"
    echo "CHROMIUM_VERSION=$("$CHROMIUM" --version 2>/dev/null | head -1)"
    echo "INSTALL_SECONDS=$((SECONDS - start))"
  } >"$tmp/VERSIONS"
  if [[ -e "$dest" ]]; then mv "$dest" "$tmp.old"; fi
  mv "$tmp" "$dest"
  rm -rf "$tmp.old"
  trap - EXIT
  log "installed playwright-core $PLAYWRIGHT_VERSION in $((SECONDS - start))s"
  echo "$dest"
}

# Debian's chromium when it is missing: only as root with apt-get, else say what to do.
install_chromium() {
  [[ -x "$CHROMIUM" ]] && return 0
  if [[ "$(id -u)" -ne 0 ]] || ! command -v apt-get >/dev/null; then
    die "$CHROMIUM is missing: install Debian's chromium package (as root: apt-get update && apt-get install -y --no-install-recommends chromium)"
  fi
  log "installing Debian's chromium (apt-get)"
  apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium >&2
  [[ -x "$CHROMIUM" ]] || die "apt-get installed chromium but $CHROMIUM is missing"
}

# Is "$1" a complete install?
complete() { [[ -f "$1/node_modules/playwright-core/package.json" && -f "$1/VERSIONS" ]]; }

main "$@"
