#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Regenerates the README's tour pictures in resources/screenshots/ on a virtual X
# server, and measures the cold start time to a shown window (median of 5 runs).
#   tools/screenshots.sh [BUILD_DIR]      (default: build)
# Needs: xvfb xdotool imagemagick (apt-get install -y xvfb xdotool imagemagick).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${1:-$ROOT/build}"
BIN="$BUILD/app/toolstudio"
OUT="$ROOT/resources/screenshots"
DISPLAY_NUM="${SCREENSHOT_DISPLAY:-:97}"
WORK="$(mktemp -d)"
mkdir -p "$OUT"

Xvfb "$DISPLAY_NUM" -screen 0 1920x1080x24 -nolisten tcp >/dev/null 2>&1 &
XVFB=$!
STUDIO=""
SIZE=1440x900 # the window's size, and the picture's
cleanup() {
    [ -n "$STUDIO" ] && kill "$STUDIO" 2>/dev/null || true
    kill "$XVFB" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT
export DISPLAY="$DISPLAY_NUM"
sleep 1

# Fresh settings and scratch copies of the examples: nothing lands in the source tree.
export XDG_CONFIG_HOME="$WORK/config"
cp -r "$ROOT/resources/examples" "$WORK/examples"

start_studio() { # PROJECT [env...]
    local project="$1"; shift
    "$BIN" trust "$project" >/dev/null # the shipped examples, copied: trusted in $WORK's config only
    env "$@" "$BIN" "$project" >"$WORK/studio.log" 2>&1 &
    STUDIO=$!
    WINDOW=$(xdotool search --sync --onlyvisible --name 'Tool Studio' | head -n1)
    xdotool windowsize "$WINDOW" "${SIZE%x*}" "${SIZE#*x}"
    xdotool windowfocus --sync "$WINDOW" 2>/dev/null || true
    sleep 1.5
}

stop_studio() {
    kill "$STUDIO" 2>/dev/null || true
    wait "$STUDIO" 2>/dev/null || true
    STUDIO=""
    rm -f "$WORK"/examples/*/.toolstudio/window.lock
}

shot() { import -window root -crop "$SIZE+0+0" +repage "$OUT/$1.png"; echo "saved $OUT/$1.png"; }

# 1. The workspace after a run (python-tools has not landed: exchange-rate).
start_studio "$WORK/examples/exchange-rate"
xdotool key F5
sleep 3
shot workspace
stop_studio

# 2. Try it with a nested-object form, filled through the raw JSON toggle (Alt+J),
#    then back to the form and sent with Ctrl+Enter. View menu: the Project, Console
#    and Runs docks are hidden so the Tool dock has room.
start_studio "$WORK/examples/nested-form"
xdotool key alt+v Return
sleep 0.3
xdotool key alt+v Down Down Down Down Down Return
sleep 0.3
xdotool key alt+v Down Down Down Down Down Down Return
sleep 0.5
xdotool key alt+j
sleep 0.3
xdotool key Tab ctrl+a
xdotool type --delay 2 '{"customer": {"name": "Ada Lovelace", "email": "ada@example.com", "address": {"city": "London", "country": "GB"}}, "items": [{"sku": "ABC-123", "quantity": 2}, {"sku": "XYZ-900", "quantity": 1}], "express": true, "gift_note": null}'
sleep 0.3
xdotool key alt+j
sleep 0.3
xdotool key ctrl+Return
sleep 1.5
shot tryit-nested-form
stop_studio

# 3. The settings dialog (Edit ▸ Preferences…).
start_studio "$WORK/examples/exchange-rate"
xdotool key alt+e
sleep 0.4
xdotool key p
sleep 1
shot settings-dialog
stop_studio

# 4. The window in German, after a run.
start_studio "$WORK/examples/exchange-rate" LANG=de_DE.UTF-8 LC_ALL=de_DE.UTF-8 LANGUAGE=de
xdotool key F5
sleep 3
shot workspace-de
stop_studio

# 5. A live run with retries on the timeline, then the inspector on a failed step.
#    A scratch project: three tools whose mocks fail, back off and succeed, called
#    concurrently with asyncio.gather; charge_card always fails (not retryable).
mkdir -p "$WORK/retries/scripts"
cat >"$WORK/retries/toolstudio.json" <<'JSON'
{
  "name": "retries",
  "default_script": "main",
  "scripts": [{"name": "main", "path": "scripts/main.py"}],
  "retry": {"max_attempts": 3, "initial_backoff_seconds": 0.4, "factor": 2},
  "tools": [
    {"name": "fetch_page", "description": "Fetch a page (flaky).",
     "input_schema": {"type": "object", "properties": {"url": {"type": "string"}}, "required": ["url"]},
     "handler": {"kind": "mock", "sequence": [
       {"error": "upstream busy (503)", "retryable": true, "delay_seconds": 0.3},
       {"result": {"status": 200, "bytes": 5120}, "delay_seconds": 0.5},
       {"error": "connection reset", "retryable": true, "delay_seconds": 0.2},
       {"result": {"status": 200, "bytes": 812}, "delay_seconds": 0.4}]}},
    {"name": "lookup_price", "description": "Price of a SKU.",
     "input_schema": {"type": "object", "properties": {"sku": {"type": "string"}}, "required": ["sku"]},
     "handler": {"kind": "mock", "sequence": [{"result": 0, "delay_seconds": 0.6}, {"result": 12.5, "delay_seconds": 0.3}]}},
    {"name": "charge_card", "description": "Charge a card.",
     "input_schema": {"type": "object", "properties": {"amount": {"type": "number"}}, "required": ["amount"]},
     "handler": {"kind": "mock", "sequence": [{"error": "card declined: insufficient funds", "retryable": false, "delay_seconds": 0.2}]}}
  ]
}
JSON
cat >"$WORK/retries/scripts/main.py" <<'PY'
# Concurrent calls with retries: fetch pages and prices at once, then charge.
import asyncio

from toolstudio import tools


async def main():
    pages = await asyncio.gather(*(tools.fetch_page(url=f"https://example.org/{i}") for i in range(4)),
                                 tools.lookup_price(sku="ABC-123"), tools.lookup_price(sku="XYZ-900"))
    print("fetched", pages)
    try:
        await tools.charge_card(amount=12.5)
    except Exception as error:
        print("charge failed:", error)
    pages = await asyncio.gather(*(tools.fetch_page(url=f"https://example.org/b{i}") for i in range(3)))
    print("second wave", pages)


asyncio.run(main())
PY
start_studio "$WORK/retries"
xdotool key F5
sleep 6
shot timeline-retries
# The trace filter (top of the Trace dock), then the next failed step (Ctrl+E).
xdotool mousemove 995 87 click 1
xdotool type --delay 5 'charge_card'
sleep 0.8
xdotool key Tab ctrl+e
sleep 1
shot inspector-failed-step
stop_studio

# 6. A pending call with its form in the Pending Calls dock: the form generated from
#    the tool's output_schema, focused with F6 (Answer Pending Call), typed into. The
#    Console and Runs docks (View menu, 6th and 7th entries) are hidden for the height.
start_studio "$WORK/examples/render-report"
xdotool key alt+v Down Down Down Down Down Return
sleep 0.3
xdotool key alt+v Down Down Down Down Down Down Return
sleep 0.3
xdotool key F5
sleep 3
xdotool key F6
sleep 0.3
xdotool type --delay 5 'https://example.org/reports/q3-seats.pdf'
sleep 0.5
shot pending-call-form
stop_studio

# 7. Two runs compared: the second run of the same script made one more call and one
#    price changed. The Runs tab, both runs selected (Ctrl+A), Compare (Alt+M).
mkdir -p "$WORK/compare/scripts"
cat >"$WORK/compare/toolstudio.json" <<'JSON'
{
  "name": "compare",
  "default_script": "main",
  "scripts": [{"name": "main", "path": "scripts/main.py"}],
  "tools": [
    {"name": "fetch_page", "description": "Fetch a page.",
     "input_schema": {"type": "object", "properties": {"url": {"type": "string"}}, "required": ["url"]},
     "handler": {"kind": "mock", "sequence": [{"result": {"status": 200, "bytes": 5120}, "delay_seconds": 0.1}]}},
    {"name": "lookup_price", "description": "Price of a SKU.",
     "input_schema": {"type": "object", "properties": {"sku": {"type": "string"}}, "required": ["sku"]},
     "handler": {"kind": "mock", "sequence": [{"result": 12.5, "delay_seconds": 0.1}]}},
    {"name": "charge_card", "description": "Charge a card.",
     "input_schema": {"type": "object", "properties": {"amount": {"type": "number"}}, "required": ["amount"]},
     "handler": {"kind": "mock", "sequence": [{"error": "card declined", "retryable": false}]}}
  ]
}
JSON
cat >"$WORK/compare/scripts/main.py" <<'PY'
from toolstudio import tools

tools.fetch_page(url="https://example.org/cart")
price = tools.lookup_price(sku="ABC-123")
try:
    tools.charge_card(amount=12.5)
except Exception as error:
    print("charge failed:", error)
print("done", price)
PY
start_studio "$WORK/compare"
xdotool key F5
sleep 3
# The second run: one more lookup, and the card is accepted this time.
cat >"$WORK/compare/scripts/main.py" <<'PY'
from toolstudio import tools

tools.fetch_page(url="https://example.org/cart")
price = tools.lookup_price(sku="ABC-123")
tools.lookup_price(sku="XYZ-900")
try:
    tools.charge_card(amount=12.5)
except Exception as error:
    print("charge failed:", error)
print("done", price)
PY
sed -i 's/{"error": "card declined", "retryable": false}/{"result": {"charged": 12.5}}/' "$WORK/compare/toolstudio.json"
sleep 1.5
xdotool key F5
sleep 3
# The Runs tab (bottom left, behind Console), the newest run, then both (Ctrl+A).
xdotool mousemove 98 863 click 1
sleep 0.5
xdotool mousemove 104 810 click 1
xdotool key ctrl+a
sleep 0.3
xdotool key alt+m
sleep 1.5
shot run-comparison
stop_studio

# 8. The Tool dock on resources/examples/python-tools: the Handler page (retry policy
#    of a Python tool, a negative backoff refused at the field, nothing written) and
#    the Valves page (forms from the file's Valves and UserValves models). Cropped to
#    the dock.
start_studio "$WORK/examples/python-tools"
xdotool mousemove 164 392 click 1
sleep 0.5
xdotool mousemove 285 492 click --repeat 3 1
xdotool type --delay 5 -- '-1'
xdotool key Return
sleep 0.5
import -window root -crop 440x430+0+290 +repage "$OUT/tool-dock-handler.png"; echo "saved $OUT/tool-dock-handler.png"
xdotool mousemove 232 392 click 1
sleep 0.5
import -window root -crop 440x430+0+290 +repage "$OUT/tool-dock-valves.png"; echo "saved $OUT/tool-dock-valves.png"
stop_studio

# 9. Run ▸ Rerun from Step… (Ctrl+Shift+F5) after a run: the step's recorded
#    arguments read-only beside the editor, the quote edited to GBP.
start_studio "$WORK/examples/exchange-rate"
xdotool key F5
sleep 3
xdotool key ctrl+shift+F5
sleep 1
xdotool key ctrl+a
xdotool type --delay 5 '{"base": "USD", "quote": "GBP"}'
sleep 0.5
shot rerun-dialog
stop_studio

# 10. Tools ▸ Export Tools… (Ctrl+Shift+E) on python-tools plus one manual tool that
#     takes a free-form map: OpenAI Chat Completions, Strict on — the preview of the
#     exact JSON, and the map tool listed as not exported, with the reason.
python3 - "$WORK/examples/python-tools/toolstudio.json" <<'PY'
import json, sys
path = sys.argv[1]
manifest = json.load(open(path))
manifest.setdefault("tools", []).append({
    "name": "tag_city", "description": "Attach labels to a city.",
    "input_schema": {"type": "object", "properties": {
        "city": {"type": "string"},
        "labels": {"type": "object", "additionalProperties": {"type": "string"}}}, "required": ["city"]},
    "handler": {"kind": "manual"}})
json.dump(manifest, open(path, "w"), indent=2)
PY
start_studio "$WORK/examples/python-tools"
xdotool key ctrl+shift+e
sleep 1
# No window manager: give the dialog the keyboard focus by hand.
xdotool search --sync --onlyvisible --name '^Export Tools$' windowfocus --sync 2>/dev/null || true
xdotool key Down
sleep 0.3
xdotool key Tab space
sleep 0.8
shot export-tools
stop_studio

# 11. Tools ▸ Secrets… (Ctrl+Shift+K): two secrets set headless, values masked, a third
#     being typed into the form.
echo "wx-demo-0000-not-real" | "$BIN" tools secret "$WORK/examples/python-tools" WEATHER_API_KEY
echo "sk-demo-0000-not-real" | "$BIN" tools secret "$WORK/examples/python-tools" OPENAI_API_KEY
start_studio "$WORK/examples/python-tools"
xdotool key ctrl+shift+k
sleep 1
xdotool search --sync --onlyvisible --name '^Secrets$' windowfocus --sync 2>/dev/null || true

xdotool type --delay 5 'GEOCODER_TOKEN'
xdotool key Tab
xdotool type --delay 5 'geo-demo-token'
sleep 0.5
shot secrets-dialog
stop_studio

# 12. View ▸ Presenter Layout (F11) at 1920×1080 for a projector: the run of
#     retries-and-human with its approval call waiting.
SIZE=1920x1080
start_studio "$WORK/examples/retries-and-human"
xdotool key F11
sleep 1
xdotool key F5
sleep 4
shot presenter-layout
stop_studio
SIZE=1440x900

# 13. An MCP tool call's Protocol tab (mcp-weather, script book): the server asks for a
#     time (an elicitation, answered with Accept in the Pending Calls dock), then the
#     step's JSON-RPC exchange. Clicks at the 1440×900 layout's places.
sed -i 's/"default_script": "main"/"default_script": "book"/' "$WORK/examples/mcp-weather/toolstudio.json"
start_studio "$WORK/examples/mcp-weather"
xdotool mousemove 435 37 click 1   # Run
sleep 4
xdotool mousemove 339 522 click 1  # Accept
sleep 3
xdotool mousemove 1060 247 click --repeat 2 1 # the step's row: the Step dock
sleep 2
xdotool mousemove 212 174 click 1  # Protocol
sleep 1.5
shot mcp-protocol
stop_studio

# Cold start: process start to a visible window, median of 5.
times=()
for _ in 1 2 3 4 5; do
    t0=$(date +%s%N)
    "$BIN" "$WORK/examples/exchange-rate" >/dev/null 2>&1 &
    STUDIO=$!
    until xdotool search --onlyvisible --name 'Tool Studio' >/dev/null 2>&1; do sleep 0.005; done
    t1=$(date +%s%N)
    times+=($(( (t1 - t0) / 1000000 )))
    stop_studio
done
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
echo "cold start to shown window (ms): ${times[*]} -> median ${sorted[2]} ms"
