#!/usr/bin/env bash
# Tracing overhead of the router's gateway: one simulator on loopback, the gateway (`modelplane router`, its own
# process) in front of it, once per setting — tracing off, on at 1 % and at 100 % sampling — each exporting to a local
# OTLP/HTTP collector (Jaeger from hack/jaeger/build.sh's cache when its default ports are free, else a tiny sink that
# answers 200). For each setting: a warm-up, then COUNT chat completions from CONCURRENCY connections, and the
# gateway's CPU time (user + system, from /proc/<pid>/stat) over the measured requests — its background work too
# (scraping the simulator's metrics every 50 ms), the same in every row. Prints a Markdown table.
#   hack/bench-tracing.sh [count] [concurrency] [warm-up count]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
count="${1:-4000}"
concurrency="${2:-8}"
warmup="${3:-3000}"
java="$("$root/hack/find-jdk")/bin/java"
work="$(mktemp -d)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
"$root/hack/mvn" -q -pl cli -am compile dependency:build-classpath -Dmdep.outputFile="$work/cp" >&2
cp="$root/cli/target/classes:$(cat "$work/cp")"
main=dev.modelplane.cli.Main
jvm=("$java" -XX:+UseSerialGC -Xmx512m -cp "$cp" "$main")

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_http() { # url
  for _ in $(seq 1 300); do curl -s -o /dev/null "$1" && return 0; sleep 0.2; done
  echo "not up: $1" >&2; return 1
}
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# The collector.
jaeger="$(ls -d "${MODELPLANE_CACHE:-$HOME/.cache/modelplane}"/jaeger/*/jaeger 2>/dev/null | tail -1 || true)"
collector=""
if [ -n "$jaeger" ] && ! (exec 3<>/dev/tcp/127.0.0.1/4318) 2>/dev/null && ! (exec 3<>/dev/tcp/127.0.0.1/16686) 2>/dev/null; then
  "$jaeger" > "$work/jaeger.log" 2>&1 &
  pids+=($!)
  if wait_http http://127.0.0.1:16686/ 2>/dev/null; then
    otlp="http://127.0.0.1:4318"
    collector="Jaeger $(basename "$(dirname "$jaeger")") (in-memory)"
  else
    kill "${pids[-1]}" 2>/dev/null || true
  fi
fi
if [ -z "$collector" ]; then
  python3 "$root/hack/bench/otlp-sink.py" "$work/sink.port" &
  pids+=($!)
  for _ in $(seq 1 50); do [ -s "$work/sink.port" ] && break; sleep 0.1; done
  otlp="http://127.0.0.1:$(cat "$work/sink.port")"
  collector="hack/bench/otlp-sink.py (answers 200)"
fi

# The model server.
sim_port="$(free_port)"
"${jvm[@]}" simulator --model m --host 127.0.0.1 --port "$sim_port" --time-scale 0.001 --seed 1 \
  --max-num-seqs 256 \
  > "$work/sim.log" 2>&1 &
pids+=($!)
wait_http "http://127.0.0.1:$sim_port/v1/models"

run() { # label, env...
  local label="$1"; shift
  local port metrics
  port="$(free_port)"; metrics="$(free_port)"
  env "$@" OTEL_EXPORTER_OTLP_ENDPOINT="$otlp" OTEL_SERVICE_NAME=modelplane-router-bench \
    "${jvm[@]}" router --endpoints "127.0.0.1:$sim_port" --host 127.0.0.1 --port "$port" --grpc-port -1 \
    --grpc-health-port -1 --metrics-port "$metrics" --no-access-log $tracing_flag > "$work/router-$label.log" 2>&1 &
  local pid=$!
  pids+=("$pid")
  wait_http "http://127.0.0.1:$metrics/metrics"
  python3 "$root/hack/bench/load.py" "http://127.0.0.1:$port/v1/chat/completions" "$warmup" "$concurrency" >/dev/null
  local before after ok start end
  before="$(cpu_ticks "$pid")"; start="$(date +%s.%N)"
  ok="$(python3 "$root/hack/bench/load.py" "http://127.0.0.1:$port/v1/chat/completions" "$count" "$concurrency")"
  end="$(date +%s.%N)"; after="$(cpu_ticks "$pid")"
  kill "$pid"; wait "$pid" 2>/dev/null || true
  local hz; hz="$(getconf CLK_TCK)"
  awk -v l="$label" -v t=$((after - before)) -v hz="$hz" -v n="$count" -v ok="$ok" -v s="$start" -v e="$end" \
    'BEGIN { printf "| %s | %d | %d | %.0f | %.1f |\n", l, n, ok, t * 1e6 / hz / n, n / (e - s) }'
}

echo "collector: $collector; $count requests after $warmup warm-up, $concurrency connections, $(nproc) cores"
echo
echo "| tracing | requests | 200s | gateway CPU µs / request | requests / s |"
echo "|---|---:|---:|---:|---:|"
tracing_flag=""; run "off" OTEL_TRACES_SAMPLER=always_off
tracing_flag="--tracing"; run "on, 1 %" OTEL_TRACES_SAMPLER=parentbased_traceidratio OTEL_TRACES_SAMPLER_ARG=0.01
tracing_flag="--tracing"; run "on, 100 %" OTEL_TRACES_SAMPLER=parentbased_traceidratio OTEL_TRACES_SAMPLER_ARG=1
