#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# What a hostile Streamable HTTP server's GET stream costs the studio (attack39 F4, F5):
# runs `toolstudio mcp call` of tool t on tests/data/mcp/fakehttpserver.py, which answers
# it after 10 s while the session's GET stream is attacked, and prints the command's wall
# and CPU time (/usr/bin/time) and what the fake saw (GETs, answers to its pings).
#
#   getpings   the GET stream floods `ping` requests as fast as the studio reads
#   storm      each GET: `retry: 0`, one event, the end
#
# Usage: tests/benchmarks/getstreamcost.sh [BUILD_DIR] [getpings|storm ...]
# (BUILD_DIR defaults to ./build; both cases run when none is named.)
set -euo pipefail

build=${1:-build}
shift || true
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(getpings storm)
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
binary=$build/app/toolstudio
export QT_QPA_PLATFORM=offscreen

work=$(mktemp -d)
python3 "$source_dir/tests/data/mcp/fakehttpserver.py" >"$work/port" 2>/dev/null &
fake=$!
trap 'kill $fake 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 50); do [ -s "$work/port" ] && break; sleep 0.1; done
port=$(head -1 "$work/port")

for mode in "${cases[@]}"; do
    mkdir -p "$work/$mode"
    printf '{"name": "x", "mcp_servers": {"r": {"url": "http://127.0.0.1:%s/%s"}}}\n' "$port" "$mode" \
        >"$work/$mode/toolstudio.json"
    /usr/bin/time -f "wall %e s, user %U s, system %S s, peak RSS %M KiB" -o "$work/time" \
        "$binary" mcp call "$work/$mode" r t --args '{}' --trust >"$work/out" 2>/dev/null || true
    seen=$(python3 - "$port" "$mode" <<'PY'
import json, sys, urllib.request
port, mode = sys.argv[1], sys.argv[2]
def post(body, session=None):
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    if session:
        headers["Mcp-Session-Id"] = session
    request = urllib.request.Request("http://127.0.0.1:%s/%s" % (port, mode), json.dumps(body).encode(), headers)
    return urllib.request.urlopen(request).read()
post({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}})
reply = json.loads(post({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "stats"}},
                        "fake-session-1"))
stats = json.loads(reply["result"]["content"][0]["text"])
print("%d GETs, %d pings answered" % (stats["gets"], stats["pongs"]))
PY
)
    echo "$mode: $(cat "$work/time"); $seen; the call: $(tr -d ' \n' <"$work/out" | head -c 80)"
done
