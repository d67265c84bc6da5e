#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""A fake model server for the tests: speaks OpenAI Chat Completions
(POST /<scenario>/chat/completions) and Anthropic Messages (POST /<scenario>/v1/messages)
on 127.0.0.1, a free port printed as the first line on stdout.

The first path segment picks the behaviour, so one server serves every case:
  ok           a protocol reply: a tool call while the request has no tool result, else text
  nostreamoptions  as ok, but a request with "stream_options" gets 400 (an older server)
  badrequest   400 "max_tokens is too large"
  dated        as ok, the reply naming the model "<the request's model>-2025-06-01"
  oddmodel     as ok, the reply naming the model "\u0007" and 5000 "m"
  stopseq      as ok; Anthropic's reply stopped at the request's first stop sequence
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
  convert      likewise, one get_exchange_rate call (EUR to USD), then "100 EUR is X USD
               (rate R)." from the tool message (the model-agent example's cassette)
  unknowntool  likewise, one call of no_such_tool, then the answer
  badargs      likewise, one get_exchange_rate call whose arguments are "{not json"
  loop         a get_exchange_rate call on every request (a model that never stops)
A request with "stream": true gets a protocol reply as server-sent events (Chat
Completions chunks with content and tool-call arguments in pieces, a usage chunk and
data: [DONE]; Messages events message_start … message_stop with a ping), the same answer
as unstreamed. The stream scenarios (for a streaming client; OpenAI chunks unless the path
is Anthropic's):
  slowstream   "Counting: one, " streamed, 3 s of silence, then "two." and the end
  streamstall  two text events, then nothing for 60 s (a timeout mid-stream)
  streamnoend  two text events and a clean end without the terminator
  streamcut    one text event, then the connection closes mid-event
  streambadevent  one text event, then an event that is not JSON
  streambadutf8   a content event whose text holds a byte that is not UTF-8, its
               two-byte sequence split over two chunks
  streamerror  one text event, then the server's error event
  streamflood  tiny text events without end (until the client stops reading), a
               millisecond between chunks of 64
  streamhugeargs  a tool call whose arguments arrive as one 10 MB delta
  streamlongline  "data: " and 16 MiB of "x" without a line end
  streamlinger a whole text reply, then the body stays open for 60 s (no end after the terminator)
  streamafterflood  a whole text reply, then up to 512 MiB of comment lines as fast as they
               go (bytes after the terminator); GET /flooded answers {"bytes": N}, those sent
  streamjson   a JSON reply whatever the request asked (a server that cannot stream)
  streamliesjson  an event stream labelled application/json
  streamliessse   a JSON reply labelled text/event-stream
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
FLOODED = [0]


def tool_call(call_id, name, arguments):
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}


