#!/usr/bin/env bash
# Installs the official SDKs the simulator's client tests drive, once, into
#   ${MODELPLANE_CACHE:-~/.cache/modelplane}/clients/{venv,npm}
# (a Python venv with `openai` and `anthropic` from PyPI, an npm prefix with `openai` from the npm registry) and
# reuses them. Prints two lines on stdout: the venv's python, then the npm prefix's node_modules directory.
# Needs python3 (with venv) and node/npm. Versions: OPENAI_PY_VERSION, ANTHROPIC_PY_VERSION, OPENAI_NPM_VERSION.
set -euo pipefail
py_version="${OPENAI_PY_VERSION:-3.51.0}"
anthropic_version="${ANTHROPIC_PY_VERSION:-2.10.0}"
npm_version="${OPENAI_NPM_VERSION:-6.30.1}"  # 7.x needs Node 22; this machine kind has Node 20
base="${MODELPLANE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/modelplane}/clients"
mkdir -p "$base"
exec 9>"$base/.lock"
flock 9

venv="$base/venv-openai-$py_version"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import openai' 2>/dev/null; then
  command -v python3 >/dev/null || { echo "clients: python3 is missing" >&2; exit 1; }
  echo "clients: installing openai==$py_version (PyPI) into $venv" >&2
  rm -rf "$venv"
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install --quiet --disable-pip-version-check "openai==$py_version" >&2
fi
if ! "$venv/bin/python" -c "import anthropic, sys; sys.exit(anthropic.__version__ != '$anthropic_version')" \
    2>/dev/null; then
  echo "clients: installing anthropic==$anthropic_version (PyPI) into $venv" >&2
  "$venv/bin/pip" install --quiet --disable-pip-version-check "anthropic==$anthropic_version" >&2
fi

prefix="$base/npm-openai-$npm_version"
if [ ! -f "$prefix/node_modules/openai/package.json" ]; then
  command -v npm >/dev/null || { echo "clients: npm is missing" >&2; exit 1; }
  echo "clients: installing openai@$npm_version (npm) into $prefix" >&2
  rm -rf "$prefix"
  mkdir -p "$prefix"
  (cd "$prefix" && echo '{"name":"modelplane-clients","private":true}' > package.json \
    && npm install --silent --no-audit --no-fund "openai@$npm_version" >&2)
fi
echo "$venv/bin/python"
echo "$prefix/node_modules"
