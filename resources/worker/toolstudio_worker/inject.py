# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Injection: what the worker puts into the tool files' world. The
``toolstudio_tools`` module (NonRetryableError), the Open WebUI and FastAPI
stand-ins (openwebui_compat.py, beside the entry script), the valves, and the
Open WebUI parameters a method may name (``__user__``, ``__event_emitter__``, ...)."""

from __future__ import annotations

import json
import os
import sys
import types
from typing import TYPE_CHECKING, Any

from .derive import to_json_value

if TYPE_CHECKING:
    from .load import ToolFile


class NonRetryableError(Exception):
    """Raise this (or any exception with ``retryable = False``) from a tool method
    to fail the call without retries. Importable in tool files as
    ``from toolstudio_tools import NonRetryableError``."""

    retryable = False


# A traceback prints it bare, "NonRetryableError: ...", as tool files know it.
NonRetryableError.__module__ = "__main__"


def install_support_module() -> None:
    """Makes ``import toolstudio_tools`` work in tool files."""
    module = types.ModuleType("toolstudio_tools")
    module.NonRetryableError = NonRetryableError  # type: ignore[attr-defined]
    module.__doc__ = "Helpers for tool files run by Tool Studio's tool worker."
    sys.modules["toolstudio_tools"] = module


def install_open_webui_stand_ins() -> None:
    """Open WebUI and FastAPI stand-ins, last on the import path (openwebui_compat.py,
    which the studio places beside the entry script)."""
    try:
        import openwebui_compat
        openwebui_compat.install()
    except ImportError:
        sys.stderr.write("toolworker: openwebui_compat.py is missing; Open WebUI imports will fail\n")


def file_valves(message: dict[str, Any], relative: str) -> dict[str, Any]:
    """The valve store's entry of the file `relative` ({"Valves", "UserValves"}) in an
    invoke message; {} when there is none."""
    all_valves = message.get("valves") or {}
    valves = all_valves.get(relative) if isinstance(all_valves, dict) else None
    return valves if isinstance(valves, dict) else {}


def apply_valves(entry: ToolFile, valves: dict[str, Any]) -> None:
    """Sets ``self.valves`` of the file's Tools instance when its Valves changed;
    raises what the Valves model raises for invalid values."""
    cls = type(entry.instance)
    wanted = (valves or {}).get("Valves") or {}
    if entry.applied_valves == wanted or not isinstance(getattr(cls, "Valves", None), type):
        return
    entry.instance.valves = cls.Valves(**wanted)
    entry.applied_valves = wanted


def forged_arguments(args: dict[str, Any]) -> list[str]:
    """The arguments a call may not pass: injected parameters come from the studio only."""
    return sorted(k for k in args if k.startswith("__"))


def user_of(entry: ToolFile, valves: dict[str, Any]) -> dict[str, Any]:
    """``__user__``: Tool Studio as the user, with the file's UserValves when it has
    them; raises what the UserValves model raises for invalid values."""
    user_valves_cls = getattr(type(entry.instance), "UserValves", None)
    user: dict[str, Any] = {"id": "toolstudio", "name": "Tool Studio", "role": "user"}
    if isinstance(user_valves_cls, type):
        user["valves"] = user_valves_cls(**(valves.get("UserValves") or {}))
    return user


async def _event_emitter(event: Any) -> None:
    print(f"[event] {json.dumps(to_json_value(event))}")


async def _event_call(event: Any) -> None:
    print(f"[event call] {json.dumps(to_json_value(event))}")
    return None


def injected_parameters(entry: ToolFile, message: dict[str, Any], user: dict[str, Any]) -> dict[str, Any]:
    """The values of the injected parameters (docs/python-tools.md) for one invoke;
    a method gets those it names, None for another ``__x__`` without a default."""
    metadata = dict(message.get("metadata") or {})
    return {
        "__idempotency_key__": message.get("idempotency_key", ""),
        "__user__": user,
        "__event_emitter__": _event_emitter,
        "__event_call__": _event_call,
        "__metadata__": metadata,
        "__id__": os.path.splitext(os.path.basename(entry.path))[0],
        "__attempt__": metadata.get("attempt", 1),
    }
