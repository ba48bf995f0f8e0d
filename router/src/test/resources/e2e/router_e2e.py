"""Drives the modelplane gateway with the official openai Python SDK, unmodified, in front of simulators.

Usage: python router_e2e.py BASE_URL MODE
  basic   (simulators in echo mode) chat (plain and streaming with usage), completions, served-endpoint header,
          prefix affinity with the cache hits it buys, spread of distinct prefixes, malformed JSON -> 400 and
          oversized body -> 413 as the SDK and a raw client see them
  kill N P  N streams, P at a time (simulators in random mode); one JSON line per request:
          {"i", "started", "ok", "error", "served"}
"""
import json
import sys
import threading
import urllib.error
import urllib.request

import openai

base_url, mode = sys.argv[1], sys.argv[2]
client = openai.OpenAI(base_url=base_url, api_key="not-needed", max_retries=0, timeout=30)
SERVED = "x-gateway-destination-endpoint-served"


def check(cond, msg):
    if not cond:
        print("FAIL: " + msg, flush=True)
        sys.exit(1)


def basic():
    chat = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi there"}])
    check(chat.choices[0].message.content == "hi there", "echo: %r" % chat.choices[0].message.content)
    check(chat.usage.completion_tokens == 2, "usage: %s" % chat.usage)

    text = ""
    chunks = 0
    usage = None
    for chunk in client.chat.completions.create(model="m", messages=[{"role": "user", "content": "stream this "
                                                                      "back to me"}],
                                                stream=True, stream_options={"include_usage": True}):
        chunks += 1
        for choice in chunk.choices:
            text += choice.delta.content or ""
        if chunk.usage is not None:
            usage = chunk.usage
    check(chunks >= 5 and text == "stream this back to me", "stream: %d chunks %r" % (chunks, text))
    check(usage is not None and usage.completion_tokens == 5, "stream usage: %s" % usage)

    comp = client.completions.with_raw_response.create(model="m", prompt="plain completion")
    check(comp.headers.get(SERVED), "served header missing")
    check(comp.parse().choices[0].text == "plain completion", "completion echo: %r" % comp.parse().choices[0].text)

    # A long shared system prompt: every request lands where the first one went, and from the second request on
    # the simulator reports the shared blocks as cached prompt tokens.
    system = "You are a careful assistant who answers briefly. " * 40
    same = set()
    cached = []
    for i in range(10):
        raw = client.chat.completions.with_raw_response.create(
            model="m", max_tokens=1,
            messages=[{"role": "system", "content": system}, {"role": "user", "content": "q%d" % i}])
        same.add(raw.headers.get(SERVED))
        cached.append(raw.parse().usage.prompt_tokens_details.cached_tokens)
    check(len(same) == 1, "shared prefix spread over %s" % same)
    check(cached[0] == 0 and min(cached[1:]) >= 256, "cached prompt tokens per request: %s" % cached)

    spread = set()
    for i in range(30):
        raw = client.chat.completions.with_raw_response.create(
            model="m", messages=[{"role": "system", "content": ("persona %d. " % i) * 40},
                                 {"role": "user", "content": "hello"}])
        spread.add(raw.headers.get(SERVED))
    check(len(spread) >= 3, "different prefixes all landed on %s" % spread)

    try:
        client.completions.create(model="m", prompt="x" * (2 * 1024 * 1024))
        check(False, "oversized body accepted")
    except openai.APIStatusError as e:
        check(e.status_code == 413, "oversized body: %s" % e.status_code)

    req = urllib.request.Request(base_url + "/chat/completions", data=b'{"model": "m", "messages": [',
                                 headers={"content-type": "application/json"}, method="POST")
    try:
        urllib.request.urlopen(req, timeout=10)
        check(False, "malformed JSON accepted")
    except urllib.error.HTTPError as e:
        body = json.loads(e.read())
        check(e.code == 400 and body["error"]["type"] == "invalid_request_error", "malformed JSON: %s %s"
              % (e.code, body))
    print("OK", flush=True)


def kill():
    n, parallel = int(sys.argv[3]), int(sys.argv[4])
    lock = threading.Lock()
    out = threading.Lock()
    next_i = [0]

    def report(i, started, ok, error, served):
        with out:
            print(json.dumps({"i": i, "started": started, "ok": ok, "error": error, "served": served}), flush=True)

    def worker():
        while True:
            with lock:
                i = next_i[0]
                next_i[0] += 1
            if i >= n:
                return
            started = False
            served = None
            try:
                raw = client.chat.completions.with_streaming_response.create(
                    model="m", messages=[{"role": "user", "content": "request %d" % i}], stream=True,
                    max_tokens=30, extra_body={"ignore_eos": True})
                with raw as response:
                    served = response.headers.get(SERVED)
                    tokens = 0
                    for chunk in response.parse():
                        started = True
                        tokens += sum(1 for c in chunk.choices if c.delta.content)
                if tokens != 30:
                    raise RuntimeError("request %d: %d tokens" % (i, tokens))
                report(i, started, True, None, served)
            except Exception as e:  # noqa: BLE001 - every failure is reported
                report(i, started, False, type(e).__name__, served)

    threads = [threading.Thread(target=worker) for _ in range(parallel)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print("DONE", flush=True)


{"basic": basic, "kill": kill}[mode]()
