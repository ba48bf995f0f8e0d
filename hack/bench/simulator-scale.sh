#!/usr/bin/env bash
# Scale benchmark (docs/benchmarks.md): one simulator process holding N concurrent streams (default 2,000) on this
# machine, loopback only. Reports client-side TTFT/ITL against the latency model's values and the engine's own
# lateness histogram (modelplane_simulator_token_lag_seconds).
#
#   hack/bench/simulator-scale.sh [streams] [output-tokens] [inter-token-latency] [prompt-words]
#   PRESET=llama-3.1-8b-h100 hack/bench/simulator-scale.sh 2000 100
#
# With PRESET the engine-step model of that preset times the run (every stream admitted: --max-num-seqs = streams;
# the inter-token-latency argument is then unused): what one process costs per stream on the calibrated hardware.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
streams="${1:-2000}" output="${2:-100}" itl="${3:-50ms}" prompt="${4:-100}"
# A constant model (no load factor, every prefill admitted at once) makes drift easy to read: TTFT should be
# prefill-overhead + prompt x per-token, every inter-token gap exactly the inter-token latency.
port=18401
java="$("$root/hack/find-jdk")/bin/java"
"$root/hack/mvn" -q -pl cli -am package -DskipTests >&2
# A reactor build (-am): the project's own modules resolve to this checkout's classes, nothing is installed.
"$root/hack/mvn" -q -pl simulator -am test-compile dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile="$root/simulator/target/bench.cp" >&2
cp="$root/simulator/target/test-classes:$root/simulator/target/classes:$(cat "$root/simulator/target/bench.cp")"
blocks=$(( streams * ((prompt + output) / 16 + 2) ))
if [ -n "${PRESET:-}" ]; then
  flags=(--model sim-model --host 127.0.0.1 --port "$port" --max-num-seqs "$streams" --max-waiting-queue-length
    "$streams" --max-model-len 4096 --preset "$PRESET" --seed 1 --mode random)
else
  flags=(--model sim-model --host 127.0.0.1 --port "$port" --max-num-seqs "$streams" --max-waiting-queue-length
    "$streams" --max-model-len 4096 --max-num-batched-tokens 1000000 --kv-cache-size "$blocks"
    --latency-calculator per-token --prefill-overhead 30ms --prefill-time-per-token 250us --inter-token-latency "$itl"
    --time-factor-under-load 1.0 --seed 1 --mode random)
fi
echo "model: ${flags[*]}"
"$java" -Xmx2g -jar "$root/cli/target/modelplane.jar" simulator "${flags[@]}" > /tmp/scale-sim.log 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$port/v1/models" >/dev/null 2>&1 && break; sleep 0.2; done
"$java" -Xmx2g -cp "$cp" dev.modelplane.simulator.bench.LoadGen "$port" "$streams" 0 "$prompt" "$output" scale sim-model 500 "$streams"
curl -fs "http://127.0.0.1:$port/metrics" | grep -E '^(modelplane_simulator_token_lag_seconds|vllm:inter_token_latency_seconds)_(bucket|count|sum)' \
  | grep -E 'le="(0.001|0.002|0.005|0.01|0.02|0.05|0.1|0.25|\+Inf)"|_sum|_count'
echo "server process: $(ps -o rss=,time= -p $pid | awk '{printf "rss=%.0fMB cpu-time=%s", $1/1024, $2}')"
