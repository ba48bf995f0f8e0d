#!/usr/bin/env bash
# End-to-end check of the KV-events probe against llm-d-inference-sim, all on 127.0.0.1: the probe binds a ZMQ SUB
# socket, the simulator (KV cache and events on, dummy tokenizer) dials it with its PUB socket; a chat request and a
# completion go to the simulator; the prompt's token ids (from the simulator's /tokenize) are then looked up in the
# probe, which must report every full block of the prompt on the simulator's pod (its POD_IP, the topic's middle part)
# and none under another model name. Every wait is bounded; only the processes it starts are stopped, by PID.
#
#   hack/kv-indexer/smoke.sh     (binaries: $MODELPLANE_KV_INDEXER_BIN / $MODELPLANE_LLMD_SIM_BIN, else built)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
indexer="${MODELPLANE_KV_INDEXER_BIN:-$("$root/hack/kv-indexer/build.sh" | tail -1)}"
sim="${MODELPLANE_LLMD_SIM_BIN:-$("$root/hack/llm-d-sim/build.sh" | tail -1)}"
work="$(mktemp -d /tmp/kv-indexer-smoke.XXXXXX)"
pids=()
cleanup() {
  local rc=$? p
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null || true; done
  if [ $rc -ne 0 ]; then for f in "$work"/*.log; do echo "--- tail $f" >&2; tail -15 "$f" >&2; done; fi
  rm -rf "$work"
  exit $rc
}
trap cleanup EXIT INT TERM
fail() { echo "smoke: FAIL: $*" >&2; exit 1; }
free_port() { # a port nobody listens on (probed with /dev/tcp; a small race is accepted)
  local p
  for _ in $(seq 100); do
    p=$((20000 + RANDOM % 30000))
    (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
  done
  fail "no free port"
}
wait_for() { # seconds what command...
  local deadline=$((SECONDS + $1)) what="$2"; shift 2
  until "$@" >/dev/null 2>&1; do
    [ $SECONDS -lt $deadline ] || fail "timed out waiting for $what"
    for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null || fail "process $p died waiting for $what"; done
    sleep 0.2
  done
}
post() { curl -fsS --max-time 10 -H 'Content-Type: application/json' "$@"; }

zmq=$(free_port) http=$(free_port) simport=$(free_port)
model=smoke-model
"$indexer" --bind "tcp://127.0.0.1:$zmq" --port "$http" --block-size 16 --hash-seed 42 >"$work/indexer.log" 2>&1 &
pids+=($!)
wait_for 20 "the probe's /healthz" curl -fs "http://127.0.0.1:$http/healthz"
POD_IP=127.0.0.1 "$sim" --model "$model" --port "$simport" --enable-kvcache --force-dummy-tokenizer --block-size 16 \
  --hash-seed 42 --zmq-endpoint "tcp://127.0.0.1:$zmq" >"$work/sim.log" 2>&1 &
pids+=($!)
wait_for 30 "the simulator's /v1/models" curl -fs "http://127.0.0.1:$simport/v1/models"

# The simulator's PUB socket dials in the background: send fresh prompts until the probe has seen a batch.
words="one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen"
for i in $(seq 20); do
  post "http://127.0.0.1:$simport/v1/completions" -d "{\"model\":\"$model\",\"prompt\":\"warm-up $i $words\",\"max_tokens\":1}" >/dev/null
  sleep 1.5
  curl -fs "http://127.0.0.1:$http/stats" | grep -q '"batches":[1-9]' && break
  [ "$i" -lt 20 ] || fail "no event batch reached the probe"
done

chat="{\"model\":\"$model\",\"messages\":[{\"role\":\"system\",\"content\":\"You are a terse assistant.\"},
  {\"role\":\"user\",\"content\":\"List the planets of the solar system, from Mercury to Neptune, with one fact each: $words.\"}]"
post "http://127.0.0.1:$simport/v1/chat/completions" -d "$chat,\"max_tokens\":4}" >/dev/null
post "http://127.0.0.1:$simport/v1/completions" \
  -d "{\"model\":\"$model\",\"prompt\":\"A different prompt, so the probe holds more than one chain: $words\",\"max_tokens\":4}" >/dev/null
tokens="$(post "http://127.0.0.1:$simport/tokenize" -d "$chat}" | grep -o '"tokens":\[[0-9,]*\]' | cut -d: -f2)"
count=$(($(tr -cd , <<<"$tokens" | wc -c) + 1))
blocks=$((count / 16))
[ "$blocks" -ge 2 ] || fail "the chat prompt has $count tokens; want at least two blocks"
echo "smoke: the chat prompt renders to $count tokens, $blocks full blocks" >&2

lookup() { post "http://127.0.0.1:$http/lookup" -d "{\"model\":\"$1\",\"token_ids\":$tokens}"; }
holds_all() { lookup "$model" | grep -q "\"127.0.0.1\":{\"blocks\":$blocks,"; }
wait_for 10 "$blocks blocks of 127.0.0.1 in the probe" holds_all
lookup "$model" >&2
lookup other-model | grep -q '"pods":{}' || fail "blocks found under another model name"
curl -fs "http://127.0.0.1:$http/stats" >&2
echo "smoke: OK" >&2
