// SPDX-FileCopyrightText: 2026 Tool Studio authors
// SPDX-License-Identifier: GPL-3.0-or-later
/**
 * Tool Studio's JavaScript (Node) shim: call the studio's tools from an agent script.
 *
 *     const { tools, ToolError } = require("toolstudio");   // or require("inngest_tools")
 *     const customer = await tools.getCustomer("cus_1");      // positional: schema order
 *     const rate = await tools.get_exchange_rate({ base: "USD", quote: "EUR" });
 *     const [a, b] = await Promise.all([tools.slow(), tools.slow()]);
 *
 * Every call is one line of JSON on the bridge (fd $TOOLSTUDIO_BRIDGE_FD, normally 3):
 * {"type":"call","id":"j1","tool":"NAME","args":{...}|[...]}; the studio answers with
 * {"type":"result","id":"j1","value":...} or {"type":"error","id":"j1","error":{...}}.
 * Replies are matched by id, so any number of calls may be in flight. A reply that
 * names an id with no call in flight (unknown, or answered already) is a protocol
 * error: every pending call rejects with ToolError code "protocol_error", and so does
 * every later call.
 *
 * Arguments: one plain object is the keyword arguments, unless the tool's parameter
 * order is known and the object has a key that is not a parameter (then it is the
 * first positional argument); anything else is positional and mapped by the studio
 * to the input_schema's properties in declaration order.
 */
"use strict";

const fs = require("fs");
const net = require("net");
const path = require("path");

class ToolError extends Error {
  constructor(message, code = "tool_failed", retryable = false, attempts = 0, details = {}) {
    super(message);
    this.name = "ToolError";
    this.code = code;
    this.retryable = retryable;
    this.attempts = attempts;
    this.details = details;
  }

  toString() {
    return `${this.code}: ${this.message}`;
  }
}

/** Tool names bound to this script and their parameter order (written by the studio). */
function loadDeclared() {
  try {
    const declared = JSON.parse(fs.readFileSync(path.join(__dirname, "_tools.json"), "utf8"));
    return declared && typeof declared === "object" ? declared : {};
  } catch (e) {
    return {};
  }
}

const DECLARED = loadDeclared();

/**
 * The request cap the studio passes in `variable` (TOOLSTUDIO_REQUEST_BYTES:
 * limits.request_bytes; TOOLSTUDIO_MODEL_REQUEST_BYTES: limits.model_request_bytes), or null.
 */
function requestBytes(variable = "TOOLSTUDIO_REQUEST_BYTES") {
  const value = Number.parseInt(process.env[variable] || "", 10);
  return Number.isSafeInteger(value) && value > 0 ? value : null;
}

const REQUEST_BYTES = requestBytes();
const MODEL_REQUEST_BYTES = requestBytes("TOOLSTUDIO_MODEL_REQUEST_BYTES");
const NEWLINE = 0x0a;

class Bridge {
  constructor(fd) {
    this.nextId = 1;
    this.pending = new Map(); // id -> resolve (of the reply message)
    this.closedReason = null;
    this.chunks = [];
    this.socket = new net.Socket({ fd, readable: true, writable: true });
    this.socket.on("data", (chunk) => this.onData(chunk));
    this.socket.on("end", () => this.close("the studio closed the bridge"));
    this.socket.on("error", (e) => this.close(`the bridge failed: ${e.message}`));
    // Only calls in flight keep the script alive: an idle bridge must not stop Node
    // from exiting when the script is done.
    this.socket.unref();
  }

  onData(chunk) {
    let start = 0;
    let newline = chunk.indexOf(NEWLINE);
    while (newline !== -1) {
      this.chunks.push(chunk.subarray(start, newline));
      const line = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
      this.chunks = [];
      if (line.length > 0)
        this.dispatch(line);
      if (this.closedReason !== null)
        return;
      start = newline + 1;
      newline = chunk.indexOf(NEWLINE, start);
    }
    if (start < chunk.length)
      this.chunks.push(chunk.subarray(start));
  }

