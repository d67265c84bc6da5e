# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Serving: the request loop of the protocol (__init__.py) and one attempt of a
method (invoke()). Sync methods run in a thread, async ones on the loop, so calls
in flight overlap; what a method prints is its attempt's output."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import dataclasses
import enum
import inspect
import io
import json
import os
import sys
import threading
import traceback
import types
import typing
from collections.abc import Iterable
from typing import Any, TextIO

from . import inject
from .derive import NONE_TYPE, is_pydantic_model, parameter_default, to_json_value
from .load import Registry

Reply = dict[str, Any]

MAX_OUTPUT = 1024 * 1024
# Frames of the worker's own files are left out of a tool's traceback (_tool_traceback).
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))

_capture: contextvars.ContextVar[io.StringIO | None] = contextvars.ContextVar("toolstudio_capture", default=None)
_threads: dict[Any, concurrent.futures.Future[Any]] = {}  # attempt id -> its sync method's thread
_executor = concurrent.futures.ThreadPoolExecutor(thread_name_prefix="tool")


class _Output(io.TextIOBase):
    """sys.stdout/sys.stderr of the worker: text goes to the current attempt's
    buffer; outside an attempt to the real stderr (the protocol owns stdout)."""

    def __init__(self, fallback: TextIO) -> None:
        self.fallback = fallback

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        buffer = _capture.get()
        if buffer is None:
            self.fallback.write(text)
            self.fallback.flush()
        elif buffer.tell() < MAX_OUTPUT:
            buffer.write(text)
        return len(text)

    def flush(self) -> None:
        pass

    @property
    def buffer(self) -> _BinaryOutput:  # type: ignore[override]
        """``sys.stdout.buffer.write(b"...")``: bytes go where text goes, read as UTF-8."""
        return _BinaryOutput(self)


class _BinaryOutput(io.RawIOBase):
    def __init__(self, text: _Output) -> None:
        self.text = text

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        data = bytes(data)
        self.text.write(data.decode("utf-8", "replace"))
        return len(data)


def capture_output(stderr_too: bool = True) -> None:
    """Points sys.stdout (and sys.stderr) at the attempts' output (_Output), the
    real stderr outside an attempt."""
    sys.stdout = _Output(sys.__stderr__)
    if stderr_too:
        sys.stderr = _Output(sys.__stderr__)


def protocol_channel() -> TextIO:
    """The worker's own channel to the studio: a private duplicate of fd 1. fd 1 itself
    then points at stderr, so what a tool writes to it past sys.stdout (``os.write(1,
    ...)``, a C extension, a subprocess it starts) lands in the worker's stderr instead
    of corrupting the protocol. The duplicate is not inherited by subprocesses."""
    sys.stdout.flush()
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8", errors="strict")
    os.dup2(2, 1)
    return channel


# --- replies ---------------------------------------------------------------------------

def error_reply(message: str, retryable: bool, kind: str = "ToolError", tb: str | None = None) -> Reply:
    error: dict[str, Any] = {"message": message, "retryable": bool(retryable), "type": kind}
    if tb:
        error["traceback"] = tb
    return {"type": "error", "error": error}


def invalid_reply(message: str) -> Reply:
    """The call's arguments do not fit the method: invalid_arguments, not retried."""
    reply = error_reply(message, False, "InvalidArguments")
    reply["error"]["code"] = "invalid_arguments"
    return reply


def error_chain(exc: BaseException | None, limit: int = 8,
                max_chars: int = 2000) -> tuple[list[BaseException], str]:
    """The exception, then each one it was raised from or during (__cause__, else
    __context__ unless suppressed), as (exceptions, message): "A: x; caused by B: y"."""
    chain: list[BaseException] = []
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen and len(chain) < limit:
        seen.add(id(exc))
        chain.append(exc)
        exc = exc.__cause__ if exc.__cause__ is not None else (
            None if exc.__suppress_context__ else exc.__context__)
    parts = [f"{type(e).__name__}: {e}" for e in chain]
    text = "; caused by ".join(parts)
    if exc is not None and id(exc) not in seen:
        text += "; caused by …"
    if len(text) > max_chars:
        text = text[:max_chars - 1] + "…"
    return chain, text


