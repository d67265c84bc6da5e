# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Tool Studio's Python shim: call the studio's tools from an agent script.

    from toolstudio import tools, ToolError

    rate = tools.get_exchange_rate(base="USD", quote="EUR")        # blocks, returns the value
    customer = await tools.getCustomer("cus_1")                      # inside an event loop
    image = tools["get-tiny-image"]()                                # any tool name
    image = tools.call("get-tiny-image", {"size": 2})                # the same, arguments as a dict

A tool name may hold '-' and '.' (MCP's rule); such a name is not a Python identifier,
so it is reached only through ``tools["NAME"]`` or ``tools.call("NAME", {...})``, and
only identifier names become global functions (``_install_globals``). A tool called
``call`` is ``tools["call"](...)``: ``tools.call`` is the generic form.

Each call is one line of JSON on the bridge (fd $TOOLSTUDIO_BRIDGE_FD, normally 3):
``{"type":"call","id":"c1","tool":"NAME","args":{...}}``; the studio answers with
``{"type":"result","id":"c1","value":...}`` or ``{"type":"error","id":"c1","error":{...}}``.
Replies are matched by id, so several calls may be in flight at once
(``asyncio.gather``). A reply naming an id with no call in flight (unknown, or
answered already) is a protocol error: every pending and later call raises ToolError
with code ``protocol_error``. A failed call raises ToolError with ``code``,
``message`` and ``retryable``. Arguments over the request cap (``TOOLSTUDIO_REQUEST_BYTES``,
set by the studio) raise ``request_too_large`` here, before anything is sent.

Models (docs/models.md): ``models.local.chat(messages, tools="bound")`` asks the model
``local`` of toolstudio.json; the studio makes the request on the trusted side and
journals it as a step of kind ``model``. The frame is its own kind:
``{"type":"model","id":"m1","model":"local","request":{"messages":[...],"tools":"bound"}}``,
answered like a call. ``agent(prompt, model=...)`` is the stock loop over the bound tools.
"""

import asyncio
import itertools
import json
import os
import sys
import threading

__all__ = ["tools", "ToolError", "models", "agent", "AgentResult"]


class ToolError(Exception):
    """A tool call that failed: ``code`` is one of the bridge's error codes
    (``unknown_tool``, ``invalid_arguments``, ``timeout``, ``tool_failed``, ...)."""

    def __init__(self, message, code="tool_failed", retryable=False, attempts=0, details=None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.retryable = retryable
        self.attempts = attempts
        self.details = details or {}

    def __str__(self):
        return f"{self.code}: {self.message}"


# A traceback names it "ToolError", as the script knows it (a builtin, see _install_globals),
# not "toolstudio.ToolError".
ToolError.__module__ = "builtins"


def _load_declared():
    """Tool names bound to this script and their parameter order (written by the studio)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_tools.json")
    try:
        with open(path, encoding="utf-8") as f:
            declared = json.load(f)
    except (OSError, ValueError):
        return {}
    return {name: list(params) for name, params in declared.items()}


class _Pending:
    __slots__ = ("event", "loop", "future", "reply")

    def __init__(self, loop=None, future=None):
        self.event = None if future else threading.Event()
        self.loop = loop
        self.future = future
        self.reply = None


class _Bridge:
    """The script's end of the bridge: one writer lock; replies read by one thread at a
    time. A thread blocked in a call reads them itself while no other thread reads
    (no thread hop per call); once calls of other threads or of an event loop are still
    in flight when it has its own reply, a reader thread takes over for good."""

    def __init__(self, fd):
        self._fd = fd
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._pending = {}
        self._closed_reason = None
        self._reader = None
        self._reading = False  # a thread reads the bridge (a blocked caller or the reader thread)
        self._buffer = b""  # bytes read after the last whole line, kept for the next reader
        self._blocked = 0  # threads blocked in a call
        self._idle_checks = set()  # event loops with an idle check scheduled

    def _start_reader_locked(self):
        """With the lock held and no thread reading: the reader thread reads from now on."""
        self._reading = True
        self._reader = threading.Thread(target=self._read_until, args=(None,), name="toolstudio-bridge",
                                        daemon=True)
        self._reader.start()

    def _read_until(self, pending):
        """Reads and dispatches replies until ``pending`` has its reply (None: until the
        bridge closes). Only the thread that holds the reading role calls this."""
        while pending is None or pending.reply is None:
            try:
                chunk = os.read(self._fd, 65536)
            except InterruptedError:
                continue
            except OSError as e:
                self._close(f"the bridge failed: {e}")
                return
            if not chunk:
                self._close("the studio closed the bridge")
                return
            if b"\n" not in chunk:
                self._buffer += chunk
                continue
            *lines, self._buffer = (self._buffer + chunk).split(b"\n")
            for line in lines:
                if line:
                    self._dispatch(line)
                if self._closed_reason is not None:
                    return

    def _dispatch(self, line):
        try:
            message = json.loads(line.decode("utf-8"))
            call_id = message["id"]
            if message.get("type") not in ("result", "error") or not isinstance(call_id, str):
                raise TypeError
        except (ValueError, KeyError, TypeError, AttributeError):
            self._close("the studio sent a line that is not a reply")
            return
        with self._lock:
            pending = self._pending.pop(call_id, None)
        if pending is None:
            # Unknown, or answered already: the two ends disagree about the calls in
            # flight, so no later reply can be trusted either.
            self._close(f"the studio sent a reply for call id {call_id!r}, which has no call "
                        "in flight (unknown or answered already)")
            return
        self._complete(pending, message)

    def _complete(self, pending, message):
        pending.reply = message
        if pending.future is not None:
            pending.loop.call_soon_threadsafe(self._settled, pending.loop, pending.future, message)
        else:
            pending.event.set()

    def _close(self, reason):
        with self._lock:
            self._closed_reason = reason
            pending = list(self._pending.values())
            self._pending.clear()
        for p in pending:
            self._complete(p, {"type": "error", "error": {"code": "protocol_error", "message": reason}})

    def send_wait(self):
        """The wait hint: ``{"type":"wait"}`` tells the studio this script is blocked until
        a reply to one of its calls arrives, so a served session answers its client at
        once (docs/bridge.md "The wait hint"). Sent only when every thread but the
        reader is blocked in a call, or the event loop has nothing else to run."""
        with self._lock:
            if self._closed_reason is not None:
                return
            try:
                os.write(self._fd, b'{"type":"wait"}\n')
            except OSError:
                pass  # the next call reports a failed bridge

    def block(self, pending):
        """Waits for ``pending``, a call sent with ``blocking=True``."""
        try:
            self.wait(pending)
        finally:
            with self._lock:
                self._blocked -= 1

    def wait(self, pending):
        """Waits for the reply to ``pending`` (not an event loop's call), reading the
        replies itself when no other thread reads them."""
        with self._lock:
            inline = not self._reading and pending.reply is None
            self._reading = self._reading or inline
        if inline:
            try:
                self._read_until(pending)
            finally:
                with self._lock:
                    self._reading = False
                    if self._pending and self._closed_reason is None:
                        self._start_reader_locked()  # other calls still wait for replies
        pending.event.wait()

    def hint_when_idle(self, loop):
        """Inside an event loop: sends the wait hint once the loop has nothing left to
        run but the calls' futures (no ready callback, no timer) and the script has no
        other thread. One check per loop is scheduled at a time."""
        if loop in self._idle_checks:
            return
        self._idle_checks.add(loop)
        loop.call_soon(self._idle_check, loop)

    def _settled(self, loop, future, message):
        """On the loop's thread: settles ``future``; if calls of this loop still wait (the
        client answered only some of them), the loop may be idle again: hint again."""
        _settle_future(future, message)
        with self._lock:
            waiting = any(p.loop is loop for p in self._pending.values())
        if waiting:
            self.hint_when_idle(loop)

    def _idle_check(self, loop):
        if getattr(loop, "_ready", None):
            loop.call_soon(self._idle_check, loop)  # other callbacks run first
            return
        self._idle_checks.discard(loop)
        if getattr(loop, "_ready", None) is None or getattr(loop, "_scheduled", True):
            return  # not CPython's loop, or a timer may still make a call: no hint
        if threading.active_count() - (self._reader is not None) <= 1:
            self.send_wait()

    def send_call(self, tool, args, pending, kind="call", blocking=False):
        """Sends one call. ``blocking``: the caller waits for it next with block(); the
        wait hint then goes in the same write when no other thread of the script can
        still make a call."""
        with self._lock:
            if self._closed_reason is not None:
                raise ToolError(self._closed_reason, code="protocol_error")
            call_id = f"{'m' if kind == 'model' else 'c'}{next(self._ids)}"
            self._pending[call_id] = pending
            if pending.future is not None and not self._reading:
                self._start_reader_locked()  # an event loop cannot block to read
        try:
            # The id (and tool) before the arguments: a line the studio cannot read whole
            # is still answered by its id.
            encoded = _dumps(args).encode("utf-8")
            if kind == "model":
                payload = b''.join((b'{"type":"model","id":"', call_id.encode(), b'","model":',
                                    _dumps(tool).encode("utf-8"), b',"request":', encoded, b'}\n'))
            else:
                payload = b''.join((b'{"type":"call","id":"', call_id.encode(), b'","tool":',
                                    _dumps(tool).encode("utf-8"), b',"args":', encoded, b'}\n'))
        except (TypeError, ValueError, UnicodeEncodeError) as e:
            with self._lock:
                self._pending.pop(call_id, None)
            raise ToolError(f"arguments of {tool} cannot be sent as JSON: {e}",
                            code="invalid_arguments") from None
        if kind == "model" and _MODEL_REQUEST_BYTES is not None and len(encoded) > _MODEL_REQUEST_BYTES:
            with self._lock:
                self._pending.pop(call_id, None)
            raise ToolError(f"the request to model {tool} is {len(encoded)} bytes; the limit is "
                            f"{_MODEL_REQUEST_BYTES} bytes (limits.model_request_bytes)", code="request_too_large")
        if kind != "model" and _REQUEST_BYTES is not None and len(encoded) > _REQUEST_BYTES:
            # Refused here, as the studio would (same size, same words), without sending it.
            with self._lock:
                self._pending.pop(call_id, None)
            raise ToolError(f"arguments of {tool} are {len(encoded)} bytes; the request limit is "
                            f"{_REQUEST_BYTES} bytes (limits.request_bytes)", code="request_too_large")
        with self._lock:
            if blocking:
                self._blocked += 1
                # The reader thread, once started, never calls.
                if self._blocked >= threading.active_count() - (self._reader is not None):
                    payload += b'{"type":"wait"}\n'
            view = memoryview(payload)
            while view:
                try:
                    written = os.write(self._fd, view)
                except InterruptedError:
                    continue
                except OSError as e:
                    self._pending.pop(call_id, None)
                    if blocking:
                        self._blocked -= 1
                    raise ToolError(f"the bridge failed: {e}", code="protocol_error") from None
                view = view[written:]
        return call_id


def _error_of(message):
    """The ToolError for an ``error`` reply (built, not raised: no shim frame in it)."""
    error = message.get("error") or {}
    details = {k: v for k, v in error.items() if k not in ("code", "message", "retryable", "attempts")}
    return ToolError(error.get("message", "the tool call failed"),
                     code=error.get("code", "tool_failed"),
                     retryable=bool(error.get("retryable", False)),
                     attempts=int(error.get("attempts", 0)),
                     details=details)


def _settle_future(future, message):
    if future.done():
        return
    if message.get("type") == "result":
        future.set_result(message.get("value"))
    else:
        future.set_exception(_error_of(message))


_DECLARED = _load_declared()
_BRIDGE = None
_BRIDGE_LOCK = threading.Lock()  # one bridge, however many threads make the first call
# Compact JSON with the UTF-8 text as is: the bytes the studio's request cap counts.
_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode


def _request_bytes(variable="TOOLSTUDIO_REQUEST_BYTES"):
    """The request cap (limits.request_bytes, limits.model_request_bytes) the studio passes."""
    try:
        value = int(os.environ.get(variable, ""))
    except ValueError:
        return None
    return value if value > 0 else None


_REQUEST_BYTES = _request_bytes()
_MODEL_REQUEST_BYTES = _request_bytes("TOOLSTUDIO_MODEL_REQUEST_BYTES")


def _bridge():
    global _BRIDGE
    with _BRIDGE_LOCK:
        if _BRIDGE is None:
            fd = os.environ.get("TOOLSTUDIO_BRIDGE_FD")
            if fd is None:
                raise ToolError("no tools bridge: run this script from Tool Studio", code="protocol_error")
            _BRIDGE = _Bridge(int(fd))
        return _BRIDGE


def _build_args(tool, args, kwargs):
    if not args:
        return dict(kwargs)
    order = _DECLARED.get(tool)
    if not kwargs or order is None:
        # Positional only (or an undeclared tool): the studio maps them by the schema's order.
        return list(args) if not kwargs else dict(kwargs)
    if len(args) > len(order):
        raise TypeError(f"{tool}() takes {len(order)} arguments but {len(args)} were given")
    mapped = dict(zip(order, args))
    for key, value in kwargs.items():
        if key in mapped:
            raise TypeError(f"{tool}() got multiple values for argument '{key}'")
        mapped[key] = value
    return mapped


def call_tool(tool, /, *args, **kwargs):
    """Calls ``tool``. Outside a running event loop: blocks and returns the value.
    Inside one: returns an awaitable (an asyncio Future) for the value."""
    return _invoke(tool, _build_args(tool, args, kwargs), "call")


def _invoke(name, payload, kind):
    """Sends one call or model frame: blocks for the value outside a running event loop,
    returns an awaitable inside one."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        loop = None
    bridge = _bridge()
    if loop is not None:
        future = loop.create_future()
        bridge.send_call(name, payload, _Pending(loop, future), kind)
        bridge.hint_when_idle(loop)
        return future
    pending = _Pending()
    bridge.send_call(name, payload, pending, kind, blocking=True)
    bridge.block(pending)
    if pending.reply.get("type") == "result":
        return pending.reply.get("value")
    raise _error_of(pending.reply)


_SHIM_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep
_ASYNCIO_DIR = os.path.dirname(os.path.abspath(asyncio.__file__)) + os.sep


def _user_frames(tb):
    """``tb`` without the shim's own frames, and without the asyncio frames at its end
    (the Future that an ``await`` re-raised from): what is left ends at the script's line
    that called the tool. Returns ``tb`` unchanged if nothing would be left."""
    kept = []
    while tb is not None:
        if not tb.tb_frame.f_code.co_filename.startswith(_SHIM_DIR):
            kept.append(tb)
        tb = tb.tb_next
    while kept and kept[-1].tb_frame.f_code.co_filename.startswith(_ASYNCIO_DIR):
        kept.pop()
    if not kept:
        return None
    for outer, inner in zip(kept, kept[1:]):
        outer.tb_next = inner
    kept[-1].tb_next = None
    return kept[0]


def _hide_shim_frames(value):
    """Strips the shim's frames from a ToolError's traceback (and from ToolErrors it was
    raised from or during), so an uncaught failed call shows the script's own frames and
    then ``ToolError: code: message``."""
    seen = set()
    while isinstance(value, BaseException) and id(value) not in seen:
        seen.add(id(value))
        if isinstance(value, ToolError) and value.__traceback__ is not None:
            stripped = _user_frames(value.__traceback__)
            if stripped is not None:
                value.__traceback__ = stripped
        value = value.__cause__ or value.__context__


def _excepthook(exc_type, value, tb):
    if isinstance(value, ToolError):
        _hide_shim_frames(value)
        tb = value.__traceback__
    _previous_excepthook(exc_type, value, tb)


def _thread_excepthook(args):
    if isinstance(args.exc_value, ToolError):
        _hide_shim_frames(args.exc_value)
        args = threading.ExceptHookArgs([args.exc_type, args.exc_value, args.exc_value.__traceback__, args.thread])
    _previous_thread_excepthook(args)


_previous_excepthook = sys.excepthook
_previous_thread_excepthook = threading.excepthook
sys.excepthook = _excepthook
threading.excepthook = _thread_excepthook


class _ToolFunction:
    __slots__ = ("__name__", "__qualname__", "__doc__")

    def __init__(self, name):
        self.__name__ = name
        self.__qualname__ = name
        self.__doc__ = f"Calls the tool {name} through Tool Studio."

    def __call__(self, *args, **kwargs):
        return call_tool(self.__name__, *args, **kwargs)

    def __repr__(self):
        return f"<tool {self.__name__}>"


class _Tools:
    """``tools.NAME(...)`` calls the tool NAME; ``tools["NAME"]`` works for any name."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _ToolFunction(name)

    def __getitem__(self, name):
        return _ToolFunction(name)

    def call(self, name, args=None, /):
        """Calls the tool ``name`` with the arguments ``args`` (a dict: keyword arguments,
        a list: positional ones; None: no arguments). Works for any tool name."""
        if args is None:
            return call_tool(name)
        if isinstance(args, dict):
            return call_tool(name, **args)
        if isinstance(args, (list, tuple)):
            return call_tool(name, *args)
        raise TypeError(f"tools.call({name!r}, args): args must be a dict, a list or None, "
                        f"not {type(args).__name__}")

    def __dir__(self):
        return sorted(_DECLARED)

    def __repr__(self):
        return f"<tools: {', '.join(sorted(_DECLARED)) or 'none declared'}>"


tools = _Tools()


def _install_globals():
    """Makes every declared tool whose name is a Python identifier (not a keyword) a
    builtin, so a plain script can call ``get_exchange_rate(...)`` without an import. A
    name the script defines wins. ``get-tiny-image`` is ``tools["get-tiny-image"]``."""
    import builtins
    import keyword

    for name in _DECLARED:
        if not name.isidentifier() or keyword.iskeyword(name):
            continue
        if not hasattr(builtins, name):
            setattr(builtins, name, _ToolFunction(name))
    if not hasattr(builtins, "ToolError"):
        builtins.ToolError = ToolError


from ._models import AgentResult, agent, models  # noqa: E402  (needs the bridge above)
