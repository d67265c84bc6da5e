# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""The entry script (resources/worker/toolworker.py): the Python version check and
the hand-over to the package."""

import ast
import importlib.util
import os
import subprocess
import sys
import tempfile
import unittest

import workerpath

SCRIPT = os.path.join(workerpath.WORKER_DIR, "toolworker.py")
spec = importlib.util.spec_from_file_location("toolworker_entry", SCRIPT)
entry = importlib.util.module_from_spec(spec)
spec.loader.exec_module(entry)


class VersionCheck(unittest.TestCase):
    def test_old_python_is_refused_with_what_to_do(self):
        self.assertEqual(entry.version_problem((3, 9, 18, "final", 0), "/usr/bin/python3"),
                         "toolworker: the tool worker needs Python 3.10 or newer, but /usr/bin/python3 is Python "
                         "3.9.18; install a newer python3 as /usr/bin/python3, or make the project's virtual "
                         "environment with one (python3.12 -m venv PROJECT/.toolstudio/venv), then reopen the "
                         "project\n")

    def test_the_script_parses_on_old_pythons(self):
        """An old Python must reach the check, not stop at a SyntaxError before it."""
        with open(SCRIPT, encoding="utf-8") as f:
            ast.parse(f.read(), feature_version=(3, 4))

    def test_supported_pythons_pass(self):
        for version in ((3, 10, 0), (3, 13, 1), (4, 0, 0), tuple(sys.version_info)):
            self.assertIsNone(entry.version_problem(version, "python3"), version)

    def test_the_script_hands_over_to_the_package(self):
        usage = subprocess.run([sys.executable, "-B", SCRIPT], capture_output=True, text=True, timeout=60)
        self.assertEqual((usage.returncode, usage.stdout, usage.stderr),
                         (2, "", "usage: toolworker.py serve|describe PROJECT_DIR\n"))
        with tempfile.TemporaryDirectory() as project:
            described = subprocess.run([sys.executable, "-B", SCRIPT, "describe", project], capture_output=True,
                                       text=True, timeout=60)
        self.assertEqual((described.returncode, described.stdout, described.stderr),
                         (0, '{"type": "described", "files": []}\n', ""))


if __name__ == "__main__":
    unittest.main()