def _tool_traceback(exc: BaseException) -> str:
    """The traceback from the tool file's frames on (the worker's and asyncio's own
    frames are left out: they are the same for every call), after those of the
    exceptions it was raised from or during (error_chain), as Python prints them."""
    sections: list[str] = []
    chain = error_chain(exc)[0]
    for i, e in enumerate(reversed(chain)):
        frames = [f for f in traceback.extract_tb(e.__traceback__)
                  if os.path.dirname(f.filename) != _PACKAGE_DIR and "/asyncio/" not in f.filename
                  and "/concurrent/futures/" not in f.filename]
        if i:
            sections.append("\nThe above exception was the direct cause of the following exception:\n\n"
                            if e.__cause__ is not None else
                            "\nDuring handling of the above exception, another exception occurred:\n\n")
        sections.append("Traceback (most recent call last):\n" + "".join(traceback.format_list(frames))
                        + "".join(traceback.format_exception_only(type(e), e)))
    return "".join(sections)


# --- one attempt -------------------------------------------------------------------------

def _convert_argument(annotation: Any, value: Any) -> Any:
    """Enum values become members, model/dataclass objects become instances."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType) and NONE_TYPE in args:
        rest = [a for a in args if a is not NONE_TYPE]
        if value is None or len(rest) != 1:
            return value
        annotation = rest[0]
    if not isinstance(annotation, type):
        return value
    if issubclass(annotation, enum.Enum):
        return annotation(value)
    if is_pydantic_model(annotation) and isinstance(value, dict):
        return annotation.model_validate(value) if hasattr(annotation, "model_validate") else annotation(**value)
    if dataclasses.is_dataclass(annotation) and isinstance(value, dict):
        return annotation(**value)
    return value


async def invoke(registry: Registry, message: dict[str, Any]) -> Reply:
    """Runs one attempt; returns the reply (result or error) without id and output."""
    name = message.get("tool", "")
    entry = registry.find(name)
    if entry is None:
        for f in registry.files.values():
            for tool in f.tools:
                if tool.get("name") == name and "error" in tool:
                    return error_reply(f"{f.relative}: tool '{name}' failed to load: {tool['error']}", False)
        return error_reply(f"no Python tool '{name}' in tools/*.py", False)
    method = getattr(entry.instance, entry.methods[name])
    valves = inject.file_valves(message, entry.relative)
    try:
        inject.apply_valves(entry, valves)
    except Exception as e:
        return error_reply(f"the valves of {entry.relative} are invalid: {type(e).__name__}: {e}", False)

    signature = inspect.signature(method)
    try:
        hints = typing.get_type_hints(method)
    except Exception:
        hints = {}
    args = dict(message.get("args") or {})
    forged = inject.forged_arguments(args)
    if forged:
        return invalid_reply(f"{', '.join(repr(k) for k in forged)}: set by the studio (an injected parameter, "
                             "docs/python-tools.md); a call cannot pass it")
    try:
        user = inject.user_of(entry, valves)
    except Exception as e:
        return error_reply(f"the user valves of {entry.relative} are invalid: {type(e).__name__}: {e}", False)
    injected = inject.injected_parameters(entry, message, user)

    kwargs: dict[str, Any] = {}
    named = [p for p in signature.parameters.values() if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    takes_any = any(p.kind == p.VAR_KEYWORD for p in signature.parameters.values())
    unexpected = sorted(set(args) - {p.name for p in named})
    if unexpected and not takes_any:
        taken = ", ".join(p.name for p in named if not p.name.startswith("__")) or "no arguments"
        return invalid_reply(f"unexpected argument(s) {', '.join(repr(k) for k in unexpected)} ({name} takes {taken})")
    for param in named:
        if param.name.startswith("__"):
            if param.name in injected:
                kwargs[param.name] = injected[param.name]
            elif param.default is inspect.Parameter.empty:
                kwargs[param.name] = None
            continue
        is_required, default, factory, _ = parameter_default(param)
        given = param.name in args
        value = args.pop(param.name, None)
        if value is None and not is_required:
            # Left out, or null (OpenAI strict mode's "left out"): the real default,
            # never a pydantic FieldInfo.
            try:
                kwargs[param.name] = factory() if factory is not None else default
            except Exception as e:
                return error_reply(f"the default_factory of '{param.name}' failed: {type(e).__name__}: {e}", False)
        elif not given:
            return invalid_reply(f"missing required argument '{param.name}'")
        else:
            try:
                kwargs[param.name] = _convert_argument(hints.get(param.name), value)
            except Exception as e:
                return invalid_reply(f"argument '{param.name}': {type(e).__name__}: {e}")
    kwargs.update(args)  # what is left: the **kwargs of a method that takes them
    try:
        signature.bind(**kwargs)
    except TypeError as e:
        return error_reply(f"{name}: {e}", False)

    try:
        if inspect.iscoroutinefunction(method):
            value = await method(**kwargs)
        else:
            context = contextvars.copy_context()
            future = _executor.submit(context.run, lambda: method(**kwargs))
            _threads[message.get("id")] = future
            future.add_done_callback(lambda _: _threads.pop(message.get("id"), None))
            value = await asyncio.wrap_future(future)
            if inspect.isawaitable(value):
                value = await value
    except asyncio.CancelledError:
        raise
    except BaseException as e:  # SystemExit and KeyboardInterrupt from a tool fail the call only
        tb = _tool_traceback(e)
        # Not retried when anything in the chain says so (`raise X from NonRetryableError(..)`).
        chain, text = error_chain(e)
        retryable = all(getattr(c, "retryable", True) is not False for c in chain)
        return error_reply(text, retryable, type(e).__name__, tb)
    try:
        return {"type": "result", "value": to_json_value(value)}
    except TypeError as e:
        return error_reply(f"{name} returned {e}; return str, int, float, bool, None, a list or a dict", False)
    except Exception as e:  # a list holding itself (RecursionError), a stand-in's model_dump, ...
        return error_reply(f"{name} returned a value that has no JSON form ({type(e).__name__}: {e}); return "
                           "str, int, float, bool, None, a list or a dict", False)


# --- the loops ---------------------------------------------------------------------------

def serve(registry: Registry, requests: Iterable[str], replies: TextIO) -> None:
    """Answers the request lines of `requests` (stdin) on `replies` (the protocol
    channel) until `requests` ends or a "shutdown" comes. Output capture is the
    caller's (capture_output())."""
    lock = threading.Lock()
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    tasks: dict[Any, asyncio.Task[None]] = {}

    def send(obj: Reply) -> None:
        line = json.dumps(obj, ensure_ascii=False, allow_nan=False) + "\n"
        with lock:
            replies.write(line)
            replies.flush()

    async def run_invoke(message: dict[str, Any]) -> None:
        buffer = io.StringIO()
        _capture.set(buffer)
        try:
            reply = await invoke(registry, message)
        except asyncio.CancelledError:
            return
        except Exception as e:  # never no reply: the call would wait for its timeout
            reply = error_reply(f"the tool worker could not report the call's outcome: {type(e).__name__}", False)
        finally:
            tasks.pop(message.get("id"), None)
        # "id" first: a reply the studio refuses unread (nested too deep) still names its call.
        reply = {"id": message.get("id"), **reply}
        output = buffer.getvalue()
        if reply["type"] == "error" and reply["error"].get("traceback"):
            output += reply["error"]["traceback"]
        # A lone surrogate the tool printed would make the reply unsendable: "?" instead.
        output = output.encode("utf-8", "replace").decode("utf-8")
        reply["output"] = output
        try:
            send(reply)
        except ValueError as e:  # a lone surrogate (UnicodeEncodeError) in the value or the message
            send({"type": "error", "id": message.get("id"), "output": output,
                  "error": {"message": f"the result has no JSON form: {e}", "retryable": False, "type": "ValueError"}})

    def handle(line: str) -> None:
        try:
            message = json.loads(line)
        except ValueError as e:
            sys.__stderr__.write(f"toolworker: malformed request: {e}\n")
            return
        kind = message.get("type")
        if kind == "describe":
            send({"type": "described", "id": message.get("id"), "files": registry.describe()})
        elif kind == "invoke":
            tasks[message.get("id")] = loop.create_task(run_invoke(message))
        elif kind == "cancel":
            ident = message.get("id")
            task = tasks.pop(ident, None)
            if task:
                task.cancel()
            thread = _threads.get(ident)
            stopped = {"type": "cancelled", "id": ident}
            if thread is not None and not thread.done():
                # Confirmed when the method returns; the studio restarts the worker first
                # if that takes longer than its grace period.
                thread.add_done_callback(lambda _: _call_soon(loop, send, stopped))
            else:
                send(stopped)
        elif kind == "shutdown":
            loop.stop()

    def reader() -> None:
        for line in requests:
            if line.strip():
                loop.call_soon_threadsafe(handle, line)
        loop.call_soon_threadsafe(loop.stop)

    threading.Thread(target=reader, daemon=True).start()
    try:
        loop.run_forever()
    finally:
        loop.close()  # a sync method's thread that ends later finds it closed (_call_soon)


def _call_soon(loop: asyncio.AbstractEventLoop, callback: typing.Callable[..., Any], *args: Any) -> None:
    """`callback` on `loop` from another thread; nothing once the loop is closed."""
    try:
        loop.call_soon_threadsafe(callback, *args)
    except RuntimeError:  # closed: the worker is shutting down
        pass


def describe_once(registry: Registry, replies: TextIO) -> None:
    """The one "described" line of `toolworker.py describe` (no id)."""
    replies.write(json.dumps({"type": "described", "files": registry.describe()}, ensure_ascii=False) + "\n")
    replies.flush()
