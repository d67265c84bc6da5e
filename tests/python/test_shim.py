# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The script shim (resources/runtime/python/toolstudio): its bridge is made once,
however many threads make their first tool call at the same time; and its wait hint
(docs/bridge.md "The wait hint") comes once the script is blocked on its calls."""

import asyncio

import json
import os
import socket
import subprocess
import sys
import threading
import time
import unittest

import workerpath  # noqa: F401  (sys.path)
import toolstudio

THREADS = 8


class LazyBridge(unittest.TestCase):
    def setUp(self):
        self.studio, script = socket.socketpair()
        self.addCleanup(self.studio.close)
        self.addCleanup(script.close)
        self.saved = os.environ.get("TOOLSTUDIO_BRIDGE_FD"), toolstudio._BRIDGE, toolstudio._Bridge
        os.environ["TOOLSTUDIO_BRIDGE_FD"] = str(script.fileno())
        toolstudio._BRIDGE = None

    def tearDown(self):
        fd, toolstudio._BRIDGE, toolstudio._Bridge = self.saved
        if fd is None:
            os.environ.pop("TOOLSTUDIO_BRIDGE_FD", None)
        else:
            os.environ["TOOLSTUDIO_BRIDGE_FD"] = fd

    def in_threads(self, work):
        start = threading.Barrier(THREADS)
        results = [None] * THREADS

        def run(i):
            start.wait()
            results[i] = work(i)

        threads = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return results

    def test_first_calls_from_many_threads_share_one_bridge(self):
        made = []
        real = toolstudio._Bridge

        class SlowBridge(real):
            def __init__(self, fd):
                made.append(fd)
                time.sleep(0.05)  # widens the window between the check and the assignment
                super().__init__(fd)

        toolstudio._Bridge = SlowBridge
        bridges = self.in_threads(lambda i: toolstudio._bridge())
        self.assertEqual(len(made), 1)
        self.assertEqual(len({id(b) for b in bridges}), 1)

    def test_concurrent_first_calls_get_distinct_ids_and_their_own_replies(self):
        seen = []

        def studio():
            buffer = b""
            while len(seen) < THREADS:
                buffer += self.studio.recv(65536)
                *lines, buffer = buffer.split(b"\n")
                for line in lines:
                    call = json.loads(line)
                    seen.append(call["id"])
                    reply = {"type": "result", "id": call["id"], "value": call["args"]["n"] * 10}
                    self.studio.sendall(json.dumps(reply).encode() + b"\n")

        answering = threading.Thread(target=studio)
        answering.start()
        values = self.in_threads(lambda i: toolstudio.tools.times_ten(n=i))
        answering.join()
        self.assertEqual(values, [i * 10 for i in range(THREADS)])
        self.assertEqual(sorted(seen), sorted(f"c{i}" for i in range(1, THREADS + 1)))


    def run_script(self, code, count_calls):
        """Runs `code` in a child Python with the shim and the bridge (a thread of this
        process would count as one of the script's), answering each call with its
        n * 10 once `count_calls` calls and the wait hint after them came. Returns the
        lines' types in order and the script's stdout."""
        script = socket.fromfd(int(os.environ["TOOLSTUDIO_BRIDGE_FD"]), socket.AF_UNIX, socket.SOCK_STREAM)
        self.addCleanup(script.close)
        env = dict(os.environ, TOOLSTUDIO_BRIDGE_FD=str(script.fileno()),
                   PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(toolstudio.__file__))))
        child = subprocess.Popen([sys.executable, "-c", "from toolstudio import tools\n" + code], env=env,
                                 pass_fds=[script.fileno()], stdout=subprocess.PIPE)
        self.addCleanup(child.kill)
        self.studio.settimeout(30)
        kinds = []
        calls = []
        buffer = b""
        while len(calls) < count_calls or kinds[-1:] != ["wait"]:
            chunk = self.studio.recv(65536)
            if not chunk:
                break
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                message = json.loads(line)
                kinds.append(message["type"])
                if message["type"] == "call":
                    calls.append(message)
        for call in calls:
            reply = {"type": "result", "id": call["id"], "value": call["args"]["n"] * 10}
            self.studio.sendall(json.dumps(reply).encode() + b"\n")
        out, _ = child.communicate(timeout=30)
        return kinds, out.decode()

    def test_a_blocking_call_is_followed_by_the_wait_hint(self):
        kinds, out = self.run_script("print(tools.times_ten(n=4))", 1)
        self.assertEqual(kinds, ["call", "wait"])
        self.assertEqual(out, "40\n")

    def test_calls_gathered_in_an_event_loop_are_all_sent_before_one_wait_hint(self):
        code = """import asyncio
async def one(n):
    await asyncio.sleep(0)  # a task that does something before its call
    return await tools.times_ten(n=n)
async def main():
    return await asyncio.gather(one(1), one(2), one(3))
print(asyncio.run(main()))
"""
        kinds, out = self.run_script(code, 3)
        self.assertEqual(kinds, ["call", "call", "call", "wait"])
        self.assertEqual(out, "[10, 20, 30]\n")

if __name__ == "__main__":
    unittest.main()
