#!/usr/bin/env bash
# Installs genai-bench (the load generator OME's BenchmarkJob runs; from PyPI) into a virtual environment in the
# cache once, and prints the path of its `genai-bench` command on the last line of stdout. Progress goes to stderr.
#
#   hack/bench/genai-bench.sh            # install if missing, print the command's path
#
# genai-bench needs Python 3.10–3.12; the first python3 in that range on PATH is used. The dev cluster's pod runner
# installs the same version into the same place for job pods (GenaiBench.VERSION; GenaiBenchTest checks they agree).
set -euo pipefail
version="${GENAI_BENCH_VERSION:-0.0.5}"
cache="${MODELPLANE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/modelplane}/genai-bench-$version"
bin="$cache/venv/bin/genai-bench"
if [ -x "$bin" ] && [ -f "$cache/.complete" ]; then
  echo "$bin"
  exit 0
fi
python=""
for candidate in python3.12 python3.11 python3.10 python3; do
  if command -v "$candidate" >/dev/null && "$candidate" 2>/dev/null -c 'import sys; sys.exit(not ((3, 10) <= sys.version_info[:2] <= (3, 12)))'; then
    python="$(command -v "$candidate")"
    break
  fi
done
[ -n "$python" ] || { echo "genai-bench: needs Python 3.10 to 3.12 (python3 on PATH is not)" >&2; exit 1; }
echo "genai-bench: installing $version into $cache (a few minutes, once)" >&2
rm -rf "$cache"
mkdir -p "$cache"
"$python" -m venv "$cache/venv" >&2
"$cache/venv/bin/pip" install --quiet --disable-pip-version-check "genai-bench==$version" >&2
"$bin" --help >/dev/null
touch "$cache/.complete"
echo "$bin"
