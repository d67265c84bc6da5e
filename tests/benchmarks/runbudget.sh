#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# What a hostile script costs the trusted side (issue 16, class 3 "Unbounded growth"):
# runs `toolstudio run` headless on three scripts and prints, for the studio process
# only (not the sandboxed script), its peak RSS (VmHWM), its CPU time, and the journal
# it left (bytes, step rows, policy-event rows).
#
#   refused   300 000 calls of an unknown tool (raw bridge lines, one at a time)
#   socket    4 processes calling socket(AF_INET) in a loop for 12 s
#   output    stdout written as fast as possible for 10 s (cap: output_bytes, 10 MiB)
#
# Usage: tests/benchmarks/runbudget.sh [BUILD_DIR] [refused|socket|output ...]
# (BUILD_DIR defaults to ./build; every case runs when none is named.)
set -euo pipefail

build=${1:-build}
shift || true
cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=(refused socket output)
studio=$(realpath "$build/app/toolstudio")
export QT_QPA_PLATFORM=offscreen

work=$(mktemp -d /tmp/toolstudio-runbudget.XXXXXX)
trap 'rm -rf "$work"' EXIT

project() { # NAME SCRIPT-FILE
    local dir="$work/$1"
    mkdir -p "$dir/scripts"
    cp "$2" "$dir/scripts/main.py"
    cat >"$dir/toolstudio.json" <<'EOF'
{
  "name": "runbudget",
  "default_script": "main",
  "scripts": [{"name": "main", "path": "scripts/main.py"}],
  "limits": {"run_timeout_seconds": 600},
  "tools": [{"name": "echo", "input_schema": {"type": "object"},
             "handler": {"kind": "mock", "sequence": [{"result": 1}]}}]
}
EOF
    echo "$dir"
}

cat >"$work/refused.py" <<'EOF'
import os
bridge = int(os.environ.get("TOOLSTUDIO_BRIDGE_FD", "3"))
reader = os.fdopen(bridge, "rb", buffering=1 << 16, closefd=False)
codes = {}
for i in range(300000):
    os.write(bridge, b'{"type":"call","id":"c%d","tool":"no_such_tool","args":{}}\n' % i)
    line = reader.readline()
    code = line.split(b'"code":"', 1)[1].split(b'"', 1)[0].decode() if b'"code":"' in line else "result"
    codes[code] = codes.get(code, 0) + 1
print(codes)
EOF

cat >"$work/socket.py" <<'EOF'
import os, socket, time
end = time.monotonic() + 12
children = []
for _ in range(4):
    pid = os.fork()
    if pid == 0:
        n = 0
        while time.monotonic() < end:
            try:
                socket.socket(socket.AF_INET, socket.SOCK_STREAM).close()
            except OSError:
                n += 1
        os._exit(0)
    children.append(pid)
for pid in children:
    os.waitpid(pid, 0)
print("done")
EOF

cat >"$work/output.py" <<'EOF'
import os, time
block = b"x" * (1 << 20)
end = time.monotonic() + 10
written = 0
while time.monotonic() < end:
    written += os.write(1, block)
os.write(2, b"wrote %d bytes\n" % written)
EOF

# Runs the studio on project $1; prints "peak_rss_kib cpu_s wall_s exit".
measure() {
    local dir=$1 hwm=0 ticks=0 start end rc=0
    start=$(date +%s.%N)
    "$studio" run "$dir" >"$work/out.txt" 2>"$work/err.txt" &
    local pid=$!
    local hz
    hz=$(getconf CLK_TCK)
    while kill -0 "$pid" 2>/dev/null; do
        if [ -r "/proc/$pid/status" ]; then
            local h
            h=$(awk '/^VmHWM:/ {print $2}' "/proc/$pid/status" 2>/dev/null || true)
            [ -n "$h" ] && hwm=$h
            local t
            t=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || true)
            [ -n "$t" ] && ticks=$t
        fi
        sleep 0.1
    done
    wait "$pid" || rc=$?
    end=$(date +%s.%N)
    echo "$hwm $(echo "scale=2; $ticks / $hz" | bc) $(echo "scale=1; ($end - $start) / 1" | bc) $rc"
}

journal() { # DIR: bytes, steps, policy events (and the coalesced summaries' counts)
    local db="$1/.toolstudio/journal.sqlite"
    local bytes
    bytes=$(du -cb "$db"* 2>/dev/null | tail -1 | cut -f1)
    echo "journal_bytes=$bytes steps=$(sqlite3 "$db" 'select count(*) from steps') \
events=$(sqlite3 "$db" 'select count(*) from policy_events') \
by_kind=[$(sqlite3 "$db" "select kind || ':' || count(*) from policy_events group by kind" | tr '\n' ' ')]"
}

for name in "${cases[@]}"; do
    dir=$(project "$name" "$work/$name.py")
    read -r rss cpu wall rc < <(measure "$dir")
    printf '%-8s peak_rss=%s KiB studio_cpu=%ss wall=%ss exit=%s %s\n' "$name" "$rss" "$cpu" "$wall" "$rc" \
        "$(journal "$dir")"
    if [ "$name" = refused ]; then
        grep -o "{'.*}" "$work/out.txt" | head -1 | sed 's/^/         script saw: /' || true
    fi
    if [ "$name" = socket ]; then
        sqlite3 "$dir/.toolstudio/journal.sqlite" \
            "select json_extract(detail, '$.text') from policy_events where kind != 'sandbox_refused' \
             and kind != 'sandbox_applied'" | head -3 | sed 's/^/         /'
    fi
done
