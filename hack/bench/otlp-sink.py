#!/usr/bin/env python3
"""A tiny OTLP/HTTP sink for benchmarks: answers every POST with 200 and an empty protobuf body, counts requests.

Usage: otlp-sink.py PORTFILE  (binds 127.0.0.1 on a free port and writes it to PORTFILE)
"""
import http.server
import sys


class Sink(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    posts = 0

    def do_POST(self):
        length = int(self.headers.get("content-length", "0"))
        self.rfile.read(length)
        Sink.posts += 1
        self.send_response(200)
        self.send_header("content-type", "application/x-protobuf")
        self.send_header("content-length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Sink)
with open(sys.argv[1], "w") as f:
    f.write(str(server.server_address[1]))
server.serve_forever()
