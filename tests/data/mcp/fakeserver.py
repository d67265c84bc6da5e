#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""A misbehaving MCP stdio server for tst_mcpsession, one behaviour per mode (argv[1]):

  good        answers initialize (2025-06-18), lists 5 tools over 3 pages, and on
              tools/call "echo" first sends the client a ping and returns the reply it got
  garbage     like good, but writes a banner, a non-JSON line and a batch to stdout first
  silent      never answers initialize
  crash       answers initialize, then exits with code 3 on tools/call, "boom" on stderr
  version     answers initialize with protocol revision 1999-01-01
  stray       answers tools/call with an extra response to an id the client never sent
  endless     tools/list hands out a next cursor forever
  deaf        on tools/call sends 3 pings with 22 MiB ids and one more and never reads stdin again
  hostile     serverInfo and capabilities that are not objects; tools/call "error" is
              answered with an error.message of control characters and 100 000
              characters, any other tools/call writes such a line to stderr and exits 4
  forker      starts a child that keeps stdout and stderr open for 10 minutes (its pid
              on stderr), and exits with code 5 on tools/call
  twice       answers tools/call twice (the same id) in one write
  revision    answers initialize with an escape sequence and 100 000 characters as revision
  bigpages    tools/list hands out pages of 6 MiB of tools, a next cursor each time
  oddtools    tools/list: entries that are not objects, names that are not strings, a
              name with control characters, one of 10 000 characters, a name twice, a
              tool nested 50 levels deep; before answering, 20 000 notifications and
              1 000 responses to ids never sent
  deep        like good, but tools/call is answered with a result nested 200 levels deep
              (its id before the result for "tool-0", after it for other tools)
  many        like good, but first writes a reply of 8 Mi + 1 values (empty objects, 24 MiB)
  steps       the tools of STEP_TOOLS, for calls as durable steps (tst_mcphandler): echo
              (its stderr names the idempotency key of _meta), sum (structuredContent),
              badsum (structuredContent that misses its outputSchema), fail (isError),
              flaky (exits mid-call on attempt 1, answers on later attempts), garbage
              (a non-JSON line on stdout, then the answer), hang (never answers; a
              notifications/cancelled is counted), calls (how many tools/call this
              process got and which requests were cancelled), progress (args.count
              notifications/progress for the call's token, one for a token never sent,
              two log messages, then "done"), blocks (image, audio, resource and
              resource_link content blocks), change (adds the tool "extra", changes
              echo's description, removes calls, sends notifications/tools/list_changed)
  stubborn    like good, but ignores SIGTERM and keeps running when its stdin closes
  asks        requests of the server to the client during a call (tst_mcpask*): ask
              (roots/list, elicitation/create, sampling/createMessage one after the
              other, or those args.only names; args.sample_extra merged into the sampling
              request, after args.progress notifications/progress
              for the call's token; returns the responses), askurl (a URL-mode elicitation
              of args.url, args.extra merged into its params; returns the response), flood (args.count
              elicitation requests in one write, then a log message "flood sent"; returns
              how many were answered with a result and the error messages counted), odd (a battery of bad requests:
              URL mode of a javascript: URL, a 100 KiB schema, a schema 50 levels deep, one that does not
              compile, none, an id of 1000 characters, an id used twice, 8 MiB of
              sampling messages; returns the 9 responses in order), late (an elicitation
              request; once the client called go, the result, then another request: both
              answered after the call),
              seen (the responses that came outside a call), withdraw (three
              elicitation requests and notifications/cancelled for the third, then, once
              the client called go, for the first; returns every response up to that of a
              ping sent after the first one came), churn (20 elicitation requests one
              after another, each cancelled once the client called go, or refused; returns
              the responses up to that of a ping), go (a test's word that it saw the
              question asked: see withdraw, churn), required (answers tools/call with
              error -32042 URLElicitationRequiredError listing args.elicitations — by default one
              page, elicitationId "e-1" on example.org, its message args.huge "m"s when given;
              args.many pages when given — or args.data as the error's data, the first
              args.rounds times (default 1) a call with its idempotency key comes; then returns
              the calls it got: {"calls", "keys", "attempts", "arguments"}), visit (the
              person's browser got there: notifications/elicitation/complete for each of
              args.ids, after two malformed ones and one for "unknown" when args.stray)
  asks-1125   like asks, but a 2025-11-25 server (sampling with tools); ask's answer also
              has "capabilities", what the client's initialize declared; costly (a sampling
              request "c-0" of SAMPLE first when args.lead, then args.count requests c-1, …
              of 8 tools of 1024 objects each, the eighth named as the first unless
              args.valid, then notifications/cancelled for each of args.cancel, then a
              request "c-end" of SAMPLE when args.tail, all in one write; returns the responses to the others in the order they came, or "ended"
              at once when args.end); spin (args.count valid costly requests s-1, …, each
              cancelled args.pause seconds after it was sent, then a ping; returns the
              responses up to the ping's)
  modern      a 2026-07-28 server (stateless, no initialize: -32601): every request must
              carry the 2026 _meta (else -32602); server/discover; tools/list of ask,
              rounds, many; tools/call ask answers input_required (multi round-trip
              requests: an elicitation "who", a roots/list "where", requestState "s-1")
              and, on the retry, returns what it got (inputResponses, requestState, the
              request's _meta version); rounds answers input_required with only a
              requestState, forever; many asks 17 things at once
  modern-slow like modern, but server/discover is answered 3.5 s after the start (slow to start)
  modern-features like modern, but it also offers resources and prompts (tst_mcpfeaturesinput):
              resources/list of note://greeting and note://plain; prompts/list of greet;
              resources/read of note://greeting and prompts/get of greet answer
              input_required (an elicitation "name": "What is your name?", a form of one
              required string "name"; requestState "r-1" / "p-1") and, on the retry, an
              accepted answer gives "Hello, NAME! (state r-1)" as text / a user message
              "Greet NAME warmly. (state p-1)"; another action is answered error -32001
              "no greeting: the person chose ACTION"; note://costly asks a costly sampling
              request "a" (valid; see asks-1125's costly) and the name form "b", and gives
              "a: TEXT, b: NAME"; note://sample asks a
              sampling/createMessage "reply" ("Say hi") and gives "The model said: TEXT";
              note://page asks a URL-mode elicitation "page" of javascript:alert(1);
              note://plain is read at once ("plain text")
  future      like good, but server/discover lists only revision 2099-01-01
  unsupported like good, but server/discover is refused -32022 listing 2099-01-01 and
              2025-06-18 (a 2026-era server without 2026-07-28 that still speaks 2025)
  listen      a 2026-07-28 server with tools.listChanged (tst_mcplisten): subscriptions/listen
              is acknowledged for toolsListChanged; tools/call change adds a tool "extra-N"
              and sends notifications/tools/list_changed on each open subscription; later
              answers, then sends it 1 s later; flood sends args.count of them in one write;
              stray sends an ack and list_changed naming subscription 999, list_changed
              naming 777, then for each open one: list_changed naming "ID" (a string),
              prompts/list_changed (not asked for), a list_changed nested 200 levels deep,
              one good list_changed; end answers each open listen (graceful close);
              stats returns {listens: [[id, notifications]], cancelled, toolsLists, open}.
              At the end of stdin, "listen cancelled: [ids]" on stderr.
  listen-all  like listen, but its capabilities offer listChanged for tools, prompts and
              resources and resources.subscribe; the ack honours those three and each
              resourceSubscriptions URI not starting with "refuse:"; tools/call touch sends on
              each open subscription what it asked for: prompts and resources list_changed,
              resources/updated of each URI honoured, and one of file:///not-asked
  listen-none     like listen, but the ack honours nothing ({"notifications": {}})
  listen-early    like listen, but a list_changed for the listen comes before its ack
  listen-noack    like listen, but subscriptions/listen is never answered
  listen-refuse   like listen, but subscriptions/listen is answered -32601
  storm       like good, but each tools/list is preceded by notifications/tools/list_changed
              (a server announcing a change before every listing) and tools/call is
              answered HeaderMismatch (-32020); "tools/list N" on stderr for each listing
  storm-after like storm, but the notification follows each tools/list answer
  fromfile    like good, but tools/list gives the "tools" of the JSON file argv[2] (read
              at each list, so a test changes them between starts) and tools/call answers
              "called NAME" as text; tools/call "rewrite" replaces the listed tools with
              args.tools (in memory) and sends notifications/tools/list_changed
"""
import json
import os
import sys
import time
import urllib.parse

STARTED = time.monotonic()

mode = sys.argv[1] if len(sys.argv) > 1 else "good"
TOOLS = [{"name": f"tool-{n}", "inputSchema": {"type": "object"}} for n in range(5)]
SUM_SCHEMA = {"type": "object", "properties": {"sum": {"type": "number"}}, "required": ["sum"]}
STEP_TOOLS = [
    {"name": "echo", "title": "Echo", "description": "Echoes text",
     "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
     "annotations": {"readOnlyHint": True}},
    {"name": "sum", "inputSchema": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
                                    "required": ["a", "b"]}, "outputSchema": SUM_SCHEMA},
    {"name": "badsum", "inputSchema": {"type": "object"}, "outputSchema": SUM_SCHEMA},
    {"name": "fail", "inputSchema": {"type": "object"}},
    {"name": "flaky", "inputSchema": {"type": "object"}},
    {"name": "garbage", "inputSchema": {"type": "object"}},
    {"name": "hang", "inputSchema": {"type": "object"}},
    {"name": "calls", "inputSchema": {"type": "object"}},
    {"name": "progress", "inputSchema": {"type": "object"}},
    {"name": "blocks", "inputSchema": {"type": "object"}},
    {"name": "change", "inputSchema": {"type": "object"}},
]
BLOCKS = [
    {"type": "text", "text": "four blocks"},
    {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png", "annotations": {"audience": ["user"]}},
    {"type": "audio", "data": "UklGRg==", "mimeType": "audio/wav"},
    {"type": "resource", "resource": {"uri": "file:///notes.txt", "mimeType": "text/plain", "text": "hello"}},
    {"type": "resource_link", "uri": "file:///big.bin", "name": "big.bin", "mimeType": "application/octet-stream",
     "size": 1048576},
]
ASK_TOOLS = [{"name": name, "inputSchema": {"type": "object"}}
             for name in ("ask", "askurl", "flood", "odd", "late", "seen", "withdraw", "churn", "required", "visit", "forge",
                          "costly", "go", "spin")]
ELICIT = {"message": "Who are you?", "requestedSchema": {
    "type": "object", "properties": {"name": {"type": "string", "title": "Name"},
                                     "age": {"type": "integer", "minimum": 0}}, "required": ["name"]}}
SAMPLE = {"messages": [{"role": "user", "content": {"type": "text", "text": "Say hi"}}],
          "systemPrompt": "Be brief", "maxTokens": 50, "temperature": 0.7, "includeContext": "thisServer"}
calls = 0
required_calls = {}  # idempotency key -> the tools/call "required" got with it
cancelled = []
seen = []  # responses to the server's requests that came while no tool waited for them
client_capabilities = None  # what the client's initialize declared


def text_result(rid, text, **extra):
    send({"jsonrpc": "2.0", "id": rid, "result": dict({"content": [{"type": "text", "text": text}]}, **extra)})


def step_call(rid, params):
    global calls
    calls += 1
    name, args, meta = params["name"], params.get("arguments") or {}, params.get("_meta") or {}
    if name == "echo":
        sys.stderr.write("echo: key=%s\n" % meta.get("dev.toolstudio/idempotency_key"))
        sys.stderr.flush()
        time.sleep(0.2)  # stderr and stdout are two pipes: let the studio read stderr first
        text_result(rid, "echo: " + args["text"])
    elif name == "sum":
        total = args["a"] + args["b"]
        text_result(rid, str(total), structuredContent={"sum": total})
    elif name == "badsum":
        text_result(rid, "1", structuredContent={"total": 1})
    elif name == "fail":
        text_result(rid, args.get("text", "the tool says no") * args.get("repeat", 1), isError=True)
    elif name == "flaky":
        if meta.get("dev.toolstudio/attempt") == 1:
            sys.stderr.write("flaky: dying mid-call\n")
            sys.stderr.flush()
            sys.exit(7)
        text_result(rid, "flaky: attempt %s, call %d of this process" % (meta.get("dev.toolstudio/attempt"), calls))
    elif name == "garbage":
        sys.stdout.write("this line is not JSON-RPC\n")
        text_result(rid, "after garbage")
    elif name == "hang":
        pass
    elif name == "calls":
        text_result(rid, json.dumps({"calls": calls, "cancelled": cancelled}))
    elif name == "progress":
        token, count = meta.get("progressToken"), args.get("count", 100000)
        lines = [json.dumps({"jsonrpc": "2.0", "method": "notifications/progress", "params": {
            "progressToken": token, "progress": n + 1, "total": count, "message": "step %d" % (n + 1)}})
            for n in range(count)]
        lines.append(json.dumps({"jsonrpc": "2.0", "method": "notifications/progress",
                                 "params": {"progressToken": 987654, "progress": 5}}))
        lines.append(json.dumps({"jsonrpc": "2.0", "method": "notifications/message", "params": {
            "level": "warning", "logger": "disk", "data": "almost full\x1b[2J"}}))
        lines.append(json.dumps({"jsonrpc": "2.0", "method": "notifications/message", "params": {
            "level": "info", "data": {"rows": 3}}}))
        sys.stdout.write("\n".join(lines) + "\n")
        text_result(rid, "done")
    elif name == "blocks":
        send({"jsonrpc": "2.0", "id": rid, "result": {"content": BLOCKS}})
    elif name == "change":
        STEP_TOOLS.append({"name": "extra", "inputSchema": {"type": "object"}})
        STEP_TOOLS[0]["description"] = "Echoes text, louder"
        STEP_TOOLS[:] = [tool for tool in STEP_TOOLS if tool["name"] != "calls"]
        send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
        text_result(rid, "changed")
    else:
        send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32602, "message": "Unknown tool: " + name}})


def request(rid, method, params=None):
    message = {"jsonrpc": "2.0", "id": rid, "method": method}
    if params is not None:
        message["params"] = params
    return json.dumps(message) + "\n"


def responses(count):
    """The next `count` responses from the client, in order (its notifications skipped)."""
    got = []
    while len(got) < count:
        message = read()
        if "method" not in message:
            del message["jsonrpc"]
            got.append(message)
    return got


def costly_sample(valid):
    """A sampling request that costs the studio's check the most it takes: 8 tools of 1024
    JSON objects each (SamplingTools' bounds); the eighth named as the first (refused once
    all are compiled) unless `valid`."""
    tools = [{"name": "t%d" % (0 if n == 7 and not valid else n),
              "inputSchema": {"type": "object", "properties": {"p%d" % k: {"type": "string"} for k in range(1022)}}}
             for n in range(8)]
    return dict(SAMPLE, tools=tools)


def await_go(asked=None):
    """Reads until the client calls the tool "go" (a test's word that it was asked the
    request just sent: requests are asked once checked, later than they are read) and
    answers it; or until the response to the request `asked` comes, returned."""
    while True:
        message = read()
        if message.get("method") == "tools/call" and message["params"]["name"] == "go":
            text_result(message["id"], "go")
            return None
        if asked is not None and "method" not in message and message.get("id") == asked:
            del message["jsonrpc"]
            return message


def ask_call(rid, params):
    name, args = params["name"], params.get("arguments") or {}
    if name == "ask":
        got = {}
        token = (params.get("_meta") or {}).get("progressToken")
        for n in range(args.get("progress", 0)):
            send({"jsonrpc": "2.0", "method": "notifications/progress",
                  "params": {"progressToken": token, "progress": n + 1, "total": args["progress"]}})
        sample = dict(SAMPLE, **args.get("sample_extra", {}))
        for what, method, body in (("roots", "roots/list", None), ("elicit", "elicitation/create", ELICIT),
                                   ("sample", "sampling/createMessage", sample)):
            if what in args.get("only", [what]):
                sys.stdout.write(request(what + "-1", method, body))
                sys.stdout.flush()
                got[what] = responses(1)[0]
        if "roots" in got:  # where the server runs, and whether it can read each root given
            roots = got["roots"].get("result", {}).get("roots", [])
            paths = [urllib.parse.unquote(urllib.parse.urlparse(r["uri"]).path) for r in roots]
            got["seen"] = {"cwd": os.getcwd(),
                           "readable": [os.path.isdir(p) and os.access(p, os.R_OK | os.X_OK) for p in paths]}
        if mode == "asks-1125":
            got["capabilities"] = client_capabilities
        text_result(rid, json.dumps(got, sort_keys=True))
    elif name == "askurl":
        body = {"mode": "url", "message": "Set your API key", "elicitationId": "e-1",
                "url": args.get("url", "https://example.org/set-key?session=1")}
        body.update(args.get("extra", {}))
        sys.stdout.write(request("url-1", "elicitation/create", body))
        sys.stdout.flush()
        text_result(rid, json.dumps(responses(1)[0], sort_keys=True))
    elif name == "flood":
        count = args.get("count", 5000)
        sys.stdout.write("".join(request("f%d" % n, "elicitation/create", ELICIT) for n in range(count)))
        send({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "flood sent"}})
        errors, results = {}, 0
        for response in responses(count):
            if "result" in response:
                results += 1
            else:
                errors[response["error"]["message"]] = errors.get(response["error"]["message"], 0) + 1
        text_result(rid, json.dumps({"results": results, "errors": errors}, sort_keys=True))
    elif name == "odd":
        deep = {"type": "string"}
        for _ in range(50):
            deep = {"type": "object", "properties": {"x": deep}}
        huge = {"type": "object", "properties": {"p%d" % n: {"type": "string", "description": "d" * 100}
                                                 for n in range(1000)}}
        big = {"messages": [{"role": "user", "content": {"type": "text", "text": "m" * 4096}}] * 2048}
        sys.stdout.write(
            request("url", "elicitation/create", {"mode": "url", "message": "open", "url": "javascript:alert(1)",
                                                  "elicitationId": "e1"})
            + request("huge", "elicitation/create", {"message": "huge", "requestedSchema": huge})
            + request("deep", "elicitation/create", {"message": "deep", "requestedSchema": deep})
            + request("bad", "elicitation/create", {"message": "bad", "requestedSchema": {
                "type": "object", "properties": {"a": {"type": "strin"}}}})
            + request("none", "elicitation/create", {"message": "no schema"})
            + request("i" * 1000, "elicitation/create", ELICIT)
            + request("dup", "elicitation/create", ELICIT)
            + request("dup", "elicitation/create", ELICIT)
            + request("big", "sampling/createMessage", big))
        sys.stdout.flush()
        text_result(rid, json.dumps(responses(9)))
    elif name == "late":
        sys.stdout.write(request("late-1", "elicitation/create", ELICIT))
        sys.stdout.flush()
        await_go()  # asked now
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": rid, "result": {
                             "content": [{"type": "text", "text": "ended"}]}}) + "\n"
                         + request("after-1", "elicitation/create", ELICIT))
        sys.stdout.flush()
    elif name == "seen":
        text_result(rid, json.dumps(seen))
    elif name == "forge":
        sys.stdout.write("".join(request(which, "elicitation/create", ELICIT) for which in ("mrtr:1:x", "-32042:1:0")))
        sys.stdout.flush()
        text_result(rid, json.dumps(responses(2)))
    elif name == "withdraw":
        cancel = [json.dumps({"jsonrpc": "2.0", "method": "notifications/cancelled",
                              "params": {"requestId": which, "reason": "no longer needed"}}) + "\n"
                  for which in ("w-3", "w-1")]
        sys.stdout.write("".join(request("w-%d" % n, "elicitation/create", dict(ELICIT, message="Question %d?" % n))
                                 for n in (1, 2, 3)) + cancel[0])
        sys.stdout.flush()
        await_go()  # the first is asked now
        sys.stdout.write(cancel[1])
        sys.stdout.flush()
        got = responses(1)
        sys.stdout.write(request("p", "ping"))
        sys.stdout.flush()
        while got[-1]["id"] != "p":
            got += responses(1)
        text_result(rid, json.dumps(got))
    elif name == "required":
        meta = params.get("_meta") or {}
        key = meta.get("dev.toolstudio/idempotency_key", "")
        got = required_calls.setdefault(key, [])
        got.append({"attempt": meta.get("dev.toolstudio/attempt"), "arguments": args})
        if len(got) <= args.get("rounds", 1):
            pages = args.get("elicitations", [
                {"mode": "url", "elicitationId": "e-1", "url": "https://example.org/connect?elicitation=e-1",
                 "message": "m" * args["huge"] if "huge" in args else "Connect your Example account"}])
            if "many" in args:
                pages = [{"mode": "url", "elicitationId": "e-%d" % n, "url": "https://example.org/%d" % n,
                          "message": "m"} for n in range(args["many"])]
            data = args["data"] if "data" in args else {"elicitations": pages}
            send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32042, "message": "This request requires more "
                                                         "information.", "data": data}})
            return
        text_result(rid, json.dumps({"calls": len(got), "keys": [key] * len(got),
                                     "attempts": [call["attempt"] for call in got],
                                     "arguments": [call["arguments"] for call in got]}, sort_keys=True))
    elif name == "visit":
        complete = "notifications/elicitation/complete"
        stray = [{"elicitationId": 7}, {}, {"elicitationId": "unknown"}] if args.get("stray") else []
        for params in stray + [{"elicitationId": page} for page in args.get("ids", [])]:
            send({"jsonrpc": "2.0", "method": complete, "params": params})
        text_result(rid, "visited")
    elif name == "costly":
        costly = costly_sample(args.get("valid", False))
        ids = (["c-0"] if args.get("lead") else []) + ["c-%d" % n for n in range(1, args.get("count", 1) + 1)]
        out = "".join(request(which, "sampling/createMessage", SAMPLE if which == "c-0" else costly) for which in ids)
        for which in args.get("cancel", []):
            out += json.dumps({"jsonrpc": "2.0", "method": "notifications/cancelled",
                               "params": {"requestId": which}}) + "\n"
        if args.get("tail"):
            ids.append("c-end")
            out += request("c-end", "sampling/createMessage", SAMPLE)
        sys.stdout.write(out)
        sys.stdout.flush()
        if args.get("end"):  # the call ends before the studio answered
            text_result(rid, "ended")
            return
        expected = [which for which in ids if which not in args.get("cancel", [])]
        got = responses(len(expected))
        text_result(rid, json.dumps(got))
    elif name == "spin":
        # Each costly request cancelled once the studio had args.pause seconds to begin its check.
        for n in range(1, args.get("count", 1) + 1):
            sys.stdout.write(request("s-%d" % n, "sampling/createMessage", costly_sample(True)))
            sys.stdout.flush()
            time.sleep(args.get("pause", 0))
            send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "s-%d" % n}})
        sys.stdout.write(request("p", "ping"))
        sys.stdout.flush()
        got = responses(1)
        while got[-1]["id"] != "p":
            got += responses(1)
        text_result(rid, json.dumps(got))
    elif name == "churn":
        got = []
        for n in range(1, 21):
            sys.stdout.write(request("c-%d" % n, "elicitation/create", ELICIT))
            sys.stdout.flush()
            response = await_go("c-%d" % n)  # asked (and cancelled now), or refused at once
            if response:
                got.append(response)
                continue
            send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "c-%d" % n}})
        sys.stdout.write(request("p", "ping"))
        sys.stdout.flush()
        got += responses(1)
        while got[-1]["id"] != "p":
            got += responses(1)
        text_result(rid, json.dumps(got))
    else:
        send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32602, "message": "Unknown tool: " + name}})


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def read():
    line = sys.stdin.readline()
    if not line:
        while mode == "stubborn":
            time.sleep(60)
        if mode.startswith("listen"):
            sys.stderr.write("listen cancelled: %s\n" % json.dumps(cancelled))
            sys.stderr.flush()
        sys.exit(0)
    return json.loads(line)


if mode == "stubborn":
    import signal
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


if mode == "forker":
    import subprocess
    child = subprocess.Popen(["sleep", "600"])
    sys.stderr.write(f"child {child.pid}\n")
    sys.stderr.flush()

if mode == "many":
    sys.stdout.write('{"jsonrpc":"2.0","id":1,"result":{"content":[%s]}}\n' % ",".join(["{}"] * ((8 << 20) - 2)))
    sys.stdout.flush()

if mode == "garbage":
    sys.stdout.write("Starting server v1 on stdio\nnot json at all\n[1,2]\n\n")
    sys.stdout.flush()

def modern_server():
    tools = [{"name": name, "inputSchema": {"type": "object"}} for name in ("ask", "rounds", "many")]
    while True:
        message = read()
        if "id" not in message or message.get("method") is None:
            continue
        rid, method, params = message["id"], message["method"], message.get("params") or {}
        meta = params.get("_meta") or {}
        version = meta.get("io.modelcontextprotocol/protocolVersion")
        if method == "initialize":
            send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "initialize: this server "
                                                         "speaks 2026-07-28 only"}})
            continue
        if version is None or "io.modelcontextprotocol/clientCapabilities" not in meta:
            send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32602, "message": "no 2026 _meta"}})
            continue
        if version != "2026-07-28":
            send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32022, "message": "Unsupported protocol version",
                                                         "data": {"supported": ["2026-07-28"], "requested": version}}})
            continue
        done = {"resultType": "complete", "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "fake26",
                                                                                            "version": "26"}}}
        if method == "server/discover":
            if mode == "modern-slow":
                time.sleep(max(0.0, 3.5 - (time.monotonic() - STARTED)))
            capabilities = {"tools": {}}
            if mode == "modern-features":
                capabilities.update(resources={}, prompts={})
            send({"jsonrpc": "2.0", "id": rid, "result": dict(done, supportedVersions=["2026-07-28"],
                                                              capabilities=capabilities, ttlMs=1000,
                                                              cacheScope="public", instructions="modern")})
        elif mode == "modern-features" and method in ("resources/list", "prompts/list", "resources/read",
                                                       "prompts/get"):
            send({"jsonrpc": "2.0", "id": rid, **feature_answer(method, params, done)})
        elif method == "tools/list":
            send({"jsonrpc": "2.0", "id": rid, "result": dict(done, tools=tools, ttlMs=1000, cacheScope="public")})
        elif method == "tools/call" and params.get("name") == "ask" and "inputResponses" not in params:
            send({"jsonrpc": "2.0", "id": rid, "result": {"resultType": "input_required", "requestState": "s-1",
                  "inputRequests": {
                      "who": {"method": "elicitation/create", "params": {
                          "mode": "form", "message": "Who are you?", "requestedSchema": {
                              "type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}}},
                      "where": {"method": "roots/list", "params": {}}}}})
        elif method == "tools/call" and params.get("name") == "ask":
            got = {"inputResponses": params["inputResponses"], "requestState": params.get("requestState"),
                   "version": version}
            send({"jsonrpc": "2.0", "id": rid, "result": dict(done, content=[
                {"type": "text", "text": json.dumps(got, sort_keys=True)}])})
        elif method == "tools/call" and params.get("name") == "rounds":
            send({"jsonrpc": "2.0", "id": rid, "result": {"resultType": "input_required",
                                                          "requestState": "again"}})
        elif method == "tools/call" and params.get("name") == "many":
            send({"jsonrpc": "2.0", "id": rid, "result": {"resultType": "input_required", "inputRequests": {
                f"q{n}": {"method": "elicitation/create", "params": {"message": "?", "requestedSchema": {
                    "type": "object", "properties": {}}}} for n in range(17)}}})
        else:
            send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "Method not found"}})


NAME_FORM = {"method": "elicitation/create", "params": {
    "mode": "form", "message": "What is your name?", "requestedSchema": {
        "type": "object", "properties": {"name": {"type": "string", "title": "Name"}}, "required": ["name"]}}}


def feature_answer(method, params, done):
    """modern-features: a resource and a prompt that ask for input first (multi round-trip requests)."""
    if method == "resources/list":
        return {"result": dict(done, resources=[{"uri": "note://greeting", "name": "greeting"},
                                                {"uri": "note://plain", "name": "plain"}])}
    if method == "prompts/list":
        return {"result": dict(done, prompts=[{"name": "greet"}])}
    uri = params.get("uri")
    if method == "resources/read" and uri == "note://plain":
        return {"result": dict(done, contents=[{"uri": uri, "mimeType": "text/plain", "text": "plain text"}])}
    if method == "resources/read" and uri == "note://page":
        return {"result": {"resultType": "input_required", "inputRequests": {"page": {
            "method": "elicitation/create", "params": {"mode": "url", "message": "Open this",
                                                      "url": "javascript:alert(1)", "elicitationId": "e-1"}}}}}
    if method == "resources/read" and uri == "note://sample":
        if "inputResponses" not in params:
            return {"result": {"resultType": "input_required", "inputRequests": {"reply": {
                "method": "sampling/createMessage", "params": {"messages": [
                    {"role": "user", "content": {"type": "text", "text": "Say hi"}}], "maxTokens": 20}}}}}
        content = params["inputResponses"]["reply"].get("content") or {}
        return {"result": dict(done, contents=[{"uri": uri, "mimeType": "text/plain",
                                                "text": "The model said: " + str(content.get("text"))}])}
    if method == "resources/read" and uri == "note://costly":
        if "inputResponses" not in params:
            return {"result": {"resultType": "input_required", "inputRequests": {
                "a": {"method": "sampling/createMessage", "params": costly_sample(valid=True)}, "b": NAME_FORM}}}
        got = params["inputResponses"]
        return {"result": dict(done, contents=[{"uri": uri, "mimeType": "text/plain", "text": "a: %s, b: %s" % (
            (got["a"].get("content") or {}).get("text"), (got["b"].get("content") or {}).get("name"))}])}
    if (method == "resources/read" and uri != "note://greeting") or \
            (method == "prompts/get" and params.get("name") != "greet"):
        return {"error": {"code": -32002, "message": "not found"}}
    state = "r-1" if method == "resources/read" else "p-1"
    if "inputResponses" not in params:
        return {"result": {"resultType": "input_required", "requestState": state,
                           "inputRequests": {"name": NAME_FORM}}}
    answer = params["inputResponses"].get("name") or {}
    if answer.get("action") != "accept" or params.get("requestState") != state:
        return {"error": {"code": -32001, "message": "no greeting: the person chose " + str(answer.get("action"))}}
    name = str((answer.get("content") or {}).get("name"))
    if method == "resources/read":
        return {"result": dict(done, contents=[{"uri": uri, "mimeType": "text/plain",
                                                "text": f"Hello, {name}! (state {state})"}])}
    return {"result": dict(done, messages=[{"role": "user", "content": {
        "type": "text", "text": f"Greet {name} warmly. (state {state})"}}])}


def listen_server():
    tools = [{"name": "change", "inputSchema": {"type": "object"}}]
    subs, listens, stats, filters = [], [], {"toolsLists": 0}, {}
    done = {"resultType": "complete"}

    def changed(sub, **extra):
        params = {"_meta": {"io.modelcontextprotocol/subscriptionId": sub}}
        params.update(extra)
        return json.dumps({"jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": params}) + "\n"

    while True:
        message = read()
        method, params = message.get("method"), message.get("params") or {}
        if method == "notifications/cancelled":
            cancelled.append(params.get("requestId"))
            if params.get("requestId") in subs:
                subs.remove(params.get("requestId"))
            continue
        if "id" not in message or method is None:
            continue
        rid = message["id"]
        if "io.modelcontextprotocol/protocolVersion" not in (params.get("_meta") or {}):
            send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32602, "message": "no 2026 _meta"}})
        elif method == "server/discover":
            capabilities = {"tools": {"listChanged": True}}
            if mode == "listen-all":
                capabilities.update(prompts={"listChanged": True}, resources={"listChanged": True, "subscribe": True})
            send({"jsonrpc": "2.0", "id": rid, "result": dict(done, supportedVersions=["2026-07-28"], capabilities=(
                capabilities), _meta={"io.modelcontextprotocol/serverInfo": {"name": "listen"}})})
        elif method == "subscriptions/listen":
            listens.append([rid, params.get("notifications")])
            if mode == "listen-refuse":
                send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "Method not found"}})
            elif mode != "listen-noack":
                if mode == "listen-early":
                    sys.stdout.write(changed(rid))
                subs.append(rid)
                honoured = {} if mode == "listen-none" else {"toolsListChanged": True}
                if mode == "listen-all":
                    asked = params.get("notifications") or {}
                    honoured = {k: True for k in ("toolsListChanged", "promptsListChanged", "resourcesListChanged")
                                if asked.get(k) is True}
                    if "resourceSubscriptions" in asked:
                        honoured["resourceSubscriptions"] = [
                            u for u in asked["resourceSubscriptions"] if not u.startswith("refuse:")]
                filters[rid] = honoured
                send({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged", "params": {
                    "_meta": {"io.modelcontextprotocol/subscriptionId": rid}, "notifications": honoured}})
        elif method == "tools/list":
            stats["toolsLists"] += 1
            send({"jsonrpc": "2.0", "id": rid, "result": dict(done, tools=tools)})
        elif method == "tools/call":
            name, args = params.get("name"), params.get("arguments") or {}
            if name == "change":
                tools.append({"name": "extra-%d" % len(tools), "inputSchema": {"type": "object"}})
                sys.stdout.write("".join(changed(sub) for sub in subs))
                text_result(rid, "changed")
            elif name == "later":
                text_result(rid, "later")
                time.sleep(1.0)
                sys.stdout.write("".join(changed(sub) for sub in subs))
                sys.stdout.flush()
            elif name == "flood":
                sys.stdout.write("".join(changed(sub) for sub in subs) * args.get("count", 1000))
                text_result(rid, "flooded")
            elif name == "stray":
                other = {"_meta": {"io.modelcontextprotocol/subscriptionId": 999}, "notifications": {
                    "toolsListChanged": True}}
                lines = [json.dumps({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
                                     "params": other}) + "\n", changed(999), changed(777)]
                for sub in subs:
                    lines.append(changed(str(sub)))
                    lines.append(json.dumps({"jsonrpc": "2.0", "method": "notifications/prompts/list_changed",
                                             "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": sub}}})
                                 + "\n")
                    lines.append('{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{"_meta":'
                                 '{"io.modelcontextprotocol/subscriptionId":%d},"x":%s%s}}\n'
                                 % (sub, "[" * 200, "]" * 200))
                    lines.append(changed(sub))
                sys.stdout.write("".join(lines))
                text_result(rid, "stray")
            elif name == "touch":
                lines = []
                for sub in subs:
                    meta = {"_meta": {"io.modelcontextprotocol/subscriptionId": sub}}
                    honoured = filters.get(sub, {})
                    for key, what in (("promptsListChanged", "prompts"), ("resourcesListChanged", "resources")):
                        if honoured.get(key):
                            lines.append({"jsonrpc": "2.0", "method": "notifications/%s/list_changed" % what,
                                          "params": meta})
                    for uri in honoured.get("resourceSubscriptions", []) + ["file:///not-asked"]:
                        lines.append({"jsonrpc": "2.0", "method": "notifications/resources/updated",
                                      "params": dict(meta, uri=uri)})
                sys.stdout.write("".join(json.dumps(line) + "\n" for line in lines))
                text_result(rid, "touched")
            elif name == "end":
                for sub in subs:
                    send({"jsonrpc": "2.0", "id": sub, "result": dict(done, _meta={
                        "io.modelcontextprotocol/subscriptionId": sub})})
                subs.clear()
                text_result(rid, "ended")
            elif name == "stats":
                text_result(rid, json.dumps({"listens": listens, "cancelled": cancelled, "open": subs,
                                             "toolsLists": stats["toolsLists"]}, sort_keys=True))
            else:
                send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32602, "message": "Unknown tool"}})
        else:
            send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "Method not found"}})


rewritten = None  # fromfile: the tools of the last "rewrite"
storm_lists = 0  # storm: tools/list requests so far

if mode in ("modern", "modern-slow", "modern-features"):
    modern_server()
if mode.startswith("listen"):
    listen_server()

while True:
    message = read()
    method = message.get("method")
    if method == "notifications/cancelled":
        cancelled.append(message["params"]["requestId"])
    if method is None and "id" in message:
        del message["jsonrpc"]
        seen.append(message)
    if "id" not in message or method is None:
        continue  # notifications and responses
    rid = message["id"]
    if method == "server/discover" and mode == "future":
        send({"jsonrpc": "2.0", "id": rid, "result": {"resultType": "complete", "supportedVersions": ["2099-01-01"],
                                                      "capabilities": {}}})
        continue
    if method == "server/discover" and mode == "unsupported":
        send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32022, "message": "Unsupported protocol version",
                                                     "data": {"supported": ["2099-01-01", "2025-06-18"],
                                                              "requested": "2026-07-28"}}})
        continue
    if method == "initialize":
        if mode == "silent":
            continue
        version = {"version": "1999-01-01", "asks-1125": "2025-11-25"}.get(mode, "2025-06-18")
        client_capabilities = (message.get("params") or {}).get("capabilities")
        info, capabilities = {"name": "fake", "version": "0"}, {"tools": {"listChanged": True}}
        if mode == "hostile":
            info, capabilities = "fake", [1]
        if mode == "revision":
            version = "\x1b[2J" + "v" * 100000
        send({"jsonrpc": "2.0", "id": rid, "result": {
            "protocolVersion": version, "capabilities": capabilities,
            "serverInfo": info, "instructions": "be kind"}})
    elif method == "tools/list":
        cursor = (message.get("params") or {}).get("cursor")
        page = int(cursor) if cursor else 0
        if mode == "bigpages":
            tool = '{"name":"t","description":"%s"}' % ("d" * (6 << 20))
            sys.stdout.write('{"jsonrpc":"2.0","id":%d,"result":{"tools":[%s],"nextCursor":"%d"}}\n'
                             % (rid, tool, page + 1))
            sys.stdout.flush()
            continue
        if mode == "oddtools":
            for n in range(20000):
                send({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": n}})
            for n in range(1000):
                send({"jsonrpc": "2.0", "id": 100000 + n, "result": {}})
            deep = {"type": "object"}
            for _ in range(50):
                deep = {"type": "object", "properties": {"x": deep}}
            send({"jsonrpc": "2.0", "id": rid, "result": {"tools": [
                1, "text", [], None, {"name": 7}, {"description": "no name"},
                {"name": "\x1b]0;pwned\x07\x1b[2Jrun completed\u202e", "description": "\x1b[31mred\r\nfake line"},
                {"name": "n" * 10000, "inputSchema": {"type": "object"}},
                {"name": "twice", "inputSchema": {"type": "object"}},
                {"name": "twice", "inputSchema": {"type": "object"}},
                {"name": "deep", "inputSchema": deep, "outputSchema": "not a schema"}]}})
            continue
        if mode == "endless":
            send({"jsonrpc": "2.0", "id": rid, "result": {"tools": [], "nextCursor": str(page + 1)}})
            continue
        if mode.startswith("storm"):
            storm_lists += 1
            sys.stderr.write("tools/list %d\n" % storm_lists)
            sys.stderr.flush()
        if mode == "storm":
            send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
        tools = STEP_TOOLS if mode == "steps" else ASK_TOOLS if mode in ("asks", "asks-1125") else TOOLS
        if mode == "fromfile":
            if rewritten is None:
                with open(sys.argv[2]) as listed:
                    tools = json.load(listed)["tools"]
            else:
                tools = rewritten
        chunk = tools[page * 2:page * 2 + 2]
        result = {"tools": chunk}
        if page * 2 + 2 < len(tools):
            result["nextCursor"] = str(page + 1)
        send({"jsonrpc": "2.0", "id": rid, "result": result})
        if mode == "storm-after":
            send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
    elif method == "tools/call" and mode in ("asks", "asks-1125"):
        ask_call(rid, message["params"])
    elif method == "tools/call" and mode == "steps":
        step_call(rid, message["params"])
    elif method == "tools/call" and mode == "fromfile":
        if message["params"]["name"] == "rewrite":
            rewritten = message["params"]["arguments"]["tools"]
            text_result(rid, "rewritten")
            send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
        else:
            text_result(rid, "called " + message["params"]["name"])
    elif method == "tools/call" and mode.startswith("storm"):
        send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32020, "message": "Mcp-Param-Region is missing"}})
    elif method == "tools/call":
        if mode == "forker":
            sys.exit(5)
        if mode == "crash":
            sys.stderr.write("Traceback (most recent call last):\nboom\n")
            sys.stderr.flush()
            sys.exit(3)
        if mode == "deaf":
            big = '{"jsonrpc":"2.0","id":"%s","method":"ping"}\n' % ("p" * (22 << 20))
            sys.stdout.write(big * 3 + '{"jsonrpc":"2.0","id":4,"method":"ping"}\n')
            sys.stdout.flush()
            while True:
                time.sleep(60)
        if mode == "hostile" and message["params"]["name"] == "error":
            text = "\x1b[31mred\x1b[0m\r\u202eevil" + "m" * 100000
            send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32000, "message": text}})
            continue
        if mode == "hostile":
            sys.stderr.write("\x1b]0;pwned\x07" + "e" * 100000 + "\x1b[2J\n")
            sys.stderr.flush()
            sys.exit(4)
        if mode == "deep":
            # a reply nested 200 levels deep (over the studio's 128): "tool-0" with the
            # id first, any other tool with it after the deep result
            deep = '{"content":[{"type":"text","text":"x","_meta":%s%s}]}' % ("[" * 200, "]" * 200)
            if message["params"]["name"] == "tool-0":
                sys.stdout.write('{"jsonrpc":"2.0","id":%d,"result":%s}\n' % (rid, deep))
            else:
                sys.stdout.write('{"jsonrpc":"2.0","result":%s,"id":%d}\n' % (deep, rid))
            sys.stdout.flush()
            continue
        if mode == "twice":
            line = json.dumps({"jsonrpc": "2.0", "id": rid, "result": {"content": []}}) + "\n"
            sys.stdout.write(line * 2)
            sys.stdout.flush()
            continue
        if mode == "stray":
            send({"jsonrpc": "2.0", "id": 999, "result": {}})
        send({"jsonrpc": "2.0", "id": "srv-1", "method": "ping"})
        pong = read()
        send({"jsonrpc": "2.0", "id": "srv-2", "method": "sampling/createMessage", "params": {"messages": []}})
        sampling = read()
        send({"jsonrpc": "2.0", "method": "notifications/progress", "params": {"progressToken": 1, "progress": 1}})
        text = json.dumps({"args": message["params"], "pong": pong, "sampling": sampling}, sort_keys=True)
        send({"jsonrpc": "2.0", "id": rid, "result": {"content": [{"type": "text", "text": text}]}})
    else:
        send({"jsonrpc": "2.0", "id": rid, "error": {"code": -32601, "message": "Method not found"}})
