# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Loading: the project's ``tools/*.py`` files, each imported as a module, its
``class Tools`` instantiated and one tool derived per public method. A file that
fails says why in ``ToolFile.error``; it never stops the others."""

from __future__ import annotations

import importlib.util
import os
import re
import sys
import traceback
from typing import Any

from .derive import Unsupported, derive_tool, parse_frontmatter, tool_methods, valves_description

Stamp = tuple[int, int, int]


class ToolFile:
    """One ``tools/*.py`` file: what it says of itself (describe()) and the
    ``Tools`` instance whose methods are called."""

    def __init__(self, project_dir: str, path: str) -> None:
        self.project_dir = project_dir
        self.path = path
        self.relative = os.path.relpath(path, project_dir)
        self.stamp: Stamp | None = None
        self.module: Any = None
        self.instance: Any = None
        self.tools: list[dict[str, Any]] = []  # described tools
        self.methods: dict[str, str] = {}  # tool name -> method name
        self.error: str | None = None
        self.missing_module: str | None = None  # the module a failed import named (ModuleNotFoundError.name)
        self.frontmatter: dict[str, str] = {}
        self.valves: dict[str, Any] | None = None
        self.user_valves: dict[str, Any] | None = None
        self.applied_valves: dict[str, Any] | None = None

    def current_stamp(self) -> Stamp | None:
        try:
            st = os.stat(self.path)
            return (st.st_mtime_ns, st.st_size, st.st_ino)
        except OSError:
            return None

    def load(self) -> None:
        """Imports the file anew; afterwards either `error` says why it failed or
        `instance`, `tools` and `methods` are set."""
        self.stamp = self.current_stamp()
        self.module, self.instance, self.tools, self.methods = None, None, [], {}
        self.error, self.valves, self.user_valves, self.applied_valves = None, None, None, None
        self.missing_module = None
        try:
            with open(self.path, encoding="utf-8") as f:
                source = f.read()
        except OSError as e:
            self.error = f"cannot read: {e.strerror}"
            return
        self.frontmatter = parse_frontmatter(source)
        stem = re.sub(r"\W", "_", os.path.splitext(os.path.basename(self.path))[0])
        module_name = f"toolstudio_tool_{stem}"
        try:
            spec = importlib.util.spec_from_file_location(module_name, self.path)
            module = importlib.util.module_from_spec(spec)
            sys.modules[module_name] = module
            spec.loader.exec_module(module)
        except ModuleNotFoundError as e:
            requirements = self.frontmatter.get("requirements")
            self.missing_module = e.name
            self.error = (f"the module '{e.name}' is not installed for the tool worker's Python "
                          f"({sys.executable}); "
                          + (f"the file's requirements: line says: {requirements}" if requirements
                             else "the file has no requirements: line naming it"))
            return
        except SyntaxError as e:
            self.error = f"syntax error at line {e.lineno}: {e.msg}"
            return
        except BaseException as e:  # a file that raises (or exits) while loading
            self.error = f"loading failed: {type(e).__name__}: {e}\n{traceback.format_exc()}"
            return
        cls = getattr(module, "Tools", None)
        if not isinstance(cls, type):
            self.error = "no class Tools in the file"
            return
        try:
            self.instance = cls()
        except BaseException as e:
            self.error = f"Tools() failed: {type(e).__name__}: {e}\n{traceback.format_exc()}"
            return
        self.module = module
        self.valves = valves_description(cls, "Valves")
        self.user_valves = valves_description(cls, "UserValves")
        for name in tool_methods(cls):
            try:
                tool = derive_tool(name, getattr(cls, name))
            except Unsupported as e:
                tool = {"name": name, "error": str(e)}
            except Exception as e:
                tool = {"name": name, "error": f"{type(e).__name__}: {e}"}
            tool["method"] = name
            self.tools.append(tool)
            if "error" not in tool:
                self.methods[name] = name

    def describe(self) -> dict[str, Any]:
        """The file's entry in a "described" reply (the protocol in __init__.py)."""
        described: dict[str, Any] = {"file": self.relative, "frontmatter": self.frontmatter, "error": self.error,
                                     "valves": self.valves, "user_valves": self.user_valves, "tools": self.tools}
        if self.missing_module:
            described["missing_module"] = self.missing_module
        return described


class Registry:
    """The project's tool files, kept up to date with the folder (refresh())."""

    def __init__(self, project_dir: str) -> None:
        self.project_dir = os.path.abspath(project_dir)
        self.files: dict[str, ToolFile] = {}

    def tool_paths(self) -> list[str]:
        folder = os.path.join(self.project_dir, "tools")
        try:
            names = sorted(n for n in os.listdir(folder) if n.endswith(".py") and not n.startswith("."))
        except OSError:
            return []
        return [os.path.join(folder, n) for n in names]

    def refresh(self) -> None:
        """Loads new files, reloads changed ones, forgets deleted ones."""
        paths = self.tool_paths()
        for path in list(self.files):
            if path not in paths:
                del self.files[path]
        for path in paths:
            entry = self.files.get(path)
            if entry is None:
                entry = self.files[path] = ToolFile(self.project_dir, path)
                entry.load()
            elif entry.current_stamp() != entry.stamp:
                entry.load()

    def describe(self) -> list[dict[str, Any]]:
        self.refresh()
        return [f.describe() for f in self.files.values()]

    def find(self, name: str) -> ToolFile | None:
        """The file whose method is the tool `name` (after a refresh); None if none is."""
        self.refresh()
        for entry in self.files.values():
            if name in entry.methods:
                return entry
        return None
