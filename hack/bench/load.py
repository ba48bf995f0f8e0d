#!/usr/bin/env python3
"""Sends COUNT chat completions to URL from CONCURRENCY keep-alive connections; prints the count of 200 answers.

Usage: load.py URL COUNT CONCURRENCY
"""
import http.client
import json
import sys
import threading
import urllib.parse

url = urllib.parse.urlparse(sys.argv[1])
count = int(sys.argv[2])
concurrency = int(sys.argv[3])
body = json.dumps({"model": "m", "max_tokens": 4,
                   "messages": [{"role": "user", "content": "tell me about tracing"}]})
ok = [0] * concurrency


def worker(i):
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    for _ in range(i, count, concurrency):
        conn.request("POST", url.path, body, {"content-type": "application/json"})
        r = conn.getresponse()
        r.read()
        if r.status == 200:
            ok[i] += 1
    conn.close()


threads = [threading.Thread(target=worker, args=(i,)) for i in range(concurrency)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(sum(ok))
