#!/usr/bin/env bash
# Builds promtool (Prometheus's checker; `promtool check metrics` is the strict exposition-format parser and linter
# the simulator tests use) from the Go module github.com/prometheus/prometheus, once, into
#   ${MODELPLANE_CACHE:-~/.cache/modelplane}/promtool/<version>/promtool
# and prints that path as the last line of stdout. Needs Go and the Go module proxy. Progress goes to stderr.
# The newest versions pin pseudo-versions a proxy mirror may lack, hence the list of PROMTOOL_VERSIONS.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../lib/go-tool.sh
source "$here/../lib/go-tool.sh"
tool_package() { echo github.com/prometheus/prometheus/cmd/promtool; }
tool_ldflags() { echo ""; }
go_tool_build promtool "${PROMTOOL_VERSIONS:-v0.310.0 v0.305.0 v0.300.1}" "a few minutes"
