#!/usr/bin/env bash
# Builds llm-d-inference-sim (llm-d's vLLM simulator: the peer of the simulator fidelity benchmark and of the KV-event
# interop tests) from its Go module, once, into
#   ${MODELPLANE_CACHE:-~/.cache/modelplane}/llm-d-inference-sim/<version>/llm-d-inference-sim
# and prints that path as the last line of stdout. Pure Go (CGO_ENABLED=0, as its own image is built); needs Go and the
# Go module proxy. Progress goes to stderr. LLMD_SIM_VERSIONS overrides the version list.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../lib/go-tool.sh
source "$here/../lib/go-tool.sh"
tool_package() { echo github.com/llm-d/llm-d-inference-sim/cmd/llm-d-inference-sim; }
tool_ldflags() { echo "-s -w"; }
go_tool_build llm-d-inference-sim "${LLMD_SIM_VERSIONS:-v0.10.2}" "several minutes on 2 cores"
