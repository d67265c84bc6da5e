# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The script shim (resources/runtime/python/toolstudio): its bridge is made once,
however many threads make their first tool call at the same time."""

import json
import os
import socket
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


if __name__ == "__main__":
    unittest.main()
