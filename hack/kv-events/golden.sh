#!/usr/bin/env bash
# Regenerates common/src/test/resources/kvevents/golden.txt: KV-event payloads encoded by msgspec (the encoder vLLM
# uses) from struct declarations shaped like vLLM's, so the Java codec is checked against an independent encoder.
# Needs Python 3 and the msgspec package from PyPI (installed into a throw-away virtual environment).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
venv="$(mktemp -d)"
trap 'rm -rf "$venv"' EXIT
python3 -m venv "$venv"
"$venv/bin/pip" install -q msgspec==0.22.0
"$venv/bin/python" "$root/hack/kv-events/golden.py" > "$root/common/src/test/resources/kvevents/golden.txt"
echo "wrote common/src/test/resources/kvevents/golden.txt"
