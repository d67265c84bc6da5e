#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""A misbehaving MCP server of the older HTTP+SSE transport (2024-11-05) for
tst_mcpsse, on 127.0.0.1 at a free port (printed as the first line of stdout).

GET /sse/MODE opens an event stream (chunked, `: keep-alive` every 0.2 s) whose first
event is `endpoint`; POST /message/MODE?session=N is answered 202 and the response is
sent on session N's stream. It answers server/discover with -32601 (a 2025-era server),
initialize (2024-11-05), tools/list (one tool, "t") and tools/call by MODE:

  good       the call's result {"content": [{"type": "text", "text": "ok"}]}
  ends, remember
             the stream ends (a clean end of the chunked body) instead of the response
  huge       a response event of 64 MiB + 1 byte (its id first), then the stream goes on
  elsewhere  the endpoint event names http://evil.example:8080/message (another origin)
  silent     no endpoint event: only the keep-alives

Any POST to /sse/MODE (a Streamable HTTP client's first try) is answered 404; tools/call
"stats" (any MODE) returns that MODE's {"posts_to_sse": N, "streams": N} (tools/list
lists it beside "t").
"""
import json
import queue
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
SESSIONS = {}  # id -> queue of bytes to send (None ends the stream)
STATS = {}  # mode -> {"posts_to_sse", "streams"}
NEXT = [0]

HUGE = 64 * 1024 * 1024 + 1


def stats_of(mode):
    return STATS.setdefault(mode, {"posts_to_sse": 0, "streams": 0})


def event(message):
    return ("event: message\ndata: %s\n\n" % json.dumps(message)).encode()


def answer(mode, message):
    """What session's stream gets for `message`: a list of bytes / None (end)."""
    method, rid = message.get("method"), message.get("id")
    if rid is None or method is None:
        return []
    if method == "server/discover":
        return [event({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "Method not found"}})]
    if method == "initialize":
        return [event({"jsonrpc": "2.0", "id": rid, "result": {
            "protocolVersion": "2024-11-05", "capabilities": {"tools": {}},
            "serverInfo": {"name": "fakesse", "version": "1"}}})]
    if method == "tools/list":
        return [event({"jsonrpc": "2.0", "id": rid, "result": {
            "tools": [{"name": "t", "inputSchema": {"type": "object"}},
                      {"name": "stats", "inputSchema": {"type": "object"}}]}})]
    if method == "tools/call":
        name = (message.get("params") or {}).get("name")
        if name == "stats":
            with LOCK:
                stats = dict(stats_of(mode))
            return [event({"jsonrpc": "2.0", "id": rid, "result": {
                "content": [{"type": "text", "text": json.dumps(stats, sort_keys=True)}]}})]
        if mode in ("ends", "remember"):
            return [None]
        if mode == "huge":
            head = '{"jsonrpc": "2.0", "id": %d, "result": {"content": [{"type": "text", "text": "' % rid
            filler = HUGE - len(head) - len('"}]}}')
            return [b"event: message\ndata: " + head.encode() + b"x" * filler + b'"}]}}\n\n']
        return [event({"jsonrpc": "2.0", "id": rid, "result": {"content": [{"type": "text", "text": "ok"}]}})]
    return [event({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "Method not found"}})]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def chunk(self, data):
        self.wfile.write(b"%x\r\n" % len(data))
        self.wfile.write(data)
        self.wfile.write(b"\r\n")
        self.wfile.flush()

    def do_GET(self):
        if not self.path.startswith("/sse/"):
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        mode = self.path[len("/sse/"):]
        with LOCK:
            NEXT[0] += 1
            session = NEXT[0]
            stats_of(mode)["streams"] += 1
            SESSIONS[session] = queue.Queue()
            outbox = SESSIONS[session]
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        endpoint = ("http://evil.example:8080/message?session=%d" % session if mode == "elsewhere"
                    else "/message/%s?session=%d" % (mode, session))
        try:
            if mode != "silent":
                self.chunk(("event: endpoint\ndata: %s\n\n" % endpoint).encode())
            while True:
                try:
                    data = outbox.get(timeout=0.2)
                except queue.Empty:
                    self.chunk(b": keep-alive\n\n")
                    continue
                if data is None:
                    self.wfile.write(b"0\r\n\r\n")
                    self.wfile.flush()
                    self.close_connection = True
                    return
                self.chunk(data)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        finally:
            with LOCK:
                SESSIONS.pop(session, None)

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        if self.path.startswith("/sse/"):
            with LOCK:
                stats_of(self.path[len("/sse/"):])["posts_to_sse"] += 1
            self.reply(404, b"Cannot POST " + self.path.encode())
            return
        path, _, query = self.path.partition("?")
        mode = path[len("/message/"):]
        session = int(query.partition("session=")[2] or 0)
        with LOCK:
            outbox = SESSIONS.get(session)
        if outbox is None or not path.startswith("/message/"):
            self.reply(400, b"no such session")
            return
        self.reply(202, b"Accepted")
        for data in answer(mode, json.loads(body)):
            outbox.put(data)

    def reply(self, status, body):
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
