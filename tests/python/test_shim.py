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


    def answer_calls(self, count, order=None, pause=0.0):
        """Reads `count` calls (and any wait hints) from the studio's end and answers
        each with its n * 10, in the order `order` gives (a key of the call's n), with
        `pause` seconds between replies. Returns the lines' types in order."""
        kinds, calls, buffer = [], [], b""
        self.studio.settimeout(30)
        while len(calls) < count:
            buffer += self.studio.recv(65536)
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                message = json.loads(line)
                kinds.append(message["type"])
                if message["type"] == "call":
                    calls.append(message)
        for call in sorted(calls, key=lambda c: order(c["args"]["n"])) if order else calls:
            reply = {"type": "result", "id": call["id"], "value": call["args"]["n"] * 10}
            self.studio.sendall(json.dumps(reply).encode() + b"\n")
            time.sleep(pause)
        return kinds

    def test_sequential_calls_are_read_by_the_calling_thread(self):
        def studio():
            for _ in range(50):
                self.kinds += self.answer_calls(1)

        self.kinds = []
        answering = threading.Thread(target=studio)
        answering.start()
        values = [toolstudio.tools.times_ten(n=i) for i in range(50)]
        answering.join()
        self.assertEqual(values, [i * 10 for i in range(50)])
        # No wait hint: the answering thread counts as one of the script's.
        self.assertEqual(self.kinds, ["call"] * 50)
        self.assertIsNone(toolstudio._BRIDGE._reader)  # no thread hop per call

    def test_a_call_still_in_flight_is_answered_after_the_reading_caller_has_its_reply(self):
        # Either thread may read the bridge first; the other's reply comes 0.2 s later,
        # after the first has returned: someone must still read it.
        for first in (1, 2):
            with self.subTest(first=first):
                answering = threading.Thread(
                    target=lambda: self.answer_calls(2, order=lambda n: n != first, pause=0.2))
                answering.start()
                values = [None, None]

                def call(i):
                    values[i - 1] = toolstudio.tools.times_ten(n=i)

                threads = [threading.Thread(target=call, args=(i,)) for i in (1, 2)]
                for t in threads:
                    t.start()
                for t in threads:
                    t.join(30)
                answering.join()
                self.assertEqual(values, [10, 20])

    def test_no_wait_hint_while_another_thread_of_the_script_runs(self):
        code = """import threading
go = threading.Event()
worker = threading.Thread(target=go.wait)
worker.start()
print(tools.times_ten(n=7))
go.set()
worker.join()
print(tools.times_ten(n=8))
"""
        kinds, out = self.run_script(code, 2, answer_each=True)
        # The first call is made while the worker thread could still call: no hint.
        self.assertEqual(kinds, ["call", "call", "wait"])
        self.assertEqual(out, "70\n80\n")

    def run_script(self, code, count_calls, answer_each=False):
        """Runs `code` in a child Python with the shim and the bridge (a thread of this
        process would count as one of the script's), answering each call with its
        n * 10 once `count_calls` calls and the wait hint after them came (`answer_each`:
        each call at once, as it comes). Returns the lines' types in order and the
        script's stdout."""
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
                    if answer_each:
                        reply = {"type": "result", "id": message["id"], "value": message["args"]["n"] * 10}
                        self.studio.sendall(json.dumps(reply).encode() + b"\n")
        for call in [] if answer_each else calls:
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
