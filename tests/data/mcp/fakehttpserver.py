#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""A misbehaving MCP Streamable HTTP server for tst_mcphttp, on 127.0.0.1 at a free
port (printed as the first line of stdout). It answers initialize (with an
Mcp-Session-Id) and tools/list (one tool, "t") properly; tools/call by the URL path:

  /notjson   a 200 application/json body that is not JSON (an HTML error page)
  /cutsse    a text/event-stream that sends a notification, then ends in the middle
             of the response event
  /status    HTTP 500 with a text body
  /linger    a text/event-stream with the response, then a notification every 0.1 s
             and never an end (as long as the client reads)
  /drip      a text/event-stream of one comment byte every 0.1 s, never a response
  /pings     a text/event-stream of 2000 `ping` requests, then the response, then
             nothing and never an end
At /refuses2026 a request with MCP-Protocol-Version 2026-07-28 (a dual-era client's
probe) gets 400 and UnsupportedProtocolVersion (-32022) listing 2025-06-18 only; its
Mcp-Method header must match the body (else 500).
"""
import time
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, ctype, body, session=False):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        if session:
            self.send_header("Mcp-Session-Id", "fake-session-1")
        self.end_headers()
        self.wfile.write(body)

    def do_DELETE(self):
        self.reply(200, "text/plain", b"")

    def do_POST(self):
        message = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        method, rid = message.get("method"), message.get("id")
        if rid is None or method is None:  # a notification, or an answer to our ping
            self.reply(202, "text/plain", b"")
            return
        if self.path == "/refuses2026" and self.headers.get("MCP-Protocol-Version") == "2026-07-28":
            if self.headers.get("Mcp-Method") != method:
                self.reply(500, "text/plain", b"Mcp-Method does not match the body")
                return
            body = json.dumps({"jsonrpc": "2.0", "id": None, "error": {
                "code": -32022, "message": "Unsupported protocol version",
                "data": {"supported": ["2025-06-18"], "requested": "2026-07-28"}}}).encode()
            self.reply(400, "application/json", body)
            return
        if method == "initialize":
            result = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                      "serverInfo": {"name": "fakehttp", "version": "0"}}
            body = json.dumps({"jsonrpc": "2.0", "id": rid, "result": result}).encode()
            self.reply(200, "application/json", body, session=True)
            return
        if self.headers.get("Mcp-Session-Id") != "fake-session-1":
            self.reply(400, "text/plain", b"no session id")
            return
        if method == "tools/list":
            body = json.dumps({"jsonrpc": "2.0", "id": rid, "result": {"tools": [
                {"name": "t", "inputSchema": {"type": "object"}}]}}).encode()
            self.reply(200, "application/json", body)
        elif self.path == "/notjson":
            self.reply(200, "application/json", b"<html><body>502 Bad Gateway</body></html>")
        elif self.path == "/cutsse":
            note = json.dumps({"jsonrpc": "2.0", "method": "notifications/message",
                               "params": {"level": "info", "data": "working"}})
            cut = '{"jsonrpc": "2.0", "id": %d, "result": {"content": [' % rid
            body = ("event: message\ndata: %s\n\nevent: message\ndata: %s" % (note, cut)).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(body)
            self.wfile.flush()
            self.close_connection = True
        elif self.path in ("/linger", "/drip", "/pings"):
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            response = json.dumps({"jsonrpc": "2.0", "id": rid, "result": {
                "content": [{"type": "text", "text": "ok"}]}})
            if self.path == "/pings":
                pings = "".join("event: message\ndata: %s\n\n" % json.dumps(
                    {"jsonrpc": "2.0", "id": "p%d" % i, "method": "ping"}) for i in range(2000))
                self.wfile.write(pings.encode())
            if self.path != "/drip":
                self.wfile.write(("event: message\ndata: %s\n\n" % response).encode())
            note = json.dumps({"jsonrpc": "2.0", "method": "notifications/message",
                               "params": {"level": "info", "data": "still here"}})
            try:
                while True:
                    self.wfile.write(b":" if self.path == "/drip" else
                                     ("event: message\ndata: %s\n\n" % note).encode())
                    self.wfile.flush()
                    time.sleep(0.1)
            except OSError:
                self.close_connection = True
        else:
            self.reply(500, "text/plain", b"Internal \x1b[31merror\x1b[0m")


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
