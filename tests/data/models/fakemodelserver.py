#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""A fake model server for the tests: speaks OpenAI Chat Completions
(POST /<scenario>/chat/completions) and Anthropic Messages (POST /<scenario>/v1/messages)
on 127.0.0.1, a free port printed as the first line on stdout.

The first path segment picks the behaviour, so one server serves every case:
  ok           a protocol reply: a tool call while the request has no tool result, else text
  auth         401 unless the key is "good-key" (Authorization: Bearer / x-api-key)
  ratelimit    429 with Retry-After: 7
  ratelimithuge 429 with Retry-After: 9223372036854775807 (the largest int64)
  error500     500 with a protocol error body
  notjson      200 with an HTML page
  notprotocol  200 with {"hello": "world"}
  huge         200 with 2 MiB (Content-Length set)
  hugestream   200 with 2 MiB, no Content-Length (the body ends when the connection closes)
  stall        200 headers and half a body, then nothing for 60 s (a timeout mid-stream)
  echokey      401 whose message is 190 "x", a space and the key it was sent
  gzipbomb     200 with Content-Encoding: gzip, 512 MiB inflated from ~500 KB
  redirect     307 to http://127.0.0.2:<this port>/ok/... (another host)
  agent        OpenAI only, for the stock loop: two get_exchange_rate calls in one turn
               (EUR and GBP to USD) while the request has no tool result, then the text
               "answer: " + the tool messages' contents joined by " | "
  unknowntool  likewise, one call of no_such_tool, then the answer
  badargs      likewise, one get_exchange_rate call whose arguments are "{not json"
  loop         a get_exchange_rate call on every request (a model that never stops)
GET /last answers the last request received: {"path", "headers", "body"}.
GET /count answers {"count": N}, the POST requests received so far.
"""
import json
import sys
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LAST = {}
BOMB = []
COUNT = [0]


def tool_call(call_id, name, arguments):
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def loop_reply(scenario, request):
    """The stock loop's scenarios (OpenAI Chat Completions)."""
    results = [m.get("content") or "" for m in request.get("messages", []) if m.get("role") == "tool"]
    if results and scenario != "loop":
        message = {"role": "assistant", "content": "answer: " + " | ".join(results)}
        finish = "stop"
    else:
        calls = {
            "agent": [tool_call("call_eur", "get_exchange_rate", '{"base": "EUR", "quote": "USD"}'),
                      tool_call("call_gbp", "get_exchange_rate", '{"base": "GBP", "quote": "USD"}')],
            "unknowntool": [tool_call("call_x", "no_such_tool", "{}")],
            "badargs": [tool_call("call_bad", "get_exchange_rate", "{not json")],
            "loop": [tool_call("call_%d" % len(results), "get_exchange_rate", '{"base": "EUR", "quote": "USD"}')],
        }[scenario]
        message = {"role": "assistant", "content": None, "tool_calls": calls}
        finish = "tool_calls"
    return {"id": "chatcmpl-2", "object": "chat.completion", "created": 0, "model": request.get("model"),
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {"prompt_tokens": 20, "completion_tokens": 7, "total_tokens": 27}}


def openai_reply(request):
    done = any(m.get("role") == "tool" for m in request.get("messages", []))
    if done or not request.get("tools"):
        message = {"role": "assistant", "content": "1 EUR is 1.08 USD."}
        finish = "stop"
    else:
        message = {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_1", "type": "function",
             "function": {"name": request["tools"][0]["function"]["name"], "arguments": "{\"base\": \"EUR\"}"}}]}
        finish = "tool_calls"
    return {"id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": request.get("model"),
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {"prompt_tokens": 11, "completion_tokens": 5, "total_tokens": 16}}


def anthropic_reply(request):
    done = any(isinstance(m.get("content"), list) and any(b.get("type") == "tool_result" for b in m["content"])
               for m in request.get("messages", []))
    if done or not request.get("tools"):
        content = [{"type": "text", "text": "1 EUR is 1.08 USD."}]
        stop = "end_turn"
    else:
        content = [{"type": "tool_use", "id": "toolu_1", "name": request["tools"][0]["name"],
                    "input": {"base": "EUR"}}]
        stop = "tool_use"
    return {"id": "msg_1", "type": "message", "role": "assistant", "model": request.get("model"),
            "content": content, "stop_reason": stop, "stop_sequence": None,
            "usage": {"input_tokens": 11, "output_tokens": 5}}


