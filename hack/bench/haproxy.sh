#!/usr/bin/env bash
# Prints the path of an haproxy command to use as the round-robin and least-connections baselines of the routing
# benchmark. Uses haproxy from PATH when there is one; otherwise unpacks Debian's haproxy package and the libraries
# it needs that a base system lacks (Lua, OpenTracing), without installing them or starting any service, into
# ${MODELPLANE_CACHE:-~/.cache/modelplane}/haproxy/ once, and prints a wrapper that runs it with those libraries.
set -euo pipefail
if command -v haproxy >/dev/null 2>&1; then
  command -v haproxy
  exit 0
fi
cache="${MODELPLANE_CACHE:-$HOME/.cache/modelplane}/haproxy"
if [ -x "$cache/haproxy" ]; then
  echo "$cache/haproxy"
  exit 0
fi
command -v apt-get >/dev/null 2>&1 || { echo "haproxy.sh: no haproxy on PATH and no apt-get to fetch it" >&2; exit 1; }
mkdir -p "${cache%/*}"
tmp="$(mktemp -d "${cache%/*}/.haproxy.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
packages=(haproxy liblua5.3-0 libopentracing-c-wrapper0 libopentracing1)
if ! (cd "$tmp" && apt-get download "${packages[@]}" >&2); then
  echo "haproxy.sh: 'apt-get download ${packages[*]}' failed; refreshing the package lists once" >&2
  apt-get update -qq >&2
  (cd "$tmp" && apt-get download "${packages[@]}" >&2)
fi
for deb in "$tmp"/*.deb; do
  dpkg -x "$deb" "$tmp/pkg"
done
libs="$(find "$tmp/pkg" -name '*.so*' -printf '%h\n' | sort -u | tr '\n' ':')"
missing="$(LD_LIBRARY_PATH="$libs" ldd "$tmp/pkg/usr/sbin/haproxy" | grep 'not found' || true)"
[ -z "$missing" ] || { echo "haproxy.sh: haproxy still lacks libraries: $missing" >&2; exit 1; }
libs="${libs//$tmp/$cache}"
cat > "$tmp/haproxy" <<WRAPPER
#!/usr/bin/env bash
LD_LIBRARY_PATH="$libs\${LD_LIBRARY_PATH:-}" exec "$cache/pkg/usr/sbin/haproxy" "\$@"
WRAPPER
chmod +x "$tmp/haproxy"
rm -rf "$cache"
mv "$tmp" "$cache"
trap - EXIT
"$cache/haproxy" -v | head -1 >&2
echo "$cache/haproxy"
