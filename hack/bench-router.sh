#!/usr/bin/env bash
# Router benchmarks: JMH routing decisions for 10/100/1,000 endpoints, then gateway overhead versus a
# direct connection and versus nginx (a reference reverse proxy) at 1/100/1,000 concurrent SSE streams. Everything on
# loopback; the gateway runs as its own `modelplane router` process. Results go to stdout as Markdown tables
# (docs/benchmarks.md keeps a copy). BENCH_NGINX=none skips the nginx rows; BENCH_NGINX=/path picks a binary
# (default: hack/bench/nginx.sh, which unpacks Debian's nginx package into the cache once).
# BENCH_BASELINE=<git revision> also builds that revision (once, cached) and measures it in the same run: its JMH
# decisions before ours, its gateway as extra rows — ratios side by side with the previous version.
# BENCH_WARMUP_SECONDS (default 2) is the warm-up of every path at every level before it is measured.
#   hack/bench-router.sh [jmh|gateway|all] [gateway-seconds] [concurrency list]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
what="${1:-all}"
seconds="${2:-8}"
levels="${3:-1,100,1000}"
java_home="$("$root/hack/find-jdk")"
java="$java_home/bin/java"
"$root/hack/mvn" -q -pl cli -am package -DskipTests >&2
cp_file="$(mktemp)"
trap 'rm -f "$cp_file"' EXIT
# One reactor run compiles the tests (JMH generates its harness there) and writes the router's test classpath.
"$root/hack/mvn" -q -pl router -am test-compile dependency:build-classpath -Dmdep.outputFile="$cp_file" \
  -Dmdep.includeScope=test >&2
cp="$root/router/target/test-classes:$root/router/target/classes:$(cat "$cp_file")"
baseline_cp=""
if [ -n "${BENCH_BASELINE:-}" ]; then
  sha="$(git -C "$root" rev-parse --verify "${BENCH_BASELINE}^{commit}")"
  base="${XDG_CACHE_HOME:-$HOME/.cache}/modelplane/bench-baseline/$sha"
  if [ ! -f "$base/.built" ]; then
    echo "building baseline $sha into $base" >&2
    rm -rf "$base" && mkdir -p "$base"
    git -C "$root" archive "$sha" | tar -x -C "$base"
    "$base/hack/mvn" -q -f "$base/pom.xml" -pl cli -am package -DskipTests >&2
    "$base/hack/mvn" -q -f "$base/pom.xml" -pl router -am test-compile dependency:build-classpath \
      -Dmdep.outputFile="$base/router-test-classpath" -Dmdep.includeScope=test >&2
    touch "$base/.built"
  fi
  baseline_cp="$base/router/target/test-classes:$base/router/target/classes:$(cat "$base/router-test-classpath")"
  export BENCH_BASELINE_JAR="$base/cli/target/modelplane.jar"
fi
if [ "$what" = jmh ] || [ "$what" = all ]; then
  if [ -n "$baseline_cp" ]; then
    echo "## previous version ($BENCH_BASELINE)"
    "$java" -cp "$baseline_cp" org.openjdk.jmh.Main SchedulingBenchmark -rf text -rff /dev/null
    echo "## this version"
  fi
  "$java" -cp "$cp" org.openjdk.jmh.Main SchedulingBenchmark -rf text -rff /dev/null
fi
if [ "$what" = gateway ] || [ "$what" = all ]; then
  if [ "${BENCH_NGINX:-}" = none ]; then
    unset BENCH_NGINX
  elif [ -z "${BENCH_NGINX:-}" ]; then
    BENCH_NGINX="$("$root/hack/bench/nginx.sh")"
    export BENCH_NGINX
  fi
  "$java" -Xmx1g -cp "$cp" dev.modelplane.router.bench.GatewayOverheadBench "$root/cli/target/modelplane.jar" \
    "$java" "$seconds" "$levels"
fi
