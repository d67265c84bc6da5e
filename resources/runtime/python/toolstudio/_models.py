# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Models in the loop (docs/models.md): ``models.NAME.chat(...)`` and the stock loop ``agent``.

    from toolstudio import models, agent

    reply = models.local.chat([{"role": "user", "content": "Hi"}], tools="bound")
    reply.content, reply.tool_calls, reply.usage, reply.stop_reason
    result = agent("100 EUR in USD?", model="local", max_turns=10)
    print(result.text)          # the final answer; result.transcript: every message

Messages are OpenAI Chat Completions' shape (``role``/``content``/``tool_calls``/
``tool_call_id``, plus ``is_error`` on a tool message); the studio converts them for an
Anthropic model.
"""

import json

from . import ToolError, _bridge, _error_of, _invoke, _Pending


class ModelReply(dict):
    """A model's answer: ``{"message", "usage", "stop_reason"}`` (and ``argument_errors``
    when some tool call's arguments are not a JSON object), with attribute access."""

    @property
    def message(self):
        return self.get("message") or {}

    @property
    def content(self):
        return self.message.get("content")

    @property
    def tool_calls(self):
        return self.message.get("tool_calls") or []

    @property
    def usage(self):
        return self.get("usage") or {}

    @property
    def stop_reason(self):
        return self.get("stop_reason")

    @property
    def argument_errors(self):
        return self.get("argument_errors") or {}


def _request(messages, tools):
    if isinstance(tools, (list, tuple)):
        tools = list(tools)
    return {"messages": messages, "tools": tools}


class _Model:
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def chat(self, messages, tools="bound"):
        """Asks the model. ``tools``: "bound" (the tools bound to this script), "none",
        or a list of tool names. Outside a running event loop: blocks and returns a
        ModelReply; inside one: returns an awaitable for it. Fails with ToolError
        (``unknown_model``, ``model_unreachable``, ``rate_limited``, ...)."""
        value = _invoke(self.name, _request(messages, tools), "model")
        if hasattr(value, "__await__"):
            return _await_reply(value)
        return ModelReply(value)

    def __repr__(self):
        return f"<model {self.name}>"


async def _await_reply(future):
    return ModelReply(await future)


class _Models:
    """``models.NAME`` (or ``models["NAME"]``) is the model NAME of toolstudio.json."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Model(name)

    def __getitem__(self, name):
        return _Model(name)


models = _Models()


class AgentResult:
    """What ``agent`` returns: the final ``text``, the whole ``transcript`` (every message
    sent and received), the number of model ``turns`` and the summed ``usage``.
    Unpacks as ``text, transcript = agent(...)``."""

    def __init__(self, text, transcript, turns, usage):
        self.text = text
        self.transcript = transcript
        self.turns = turns
        self.usage = usage

    def __iter__(self):
        return iter((self.text, self.transcript))

    def __repr__(self):
        return f"<AgentResult turns={self.turns} text={self.text!r}>"


def _tool_content(value):
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _run_tool_calls(calls, argument_errors):
    """Runs one turn's tool calls concurrently through the bridge and returns their tool
    messages, in the order the model asked for them, once every call has ended (seed
    004's rule: the model is asked again only then). Errors go back as the provider
    expects (a tool message with ``is_error``), as do unknown tools (the studio refuses
    them) and arguments that are not a JSON object (not sent at all)."""
    bridge = _bridge()
    waiting = []
    for call in calls:
        call_id = call.get("id", "")
        function = call.get("function") or {}
        name = function.get("name", "")
        pending = None
        error = argument_errors.get(call_id)
        if error is None:
            try:
                args = json.loads(function.get("arguments") or "{}")
                if not isinstance(args, dict):
                    raise ValueError(f"they are a JSON {type(args).__name__}, not an object")
            except ValueError as e:
                error = f"arguments are not valid JSON: {e}"
        if error is None:
            pending = _Pending()
            try:
                bridge.send_call(name, args, pending)
            except ToolError as e:
                pending, error = None, f"{e.code}: {e.message}"
        waiting.append((call_id, pending, error))
    messages = []
    for call_id, pending, error in waiting:
        message = {"role": "tool", "tool_call_id": call_id}
        if pending is not None:
            bridge.wait(pending)
            if pending.reply.get("type") == "result":
                message["content"] = _tool_content(pending.reply.get("value"))
                messages.append(message)
                continue
            failure = _error_of(pending.reply)
            error = f"{failure.code}: {failure.message}"
        message["content"] = error
        message["is_error"] = True
        messages.append(message)
    return messages


def agent(prompt, model="local", system=None, max_turns=10, tools="bound", transcript=None):
    """The stock agent loop: asks ``model``; runs the tool calls it asks for through the
    bridge (those of one turn concurrently); gives the results back (errors included);
    asks again once every call of the turn has ended; stops on a final answer. Returns an
    AgentResult. After ``max_turns`` model turns that still call tools, raises ToolError
    ``max_turns_exceeded`` (its ``details["transcript"]`` holds the conversation).

    ``transcript`` continues a conversation (a chat's next user turn): the messages so far
    (e.g. the previous result's ``transcript``, not changed) with ``prompt`` as the next
    user message; ``system`` is for a new conversation (an empty transcript) only."""
    if not isinstance(max_turns, int) or max_turns < 1:
        raise ValueError(f"agent(): max_turns must be a positive integer, not {max_turns!r}")
    if transcript and system:
        raise ValueError("agent(): give system only for a new conversation, not with a transcript")
    transcript = list(transcript or [])
    if system:
        transcript.append({"role": "system", "content": system})
    transcript.append({"role": "user", "content": prompt})
    usage = {"input_tokens": 0, "output_tokens": 0}
    chat = _Model(model).chat
    for turn in range(1, max_turns + 1):
        reply = chat(transcript, tools=tools)
        for key in usage:
            usage[key] += int(reply.usage.get(key, 0))
        message = dict(reply.message)
        transcript.append(message)
        if not reply.tool_calls:
            return AgentResult(message.get("content") or "", transcript, turn, usage)
        transcript.extend(_run_tool_calls(reply.tool_calls, reply.argument_errors))
    raise ToolError(f"the model {model} was still calling tools after {max_turns} turns "
                    f"(agent(..., max_turns={max_turns})); no final answer", code="max_turns_exceeded",
                    details={"transcript": transcript, "usage": usage})