def error_body(anthropic, kind, message):
    if anthropic:
        return {"type": "error", "error": {"type": kind, "message": message}}
    return {"error": {"message": message, "type": kind, "code": None}}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go as two writes: no 40 ms delayed-ACK wait

    def log_message(self, *args):
        pass

    def send_json(self, status, value, headers=()):
        data = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, text in headers:
            self.send_header(name, text)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        if self.path == "/last":
            self.send_json(200, LAST)
        elif self.path == "/count":
            self.send_json(200, {"count": COUNT[0]})
        else:
            self.send_json(404, {"error": "not found"})

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        raw = self.rfile.read(length)
        COUNT[0] += 1
        LAST.clear()
        LAST.update({"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()},
                     "body": raw.decode("utf-8", "replace")})
        parts = self.path.strip("/").split("/", 1)
        scenario, rest = parts[0], parts[1] if len(parts) > 1 else ""
        anthropic = rest == "v1/messages"
        if rest not in ("chat/completions", "v1/messages"):
            self.send_json(404, error_body(anthropic, "not_found_error", "no such endpoint: " + self.path))
            return
        request = json.loads(raw or b"{}")
        if scenario in ("agent", "unknowntool", "badargs", "loop") and not anthropic:
            self.send_json(200, loop_reply(scenario, request))
        elif scenario == "ok":
            self.send_json(200, anthropic_reply(request) if anthropic else openai_reply(request))
        elif scenario == "auth":
            key = self.headers.get("x-api-key") if anthropic else self.headers.get("Authorization", "")[7:]
            if key != "good-key":
                self.send_json(401, error_body(anthropic, "authentication_error", "invalid api key"))
            else:
                self.send_json(200, anthropic_reply(request) if anthropic else openai_reply(request))
        elif scenario == "ratelimit":
            self.send_json(429, error_body(anthropic, "rate_limit_error", "slow down"), [("Retry-After", "7")])
        elif scenario == "ratelimithuge":
            self.send_json(429, error_body(anthropic, "rate_limit_error", "slow down"),
                           [("Retry-After", "9223372036854775807")])
        elif scenario == "error500":
            self.send_json(500, error_body(anthropic, "api_error", "internal trouble"))
        elif scenario == "notjson":
            data = b"<html><body>Bad gateway</body></html>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        elif scenario == "notprotocol":
            self.send_json(200, {"hello": "world"})
        elif scenario in ("huge", "hugestream"):
            data = b"[" + b"1," * (1024 * 1024) + b"1]"
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            if scenario == "huge":
                self.send_header("Content-Length", str(len(data)))
            else:
                self.send_header("Connection", "close")
                self.close_connection = True
            self.end_headers()
            try:
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass
        elif scenario == "stall":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b'{"choices": [')
            self.wfile.flush()
            time.sleep(60)
        elif scenario == "echokey":
            key = self.headers.get("x-api-key") if anthropic else self.headers.get("Authorization", "")[7:]
            self.send_json(401, error_body(anthropic, "authentication_error", "x" * 190 + " " + key))
        elif scenario == "gzipbomb":
            if not BOMB:  # one MiB block repeated: after a full flush the same input packs the same
                packer = zlib.compressobj(9, zlib.DEFLATED, 31)
                head = packer.compress(b'{"choices": [{"message": {"content": "') + packer.flush(zlib.Z_FULL_FLUSH)
                block = packer.compress(b" " * (1 << 20)) + packer.flush(zlib.Z_FULL_FLUSH)
                BOMB.append(head + block * 512 + packer.flush())
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(BOMB[0])))
            self.end_headers()
            try:
                self.wfile.write(BOMB[0])
            except (BrokenPipeError, ConnectionResetError):
                pass
        elif scenario == "redirect":
            self.send_response(307)
            self.send_header("Location", "http://127.0.0.2:%d/ok/%s" % (self.server.server_address[1], rest))
            self.send_header("Content-Length", "0")
            self.end_headers()
        else:
            self.send_json(404, error_body(anthropic, "not_found_error", "unknown scenario " + scenario))


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
