#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""`mcpstdiobench.py TOOLSTUDIO [ROUNDS]`: the MCP server's stdio round trip (issue 22).

ROUNDS `tools/call` requests of a mock tool, one at a time, through `toolstudio serve
--mcp-stdio PROJECT --trust` (each call a durable step of the session's run), against a
minimal stdio JSON-RPC peer in Python that parses each request and answers it with the
studio's recorded reply to that id: the same lines and sizes, no engine, no journal. Prints one
table row; goal: at most 2x. Plain Python, no packages.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

# Reads the studio's reply lines from the file named by argv[1], then answers each
# request line on stdin with the recorded reply to the same id (the studio's bytes as
# they were), or the next one for an id it has not seen.
ECHO_PEER = r"""
import json, sys
lines = open(sys.argv[1], "rb").read().splitlines(keepends=True)
by_id = {json.loads(line)["id"]: line for line in lines}
out = sys.stdout.buffer
k = 0
for line in sys.stdin.buffer:
    request = json.loads(line)
    if "id" not in request:
        continue
    out.write(by_id.get(request["id"], lines[k % len(lines)]))
    out.flush()
    k += 1
"""

TOOL = {
    "name": "rate",
    "description": "Exchange rate between two currencies",
    "input_schema": {
        "type": "object",
        "properties": {"base": {"type": "string"}, "quote": {"type": "string"}},
        "required": ["base", "quote"],
    },
    "handler": {"kind": "mock", "sequence": [{"result": {"rate": 0.92, "ok": True}}]},
}


class Peer:
    """A child speaking one JSON-RPC message per line on stdin/stdout."""

    def __init__(self, argv, log, env=None):
        self.log = log
        with open(log, "wb") as stderr:
            self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=stderr, env=env, bufsize=0)

    def send(self, message):
        self.process.stdin.write((json.dumps(message) + "\n").encode())

    def request(self, message):
        self.send(message)
        line = self.process.stdout.readline()
        if not line:
            with open(self.log, errors="replace") as log:
                sys.exit("the peer closed stdout after %s; its stderr:\n%s" % (message, log.read()[-2000:]))
        return line

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=30)


def call(i):
    return {"jsonrpc": "2.0", "id": i, "method": "tools/call",
            "params": {"name": "rate", "arguments": {"base": "EUR", "quote": "USD"}}}


def time_calls(peer, first, rounds):
    """Mean microseconds per tools/call round trip, and the reply lines."""
    lines = []
    start = time.perf_counter()
    for i in range(first, first + rounds):
        lines.append(peer.request(call(i)))
    micros = (time.perf_counter() - start) * 1e6 / rounds
    return micros, lines


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: mcpstdiobench.py TOOLSTUDIO [ROUNDS]  (TOOLSTUDIO: the built app binary)")
    toolstudio = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    warmup = 20
    with tempfile.TemporaryDirectory() as work:
        project = os.path.join(work, "project")
        os.mkdir(project)
        with open(os.path.join(project, "toolstudio.json"), "w") as f:
            json.dump({"name": "mcpbench", "limits": {"max_calls": warmup + rounds + 10}, "tools": [TOOL]}, f)
        env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(work, "config"))

        studio = Peer([toolstudio, "serve", "--mcp-stdio", project, "--trust"],
                      os.path.join(work, "studio.log"), env)
        studio.request({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                   "clientInfo": {"name": "mcpstdiobench", "version": "1"}}})
        studio.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        time_calls(studio, 1, warmup)  # warm up: the run, the journal, caches
        studio_micros, lines = time_calls(studio, 1 + warmup, rounds)
        studio.close()
        replies = [json.loads(line) for line in lines]
        if any(r.get("result", {}).get("isError") is not False for r in replies):
            sys.exit("a tools/call failed: %s" % lines[0].decode())

        with open(os.path.join(work, "replies.jsonl"), "wb") as f:
            f.write(b"".join(lines))
        echo = Peer([sys.executable, "-c", ECHO_PEER, os.path.join(work, "replies.jsonl")],
                    os.path.join(work, "echo.log"))
        time_calls(echo, 1, warmup)
        echo_micros, echo_lines = time_calls(echo, 1 + warmup, rounds)
        echo.close()
        if echo_lines != lines:
            sys.exit("the echo peer's replies differ from the studio's")

    request_bytes = len(json.dumps(call(1 + warmup))) + 1
    reply_bytes = sum(len(l) for l in lines) // len(lines)
    ratio = studio_micros / echo_micros
    print("| MCP stdio tools/call round trip (mock tool, %d rounds, %d-byte request, %d-byte reply) | "
          "toolstudio serve --mcp-stdio %.0f us | bare Python stdio JSON-RPC echo %.0f us | "
          "ratio %.1fx (goal <= 2x: %s) |"
          % (rounds, request_bytes, reply_bytes, studio_micros, echo_micros, ratio,
             "met" if ratio <= 2 else "missed"))


if __name__ == "__main__":
    main()
