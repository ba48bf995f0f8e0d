#!/usr/bin/env bash
# Builds the Gateway API Inference Extension (GIE) conformance suite and the Gateway API core conformance suite
# as standalone Go test binaries, from the projects' own Go modules fetched through the Go module proxy.
# Nothing is run against any cluster here.
#
# Output (default cache dir ${MODELPLANE_CONFORMANCE_CACHE:-${XDG_CACHE_HOME:-~/.cache}/modelplane/conformance}):
#   <cache>/gie-<GIE>-gwapi-<GWAPI>/bin/gie-conformance.test     (sigs.k8s.io/gateway-api-inference-extension/conformance)
#   <cache>/gie-<GIE>-gwapi-<GWAPI>/bin/gwapi-conformance.test   (sigs.k8s.io/gateway-api/conformance)
#   <cache>/gie-<GIE>-gwapi-<GWAPI>/src/                         (the small wrapper module that pins both)
# The last line on stdout is the bin directory. Progress goes to stderr.
#
# Usage: hack/conformance/build.sh [--force]
# Versions: GIE_VERSION (default v1.6.0, the newest GIE release whose module zip the proxy serves here; v1.6.1's .info
# resolves but its zip answers 403) and GWAPI_VERSION (default v1.6.3, the Gateway API CRDs the dev cluster installs).
#
# Both conformance packages live in nested modules (…/conformance) whose go.mod replaces the parent module with
# "../"; that only works inside the upstream repositories, so a wrapper module requires the nested modules by
# version and replaces the parent modules with the published versions instead. `go test -c` then compiles the
# packages' TestConformance into binaries; the YAML manifests are embedded (go:embed), so the binaries need no
# source tree at run time.
set -euo pipefail

GIE_VERSION="${GIE_VERSION:-v1.6.0}"
GWAPI_VERSION="${GWAPI_VERSION:-v1.6.3}"
force=0
[[ "${1:-}" == "--force" ]] && force=1

cache="${MODELPLANE_CONFORMANCE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/modelplane/conformance}"
dest="$cache/gie-$GIE_VERSION-gwapi-$GWAPI_VERSION"
bin="$dest/bin"
if (( ! force )) && [[ -x "$bin/gie-conformance.test" && -x "$bin/gwapi-conformance.test" ]]; then
  echo "conformance: already built in $bin (--force rebuilds)" >&2
  echo "$bin"
  exit 0
fi
command -v go >/dev/null || { echo "conformance: Go 1.26+ is needed" >&2; exit 1; }

# Module downloads only; the proxy is the only network endpoint used. -buildvcs=false: the wrapper is no VCS repo.
export GOFLAGS="-buildvcs=false -mod=mod"
export GOTOOLCHAIN=local

src="$dest/src"
rm -rf "$src"
mkdir -p "$src" "$bin"

cat >"$src/go.mod" <<EOF
module modelplane.dev/conformance-runner

go 1.26.0

require (
	sigs.k8s.io/gateway-api $GWAPI_VERSION
	sigs.k8s.io/gateway-api/conformance $GWAPI_VERSION
	sigs.k8s.io/gateway-api-inference-extension $GIE_VERSION
	sigs.k8s.io/gateway-api-inference-extension/conformance $GIE_VERSION
)

// The nested conformance modules point their parent modules at "../" (or at an all-zero pseudo-version);
// pin the published releases instead.
replace (
	sigs.k8s.io/gateway-api => sigs.k8s.io/gateway-api $GWAPI_VERSION
	sigs.k8s.io/gateway-api-inference-extension => sigs.k8s.io/gateway-api-inference-extension $GIE_VERSION
)
EOF

# Importing both suites from the wrapper puts them (and their test dependencies) into the module graph.
cat >"$src/suites.go" <<'EOF'
// Package runner only pins the two conformance suites so `go test -c` can compile them.
package runner

import (
	_ "sigs.k8s.io/gateway-api-inference-extension/conformance"
	_ "sigs.k8s.io/gateway-api/conformance"
)
EOF

cd "$src"
echo "conformance: resolving GIE $GIE_VERSION and Gateway API $GWAPI_VERSION through the module proxy" >&2
go mod tidy >&2
echo "conformance: versions in use:" >&2
go list -m sigs.k8s.io/gateway-api sigs.k8s.io/gateway-api/conformance \
  sigs.k8s.io/gateway-api-inference-extension sigs.k8s.io/gateway-api-inference-extension/conformance \
  sigs.k8s.io/controller-runtime k8s.io/client-go >&2

# 2 cores: build one binary at a time.
echo "conformance: compiling the GIE suite (go test -c)" >&2
go test -c -o "$bin/gie-conformance.test" sigs.k8s.io/gateway-api-inference-extension/conformance >&2
echo "conformance: compiling the Gateway API suite (go test -c)" >&2
go test -c -o "$bin/gwapi-conformance.test" sigs.k8s.io/gateway-api/conformance >&2

# Record what was built, for whoever runs it later.
{
  echo "gie=$GIE_VERSION"
  echo "gateway-api=$GWAPI_VERSION"
  echo "built=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "go=$(go env GOVERSION)"
} >"$bin/VERSIONS"
echo "conformance: done" >&2
echo "$bin"
