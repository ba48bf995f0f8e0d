#!/usr/bin/env bash
# Fidelity benchmark (docs/benchmarks.md): the same flags and the same workload on our simulator and on
# llm-d-inference-sim, one after the other on loopback, measured by one client (LoadGen): TTFT/ITL p50/p90 and the
# running/waiting/KV trajectories from /metrics.
#
#   hack/bench/simulator-fidelity.sh [requests] [rate] [prompt-words] [output-tokens]
#
# The peer binary: $LLMD_SIM_BIN, else the one hack/llm-d-sim/build.sh builds from its Go module once and caches.
# Without a peer (no Go, or the build failed) only our side runs. OURS_FLAGS adds flags to our side only (e.g.
# OURS_FLAGS="--prefill-interference 1"); JITTER=off runs both without latency jitter (standard deviations 0), the
# control that separates the latency model from how each simulator samples it (docs/benchmarks.md).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
requests="${1:-240}" rate="${2:-8}" prompt="${3:-200}" output="${4:-100}"
prefill_sd=5ms itl_sd=2ms
if [ "${JITTER:-on}" = off ]; then prefill_sd=0 itl_sd=0; fi
flags=(--max-num-seqs 16 --max-waiting-queue-length 1000 --max-model-len 2048 --latency-calculator per-token
  --prefill-overhead 30ms --prefill-time-per-token 250us --prefill-time-std-dev "$prefill_sd" --inter-token-latency 12ms
  --inter-token-latency-std-dev "$itl_sd" --time-factor-under-load 2.0 --enable-kvcache --kv-cache-size 1024
  --block-size 16 --seed 1 --mode random)
ours_port=18301 peer_port=18302

java="$("$root/hack/find-jdk")/bin/java"
"$root/hack/mvn" -q -pl cli -am package -DskipTests >&2
# A reactor build (-am): the project's own modules resolve to this checkout's classes, nothing is installed.
"$root/hack/mvn" -q -pl simulator -am test-compile dependency:build-classpath -Dmdep.includeScope=test \
  -Dmdep.outputFile="$root/simulator/target/bench.cp" >&2
cp="$root/simulator/target/test-classes:$root/simulator/target/classes:$(cat "$root/simulator/target/bench.cp")"

peer="${LLMD_SIM_BIN:-$("$root/hack/llm-d-sim/build.sh" | tail -1 || true)}"

wait_ready() { for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$1/v1/models" >/dev/null 2>&1 && return 0; sleep 0.2; done; return 1; }
run_side() { # label port command...
  local label="$1" port="$2"; shift 2
  "$@" > "/tmp/fidelity-$label.log" 2>&1 &
  local pid=$!
  wait_ready "$port" || { echo "$label did not start; see /tmp/fidelity-$label.log" >&2; kill "$pid"; return 1; }
  "$java" -cp "$cp" dev.modelplane.simulator.bench.LoadGen "$port" "$requests" "$rate" "$prompt" "$output" "$label" sim-model 250 32
  kill "$pid"; wait "$pid" 2>/dev/null || true
}

echo "workload: $requests requests, Poisson $rate/s, $prompt-token unique prompts, $output output tokens (ignore_eos), streaming"
echo "flags: ${flags[*]} (jitter ${JITTER:-on})"
run_side modelplane "$ours_port" "$java" -jar "$root/cli/target/modelplane.jar" simulator --model sim-model \
  --host 127.0.0.1 --port "$ours_port" "${flags[@]}" ${OURS_FLAGS:-}
if [ -n "$peer" ]; then
  POD_IP=127.0.0.1 run_side llm-d-sim "$peer_port" "$peer" --model sim-model --port "$peer_port" "${flags[@]}" \
    --force-dummy-tokenizer
else
  echo "llm-d-inference-sim: no binary (set LLMD_SIM_BIN, or let hack/llm-d-sim/build.sh build it); only our side ran" >&2
fi
