#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Checks the include arrows of docs/architecture.md: a core library includes only the
# core folders it links, core and sandbox never include a widget or app header, and
# widgets never include app/ headers. Prints each offending include; exit 1 if any.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

# folder -> the core folders its files may include (itself included).
declare -A ALLOWED=(
    [python]="python"
    [project]="project python"
    [journal]="journal project python"
    [engine]="engine llm exchange journal project python"
    [exchange]="exchange journal project python"
    [run]="run engine llm exchange journal project python"
    [jsonrpc]="jsonrpc"
    [mcp]="mcp engine llm exchange journal jsonrpc project python"
    [llm]="llm exchange journal project python"
)
core_folders=" ${!ALLOWED[*]} "
status=0
complain() { printf '%s: %s\n' "$1" "$2" >&2; status=1; }

for folder in "${!ALLOWED[@]}"; do
    [ -d "app/core/$folder" ] || continue
    while IFS=: read -r file _ include; do
        target="${include#*\"}"; target="${target%%/*}"
        case " ${ALLOWED[$folder]} " in *" $target "*) continue ;; esac
        case "$core_folders" in
        *" $target "*) complain "$file" "core/$folder may not include core/$target ($include)" ;;
        esac
    done < <(grep -rn '^#include "[a-z]*/' "app/core/$folder" || true)
done

# Headers of the upper layers, by name.
widget_headers=$(cd widgets && ls -- *.h)
app_headers=$(cd app && find ui cli -name '*.h')
check_not_included() { # DIR LABEL HEADERS...
    local dir="$1" label="$2"; shift 2
    local header
    for header in "$@"; do
        while IFS= read -r hit; do
            complain "${hit%%:*}" "$label may not include $header"
        done < <(grep -rln "^#include \"\(.*/\)\?$header\"" "$dir" || true)
    done
}
# shellcheck disable=SC2086
check_not_included app/core "core" $widget_headers $app_headers
# shellcheck disable=SC2086
check_not_included sandbox "sandbox" $widget_headers $app_headers
# shellcheck disable=SC2086
check_not_included widgets "widgets" $app_headers
# shellcheck disable=SC2086
check_not_included app/server "server" $(cd app && find ui -name '*.h')
if grep -rln '^#include "[a-z]*/' sandbox >/dev/null 2>&1; then
    for f in $(grep -rln '^#include "[a-z]*/' sandbox); do complain "$f" "sandbox may not include core headers"; done
fi
if [ "$status" -ne 0 ]; then
    echo "check-layers: includes against docs/architecture.md's arrows (above); move the code or the include" >&2
fi
exit "$status"