  dispatch(line) {
    let message;
    try {
      message = JSON.parse(line.toString("utf8"));
    } catch (e) {
      this.close("the studio sent a line that is not JSON");
      return;
    }
    if (message === null || typeof message !== "object" || typeof message.id !== "string"
        || (message.type !== "result" && message.type !== "error")) {
      this.close("the studio sent a line that is not a reply");
      return;
    }
    const pending = this.pending.get(message.id);
    if (pending === undefined) {
      this.close(`the studio sent a reply for call id '${message.id}', which has no call in flight (unknown or answered already)`);
      return;
    }
    this.pending.delete(message.id);
    if (this.pending.size === 0)
      this.socket.unref();
    pending(message);
  }

  close(reason) {
    if (this.closedReason !== null)
      return;
    this.closedReason = reason;
    const pending = [...this.pending.values()];
    this.pending.clear();
    this.socket.unref();
    this.socket.destroy();
    for (const resolve of pending)
      resolve({ type: "error", error: { code: "protocol_error", message: reason } });
  }

  /**
   * Sends the call; the Promise resolves with the studio's reply message (result or error).
   * kind "model": a model frame (docs/models.md), `tool` the model's name, `args` the request.
   */
  call(tool, args, kind = "call") {
    return new Promise((resolve) => {
      const fail = (message, code) => resolve({ type: "error", error: { code, message } });
      if (this.closedReason !== null) {
        fail(this.closedReason, "protocol_error");
        return;
      }
      const model = kind === "model";
      const id = `${model ? "m" : "j"}${this.nextId++}`;
      let encoded;
      try {
        encoded = JSON.stringify(args);
      } catch (e) {
        fail(`arguments of ${tool} cannot be sent as JSON: ${e.message}`, "invalid_arguments");
        return;
      }
      const cap = model ? MODEL_REQUEST_BYTES : REQUEST_BYTES;
      if (cap !== null && encoded.length > cap / 3) {
        // Refused here, as the studio would (same size, same words), without sending it.
        // (A UTF-16 unit is at most 3 UTF-8 bytes, so shorter text needs no count.)
        const size = Buffer.byteLength(encoded, "utf8");
        if (size > cap) {
          fail(model ? `the request to model ${tool} is ${size} bytes; the limit is ${cap} bytes `
                       + "(limits.model_request_bytes)"
                     : `arguments of ${tool} are ${size} bytes; the request limit is ${cap} bytes `
                       + "(limits.request_bytes)", "request_too_large");
          return;
        }
      }
      // The id (and tool) before the arguments: a line the studio cannot read whole is
      // still answered by its id.
      const line = model
        ? `{"type":"model","id":"${id}","model":${JSON.stringify(tool)},"request":${encoded}}\n`
        : `{"type":"call","id":"${id}","tool":${JSON.stringify(tool)},"args":${encoded}}\n`;
      this.pending.set(id, resolve);
      if (this.pending.size === 1)
        this.socket.ref();
      this.socket.write(line, "utf8");
    });
  }
}

function errorOf(error) {
  const e = error && typeof error === "object" ? error : {};
  const details = {};
  for (const [key, value] of Object.entries(e)) {
    if (!["code", "message", "retryable", "attempts"].includes(key))
      details[key] = value;
  }
  return new ToolError(typeof e.message === "string" ? e.message : "the tool call failed",
                       typeof e.code === "string" ? e.code : "tool_failed",
                       e.retryable === true, Number.isInteger(e.attempts) ? e.attempts : 0, details);
}

let bridge = null;

function getBridge() {
  if (bridge === null) {
    const fd = process.env.TOOLSTUDIO_BRIDGE_FD;
    if (fd === undefined)
      throw new ToolError("no tools bridge: run this script from Tool Studio", "protocol_error");
    bridge = new Bridge(Number.parseInt(fd, 10));
  }
  return bridge;
}

