# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Tool Studio's Bash shim, sourced at start-up through BASH_ENV: defines `tool`.
#
#   tool NAME '{"k":"v","n":3}'     arguments as one JSON object (or array: positional)
#   tool NAME k=v n:=3 flag:=true   key=value (a JSON string), key:=json (a raw JSON value)
#   tool NAME                       no arguments ({}); so is one empty or blank argument
#
# JSON given as one argument is sent as it is: if it is not valid JSON, that call fails
# with invalid_arguments (where the text broke) and the script goes on.
#
# Prints the result as JSON on stdout (one line, then '\n'). Exit status:
#   0  the tool succeeded
#   1  the tool call failed: the studio answered with an error (unknown_tool,
#      invalid_arguments, timeout, tool_failed, ...), or the arguments are over the
#      request cap ($TOOLSTUDIO_REQUEST_BYTES; request_too_large, refused before
#      sending); "tool NAME: CODE: MESSAGE" on stderr
#   2  usage: `tool` itself was called wrongly (no NAME, an argument that is neither
#      JSON nor k=v / k:=json)
#   3  bridge failure: no bridge, the bridge closed, a reply that is not for this call,
#      or the studio refused the line as a protocol_error
# The error's code is also left in TOOL_ERROR_CODE (when `tool` does not run in a
# subshell such as $(...)).
#
# One call at a time per shell: the reply is read from the bridge right after the
# call. Calls from background jobs of the same script (`tool a & tool b &`) share the
# bridge and may read each other's reply; they then fail with status 3.

__toolstudio_n=0

# JSON string literal of $1 (escapes '"', '\' and control characters).
__toolstudio_quote() {
    local s=$1
    s=${s//\\/\\\\}
    s=${s//\"/\\\"}
    if [[ $s == *[[:cntrl:]]* ]]; then
        s=${s//$'\n'/\\n}
        s=${s//$'\r'/\\r}
        s=${s//$'\t'/\\t}
        local code ch
        for code in 1 2 3 4 5 6 7 8 11 12 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 127; do
            printf -v ch "\\$(printf '%03o' "$code")"
            [[ $s == *"$ch"* ]] && s=${s//"$ch"/$(printf '\\u%04x' "$code")}
        done
    fi
    REPLY="\"$s\""
}

# Bytes (not characters) of $1 in REPLY: counted in the C locale, restored on return.
__toolstudio_bytes() {
    local LC_ALL=C
    REPLY=${#1}
}

# Decodes the JSON string escapes of $1 (the inside of a JSON string) into REPLY.
__toolstudio_unquote() {
    local s=$1
    s=${s//\\\"/\"}
    s=${s//\\\//\/}
    printf -v REPLY '%b' "$s"
}

tool() {
    TOOL_ERROR_CODE=
    if [ $# -lt 1 ] || [ -z "$1" ]; then
        echo "usage: tool NAME ['{json}' | key=value | key:=json ...]" >&2
        return 2
    fi
    local name=$1
    shift
    local args
    if [ $# -eq 0 ] || { [ $# -eq 1 ] && [[ -z ${1//[[:space:]]/} ]]; }; then
        args='{}' # no arguments, or one that is empty or only spaces
    elif [ $# -eq 1 ] && [[ ${1#"${1%%[![:space:]]*}"} == [\{\[]* ]]; then
        args=${1//$'\n'/ } # a raw newline is only whitespace in valid JSON
        args=${args//$'\r'/ }
    else
        local arg key sep=
        args='{'
        for arg in "$@"; do
            if [[ $arg == *:=* && ${arg%%:=*} != *=* ]]; then
                key=${arg%%:=*}
                __toolstudio_quote "$key"
                local raw=${arg#*:=}
                raw=${raw//$'\n'/ }
                args+="$sep$REPLY:${raw//$'\r'/ }"
            elif [[ $arg == *=* ]]; then
                key=${arg%%=*}
                __toolstudio_quote "$key"
                args+="$sep$REPLY:"
                __toolstudio_quote "${arg#*=}"
                args+=$REPLY
            else
                echo "tool $name: '$arg' is neither key=value nor key:=json (one JSON object or array may be given alone)" >&2
                return 2
            fi
            sep=,
        done
        args+='}'
    fi

    # The request cap (limits.request_bytes, from the studio): a call over it is refused
    # here, as the studio would (same size, same words), without sending it. The count is
    # of the JSON text as sent: key=value arguments are compact; a JSON argument given
    # as one word counts its own spaces. A character is at most 4 bytes, so short
    # arguments need no count.
    local cap=${TOOLSTUDIO_REQUEST_BYTES:-0}
    if [[ $cap =~ ^[1-9][0-9]*$ ]] && (( ${#args} * 4 > cap )); then
        __toolstudio_bytes "$args"
        if (( REPLY > cap )); then
            TOOL_ERROR_CODE=request_too_large
            echo "tool $name: request_too_large: arguments of $name are $REPLY bytes; the request limit is $cap bytes (limits.request_bytes)" >&2
            return 1
        fi
    fi

    local fd=${TOOLSTUDIO_BRIDGE_FD:-}
    if [ -z "$fd" ]; then
        TOOL_ERROR_CODE=protocol_error
        echo "tool $name: protocol_error: no tools bridge: run this script from Tool Studio" >&2
        return 3
    fi
    __toolstudio_n=$((__toolstudio_n + 1))
    local id="s${BASHPID}.${__toolstudio_n}"
    __toolstudio_quote "$name"
    # No wait hint after the call (docs/bridge.md): a second line written after the
    # studio closed the bridge would kill this shell with SIGPIPE.
    if ! printf '{"type":"call","id":"%s","tool":%s,"args":%s}\n' "$id" "$REPLY" "$args" >&"$fd" 2>/dev/null; then
        TOOL_ERROR_CODE=protocol_error
        echo "tool $name: protocol_error: the bridge is closed" >&2
        return 3
    fi
    local reply
    if ! IFS= read -r -u "$fd" reply; then
        TOOL_ERROR_CODE=protocol_error
        echo "tool $name: protocol_error: the studio closed the bridge before answering" >&2
        return 3
    fi
    local prefix='{"type":"result","id":"'$id'","value":'
    if [[ $reply == "$prefix"*\} ]]; then
        reply=${reply#"$prefix"}
        printf '%s\n' "${reply%\}}"
        return 0
    fi
    prefix='{"type":"error","id":"'$id'","error":'
    if [[ $reply != "$prefix"* ]]; then
        TOOL_ERROR_CODE=protocol_error
        echo "tool $name: protocol_error: the studio sent a reply that is not for call $id: ${reply:0:200}" >&2
        return 3
    fi
    local code=tool_failed message='the tool call failed'
    local code_re='[{,]"code":"([a-z_]+)"'
    local message_re='[{,]"message":"(([^"\\]|\\.)*)"'
    [[ $reply =~ $code_re ]] && code=${BASH_REMATCH[1]}
    if [[ $reply =~ $message_re ]]; then
        __toolstudio_unquote "${BASH_REMATCH[1]}"
        message=$REPLY
    fi
    TOOL_ERROR_CODE=$code
    printf 'tool %s: %s: %s\n' "$name" "$code" "$message" >&2
    [ "$code" = protocol_error ] && return 3
    return 1
}
