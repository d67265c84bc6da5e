# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Tool Studio's trusted tool worker (DESIGN.md "Tools and the project").

Runs outside the sandbox, started by the studio in the project folder through the
entry script beside this package (Python 3.10 or newer, which it checks):

    python3 toolworker.py serve PROJECT_DIR      NDJSON on stdin/stdout (below)
    python3 toolworker.py describe PROJECT_DIR   one "described" line, then exit

It loads every ``tools/*.py`` file (load.py), derives one tool per public method of
its ``class Tools`` (derive.py; Open WebUI convention: schema from type hints +
docstring), and runs methods on request (serve.py) with the parameters, valves and
stand-ins Open WebUI tool files expect (inject.py). Schema derivation uses the
standard library only; pydantic is needed only by tool files that use it (Valves,
model parameters). Open WebUI and FastAPI imports get stand-ins (openwebui_compat.py,
placed beside the entry script).

Protocol (one JSON object per line, UTF-8):

  studio -> worker
    {"type":"describe","id":ID}
    {"type":"invoke","id":ID,"tool":NAME,"args":{...},"idempotency_key":KEY,
     "metadata":{"run_id":..,"call_id":..,"attempt":N},
     "valves":{"tools/FILE.py":{"Valves":{...},"UserValves":{...}},...}}
       (the project's whole valve store; the entry of the method's file applies)
    {"type":"cancel","id":ID}
  worker -> studio
    {"type":"described","id":ID,"files":[FILE...]}
       FILE: {"file","frontmatter","error","valves","user_valves","tools"}, plus
       "missing_module":NAME when the file failed to import a module that is not installed
       TOOL: {"name","method","description","input_schema","parameter_order"[,
       "result_schema"][,"warnings":[TEXT...]]} or {"name","method","error"}
    {"type":"result","id":ID,"value":JSON,"output":TEXT}
    {"type":"error","id":ID,"error":{"message":..,"retryable":bool,"type":..,
     "traceback":..[,"code":"invalid_arguments"]},"output":TEXT}
    {"type":"cancelled","id":ID}
       the cancelled attempt has stopped: at once for an async method, when its thread
       ends for a sync one (a thread cannot be stopped; the studio restarts the worker
       when this does not come in time)
"""

from __future__ import annotations

import os
import sys

from . import inject, serve
from .load import Registry


def main(argv: list[str]) -> int:
    """`toolworker.py serve|describe PROJECT_DIR`; the exit status."""
    if len(argv) != 3 or argv[1] not in ("serve", "describe"):
        sys.stderr.write("usage: toolworker.py serve|describe PROJECT_DIR\n")
        return 2
    project_dir = os.path.abspath(argv[2])
    sys.dont_write_bytecode = True  # loading never writes into the project folder
    os.chdir(project_dir)
    inject.install_support_module()
    inject.install_open_webui_stand_ins()
    protocol = serve.protocol_channel()
    if argv[1] == "describe":
        serve.capture_output(stderr_too=False)
        serve.describe_once(Registry(project_dir), protocol)
        return 0
    serve.capture_output()
    serve.serve(Registry(project_dir), sys.stdin, protocol)
    return 0
