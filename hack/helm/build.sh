#!/usr/bin/env bash
# Builds Helm (the chart linter and renderer the tests run against deploy/helm/modelplane) from its Go module, once,
# into
#   ${MODELPLANE_CACHE:-~/.cache/modelplane}/helm/<version>/helm
# and prints that path as the last line of stdout. Needs Go and the Go module proxy. Progress goes to stderr.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=../lib/go-tool.sh
source "$here/../lib/go-tool.sh"
module() { case "$1" in v3.*) echo helm.sh/helm/v3 ;; *) echo helm.sh/helm/v4 ;; esac; }
tool_package() { echo "$(module "$1")/cmd/helm"; }
tool_ldflags() { echo "-s -w -X $(module "$1")/internal/version.version=$1"; }
go_tool_build helm "${HELM_VERSIONS:-v4.3.1 v4.3.0 v3.22.0}" "about 3 minutes on 2 cores"
