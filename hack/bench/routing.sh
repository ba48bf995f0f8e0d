#!/usr/bin/env bash
# Routing-quality benchmark (docs/benchmarks.md): eight simulated "Llama 3.1 8B on H100" servers on the local
# platform (live pods of hack/bench/routing/endpoints.yaml), the same seeded workload sent by genai-bench (PyPI)
# through each contender in turn, and a report of TTFT, throughput, prefix-cache hits and per-endpoint balance.
#
#   hack/bench/routing.sh [workload] [concurrency...]      workload: shared-prefix (default) | mixed
#
# Contenders: modelplane (the router's default configuration), predictive (the predicted-latency-scorer alone, with
# the approximate prefix index feeding it), epp (the reference endpoint picker, llm-d-router's
# EPP, behind the modelplane gateway in client mode), haproxy-rr and haproxy-leastconn, random (uniform choice,
# what a Kubernetes Service does). CONTENDERS="modelplane epp" runs a subset. The EPP is built once from a source
# checkout in LLMD_ROUTER_SRC (it is not served by the Go module proxy this machine reaches), or taken from EPP_BIN.
# ROUTER_ARGS adds options to the modelplane and predictive routers (e.g. "--log-level info,dev.modelplane.router=debug").
# Everything listens on and connects to loopback only. Results go to ~/.cache/modelplane/bench-routing/<run>/.
# The whole script is one function, so editing it while it runs cannot change the run.
set -euo pipefail

# Global, not local to main: the EXIT trap runs after main has returned.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
state="${MODELPLANE_CACHE:-$HOME/.cache/modelplane}/bench-routing/platform"

main() {
  local workload seed requests cache bench run java jar kubectl venv gb
  workload="${1:-shared-prefix}"
  shift || true
  local concurrency=("$@")
  [ ${#concurrency[@]} -gt 0 ] || concurrency=(16 32 64)
  local contenders=(${CONTENDERS:-modelplane predictive epp haproxy-rr haproxy-leastconn random})
  seed="${SEED:-20261124}"
  requests="${REQUESTS_PER_RUN:-400}"
  cache="${MODELPLANE_CACHE:-$HOME/.cache/modelplane}"
  bench="$cache/bench-routing"
  run="$bench/$(date -u +%Y%m%dT%H%M%SZ)-$workload"
  mkdir -p "$run"
  java="$("$root/hack/find-jdk")/bin/java"
  jar="$root/cli/target/modelplane.jar"
  kubectl="$("$root/hack/control-plane/build.sh" | tail -1)/kubectl"
  gb="$("$root/hack/bench/genai-bench.sh" | tail -1)"
  venv="$(dirname "$gb")"
  local haproxy=""
  if [[ " ${contenders[*]} " == *" haproxy-"* ]]; then haproxy="$("$root/hack/bench/haproxy.sh" | tail -1)"; fi
  local epp="${EPP_BIN:-$cache/llm-d-router/epp}"
  if [[ " ${contenders[*]} " == *" epp "* ]] && [ ! -x "$epp" ]; then
    [ -n "${LLMD_ROUTER_SRC:-}" ] || { echo "routing.sh: the epp contender needs EPP_BIN or LLMD_ROUTER_SRC" >&2; exit 1; }
    echo "== building the reference EPP from $LLMD_ROUTER_SRC (a few minutes, once)" >&2
    mkdir -p "$(dirname "$epp")"
    (cd "$LLMD_ROUTER_SRC" && GOFLAGS=-mod=mod go build -o "$epp" ./cmd/epp) >&2
  fi

  local pids=()
  # The modelplane router on the pool, gateway on port $1, log to $2, more options after.
  router() {
    local port="$1" log="$2"
    shift 2
    "$java" -jar "$jar" router --pool llama --pool-namespace bench --host 127.0.0.1 --port "$port" \
      --grpc-port 18712 --grpc-health-port 18713 --metrics-port 18714 --no-access-log "$@" > "$log" 2>&1 &
    pids+=($!)
  }
  stop_pids() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done; pids=(); }
  # KEEP_PLATFORM=1 leaves the platform running for the next run (which then reuses it).
  trap 'stop_pids; [ "${KEEP_PLATFORM:-}" = 1 ] || "$root/modelplane" down --state-dir "$state" >/dev/null 2>&1 || true' EXIT

  echo "== platform and endpoints" >&2
  "$root/modelplane" up --state-dir "$state" --port 18680 --grpc-port 18692 --grpc-health-port 18693 \
    --metrics-port 18694 --operator-port 18681 -f "$root/hack/bench/routing/endpoints.yaml" --timeout PT10M >&2
  export KUBECONFIG="$state/kubeconfig"

  echo "== datasets and tokenizer" >&2
  local dataset="$run/prompts.txt"
  case "$workload" in
    shared-prefix) python3 "$root/hack/bench/routing/dataset.py" shared-prefix "$dataset" "$seed" 64 8 2000 50 ;;
    mixed) python3 "$root/hack/bench/routing/dataset.py" mixed "$dataset" "$seed" 2000 ;;
    *) echo "routing.sh: unknown workload $workload" >&2; exit 2 ;;
  esac
  mkdir -p "$run/tokenizer"
  "$venv/python" "$root/hack/bench/routing/tokenizer.py" "$run/tokenizer" "$dataset" \
    "$("$venv/python" -c 'import genai_bench, os; print(os.path.join(os.path.dirname(genai_bench.__file__), "data", "sonnet.txt"))')"

  local port=18700
  for contender in "${contenders[@]}"; do
    echo "== $contender" >&2
    reset_caches "$kubectl"
    local ips
    mapfile -t ips < <("$kubectl" get pods -n bench -l app=bench-llama --field-selector status.phase=Running \
      -o jsonpath='{range .items[*]}{.status.podIP}{"\n"}{end}')
    [ ${#ips[@]} -eq 8 ] || { echo "routing.sh: expected 8 endpoint pods, found ${#ips[@]}" >&2; exit 1; }
    case "$contender" in
      modelplane) router "$port" "$run/$contender.log" ${ROUTER_ARGS:-} ;;
      predictive) router "$port" "$run/$contender.log" --config-text "$(cat <<'YAML'
