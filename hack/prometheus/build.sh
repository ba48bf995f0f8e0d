#!/usr/bin/env bash
# Builds the Prometheus server (`modelplane up --monitoring` runs it; the dashboard and alert tests query it) from
# its Go module, once, into
#   ${MODELPLANE_CACHE:-~/.cache/modelplane}/prometheus/<version>/prometheus
# and prints that path as the last line of stdout. The web UI's assets are not built in: the HTTP API, which the
# tests and Grafana use, is complete without them. Needs Go and the Go module proxy. Progress goes to stderr.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../lib/go-tool.sh
source "$here/../lib/go-tool.sh"
tool_package() { echo github.com/prometheus/prometheus/cmd/prometheus; }
tool_ldflags() { echo "-s -w"; }
go_tool_build prometheus "${PROMETHEUS_VERSIONS:-v0.316.0 v0.310.0 v0.305.0}" "a few minutes on 2 cores"
