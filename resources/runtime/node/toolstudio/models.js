// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * Models in the loop (docs/models.md): `models.NAME.chat(...)` and the stock loop `agent`,
 * as in the Python shim.
 *
 *     const { models, agent } = require("toolstudio");
 *     const reply = await models.local.chat([{ role: "user", content: "Hi" }], { tools: "bound" });
 *     reply.content, reply.tool_calls, reply.usage, reply.stop_reason
 *     const result = await agent("100 EUR in USD?", { model: "local", maxTurns: 10 });
 *     console.log(result.text);   // the final answer; result.transcript: every message
 *
 * A model call is its own frame on the bridge:
 * {"type":"model","id":"m1","model":"local","request":{"messages":[...],"tools":"bound"}}.
 */
"use strict";

const { ToolError, sendFrame, failureOf } = require("./index");

/** Adds `content` and `tool_calls` (not enumerable: the reply stays its JSON) to a reply. */
function asReply(value) {
  const reply = value !== null && typeof value === "object" ? value : {};
  const message = () => (reply.message !== null && typeof reply.message === "object" ? reply.message : {});
  Object.defineProperty(reply, "content", { get: () => message().content ?? null });
  Object.defineProperty(reply, "tool_calls", { get: () => message().tool_calls || [] });
  return reply;
}

/**
 * Asks model `name`. `options.tools`: "bound" (the tools bound to this script, the
 * default), "none", or an array of tool names. Resolves with the reply ({message, usage,
 * stop_reason, argument_errors?}); rejects with a ToolError (unknown_model,
 * model_unreachable, rate_limited, …).
 */
async function chat(name, messages, options = {}) {
  const tools = options && options.tools !== undefined ? options.tools : "bound";
  const reply = await sendFrame(name, { messages, tools }, "model");
  if (reply.type === "result")
    return asReply(reply.value);
  throw failureOf(reply, chat);
}

/** `models.NAME` (or `models["NAME"]`) is the model NAME of toolstudio.json. */
const models = new Proxy({}, {
  get(target, name) {
    if (typeof name !== "string" || name === "then" || name === "toJSON" || name === "inspect")
      return undefined;
    return { name, chat: (messages, options) => chat(name, messages, options) };
  },
});

function toolContent(value) {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/**
 * Runs one turn's tool calls concurrently through the bridge and resolves with their tool
 * messages, in the order the model asked for them, once every call has ended (seed 004's
 * rule). Errors go back with `is_error`, as do unknown tools (the studio refuses them)
 * and arguments that are not a JSON object (not sent at all).
 */
function runToolCalls(calls, argumentErrors) {
  return Promise.all(calls.map(async (call) => {
    const callId = call && typeof call.id === "string" ? call.id : "";
    const fn = (call && call.function) || {};
    const message = { role: "tool", tool_call_id: callId };
    let error = argumentErrors[callId];
    let args;
    if (error === undefined) {
      try {
        args = JSON.parse(fn.arguments || "{}");
        if (args === null || typeof args !== "object" || Array.isArray(args))
          throw new Error(`they are a JSON ${args === null ? "null" : Array.isArray(args) ? "array" : typeof args}, `
                          + "not an object");
      } catch (e) {
        error = `arguments are not valid JSON: ${e.message}`;
      }
    }
    if (error === undefined) {
      const reply = await sendFrame(typeof fn.name === "string" ? fn.name : "", args, "call");
      if (reply.type === "result") {
        message.content = toolContent(reply.value);
        return message;
      }
      const failure = failureOf(reply, runToolCalls);
      error = `${failure.code}: ${failure.message}`;
    }
    message.content = error;
    message.is_error = true;
    return message;
  }));
}

/**
 * The stock agent loop: asks `options.model` (default "local"); runs the tool calls it
 * asks for through the bridge (those of one turn concurrently); gives the results back
 * (errors included); asks again once every call of the turn has ended; stops on a final
 * answer. Resolves with {text, transcript, turns, usage}. After `options.maxTurns`
 * (default 10) model turns that still call tools, rejects with ToolError
 * `max_turns_exceeded` (its `details.transcript` holds the conversation).
 * `options.transcript` continues a conversation (a chat's next user turn): the messages
 * so far (not changed) with `prompt` as the next user message; `system` is for a new
 * conversation (an empty transcript) only.
 */
async function agent(prompt, options = {}) {
  const { model = "local", system = null, maxTurns = 10, tools = "bound", transcript: earlier = null } = options || {};
  if (!Number.isInteger(maxTurns) || maxTurns < 1)
    throw new TypeError(`agent(): maxTurns must be a positive integer, not ${JSON.stringify(maxTurns)}`);
  if (earlier && earlier.length && system)
    throw new TypeError("agent(): give system only for a new conversation, not with a transcript");
  const transcript = [...(earlier || [])];
  if (system)
    transcript.push({ role: "system", content: system });
  transcript.push({ role: "user", content: prompt });
  const usage = { input_tokens: 0, output_tokens: 0 };
  for (let turn = 1; turn <= maxTurns; ++turn) {
    const reply = await chat(model, transcript, { tools });
    for (const key of Object.keys(usage))
      usage[key] += Number.parseInt((reply.usage || {})[key] || 0, 10) || 0;
    const message = { ...reply.message };
    transcript.push(message);
    if (reply.tool_calls.length === 0)
      return { text: message.content || "", transcript, turns: turn, usage };
    transcript.push(...await runToolCalls(reply.tool_calls, reply.argument_errors || {}));
  }
  throw new ToolError(`the model ${model} was still calling tools after ${maxTurns} turns `
                      + `(agent(..., {maxTurns: ${maxTurns}})); no final answer`,
                      "max_turns_exceeded", false, 0, { transcript, usage });
}

module.exports = { models, agent };
