#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
"""A small MCP server over stdio (protocol revision 2025-06-18), written without an SDK so
that every message is in sight: the studio starts it, confined, when the project opens.

Tools:
  forecast    the next days' weather of a city (structuredContent with an outputSchema)
  book_table  asks the client for a time first (elicitation/create): in the studio a
              person picks it in the Pending Calls dock, or with `toolstudio answer`
"""
import json
import sys

FORECASTS = {
    "Lisbon": [("sunny", 24), ("sunny", 25), ("cloudy", 21)],
    "Oslo": [("rain", 9), ("cloudy", 11), ("snow", 1)],
    "Kyoto": [("cloudy", 18), ("rain", 16), ("sunny", 20)],
}

TOOLS = [
    {
        "name": "forecast",
        "title": "Weather forecast",
        "description": "The weather of the next 1 to 3 days in Lisbon, Oslo or Kyoto.",
        "inputSchema": {
            "type": "object",
            "properties": {
                "city": {"type": "string", "enum": sorted(FORECASTS)},
                "days": {"type": "integer", "minimum": 1, "maximum": 3, "default": 1},
            },
            "required": ["city"],
        },
        "outputSchema": {
            "type": "object",
            "properties": {
                "city": {"type": "string"},
                "days": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {"day": {"type": "integer"}, "sky": {"type": "string"},
                                       "high_c": {"type": "number"}},
                        "required": ["day", "sky", "high_c"],
                    },
                },
            },
            "required": ["city", "days"],
        },
        "annotations": {"readOnlyHint": True, "openWorldHint": False},
    },
    {
        "name": "book_table",
        "title": "Book a table",
        "description": "Book a table at a restaurant; the client is asked for the time.",
        "inputSchema": {
            "type": "object",
            "properties": {"restaurant": {"type": "string"}, "people": {"type": "integer", "minimum": 1}},
            "required": ["restaurant", "people"],
        },
    },
]


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def read():
    line = sys.stdin.readline()
    return json.loads(line) if line else None


def text_result(text, error=False):
    return {"content": [{"type": "text", "text": text}], "isError": error}


def forecast(args):
    city = args.get("city")
    if city not in FORECASTS:
        return text_result(f"no forecast for {city!r}; ask for one of {', '.join(sorted(FORECASTS))}", True)
    days = [{"day": i + 1, "sky": sky, "high_c": high}
            for i, (sky, high) in enumerate(FORECASTS[city][: args.get("days", 1)])]
    summary = "; ".join(f"day {d['day']}: {d['sky']}, {d['high_c']} °C" for d in days)
    return {"content": [{"type": "text", "text": f"{city}: {summary}"}],
            "structuredContent": {"city": city, "days": days}, "isError": False}


def book_table(args, request_id):
    # Ask the client (a person, in the studio) before booking; its answer comes back
    # as the response to this request, before the tools/call is answered.
    ask_id = f"ask-{request_id}"
    send({"jsonrpc": "2.0", "id": ask_id, "method": "elicitation/create", "params": {
        "message": f"At what time should the table for {args['people']} at {args['restaurant']} be?",
        "requestedSchema": {"type": "object", "properties": {
            "time": {"type": "string", "enum": ["19:00", "20:00", "21:00"], "title": "Time"},
            "note": {"type": "string", "title": "Note for the restaurant"}}, "required": ["time"]}}})
    while True:
        message = read()
        if message is None:
            sys.exit(0)
        if message.get("id") == ask_id and "method" not in message:
            break
        # Anything else meanwhile (a ping) is answered; notifications are ignored.
        if "id" in message and "method" in message:
            send({"jsonrpc": "2.0", "id": message["id"], "result": {}})
    if "error" in message:
        return text_result(f"not booked: the client refused: {message['error'].get('message')}", True)
    answer = message.get("result") or {}
    if answer.get("action") != "accept":
        return text_result(f"not booked: the client chose {answer.get('action')!r}", True)
    content = answer.get("content", {})
    note = f" ({content['note']})" if content.get("note") else ""
    return text_result(f"Booked {args['restaurant']} for {args['people']} at {content.get('time')}{note}.")


def main():
    while True:
        message = read()
        if message is None:
            return
        method, request_id = message.get("method"), message.get("id")
        if request_id is None:
            continue  # a notification (initialized, cancelled)
        if method == "initialize":
            result = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                      "serverInfo": {"name": "weather", "version": "1.0.0"}}
        elif method == "ping":
            result = {}
        elif method == "tools/list":
            result = {"tools": TOOLS}
        elif method == "tools/call":
            params = message.get("params", {})
            name, args = params.get("name"), params.get("arguments", {})
            if name == "forecast":
                result = forecast(args)
            elif name == "book_table":
                result = book_table(args, request_id)
            else:
                send({"jsonrpc": "2.0", "id": request_id,
                      "error": {"code": -32602, "message": f"Unknown tool: {name}"}})
                continue
        else:
            send({"jsonrpc": "2.0", "id": request_id,
                  "error": {"code": -32601, "message": f"Method not found: {method}"}})
            continue
        send({"jsonrpc": "2.0", "id": request_id, "result": result})


if __name__ == "__main__":
    main()
