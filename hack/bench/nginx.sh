#!/usr/bin/env bash
# Prints the path of an nginx binary to use as the reference reverse proxy in the gateway-overhead benchmark.
# Uses nginx from PATH when there is one; otherwise unpacks Debian's nginx package (without installing it or
# starting any service) into ${MODELPLANE_CACHE:-~/.cache/modelplane}/nginx/ once and reuses it.
set -euo pipefail
if command -v nginx >/dev/null 2>&1; then
  command -v nginx
  exit 0
fi
cache="${MODELPLANE_CACHE:-$HOME/.cache/modelplane}/nginx"
if [ -x "$cache/pkg/usr/sbin/nginx" ]; then
  echo "$cache/pkg/usr/sbin/nginx"
  exit 0
fi
command -v apt-get >/dev/null 2>&1 || { echo "nginx.sh: no nginx on PATH and no apt-get to fetch it" >&2; exit 1; }
tmp="$(mktemp -d "${cache%/*}/.nginx.XXXXXX" 2>/dev/null || { mkdir -p "${cache%/*}"; mktemp -d "${cache%/*}/.nginx.XXXXXX"; })"
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
if ! (cd "$tmp" && apt-get download nginx >&2); then
  echo "nginx.sh: 'apt-get download nginx' failed; refreshing the package lists once" >&2
  apt-get update -qq >&2
  (cd "$tmp" && apt-get download nginx >&2)
fi
dpkg -x "$tmp"/nginx_*.deb "$tmp/pkg"
"$tmp/pkg/usr/sbin/nginx" -v >&2
rm -rf "$cache"
mv "$tmp" "$cache"
trap - EXIT
echo "$cache/pkg/usr/sbin/nginx"
