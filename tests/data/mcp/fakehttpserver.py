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
The 2025-era paths take the session's GET stream by the path (else 405):
  /getstream  the first GET sends `retry: 100` and a log message "first" with id g1,
              then ends; the next ones send "again after <their Last-Event-ID>" with
              id g2 and stay open (":" every 0.05 s); tools/call stats returns
              {gets, lastEventIds (each GET's Last-Event-ID, "" when none)}
  /resume     tools/call answers with an event stream: `retry: 50`, a log message
              with id r1:<the request's id>, then the stream ends without the
              response; a GET with that Last-Event-ID sends the response ("resumed
              after r1:<id>", id r2)
  /resume-noget  the same cut stream; its GET is answered 405
  /quiet      every GET is an event stream with only `retry: 100`, then its end
  /getflood   GET: 512 MiB of log messages as fast as the client takes them, then ":"
              every 0.05 s (attack39)
  /getsay     GET: a log message "hello" (id s1), then ":" every 0.05 s (attack39)
  /resumewait tools/call answers with an event stream: `retry: 500`, a log message with
              id w1:<the request's id>, then its end; a GET with a Last-Event-ID is
              counted (stats: gets) and answered with the response; one without, 405
  /postflood  tools/call: an event stream of 64 MiB of log messages, then the response
              (attack39 F3)
  /elsewhere  tools/call: `retry: 50`, a log message with id e1:<id>, the end; the GET
              that resumes it (Last-Event-ID) stays open (":" every 0.05 s), and the
              session's GET (none) sends each call's response (attack39)
  /storm      GET: `retry: 0`, `id: <n>` (n: its Last-Event-ID + 1), a log message, then
              the end, every time
              (attack39 F5); stats adds getTimes (each GET's time in s since the first);
              tools/call t answers "ok" after 10 s
  /stormlong  as /storm, but the stream of id 4 stays open 10.5 s (":" every 0.5 s)
  /resumestorm  tools/call answers with an event stream: `retry: 0`, a log message with
              id s1:<the request's id>, then its end; a GET with Last-Event-ID sN:<id>
              sends the same with id s<N+1>:<id>, and the response ("resumed after N")
              once N is 9; a GET without Last-Event-ID, 405
  /getpings   GET: `ping` requests as fast as the client takes them, for ever (attack39
              F4); stats adds pongs (answers to pings POSTed); tools/call t answers "ok"
              after 10 s (a call open while the GET stream floods)
  /getunknown  GET: requests of method "x/unknown" as fast as the client takes them, for
              ever (attack42 F3)
  /getcomments  GET: ": keep-alive" comment lines as fast as the client takes them, for
              ever, never an event (attack42 F2)
  /getendless  GET: 200 with a JSON body that never ends, as fast as the client takes it
              (attack42 F2: no event stream, read for ever)
  /gzipbomb   tools/call: a 200 JSON body, Content-Encoding gzip, of 64 MiB of spaces
              and the response (attack43 F5: Qt stops decompressing it)
  /postcomments  tools/call: an event stream of ": keep-alive" comment lines as fast as
              the client takes them, for ever, never an event (attack43 F3)
  /getflood, /getsay and /resumewait answer tools/call t with "ok" otherwise
At /badversion-sse initialize is answered with an event stream whose result names the
revision "1999-01-01" (attack42 F1: the handshake fails inside the stream's read)
At /refuses2026 a request with MCP-Protocol-Version 2026-07-28 (a dual-era client's
probe) gets 400 and UnsupportedProtocolVersion (-32022) listing 2025-06-18 only; its
Mcp-Method header must match the body (else 500).

At /listen* a 2026-07-28 server (tst_mcplisten, no session) with tools.listChanged:
server/discover, tools/list, and subscriptions/listen answered with a text/event-stream
that stays open, a ":" keep-alive comment every 0.05 s, by the path:
  /listen         the ack (toolsListChanged), then what tools/call asks for: change
                  (adds a tool, one list_changed on each open stream), later (one
                  list_changed after 1 s), huge (an event of
                  64 MiB + 1 byte, then a list_changed), deep (a list_changed nested 200
                  levels deep, then a good one), end (the graceful response, the end)
  /listen-drop    the ack, then the stream ends without a response
  /listen-none    the ack honours nothing ({"notifications": {}})
  /listen-noack   no ack, only keep-alives
tools/call stats returns {listens, closed (streams the client closed), toolsLists} of
that path.

At /moving-header a 2026-07-28 server (tst_mcpheadermismatch, no listChanged) whose
tool `route` mirrors its `region` argument into an x-mcp-header, "Region" at first:
tools/call move renames it "Zone" without a word, route answers HTTP 400 with
HeaderMismatch (-32020) unless Mcp-Param-<the current name> carries the body's region,
`broken` always answers HeaderMismatch, stats returns {toolsLists, mismatches}.
"""
import threading
import time
import json
import sys
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


LOCK = threading.Condition()
STATE = {}  # path -> {"listens", "closed", "toolsLists", "tools", "asks": [what the streams should send]}


def state(path):
    return STATE.setdefault(path, {"listens": 0, "closed": 0, "toolsLists": 0, "asks": [],
                                   "tools": [{"name": "change", "inputSchema": {"type": "object"}}]})


def event(message):
    return ("event: message\ndata: %s\n\n" % json.dumps(message)).encode()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, ctype, body, session=False, encoding=None):
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        if encoding:
            self.send_header("Content-Encoding", encoding)
        if session:
            self.send_header("Mcp-Session-Id", "fake-session-1")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        last = self.headers.get("Last-Event-ID") or ""
        if self.path not in ("/getstream", "/resume", "/quiet", "/getflood", "/getsay", "/resumewait",
                             "/elsewhere", "/storm", "/stormlong", "/getpings", "/resumestorm", "/getcomments", "/getunknown", "/getendless") or (
                self.path in ("/resumewait", "/resumestorm") and not last):
            self.reply(405, "text/plain", b"Method Not Allowed")
            return
        with LOCK:
            mine = state(self.path)
            mine.setdefault("gets", 0)
            mine["gets"] += 1
            mine.setdefault("lastEventIds", []).append(last)
            first = mine["gets"] == 1
            mine.setdefault("start", time.monotonic())
            mine.setdefault("getTimes", []).append(round(time.monotonic() - mine["start"], 3))
        if self.path == "/getendless":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            chunk = b"[" + b"0," * 30000
            try:
                while True:
                    self.wfile.write(chunk)
            except OSError:
                return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        if self.path == "/quiet":
            self.wfile.write(b"retry: 100\n\n")
            return
        if self.path in ("/storm", "/stormlong"):
            # The id names the client's stream: a GET Qt sends twice (attack39 F6) gets the same.
            stream = int(last or 0) + 1
            try:
                self.wfile.write(b"retry: 0\nid: %d\n" % stream + event(
                    {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "storm"}}))
                for _ in range(21 if self.path == "/stormlong" and stream == 4 else 0):
                    self.wfile.flush()
                    time.sleep(0.5)
                    self.wfile.write(b":\n\n")
            except OSError:
                pass
            return
        if self.path == "/resumestorm":
            seen, rid = (int(part) for part in last[1:].split(":"))
            try:
                if seen < 9:
                    self.wfile.write(b"retry: 0\nid: s%d:%d\n" % (seen + 1, rid) + event(
                        {"jsonrpc": "2.0", "method": "notifications/message",
                         "params": {"level": "info", "data": "working"}}))
                else:
                    self.wfile.write(event({"jsonrpc": "2.0", "id": rid, "result": {
                        "content": [{"type": "text", "text": "resumed after %d" % seen}]}}))
            except OSError:
                pass
            return
        if self.path == "/getunknown":
            chunk = b"".join(event({"jsonrpc": "2.0", "id": "u%d" % i, "method": "x/unknown"}) for i in range(100))
            try:
                while True:
                    self.wfile.write(chunk)
            except OSError:
                return
        if self.path == "/getcomments":
            chunk = b": keep-alive\n" * 5000
            try:
                while True:
                    self.wfile.write(chunk)
            except OSError:
                return
        if self.path == "/getpings":
            chunk = b"".join(event({"jsonrpc": "2.0", "id": "p%d" % i, "method": "ping"}) for i in range(100))
            try:
                while True:
                    self.wfile.write(chunk)
            except OSError:
                return
        if self.path == "/elsewhere":
            sent = set()
            try:
                while True:
                    with LOCK:
                        calls = list(state(self.path).get("calls", [])) if not last else []
                    for rid in calls:
                        if rid not in sent:
                            sent.add(rid)
                            self.wfile.write(event({"jsonrpc": "2.0", "id": rid, "result": {
                                "content": [{"type": "text", "text": "answered elsewhere"}]}}))
                    self.wfile.write(b":\n\n")
                    self.wfile.flush()
                    time.sleep(0.05)
            except OSError:
                return
        if self.path in ("/getflood", "/getsay"):
            log = {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "hello"}}
            try:
                if self.path == "/getflood":
                    chunk = event(log) * 100
                    for _ in range((512 << 20) // len(chunk)):
                        self.wfile.write(chunk)
                else:
                    self.wfile.write(b"id: s1\n" + event(log))
                while True:
                    self.wfile.write(b":\n\n")
                    self.wfile.flush()
                    time.sleep(0.05)
            except OSError:
                return
        if self.path in ("/resume", "/resumewait"):
            response = {"jsonrpc": "2.0", "id": int(last.split(":")[1]) if ":" in last else 0,
                        "result": {"content": [{"type": "text", "text": "resumed after " + last}]}}
            self.wfile.write(b"id: r2\n" + event(response))
            return
        if first:
            self.wfile.write(b"retry: 100\nid: g1\n" + event(
                {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "first"}}))
            return
        self.wfile.write(b"id: g2\n" + event({"jsonrpc": "2.0", "method": "notifications/message",
                                                "params": {"level": "info", "data": "again after " + last}}))
        try:
            while True:
                self.wfile.write(b":\n\n")
                self.wfile.flush()
                time.sleep(0.05)
        except OSError:
            pass

    def do_DELETE(self):
        self.reply(200, "text/plain", b"")

    def do_POST(self):
        message = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        method, rid = message.get("method"), message.get("id")
        if rid is None or method is None:  # a notification, or an answer to our ping
            if method is None and rid is not None:
                with LOCK:
                    mine = state(self.path)
                    mine["pongs"] = mine.get("pongs", 0) + 1
            self.reply(202, "text/plain", b"")
            return
        if self.path.startswith("/listen"):
            self.modern(method, rid, message.get("params") or {})
            return
        if self.path == "/moving-header":
            self.moving(method, rid, message.get("params") or {})
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
        if method == "initialize" and self.path == "/badversion-sse":
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Mcp-Session-Id", "fake-session-1")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            self.wfile.write(event({"jsonrpc": "2.0", "id": rid, "result": {
                "protocolVersion": "1999-01-01", "capabilities": {}, "serverInfo": {"name": "fakehttp", "version": "0"}}}))
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
        if method == "tools/call" and (message.get("params") or {}).get("name") == "stats":
            with LOCK:
                mine = state(self.path)
                text = json.dumps({"gets": mine.get("gets", 0), "lastEventIds": mine.get("lastEventIds", []),
                                   "getTimes": mine.get("getTimes", []), "pongs": mine.get("pongs", 0)})
            self.reply(200, "application/json", json.dumps(
                {"jsonrpc": "2.0", "id": rid, "result": {"content": [{"type": "text", "text": text}]}}).encode())
            return
        if method == "tools/list":
            body = json.dumps({"jsonrpc": "2.0", "id": rid, "result": {"tools": [
                {"name": "t", "inputSchema": {"type": "object"}}]}}).encode()
            self.reply(200, "application/json", body)
        elif self.path == "/notjson":
            self.reply(200, "application/json", b"<html><body>502 Bad Gateway</body></html>")
        elif self.path in ("/getpings", "/storm", "/stormlong", "/getcomments", "/getunknown"):
            time.sleep(10)
            self.reply(200, "application/json", json.dumps({"jsonrpc": "2.0", "id": rid, "result": {
                "content": [{"type": "text", "text": "ok"}]}}).encode())
        elif self.path in ("/getflood", "/getsay"):
            self.reply(200, "application/json", json.dumps({"jsonrpc": "2.0", "id": rid, "result": {
                "content": [{"type": "text", "text": "ok"}]}}).encode())
        elif self.path == "/postflood":
            log = {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "hello"}}
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            chunk = event(log) * 100
            try:
                for _ in range((64 << 20) // len(chunk)):
                    self.wfile.write(chunk)
                self.wfile.write(event({"jsonrpc": "2.0", "id": rid, "result": {
                    "content": [{"type": "text", "text": "ok"}]}}))
            except OSError:
                pass
        elif self.path == "/elsewhere":
            note = {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "working"}}
            with LOCK:
                state(self.path).setdefault("calls", []).append(rid)
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(("retry: 50\nid: e1:%d\n" % rid).encode() + event(note))
            self.wfile.flush()
            self.close_connection = True
        elif self.path == "/resumestorm":
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(b"retry: 0\nid: s1:%d\n" % rid + event(
                {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "working"}}))
            self.wfile.flush()
            self.close_connection = True
        elif self.path in ("/resume", "/resume-noget", "/resumewait"):
            # The event id names the request, so the GET that resumes it can answer it.
            note = {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "working"}}
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(("retry: %d\nid: %s:%d\n" % (500 if self.path == "/resumewait" else 50,
                                                          "w1" if self.path == "/resumewait" else "r1", rid)).encode()
                             + event(note))
            self.wfile.flush()
            self.close_connection = True
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
        elif self.path == "/gzipbomb":
            # 64 MiB of spaces before the response, gzip (64 KiB on the wire): past Qt's
            # decompressedSafetyCheckThreshold (10 MiB) at a ratio over its bound.
            packer = zlib.compressobj(9, zlib.DEFLATED, 31)
            spaces = b" " * (1 << 20)
            body = b"".join(packer.compress(spaces) for _ in range(64))
            body += packer.compress(json.dumps({"jsonrpc": "2.0", "id": rid, "result": {
                "content": [{"type": "text", "text": "ok"}]}}).encode()) + packer.flush()
            self.reply(200, "application/json", body, encoding="gzip")
        elif self.path == "/postcomments":
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            chunk = b": keep-alive\n" * 5000
            try:
                while True:
                    self.wfile.write(chunk)
            except OSError:
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


    def modern(self, method, rid, params):
        done = {"resultType": "complete"}
        with LOCK:
            mine = state(self.path)
        if method == "server/discover":
            result = dict(done, supportedVersions=["2026-07-28"], capabilities={"tools": {"listChanged": True}})
        elif method == "tools/list":
            with LOCK:
                mine["toolsLists"] += 1
                result = dict(done, tools=list(mine["tools"]))
        elif method == "tools/call" and params.get("name") == "stats":
            with LOCK:
                text = json.dumps({key: mine[key] for key in ("listens", "closed", "toolsLists")}, sort_keys=True)
            result = dict(done, content=[{"type": "text", "text": text}])
        elif method == "tools/call":
            with LOCK:
                if params.get("name") == "change":
                    mine["tools"].append({"name": "extra-%d" % len(mine["tools"]), "inputSchema": {"type": "object"}})
                mine["asks"].append(params.get("name"))
                LOCK.notify_all()
            result = dict(done, content=[{"type": "text", "text": "asked"}])
        elif method == "subscriptions/listen":
            self.listen(rid)
            return
        else:
            body = json.dumps({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "no"}}).encode()
            self.reply(200, "application/json", body)
            return
        self.reply(200, "application/json", json.dumps({"jsonrpc": "2.0", "id": rid, "result": result}).encode())

    def moving(self, method, rid, params):
        done = {"resultType": "complete"}
        with LOCK:
            mine = STATE.setdefault(self.path, {"header": "Region", "toolsLists": 0, "mismatches": 0})
            header = mine["header"]
            text = None
            if method == "server/discover":
                result = dict(done, supportedVersions=["2026-07-28"], capabilities={"tools": {}})
            elif method == "tools/list":
                mine["toolsLists"] += 1
                region = {"type": "string", "x-mcp-header": header}
                result = dict(done, tools=[
                    {"name": "route", "inputSchema": {"type": "object", "properties": {"region": region}}},
                    {"name": "move", "inputSchema": {"type": "object"}},
                    {"name": "broken", "inputSchema": {"type": "object"}},
                    {"name": "stats", "inputSchema": {"type": "object"}}])
            elif method == "tools/call" and params.get("name") == "move":
                mine["header"] = "Zone"
                text = "moved"
            elif method == "tools/call" and params.get("name") == "stats":
                text = json.dumps({"toolsLists": mine["toolsLists"], "mismatches": mine["mismatches"]},
                                  sort_keys=True)
            elif method == "tools/call" and params.get("name") == "route" \
                    and self.headers.get("Mcp-Param-" + header) == (params.get("arguments") or {}).get("region"):
                text = "routed by %s: %s" % (header, self.headers.get("Mcp-Param-" + header))
            else:
                mine["mismatches"] += 1
                error = {"code": -32020, "message": "Mcp-Param-%s is missing or not the body's region" % header}
                body = json.dumps({"jsonrpc": "2.0", "id": rid, "error": error}).encode()
                self.reply(400, "application/json", body)
                return
        if text is not None:
            result = dict(done, content=[{"type": "text", "text": text}])
        self.reply(200, "application/json", json.dumps({"jsonrpc": "2.0", "id": rid, "result": result}).encode())

    def listen(self, rid):
        with LOCK:
            mine = state(self.path)
            mine["listens"] += 1
            seen = len(mine["asks"])
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")  # the body ends with the connection
        self.end_headers()
        meta = {"io.modelcontextprotocol/subscriptionId": rid}
        changed = event({"jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": {"_meta": meta}})
        try:
            if self.path != "/listen-noack":
                honoured = {} if self.path == "/listen-none" else {"toolsListChanged": True}
                self.wfile.write(event({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
                                        "params": {"_meta": meta, "notifications": honoured}}))
                self.wfile.flush()
            if self.path == "/listen-drop":
                self.close_connection = True
                return
            while True:
                with LOCK:
                    LOCK.wait(0.05)
                    asks = mine["asks"][seen:]
                    seen = len(mine["asks"])
                for ask in asks:
                    if ask == "change":
                        self.wfile.write(changed)
                    elif ask == "later":
                        self.wfile.flush()
                        time.sleep(1.0)
                        self.wfile.write(changed)
                    elif ask == "huge":
                        self.wfile.write(b"event: message\ndata: " + b"x" * ((64 << 20) + 1) + b"\n\n" + changed)
                    elif ask == "deep":
                        self.wfile.write(('event: message\ndata: {"jsonrpc":"2.0","method":"notifications/tools/'
                                          'list_changed","params":{"_meta":{"io.modelcontextprotocol/subscriptionId"'
                                          ':%d},"x":%s%s}}\n\n' % (rid, "[" * 200, "]" * 200)).encode() + changed)
                    elif ask == "end":
                        self.wfile.write(event({"jsonrpc": "2.0", "id": rid, "result": {
                            "resultType": "complete", "_meta": meta}}))
                        self.wfile.flush()
                        self.close_connection = True
                        return
                self.wfile.write(b":\n\n")
                self.wfile.flush()
        except OSError:
            with LOCK:
                mine["closed"] += 1
            self.close_connection = True


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
