# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Serving (toolstudio_worker/serve.py): calls round-tripped over in-memory pipes,
as the studio sends them (the protocol in toolstudio_worker/__init__.py)."""

import json
import os
import shutil
import sys
import tempfile
import textwrap
import threading
import unittest

import workerpath  # noqa: F401  (sys.path)
from toolstudio_worker import inject, serve
from toolstudio_worker.load import Registry

TOOL_FILE = '''\
from toolstudio_tools import NonRetryableError

class Tools:
    def add(self, a: int, b: int = 2) -> int:
        """Adds."""
        print("adding", a, b)
        return a + b

    async def greet(self, name: str, __id__=None, __attempt__=None) -> str:
        """Greets."""
        return f"hello {name} from {__id__}, attempt {__attempt__}"

    def fail(self, permanent: bool = False):
        """Fails."""
        if permanent:
            raise NonRetryableError("quota exceeded")
        raise ValueError("boom")

    def opaque(self):
        """Returns something JSON has no form for."""
        return object()

    def surrogate(self):
        """Returns a string that cannot be encoded as UTF-8."""
        return "\\ud800"
'''


class ServeLoop(unittest.TestCase):
    def setUp(self):
        self.project = tempfile.mkdtemp(prefix="toolstudio-serve-")
        os.mkdir(os.path.join(self.project, "tools"))
        self.tool_path = os.path.join(self.project, "tools", "calc.py")
        with open(self.tool_path, "w", encoding="utf-8") as f:
            f.write(textwrap.dedent(TOOL_FILE))
        inject.install_support_module()
        self.saved = sys.stdout, sys.stderr
        serve.capture_output()
        request_read, request_write = os.pipe()
        reply_read, reply_write = os.pipe()
        self.requests = os.fdopen(request_write, "w", encoding="utf-8")
        self.replies = os.fdopen(reply_read, "r", encoding="utf-8")
        worker_requests = os.fdopen(request_read, "r", encoding="utf-8")
        worker_replies = os.fdopen(reply_write, "w", encoding="utf-8")
        self.worker = threading.Thread(
            target=serve.serve, args=(Registry(self.project), worker_requests, worker_replies), daemon=True)
        self.worker.start()
        self.addCleanup(worker_requests.close)
        self.addCleanup(worker_replies.close)

    def tearDown(self):
        self.requests.close()  # end of input: the loop stops
        self.worker.join()
        self.replies.close()
        sys.stdout, sys.stderr = self.saved
        shutil.rmtree(self.project)

    def call(self, message):
        self.requests.write(json.dumps(message) + "\n")
        self.requests.flush()
        return json.loads(self.replies.readline())

    def invoke(self, tool, args=None, ident=1):
        return self.call({"type": "invoke", "id": ident, "tool": tool, "args": args or {},
                          "idempotency_key": "k", "metadata": {"attempt": 3}, "valves": {}})

    def test_describe(self):
        reply = self.call({"type": "describe", "id": 7})
        self.assertEqual(reply["type"], "described")
        self.assertEqual(reply["id"], 7)
        self.assertEqual([f["file"] for f in reply["files"]], ["tools/calc.py"])
        self.assertEqual([t["name"] for t in reply["files"][0]["tools"]],
                         ["add", "greet", "fail", "opaque", "surrogate"])

    def test_sync_call_round_trip_with_its_output(self):
        self.assertEqual(self.invoke("add", {"a": 40}),
                         {"id": 1, "type": "result", "value": 42, "output": "adding 40 2\n"})

    def test_async_call_gets_injected_parameters(self):
        self.assertEqual(self.invoke("greet", {"name": "Ada"}, ident=2),
                         {"id": 2, "type": "result", "value": "hello Ada from calc, attempt 3", "output": ""})

    def test_exception_becomes_the_error_reply(self):
        traceback = ("Traceback (most recent call last):\n"
                     f'  File "{self.tool_path}", line 17, in fail\n'
                     '    raise ValueError("boom")\n'
                     "ValueError: boom\n")
        self.assertEqual(self.invoke("fail"), {
            "id": 1, "type": "error",
            "error": {"message": "ValueError: boom", "retryable": True, "type": "ValueError",
                      "traceback": traceback},
            "output": traceback,
        })
        permanent = self.invoke("fail", {"permanent": True}, ident=2)["error"]
        self.assertEqual((permanent["message"], permanent["retryable"], permanent["type"]),
                         ("NonRetryableError: quota exceeded", False, "NonRetryableError"))
        self.assertTrue(permanent["traceback"].endswith("\nNonRetryableError: quota exceeded\n"),
                        permanent["traceback"])

    def test_non_json_result_is_a_failure(self):
        self.assertEqual(self.invoke("opaque"), {
            "id": 1, "type": "error",
            "error": {"message": "opaque returned a value of type object has no JSON form; return str, int, float, "
                                 "bool, None, a list or a dict", "retryable": False, "type": "ToolError"},
            "output": "",
        })
        self.assertEqual(self.invoke("surrogate", ident=2), {
            "type": "error", "id": 2, "output": "",
            "error": {"message": "the result has no JSON form: 'utf-8' codec can't encode character '\\ud800' in "
                                 "position 38: surrogates not allowed", "retryable": False, "type": "ValueError"},
        })

    def test_arguments_the_method_does_not_take(self):
        self.assertEqual(self.invoke("add", {"a": 1, "c": 2})["error"],
                         {"message": "unexpected argument(s) 'c' (add takes a, b)", "retryable": False,
                          "type": "InvalidArguments", "code": "invalid_arguments"})
        self.assertEqual(self.invoke("add", {}, ident=2)["error"]["message"], "missing required argument 'a'")
        self.assertEqual(self.invoke("add", {"a": 1, "__user__": {}}, ident=3)["error"]["message"],
                         "'__user__': set by the studio (an injected parameter, docs/python-tools.md); a call "
                         "cannot pass it")

    def test_unknown_tool(self):
        self.assertEqual(self.invoke("nope")["error"],
                         {"message": "no Python tool 'nope' in tools/*.py", "retryable": False, "type": "ToolError"})

    def test_cancel_of_nothing_in_flight_is_confirmed(self):
        self.assertEqual(self.call({"type": "cancel", "id": 9}), {"type": "cancelled", "id": 9})


if __name__ == "__main__":
    unittest.main()