apiVersion: inference.networking.x-k8s.io/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: approx-prefix-cache-producer
- type: predicted-latency-scorer
- type: max-score-picker
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: predicted-latency-scorer
  - pluginRef: max-score-picker
YAML
)" ${ROUTER_ARGS:-} ;;
      random) router "$port" "$run/$contender.log" --config-text "$(cat <<'YAML'
apiVersion: inference.networking.x-k8s.io/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: random-picker
schedulingProfiles:
- name: default
  plugins:
  - pluginRef: random-picker
YAML
)" ;;
      epp)
        "$epp" --pool-name llama --pool-namespace bench --grpc-port 18722 --grpc-health-port 18723 \
          --metrics-port 18724 --secure-serving=false --metrics-endpoint-auth=false --zap-encoder console \
          > "$run/epp-picker.log" 2>&1 &
        pids+=($!)
        router "$port" "$run/$contender.log" --epp 127.0.0.1:18722 ;;
      haproxy-rr|haproxy-leastconn)
        local balance=roundrobin
        [ "$contender" = haproxy-leastconn ] && balance=leastconn
        {
          printf 'global\n  maxconn 4096\ndefaults\n  mode http\n  timeout connect 5s\n  timeout client 10m\n'
          printf '  timeout server 10m\nfrontend gateway\n  bind 127.0.0.1:%s\n  default_backend servers\n' "$port"
          printf 'backend servers\n  balance %s\n' "$balance"
          local i=0
          for ip in "${ips[@]}"; do printf '  server s%d %s:8000 maxconn 1000\n' "$i" "$ip"; i=$((i + 1)); done
        } > "$run/$contender.cfg"
        "$haproxy" -f "$run/$contender.cfg" -db > "$run/$contender.log" 2>&1 &
        pids+=($!) ;;
      *) echo "routing.sh: unknown contender $contender" >&2; exit 2 ;;
    esac
    wait_models "$port"
    scrape "${ips[@]}" > "$run/$contender.metrics-before"
    local args=()
    for c in "${concurrency[@]}"; do args+=(--num-concurrency "$c"); done
    (cd "$run" && "$venv/python" "$root/hack/bench/routing/seeded_genai_bench.py" "$seed" benchmark \
      --api-backend vllm --api-base "http://127.0.0.1:$port" --api-key none --task text-to-text \
      --api-model-name meta-llama/Llama-3.1-8B-Instruct --model-tokenizer "$run/tokenizer" \
      --dataset-path "$dataset" --additional-request-params '{"max_tokens": 100, "ignore_eos": true}' \
      "${args[@]}" --max-requests-per-run "$requests" --max-time-per-run 5 --server-engine vLLM \
      --experiment-base-dir "$run/genai-bench" --experiment-folder-name "$contender") > "$run/$contender.genai-bench.log" 2>&1 \
      || { echo "genai-bench failed for $contender; see $run/$contender.genai-bench.log" >&2; exit 1; }
    scrape "${ips[@]}" > "$run/$contender.metrics-after"
    stop_pids
  done
  "$venv/python" "$root/hack/bench/routing/report.py" "$run" "${contenders[@]}"
  echo "results: $run" >&2
}

# Empties every server's prefix cache between contenders by restarting the pods (the runner restarts a simulator
# that exits; deleting the pods makes new ones), so no contender inherits another's cache.
reset_caches() {
  local kubectl="$1"
  "$kubectl" rollout restart deployment/llama -n bench >&2
  "$kubectl" rollout status deployment/llama -n bench --timeout=300s >&2
}

wait_models() {
  for _ in $(seq 1 150); do
    curl -fsS -m 2 "http://127.0.0.1:$1/v1/models" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  echo "routing.sh: nothing answers on port $1" >&2
  return 1
}

# Each server's request, token and prefix-cache counters, one "ip name value" line per sample.
scrape() {
  for ip in "$@"; do
    curl -fsS -m 5 "http://$ip:8000/metrics" | grep -E '^vllm:(prefix_cache_(hits|queries)_total|request_success_total|generation_tokens_total)' \
      | sed "s/^/$ip /" || true
  done
}

main "$@"
