# Shared by the scripts that build one command of a Go module into ${MODELPLANE_CACHE:-~/.cache/modelplane}/<name>/
# <version>/<name> (hack/promtool/build.sh, hack/helm/build.sh). Source it, define
#   tool_package VERSION   # prints the package path of the command for that version
#   tool_ldflags VERSION   # prints the -ldflags (may be empty)
# then call: go_tool_build NAME "VERSIONS" "ESTIMATE"
# The build runs in a throw-away main module that requires the tool's module (`go install …@version` refuses
# modules with replace/exclude directives). The first version whose whole dependency graph the proxy serves wins.
# Progress goes to stderr; the last stdout line is the binary's path.
go_tool_build() {
  local name="$1" versions="$2" estimate="$3"
  local cache="${MODELPLANE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/modelplane}/$name" version bin tmp pkg
  for version in $versions; do
    if [ -x "$cache/$version/$name" ]; then echo "$cache/$version/$name"; return 0; fi
  done
  command -v go >/dev/null || { echo "$name: Go is not installed; install Go >= 1.24 to build $name" >&2; return 1; }
  mkdir -p "$cache"
  exec 9>"$cache/.lock"
  flock 9
  for version in $versions; do
    bin="$cache/$version/$name"
    if [ -x "$bin" ]; then echo "$bin"; return 0; fi
    tmp="$(mktemp -d "$cache/.build.XXXXXX")"
    pkg="$(tool_package "$version")"
    echo "$name: building $pkg@$version (first run only, $estimate)" >&2
    if (cd "$tmp" && go mod init "modelplane.local/$name" >/dev/null 2>&1 \
        && GOFLAGS=-mod=mod go get "$pkg@$version" >&2 \
        && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath -ldflags "$(tool_ldflags "$version")" -o "$name" \
          "$pkg" >&2); then
      mkdir -p "$cache/$version"
      mv "$tmp/$name" "$bin"
      rm -rf "$tmp"
      echo "$bin"
      return 0
    fi
    rm -rf "$tmp"
    echo "$name: $version did not build here; trying the next version" >&2
  done
  echo "$name: no version could be built" >&2
  return 1
}
