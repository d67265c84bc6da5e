#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""`mcpclientbench.py TOOLSTUDIO SERVERS_DIR [ROUNDS [PEER]]`: the MCP client's tools/call (issue 21).

ROUNDS calls of the reference server's `echo` tool (`@modelcontextprotocol/server-everything`,
installed under SERVERS_DIR/node_modules by ./toolstudio.sh test), one at a time, from an
agent script run by `toolstudio run` — each call crossing the tools bridge and running as a
durable, journaled step on the server's stdio session — against a minimal single-threaded
stdio client in Python sending the same `tools/call` to the same server (node, same entry
point, same arguments). The script and the client time their own loops; the two alternate
REPEATS times and the medians are compared. Prints one table row; goal: at most 1.3x.

With PEER (toolstudio-bench-peer, tests/benchmarks/limitpeer.cpp), a third measure
alternates with the two: the machine's limit for the studio's own I/O — the same agent
script and shim, unsandboxed, whose bridge calls the peer relays one at a time to the same
server (one thread, blocking reads and writes, no JSON library, no journal); the row then
also gives the studio's distance from it. Plain Python, no packages.
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from mcpstdiobench import Peer

ENTRY = "node_modules/@modelcontextprotocol/server-everything/dist/index.js"
MESSAGE = "hello from the benchmark"
REPEATS = 5

SCRIPT = """
import json, time
from toolstudio import tools

for i in range({warmup}):
    tools.everything__echo(message={message!r})
start = time.perf_counter()
for i in range({rounds}):
    tools.everything__echo(message={message!r})
print("BENCH " + json.dumps({{"micros": (time.perf_counter() - start) * 1e6 / {rounds}}}))
"""


def call(i):
    return {"jsonrpc": "2.0", "id": i, "method": "tools/call",
            "params": {"name": "echo", "arguments": {"message": MESSAGE}}}


def exchange(server, message):
    """Sends a request and returns its response, skipping the server's notifications."""
    server.send(message)
    while True:
        line = server.process.stdout.readline()
        if not line:
            sys.exit("the server closed stdout after %s" % message)
        reply = json.loads(line)
        if reply.get("id") == message["id"] and "method" not in reply:
            return reply


def bare_client(project, work, warmup, rounds):
    """Mean microseconds per tools/call of a minimal client on the server's stdio."""
    os.chdir(project)  # the entry point as the studio starts it: relative to the project
    server = Peer(["node", ENTRY], os.path.join(work, "server.log"))
    exchange(server, {"jsonrpc": "2.0", "id": 0, "method": "initialize",
                      "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                 "clientInfo": {"name": "mcpclientbench", "version": "1"}}})
    server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    for i in range(1, 1 + warmup):
        exchange(server, call(i))
    start = time.perf_counter()
    for i in range(1 + warmup, 1 + warmup + rounds):
        reply = exchange(server, call(i))
        if "result" not in reply:
            sys.exit("the server answered %s to tools/call %d" % (reply, i))
    micros = (time.perf_counter() - start) * 1e6 / rounds
    server.close()
    return micros


def peer_run(peer, project, work):
    """Mean microseconds per call as the agent script timed them, relayed by PEER."""
    runtime = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "resources", "runtime")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "TOOLSTUDIO_BRIDGE_FD": "3",
           "PYTHONPATH": os.path.normpath(os.path.join(runtime, "python"))}
    with open(os.path.join(work, "peer-server.log"), "wb") as stderr:
        run = subprocess.run([peer, "--relay", "node", ENTRY, "--", sys.executable,
                              os.path.join(project, "scripts", "bench.py")],
                             cwd=project, env=env, stdout=subprocess.PIPE, stderr=stderr, text=True, timeout=600)
    lines = [l for l in run.stdout.splitlines() if l.startswith("BENCH ")]
    if run.returncode != 0 or not lines:
        with open(os.path.join(work, "peer-server.log"), errors="replace") as log:
            sys.exit("toolstudio-bench-peer --relay failed (exit %d):\n%s\n%s"
                     % (run.returncode, run.stdout[-3000:], log.read()[-3000:]))
    return json.loads(lines[0][len("BENCH "):])["micros"]


def studio_run(toolstudio, project, env):
    """Mean microseconds per call as the agent script timed them in `toolstudio run`."""
    run = subprocess.run([toolstudio, "run", "--trust", project, "bench"], env=env,
                         capture_output=True, text=True, timeout=600)
    lines = [l for l in run.stdout.splitlines() if l.startswith("BENCH ")]
    if run.returncode != 0 or not lines:
        sys.exit("toolstudio run failed (exit %d):\n%s\n%s" % (run.returncode, run.stdout[-3000:],
                                                              run.stderr[-3000:]))
    return json.loads(lines[0][len("BENCH "):])["micros"]


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: mcpclientbench.py TOOLSTUDIO SERVERS_DIR [ROUNDS [PEER]]")
    toolstudio = os.path.abspath(sys.argv[1])
    modules = os.path.join(sys.argv[2], "node_modules")
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 200
    peer = os.path.abspath(sys.argv[4]) if len(sys.argv) > 4 else None
    warmup = 20
    if not os.path.exists(os.path.join(sys.argv[2], ENTRY)):
        sys.exit("the MCP reference server is not in %s: ./toolstudio.sh test installs it" % modules)
    with tempfile.TemporaryDirectory() as work:
        project = os.path.join(work, "project")
        os.makedirs(os.path.join(project, "scripts"))
        shutil.copytree(modules, os.path.join(project, "node_modules"), symlinks=True)
        with open(os.path.join(project, "toolstudio.json"), "w") as f:
            json.dump({"name": "mcpclientbench", "limits": {"max_calls": warmup + rounds + 10},
                       "mcp_servers": {"everything": {"command": "node", "args": [ENTRY]}},
                       "scripts": [{"name": "bench", "path": "scripts/bench.py"}]}, f)
        with open(os.path.join(project, "scripts", "bench.py"), "w") as f:
            f.write(SCRIPT.format(warmup=warmup, rounds=rounds, message=MESSAGE))
        env = dict(os.environ, XDG_CONFIG_HOME=os.path.join(work, "config"))
        # Alternated, medians of REPEATS: the server's own time moves with the machine's load.
        studio, bare, relayed = [], [], []
        for _ in range(REPEATS):
            studio.append(studio_run(toolstudio, project, env))
            bare.append(bare_client(project, work, warmup, rounds))
            os.chdir(work)
            if peer:
                relayed.append(peer_run(peer, project, work))
        studio_micros = statistics.median(studio)
        bare_micros = statistics.median(bare)

    ratio = studio_micros / bare_micros
    limit = ""
    if peer:
        peer_micros = statistics.median(relayed)
        limit = (" same script relayed by toolstudio-bench-peer %.0f us: the studio is %.1fx the limit |"
                 % (peer_micros, studio_micros / peer_micros))
    print("| MCP client tools/call (server-everything echo over stdio, %d rounds, medians of %d) | "
          "agent script through the studio, journaled %.0f us | bare Python stdio client %.0f us | "
          "ratio %.1fx (goal <= 1.3x: %s) |%s"
          % (rounds, REPEATS, studio_micros, bare_micros, ratio, "met" if ratio <= 1.3 else "missed", limit))


if __name__ == "__main__":
    main()
