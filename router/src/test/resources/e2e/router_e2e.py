"""Drives the modelplane gateway with the official openai Python SDK, unmodified.

Usage: python router_e2e.py BASE_URL MODE
  basic   chat (plain and streaming), completions, served-endpoint header, prefix affinity and spread,
          malformed JSON -> 400 and oversized body -> 413 as the SDK and a raw client see them
  kill    many concurrent streams; prints one JSON line per request: {"i", "started", "ok", "error"}
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
    chat = client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}])
    check(chat.choices[0].message.content.startswith("hello from"), chat.choices[0].message.content)

    text = ""
    chunks = 0
    for chunk in client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}],
                                                stream=True):
        chunks += 1
        for choice in chunk.choices:
            text += choice.delta.content or ""
    check(chunks >= 3 and text.startswith("tok0 "), "stream: %d chunks %r" % (chunks, text))

    comp = client.completions.with_raw_response.create(model="m", prompt="plain completion")
    check(comp.headers.get(SERVED), "served header missing")

    system = "You are a careful assistant who answers briefly. " * 40
    same = set()
    for i in range(10):
        raw = client.chat.completions.with_raw_response.create(
            model="m", messages=[{"role": "system", "content": system}, {"role": "user", "content": "q%d" % i}])
        same.add(raw.headers.get(SERVED))
    check(len(same) == 1, "shared prefix spread over %s" % same)

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

    def report(i, started, ok, error):
        with out:
            print(json.dumps({"i": i, "started": started, "ok": ok, "error": error}), flush=True)

    def worker():
        while True:
            with lock:
                i = next_i[0]
                next_i[0] += 1
            if i >= n:
                return
            started = False
            try:
                stream = client.chat.completions.create(
                    model="m", messages=[{"role": "user", "content": "request %d" % i}], stream=True)
                for _ in stream:
                    started = True
                report(i, started, True, None)
            except Exception as e:  # noqa: BLE001 - every failure is reported
                report(i, started, False, type(e).__name__)

    threads = [threading.Thread(target=worker) for _ in range(parallel)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print("DONE", flush=True)


{"basic": basic, "kill": kill}[mode]()