function isPlainObject(value) {
  if (value === null || typeof value !== "object")
    return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Arguments `tools.call` was given as an object: always the keyword arguments. */
class Keywords {
  constructor(value) {
    this.value = value;
  }
}

function buildArgs(tool, args) {
  if (args.length === 0)
    return {};
  if (args.length === 1 && args[0] instanceof Keywords)
    return args[0].value;
  if (args.length === 1 && isPlainObject(args[0])) {
    const order = DECLARED[tool];
    if (!Array.isArray(order) || Object.keys(args[0]).every((key) => order.includes(key)))
      return args[0];
  }
  return args;
}

/**
 * Calls `tool` with `args` (see buildArgs); returns a Promise of the tool's value, or
 * rejects with a ToolError (failureOf).
 */
async function callTool(tool, ...args) {
  const reply = await sendFrame(tool, buildArgs(tool, args), "call");
  if (reply.type === "result")
    return reply.value;
  throw failureOf(reply, callTool);
}

/** Sends one frame (Bridge.call); a bridge that cannot be opened is an error reply. */
async function sendFrame(name, payload, kind) {
  try {
    return await getBridge().call(name, payload, kind);
  } catch (e) {
    if (!(e instanceof ToolError))
      throw e;
    return { type: "error", error: { code: e.code, message: e.message } };
  }
}

/**
 * The ToolError of an error reply, made in `caller` right after its await, so its stack
 * is the script's own (V8's async frames: "at async main (script.js:3:3)") without the
 * shim's frames, and its first line is "ToolError: code: message".
 */
function failureOf(reply, caller) {
  const error = errorOf(reply.error);
  Error.captureStackTrace(error, caller);
  const head = `${error.name}: ${error.message}`;
  if (error.stack.startsWith(head))
    error.stack = `${error.name}: ${error.code}: ${error.message}${error.stack.slice(head.length)}`;
  return error;
}

/**
 * Calls the tool `name` with `args`: an object (keyword arguments), an array (positional
 * ones) or nothing. Works for any tool name (`tools.call("get-tiny-image", {size: 2})`).
 */
function callByName(name, args) {
  if (typeof name !== "string")
    return Promise.reject(new TypeError("tools.call(name, args): name must be a string"));
  if (args === undefined || args === null)
    return callTool(name);
  if (Array.isArray(args))
    return callTool(name, ...args);
  if (isPlainObject(args))
    return callTool(name, new Keywords(args));
  return Promise.reject(new TypeError("tools.call(name, args): args must be an object, an array or omitted"));
}

/**
 * `tools.NAME(...)` and `tools["NAME"](...)` call the tool NAME; `tools.call("NAME", {...})`
 * calls any tool by name ('-' and '.' are allowed in a name). A tool called `call` is
 * `tools.call("call", {...})`.
 */
const tools = new Proxy({}, {
  get(target, name) {
    // Not a thenable, not inspectable as a tool: keeps `await tools` and console.log sane.
    if (typeof name !== "string" || name === "then" || name === "toJSON" || name === "inspect")
      return undefined;
    if (name === "call")
      return callByName;
    return (...args) => callTool(name, ...args);
  },
  has(target, name) {
    return typeof name === "string" && Object.prototype.hasOwnProperty.call(DECLARED, name);
  },
  ownKeys() {
    return Object.keys(DECLARED);
  },
  getOwnPropertyDescriptor(target, name) {
    if (typeof name === "string" && Object.prototype.hasOwnProperty.call(DECLARED, name))
      return { enumerable: true, configurable: true, value: (...args) => callTool(name, ...args) };
    return undefined;
  },
});

module.exports = { tools, ToolError, callTool, sendFrame, failureOf };
// After the exports: models.js takes sendFrame, failureOf and ToolError from them.
const { models, agent } = require("./models");
module.exports.models = models;
module.exports.agent = agent;

