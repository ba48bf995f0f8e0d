#!/usr/bin/env bash
# Builds Jaeger (the all-in-one trace backend: OTLP receiver on 4317/4318, query API and UI on 16686) from its Go
# module, once, into
#   ${MODELPLANE_CACHE:-~/.cache/modelplane}/jaeger/<version>/jaeger
# and prints that path as the last line of stdout. The tracing tests send spans to it and read the traces back
# through its query API. Needs Go and the Go module proxy. Progress goes to stderr.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../lib/go-tool.sh
source "$here/../lib/go-tool.sh"
tool_package() { echo github.com/jaegertracing/jaeger/cmd/jaeger; }
tool_ldflags() { echo "-s -w"; }
go_tool_build jaeger "${JAEGER_VERSIONS:-v1.76.0}" "about 10 minutes on 2 cores"