def loop_reply(scenario, request):
    """The stock loop's scenarios (OpenAI Chat Completions)."""
    results = [m.get("content") or "" for m in request.get("messages", []) if m.get("role") == "tool"]
    if results and scenario == "convert":
        try:
            text = "100 EUR is %.2f USD (rate %s)." % (100 * float(results[0]), results[0])
        except ValueError:
            text = "The rate tool said: " + results[0]
        message = {"role": "assistant", "content": text}
        finish = "stop"
    elif results and scenario != "loop":
        message = {"role": "assistant", "content": "answer: " + " | ".join(results)}
        finish = "stop"
    else:
        calls = {
            "convert": [tool_call("call_rate", "get_exchange_rate", '{"base": "EUR", "quote": "USD"}')],
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


def openai_events(reply):
    """A Chat Completions reply as the chunks of its stream (data lines)."""
    choice = reply["choices"][0]
    message = choice["message"]
    base = {"id": reply["id"], "object": "chat.completion.chunk", "created": 0, "model": reply.get("model")}

    def chunk(delta, finish=None):
        return dict(base, choices=[{"index": 0, "delta": delta, "finish_reason": finish}])

    text = message.get("content")
    events = [chunk({"role": "assistant", "content": "" if text is not None else None})]
    for i in range(0, len(text or ""), 4):
        events.append(chunk({"content": text[i:i + 4]}))
    for n, call in enumerate(message.get("tool_calls") or []):
        events.append(chunk({"tool_calls": [{"index": n, "id": call["id"], "type": "function",
                                             "function": {"name": call["function"]["name"], "arguments": ""}}]}))
        arguments = call["function"]["arguments"]
        for i in range(0, len(arguments), 5):
            events.append(chunk({"tool_calls": [{"index": n, "function": {"arguments": arguments[i:i + 5]}}]}))
    events.append(chunk({}, choice["finish_reason"]))
    events.append(dict(base, choices=[], usage=reply["usage"]))
    return ["data: " + json.dumps(e) for e in events] + ["data: [DONE]"]


def anthropic_events(reply):
    """A Messages reply as the events of its stream."""
    start = dict(reply, content=[], stop_reason=None,
                 usage={"input_tokens": reply["usage"]["input_tokens"], "output_tokens": 1})
    events = [("message_start", {"type": "message_start", "message": start}), ("ping", {"type": "ping"})]
    for i, block in enumerate(reply["content"]):
        if block["type"] == "text":
            events.append(("content_block_start", {"type": "content_block_start", "index": i,
                                                   "content_block": {"type": "text", "text": ""}}))
            for j in range(0, len(block["text"]), 4):
                events.append(("content_block_delta", {"type": "content_block_delta", "index": i,
                                                       "delta": {"type": "text_delta", "text": block["text"][j:j + 4]}}))
        else:
            events.append(("content_block_start", {"type": "content_block_start", "index": i,
                                                   "content_block": dict(block, input={})}))
            text = json.dumps(block["input"])
            for j in range(0, len(text), 5):
                events.append(("content_block_delta", {"type": "content_block_delta", "index": i,
                                                       "delta": {"type": "input_json_delta",
                                                                 "partial_json": text[j:j + 5]}}))
        events.append(("content_block_stop", {"type": "content_block_stop", "index": i}))
    events.append(("message_delta", {"type": "message_delta",
                                     "delta": {"stop_reason": reply["stop_reason"], "stop_sequence": None},
                                     "usage": {"output_tokens": reply["usage"]["output_tokens"]}}))
    events.append(("message_stop", {"type": "message_stop"}))
    return ["event: %s\ndata: %s" % (name, json.dumps(data)) for name, data in events]


def text_events(anthropic, pieces):
    """The opening events of a text reply and one text piece each (no end)."""
    if anthropic:
        events = ["event: message_start\ndata: " + json.dumps(
                      {"type": "message_start", "message": {"id": "msg_s", "type": "message", "role": "assistant",
                                                            "content": [], "model": "fake",
                                                            "usage": {"input_tokens": 3, "output_tokens": 1}}}),
                  "event: content_block_start\ndata: " + json.dumps(
                      {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}})]
        return events + ["event: content_block_delta\ndata: " + json.dumps(
            {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": p}}) for p in pieces]
    return ["data: " + json.dumps({"choices": [{"index": 0, "delta": {"content": p}, "finish_reason": None}]})
            for p in pieces]


def text_end(anthropic, stop="end_turn"):
    """The closing events of a text reply begun by text_events()."""
    if anthropic:
        return ["event: content_block_stop\ndata: " + json.dumps({"type": "content_block_stop", "index": 0}),
                "event: message_delta\ndata: " + json.dumps(
                    {"type": "message_delta", "delta": {"stop_reason": stop}, "usage": {"output_tokens": 4}}),
                "event: message_stop\ndata: " + json.dumps({"type": "message_stop"})]
    return ["data: " + json.dumps({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}),
            "data: " + json.dumps({"choices": [], "usage": {"prompt_tokens": 3, "completion_tokens": 4}}),
            "data: [DONE]"]


def error_body(anthropic, kind, message):
    if anthropic:
        return {"type": "error", "error": {"type": kind, "message": message}}
    return {"error": {"message": message, "type": kind, "code": None}}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body go as two writes: no 40 ms delayed-ACK wait

    def log_message(self, *args):
        pass

    def start_stream(self, content_type="text/event-stream"):
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

    def chunk(self, data):
        self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        self.wfile.flush()

    def send_events(self, events, content_type="text/event-stream", end=True):
        """Each event a chunk of its own; a number in `events` is a pause in seconds."""
        self.start_stream(content_type)
        try:
            for event in events:
                if isinstance(event, (int, float)):
                    time.sleep(event)
                else:
                    self.chunk((event + "\n\n").encode())
            if end:
                self.wfile.write(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def send_json(self, status, value, headers=()):
        if status == 200 and getattr(self, "streaming", False) and ("choices" in value or value.get("type") == "message"):
            self.send_events(anthropic_events(value) if value.get("type") == "message" else openai_events(value))
            return
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
        elif self.path == "/flooded":
            self.send_json(200, {"bytes": FLOODED[0]})
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
        self.streaming = request.get("stream") is True and scenario != "streamjson"
        if scenario.startswith("stream") or scenario == "slowstream":
            self.stream_scenario(scenario, anthropic, request)
        elif scenario in ("agent", "convert", "unknowntool", "badargs", "loop") and not anthropic:
            self.send_json(200, loop_reply(scenario, request))
        elif scenario == "nostreamoptions" and "stream_options" in request:
            self.streaming = False
            self.send_json(400, error_body(anthropic, "invalid_request_error",
                                           "Unrecognized request argument supplied: stream_options"))
        elif scenario == "badrequest":
            self.streaming = False
            self.send_json(400, error_body(anthropic, "invalid_request_error", "max_tokens is too large"))
        elif scenario in ("ok", "nostreamoptions"):
            self.send_json(200, anthropic_reply(request) if anthropic else openai_reply(request))
        elif scenario == "stopseq":
            reply = anthropic_reply(request) if anthropic else openai_reply(request)
            if anthropic:
                reply.update(stop_reason="stop_sequence", stop_sequence=(request.get("stop_sequences") or [None])[0])
            self.send_json(200, reply)
        elif scenario in ("dated", "oddmodel"):
            reply = anthropic_reply(request) if anthropic else openai_reply(request)
            reply["model"] = (str(request.get("model")) + "-2025-06-01" if scenario == "dated"
                              else "\u0007" + "m" * 5000)
            self.send_json(200, reply)
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

    def stream_scenario(self, scenario, anthropic, request):
        if scenario == "slowstream":
            self.send_events(text_events(anthropic, ["Counting: ", "one, "]) + [3]
                             + text_events(anthropic, ["two."])[-1:] + text_end(anthropic))
        elif scenario == "streamstall":
            self.send_events(text_events(anthropic, ["Half ", "an answer"]) + [60])
        elif scenario == "streamlinger":
            self.send_events(text_events(anthropic, ["Whole ", "answer."]) + text_end(anthropic) + [60], end=False)
        elif scenario == "streamafterflood":
            self.send_events(text_events(anthropic, ["Whole ", "answer."]) + text_end(anthropic), end=False)
            line = b": " + b"x" * (1024 * 1024 - 3) + b"\n"
            FLOODED[0] = 0
            try:
                for _ in range(512):
                    self.chunk(line)
                    FLOODED[0] += len(line)
            except (BrokenPipeError, ConnectionResetError):
                pass
            self.close_connection = True
        elif scenario == "streamnoend":
            self.send_events(text_events(anthropic, ["Half ", "an answer"]))
        elif scenario == "streamcut":
            self.start_stream()
            self.chunk((text_events(anthropic, ["Half "])[-1] + "\n\n").encode())
            self.wfile.write(b"40\r\ndata: {\"choices\": [{\"delta\"")  # a chunk and an event cut short
            self.wfile.flush()
            self.close_connection = True
        elif scenario == "streambadevent":
            self.send_events(text_events(anthropic, ["Half "]) + ['data: {"choices": [{"delta": {"content": "x"']
                             + text_end(anthropic))
        elif scenario == "streambadutf8":
            head = (text_events(anthropic, ["ok "])[-1] + "\n\n").encode()
            event = ('data: {"choices": [{"index": 0, "delta": {"content": "caf\u00e9"}}]}' + "\n\n").encode("latin-1")
            cut = event.index(b"\xe9")
            self.start_stream()
            self.chunk(head)
            self.chunk(event[:cut] + b"\xc3")  # the start of a two-byte sequence …
            self.chunk(b"\x28" + event[cut + 1:])  # … and a byte that cannot continue it
            self.wfile.write(b"0\r\n\r\n")
        elif scenario == "streamerror":
            error = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}} if anthropic \
                else {"error": {"message": "the model is overloaded", "type": "server_error"}}
            self.send_events(text_events(anthropic, ["Half "])
                             + [("event: error\n" if anthropic else "") + "data: " + json.dumps(error)])
        elif scenario == "streamflood":
            self.start_stream()
            try:
                self.chunk(("\n\n".join(text_events(anthropic, ["x"])) + "\n\n").encode())
                piece = (text_events(anthropic, ["x"])[-1] + "\n\n").encode() * 64
                while True:  # a breath per chunk: Qt compresses readyRead while bytes keep coming
                    self.chunk(piece)
                    time.sleep(0.001)
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True
        elif scenario == "streamhugeargs":
            arguments = '{"text": "' + "a" * (10 * 1000 * 1000) + '"}'
            self.send_events(["data: " + json.dumps({"choices": [{"index": 0, "delta": {"tool_calls": [
                {"index": 0, "id": "call_1", "type": "function",
                 "function": {"name": "get_rate", "arguments": arguments}}]}}]})] + text_end(False))
        elif scenario == "streamlongline":
            self.start_stream()
            try:
                self.chunk(b"data: ")
                block = b"x" * (1 << 20)
                for _ in range(16):
                    self.chunk(block)
                self.wfile.write(b"0\r\n\r\n")
            except (BrokenPipeError, ConnectionResetError):
                self.close_connection = True
        elif scenario == "streamjson":
            self.send_json(200, anthropic_reply(request) if anthropic else openai_reply(request))
        elif scenario == "streamliesjson":
            self.send_events(text_events(anthropic, ["Half "]) + text_end(anthropic), content_type="application/json")
        elif scenario == "streamliessse":
            self.streaming = False
            data = json.dumps(anthropic_reply(request) if anthropic else openai_reply(request)).encode()
            self.start_stream()
            self.chunk(data)
            self.wfile.write(b"0\r\n\r\n")
        else:
            self.send_json(404, error_body(anthropic, "not_found_error", "unknown scenario " + scenario))


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
