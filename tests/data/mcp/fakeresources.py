#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""An MCP stdio server with resources and prompts for tst_mcpresources, one behaviour
per mode (argv[1]):

  good        resources over two pages: notes.txt (text), pixel.png (a 1x1 PNG blob),
              broken.bin (a blob that is not base64), empty (neither text nor blob),
              "javascript:alert(1)" and "file:///etc/passwd" (read: texts the server
              made up); left out: entries that are not objects, without a uri or name, a
              uri with control characters, one of 9000 characters. Templates: "note"
              (level 1, file:///notes/{folder}/{name}) and "search" (level 3, {?q}).
              Prompts: greet (name required, style optional: echoes them), odd (messages
              whose content types the studio does not know, a message that is not an
              object, an escape sequence as role), and a prompt without a name and one
              whose arguments are not an array (left out). resources/subscribe: answered,
              then notifications/resources/updated for the uri. It counts every request
              by method: the tool "counts" answers them.
  tools-only  declares only "tools": resources/list and prompts/list would answer
              (and be counted) but must not be asked
  many        resources/list: one page of 1 000 000 resources
  endless     resources/list: a new nextCursor on every page, for ever
  loop        resources/list: the nextCursor "again", for ever
  huge        resources/read of "big": a text of 100 MiB (other uris as in good)
  malformed   every answer misses what it should hold: resources/list's "resources" is
              an object, templates' is absent, resources/read's "contents" is a string,
              prompts/list's entries are numbers, prompts/get has no "messages"
  no-completions  like good, but without the "completions" capability
  complete-not-found  like good, declaring "completions", but completion/complete is
              answered -32601 (Method not found), and counted
  modern      like good, but a 2026-07-28 server (server/discover; initialize is -32601;
              every request must carry _meta's protocolVersion, else -32602)

completion/complete (good, modern; tst_mcpcompletion): the note template's folder
completes from inbox, ideas, archive; its name from todo.txt, today.txt when the context's
folder is inbox, else readme.txt; greet's name from Ada, Alan, Grace, its style from
formal, friendly (the values starting with the typed value). Typed values that attack:
echo (the one value is the request's params without _meta, as JSON), many (1 000 000
values), mixed (values that are not text, empty, repeated, 1000 characters long, with an
escape sequence or a bidi override, among "ok" and "fine"), huge (a value of 50 MiB, then
"after"), deep (values nested 100 000 arrays deep), shapeless ("values" is a string),
error (-32602), slow (answers "slow-answer" after 1.5 s), more (more1, more2 of a total of 250,
hasMore). Another ref or argument: -32602.
"""
import json
import sys
import time
from collections import Counter

mode = sys.argv[1] if len(sys.argv) > 1 else "good"
counts = Counter()
PNG = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")
RESOURCES = [
    {"uri": "file:///notes.txt", "name": "notes.txt", "title": "Notes", "mimeType": "text/plain",
     "description": "Some notes", "size": 11},
    {"uri": "file:///pixel.png", "name": "pixel.png", "mimeType": "image/png"},
    {"uri": "file:///broken.bin", "name": "broken.bin", "mimeType": "application/octet-stream"},
    7,
    {"name": "no uri"},
    {"uri": "file:///no-name"},
    {"uri": "file:///evil\x1b[2J\x07", "name": "control characters"},
    {"uri": "file:///" + "x" * 9000, "name": "long uri"},
    {"uri": "demo://empty", "name": "empty"},
    {"uri": "javascript:alert(1)", "name": "script"},
    {"uri": "file:///etc/passwd", "name": "passwd",
     "description": "\x1b[31mred\x1b[0m <img src=\"file:///etc/hostname\"><b>bold</b>"},
]
TEMPLATES = [
    {"uriTemplate": "file:///notes/{folder}/{name}", "name": "note", "description": "A note by folder and name",
     "mimeType": "text/plain"},
    {"uriTemplate": "https://example.com/search{?q}", "name": "search"},
]
PROMPTS = [
    {"name": "greet", "title": "Greeting", "description": "Greets someone",
     "arguments": [{"name": "name", "description": "Who", "required": True}, {"name": "style"}]},
    {"name": "odd", "description": "Content types the studio does not know"},
    {"description": "no name"},
    {"name": "badargs", "arguments": {"name": "x"}},
]


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def result(rid, value):
    if mode == "modern":
        value = dict(value, resultType="complete")
    send({"jsonrpc": "2.0", "id": rid, "result": value})


def error(rid, code, message):
    send({"jsonrpc": "2.0", "id": rid, "error": {"code": code, "message": message}})


NOTE = "file:///notes/{folder}/{name}"
COMPLETIONS = {
    ("ref/resource", NOTE, "folder"): lambda context: ["inbox", "ideas", "archive"],
    ("ref/resource", NOTE, "name"):
        lambda context: ["todo.txt", "today.txt"] if context.get("folder") == "inbox" else ["readme.txt"],
    ("ref/prompt", "greet", "name"): lambda context: ["Ada", "Alan", "Grace"],
    ("ref/prompt", "greet", "style"): lambda context: ["formal", "friendly"],
}


def complete(rid, params):
    ref, argument = params.get("ref") or {}, params.get("argument") or {}
    value = argument.get("value")
    raw = None
    if value == "echo":
        values = [json.dumps({k: v for k, v in params.items() if k != "_meta"}, sort_keys=True)]
    elif value == "many":
        raw = ",".join('"v%d"' % n for n in range(1000000))
    elif value == "mixed":
        values = [1, None, {"a": "b"}, ["ok"], "ok", "", "ok", "x" * 1000, "bad\x1b[2J", "left\u202eright",
                  "two\nlines", "fine"]
    elif value == "huge":
        raw = '"%s","after"' % ("a" * (50 << 20))
    elif value == "deep":
        raw = "[" * 100000 + "]" * 100000
    elif value == "shapeless":
        result(rid, {"completion": {"values": "Ada"}})
        return
    elif value == "error":
        error(rid, -32602, "no completions for that")
        return
    elif value == "more":
        result(rid, {"completion": {"values": ["more1", "more2"], "total": 250, "hasMore": True}})
        return
    elif value == "slow":
        time.sleep(1.5)
        values = ["slow-answer"]
    else:
        key = (ref.get("type"), ref.get("uri") if ref.get("type") == "ref/resource" else ref.get("name"),
               argument.get("name"))
        if key not in COMPLETIONS or not isinstance(value, str):
            error(rid, -32602, "no completions for %s" % json.dumps(key))
            return
        context = (params.get("context") or {}).get("arguments") or {}
        values = [v for v in COMPLETIONS[key](context) if v.startswith(value)]
    if raw is not None:
        sys.stdout.write('{"jsonrpc":"2.0","id":%s,"result":{"completion":{"values":[%s],"hasMore":false}}}\n'
                         % (json.dumps(rid), raw))
        sys.stdout.flush()
        return
    result(rid, {"completion": {"values": values, "total": len(values), "hasMore": False}})


def read_resource(rid, uri):
    if uri == "file:///notes.txt":
        contents = [{"uri": uri, "mimeType": "text/plain", "text": "hello notes"}]
    elif uri == "file:///pixel.png":
        contents = [{"uri": uri, "mimeType": "image/png", "blob": PNG}]
    elif uri == "file:///broken.bin":
        contents = [{"uri": uri, "mimeType": "application/octet-stream", "blob": "not base64!"}]
    elif uri == "demo://empty":
        contents = [{"uri": uri}]
    elif uri == "javascript:alert(1)":
        contents = [{"uri": uri, "mimeType": "text/html", "text": "<script>alert(1)</script><b>bold</b>"}]
    elif uri == "file:///etc/passwd":
        contents = [{"uri": uri, "mimeType": "text/plain", "text": "made up by the server, not /etc/passwd"}]
    elif uri.startswith("file:///notes/"):
        contents = [{"uri": uri, "mimeType": "text/plain", "text": "note at " + uri}]
    else:
        send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32002, "message": "Resource not found: " + uri}})
        return
    result(rid, {"contents": contents})


def get_prompt(rid, params):
    name, args = params.get("name"), params.get("arguments") or {}
    if name == "greet":
        if "name" not in args:
            send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32602, "message": "missing argument: name"}})
            return
        text = "Hello, %s!%s" % (args["name"], " (%s)" % args["style"] if "style" in args else "")
        result(rid, {"description": "a greeting", "messages": [
            {"role": "user", "content": {"type": "text", "text": text}},
            {"role": "assistant", "content": {"type": "text", "text": "Hi!"}}]})
    elif name == "odd":
        result(rid, {"messages": [
            {"role": "user", "content": {"type": "hologram", "data": "??"}},
            {"role": "\x1b[2Jsystem", "content": {"type": "text", "text": "role with an escape"}},
            "not a message",
            {"role": "user", "content": "a string, not a block"},
            {"role": "user", "content": {"type": "image", "data": "@@@", "mimeType": "image/png"}}]})
    else:
        send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32602, "message": "Unknown prompt: %s" % name}})


def answer(rid, method, params):
    cursor = params.get("cursor")
    if mode == "malformed":
        result(rid, {"resources/list": {"resources": {"uri": "x"}}, "resources/templates/list": {},
                     "resources/read": {"contents": "text"}, "prompts/list": {"prompts": [1, 2]},
                     "prompts/get": {"description": "no messages"}}.get(method, {}))
        return
    if method == "resources/list":
        if mode == "many":
            sys.stdout.write('{"jsonrpc":"2.0","id":%d,"result":{"resources":[%s]}}\n' % (rid, ",".join(
                '{"uri":"r:%d","name":"%d"}' % (n, n) for n in range(1000000))))
            sys.stdout.flush()
        elif mode == "endless":
            result(rid, {"resources": [{"uri": "r:%s" % cursor, "name": "r"}], "nextCursor": str(int(cursor or 0) + 1)})
        elif mode == "loop":
            result(rid, {"resources": [{"uri": "r:1", "name": "r"}], "nextCursor": "again"})
        elif cursor is None:
            result(rid, {"resources": RESOURCES[:5], "nextCursor": "page2"})
        else:
            result(rid, {"resources": RESOURCES[5:]})
    elif method == "resources/templates/list":
        result(rid, {"resourceTemplates": TEMPLATES})
    elif method == "resources/read":
        if mode == "huge" and params.get("uri") == "big":
            sys.stdout.write('{"jsonrpc":"2.0","id":%d,"result":{"contents":[{"uri":"big","text":"%s"}]}}\n'
                             % (rid, "a" * (100 << 20)))
            sys.stdout.flush()
        else:
            read_resource(rid, params.get("uri"))
    elif method in ("resources/subscribe", "resources/unsubscribe"):
        result(rid, {})
        if method == "resources/subscribe":
            send({"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {"uri": params["uri"]}})
    elif method == "prompts/list":
        result(rid, {"prompts": PROMPTS})
    elif method == "prompts/get":
        get_prompt(rid, params)
    elif method == "completion/complete" and mode not in ("no-completions", "complete-not-found"):
        complete(rid, params)
    elif method == "tools/list":
        result(rid, {"tools": [{"name": "counts", "inputSchema": {"type": "object"}}]})
    elif method == "tools/call":
        result(rid, {"content": [{"type": "text", "text": json.dumps(counts, sort_keys=True)}]})
    else:
        send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "Method not found"}})


while True:
    line = sys.stdin.readline()
    if not line:
        sys.exit(0)
    message = json.loads(line)
    method = message.get("method")
    if "id" not in message or method is None:
        continue
    rid = message["id"]
    params = message.get("params") or {}
    capabilities = {"tools": {}}
    if mode != "tools-only":
        capabilities.update({"resources": {"subscribe": True, "listChanged": True}, "prompts": {}})
    if mode not in ("tools-only", "no-completions"):
        capabilities["completions"] = {}
    if mode == "modern":
        if method == "initialize":
            error(rid, -32601, "Method not found")
        elif "io.modelcontextprotocol/protocolVersion" not in (params.get("_meta") or {}):
            error(rid, -32602, "a 2026-07-28 request carries _meta's protocolVersion")
        elif method == "server/discover":
            result(rid, {"supportedVersions": ["2026-07-28"], "capabilities": capabilities,
                         "serverInfo": {"name": "fake-resources", "version": "0"}})
        else:
            counts[method] += 1
            answer(rid, method, params)
        continue
    if method == "initialize":
        result(rid, {"protocolVersion": "2025-06-18", "capabilities": capabilities,
                     "serverInfo": {"name": "fake-resources", "version": "0"}})
        continue
    if method == "server/discover":  # a dual-era client's probe: a 2025 server, not counted
        error(rid, -32601, "Method not found")
        continue
    counts[method] += 1
    answer(rid, method, params)
