#!/usr/bin/env bash
# Regenerates the tiny test tokenizer (test-support/src/main/resources/tokenizers/tiny-bpe/): trains a Llama-3-like
# byte-level BPE tokenizer on text generated from a fixed seed, writes its tokenizer_config.json with a chat template,
# and records in vectors.json the token ids Hugging Face's `tokenizers` gives and the prompts Jinja2 renders, which
# the Java tests must reproduce. The same versions give the same bytes.
#
#   hack/tokenizers/train-tiny.sh [OUTPUT_DIR]
#
# Python packages come from PyPI into a venv under ${MODELPLANE_CACHE:-~/.cache/modelplane}/tokenizers, once:
# `tokenizers` at the version of the Rust library the Java side loads (DJL 0.38.0 bundles tokenizers 0.21.0) and
# `jinja2`. Needs python3 with venv.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${1:-$root/test-support/src/main/resources/tokenizers/tiny-bpe}"
tokenizers_version=0.21.0
jinja2_version=3.1.6
base="${MODELPLANE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/modelplane}/tokenizers"
mkdir -p "$base"
exec 9>"$base/.lock"
flock 9

venv="$base/venv-tokenizers-$tokenizers_version-jinja2-$jinja2_version"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import tokenizers, jinja2' 2>/dev/null; then
  command -v python3 >/dev/null || { echo "tokenizers: python3 is missing" >&2; exit 1; }
  echo "tokenizers: installing tokenizers==$tokenizers_version jinja2==$jinja2_version (PyPI) into $venv" >&2
  rm -rf "$venv"
  python3 -m venv "$venv" >&2
  "$venv/bin/pip" install --quiet --disable-pip-version-check "tokenizers==$tokenizers_version" \
    "jinja2==$jinja2_version" >&2
fi
# One thread: the training then never depends on how work is split.
TOKENIZERS_PARALLELISM=false RAYON_NUM_THREADS=1 PYTHONHASHSEED=0 \
  "$venv/bin/python" "$root/hack/tokenizers/train-tiny.py" "$out"
