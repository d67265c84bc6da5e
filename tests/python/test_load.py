# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Loading (toolstudio_worker/load.py): what a project's tools/*.py files say, and the
exact problem text of a file that cannot load."""

import os
import shutil
import sys
import tempfile
import textwrap
import unittest

import workerpath  # noqa: F401  (sys.path)
from toolstudio_worker.load import Registry


class Loading(unittest.TestCase):
    def setUp(self):
        self.project = tempfile.mkdtemp(prefix="toolstudio-load-")
        os.mkdir(os.path.join(self.project, "tools"))

    def tearDown(self):
        shutil.rmtree(self.project)

    def write(self, name, source):
        path = os.path.join(self.project, "tools", name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(textwrap.dedent(source))
        return path

    def described(self, name):
        files = {f["file"]: f for f in Registry(self.project).describe()}
        return files[f"tools/{name}"]

    def test_good_file(self):
        self.write("notes.py", '''\
            """
            title: Notes
            requirements: requests
            """
            class Tools:
                def add(self, text: str) -> str:
                    """Adds a note."""
                    return text
                def _helper(self):
                    pass
            ''')
        self.assertEqual(self.described("notes.py"), {
            "file": "tools/notes.py",
            "frontmatter": {"title": "Notes", "requirements": "requests"},
            "error": None,
            "valves": None,
            "user_valves": None,
            "tools": [{
                "name": "add", "method": "add", "description": "Adds a note.",
                "input_schema": {"type": "object", "properties": {"text": {"type": "string"}},
                                 "required": ["text"], "additionalProperties": False},
                "parameter_order": ["text"],
                "result_schema": {"type": "string"},
            }],
        })

    def test_syntax_error(self):
        self.write("broken.py", "x = = 1\n")
        self.assertEqual(self.described("broken.py")["error"], "syntax error at line 1: invalid syntax")

    def test_missing_module_with_and_without_requirements(self):
        self.write("bare.py", "import ts_absent_module\n")
        self.write("declared.py", '"""\nrequirements: ts-absent-module\n"""\nimport ts_absent_module\n')
        bare = self.described("bare.py")
        self.assertEqual(bare["error"], "the module 'ts_absent_module' is not installed for the tool worker's "
                                        f"Python ({sys.executable}); the file has no requirements: line naming it")
        self.assertEqual(bare["missing_module"], "ts_absent_module")
        self.assertEqual(self.described("declared.py")["error"],
                         "the module 'ts_absent_module' is not installed for the tool worker's Python "
                         f"({sys.executable}); the file's requirements: line says: ts-absent-module")

    def test_no_class_tools(self):
        self.write("empty.py", "X = 1\n")
        self.assertEqual(self.described("empty.py")["error"], "no class Tools in the file")

    def test_raising_while_loading_names_the_exception_and_the_line(self):
        path = self.write("raises.py", 'import os\nraise RuntimeError("no config")\n')
        error = self.described("raises.py")["error"]
        first, traceback = error.split("\n", 1)
        self.assertEqual(first, "loading failed: RuntimeError: no config")
        self.assertTrue(traceback.startswith("Traceback (most recent call last):\n"), traceback)
        self.assertTrue(traceback.endswith(f'  File "{path}", line 2, in <module>\n'
                                           '    raise RuntimeError("no config")\n'
                                           "RuntimeError: no config\n"), traceback)

    def test_tools_constructor_failing(self):
        self.write("ctor.py", '''\
            class Tools:
                def __init__(self):
                    raise ValueError("needs a key")
            ''')
        error = self.described("ctor.py")["error"]
        self.assertEqual(error.split("\n", 1)[0], "Tools() failed: ValueError: needs a key")
        self.assertTrue(error.endswith('    raise ValueError("needs a key")\nValueError: needs a key\n'), error)

    def test_method_that_cannot_be_derived_leaves_the_others(self):
        self.write("mixed.py", '''\
            class Tools:
                def good(self, a: int):
                    """Good."""
                def bad(self, a: set):
                    """Bad."""
                def hint(self, a: "Missing"):
                    """Hint."""
            ''')
        tools = self.described("mixed.py")["tools"]
        self.assertEqual([t["name"] for t in tools], ["good", "bad", "hint"])
        self.assertNotIn("error", tools[0])
        self.assertTrue(tools[1]["error"].startswith("parameter 'a': unsupported type annotation 'set'"))
        self.assertEqual(tools[2], {"name": "hint", "method": "hint",
                                    "error": "cannot read the type hints: NameError: name 'Missing' is not defined"})

    def test_registry_reloads_changed_and_forgets_removed_files(self):
        path = self.write("a.py", 'class Tools:\n    def one(self):\n        """One."""\n')
        registry = Registry(self.project)
        self.assertIsNotNone(registry.find("one"))
        self.write("a.py", 'class Tools:\n    def two(self, x: int):\n        """Two, now longer."""\n')
        self.assertIsNone(registry.find("one"))
        self.assertIsNotNone(registry.find("two"))
        os.remove(path)
        self.assertEqual(registry.describe(), [])


if __name__ == "__main__":
    unittest.main()
