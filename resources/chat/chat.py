# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""Tool Studio's chat (docs/models.md "Chat"): a conversation with a model over the
project's tools, run like any agent script, so every model turn and tool call is a step.

The studio owns this script (it writes it to .toolstudio/chat/chat.py). Each user message
is the answer to a call of the manual tool ``chat:message`` (a name no project tool can
have): its arguments are ``{"turn": N, "reply": the previous turn's answer or null}``
(plus ``"error"`` when that turn failed), its answer ``{"message": "..."}`` — the first
one also names the ``model`` (a later one may switch it) and may give a ``system`` prompt;
an error for an answer ends the chat (the run completes). A waiting chat is a run
waiting for a person, so it survives a restart (suspended, then resumed) like any other.
"""

import toolstudio
from toolstudio import ToolError, _DECLARED

INPUT = "chat:message"
# The model sees the project's tools, not the chat's own input.
TOOLS = [name for name in _DECLARED if name != INPUT] or "none"


def main():
    transcript = []
    model = None
    reply = None
    error = None
    turn = 0
    while True:
        turn += 1
        args = {"turn": turn, "reply": reply}
        if error is not None:
            args["error"] = error
        try:
            answer = toolstudio.tools.call(INPUT, args)
        except ToolError as e:
            if e.code == "tool_failed":
                return  # the person ended the chat: an error for an answer
            if e.code == "request_too_large" and reply is not None:
                # A reply over limits.request_bytes cannot ride on the input call; the
                # conversation keeps it (the model step's result shows it in the trace).
                turn -= 1
                reply, error = None, (f"the model's reply is {len(reply)} characters, more than a call may carry "
                                      "(limits.request_bytes): see the model step's result in the trace, or ask "
                                      "for a shorter answer")
                continue
            # Refused by the run (its call budget, a stop): the chat fails, it did not end.
            raise SystemExit(f"the chat cannot ask for the next message: {e}") from None
        model = answer.get("model") or model  # a message may switch the model
        if model is None:
            reply, error = None, 'no model chosen: the first answer names one ({"message": ..., "model": NAME})'
            continue
        try:
            result = toolstudio.agent(answer["message"], model=model, tools=TOOLS, transcript=transcript,
                                      system=None if transcript else answer.get("system"))
        except ToolError as e:
            # The turn failed (the model unreachable, max_turns, ...): the conversation is
            # left as it was, so the person may send the message again.
            reply, error = None, str(e)
            continue
        transcript = result.transcript
        reply, error = result.text, None


main()
