#!/usr/bin/env bash
# SPDX-FileCopyrightText: 2026 Tool Studio authors
# SPDX-License-Identifier: GPL-3.0-or-later
#
# One command to set up, build and run Tool Studio on Debian 12.
#   ./toolstudio.sh          install what is missing, build the app (not the tests), open
#                            the studio on an example (headless run of it when there is no display)
#   ./toolstudio.sh test     the same setup, a clang-format check, build everything, then every test suite
#                            (offscreen); with CI=true or TOOLSTUDIO_SANITIZERS=1 also the
#                            unit and system suites under ASan+UBSan (build-asan/)
#   ./toolstudio.sh bench    Release build, then the benchmark table
#   ./toolstudio.sh ARGS...  build the app, pass ARGS to it (e.g. run PROJECT)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BUILD_DIR="$ROOT/build"
EXAMPLE="$ROOT/resources/examples/exchange-rate"

# Every Debian package the build, the tests and the sandboxed interpreters need.
PACKAGES=(
    cmake ninja-build g++ pkg-config
    qt6-base-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools linguist-qt6
    libqt6sql6-sqlite libsqlite3-dev libqscintilla2-qt6-dev libquazip1-qt6-dev
    nlohmann-json3-dev libvalijson-dev libdtl-dev libseccomp-dev libpcre2-dev libcpp-httplib-dev
    libqt6svg6 libgl-dev python3 python3-pydantic python3-venv bash nodejs curl qt6-translations-l10n
    desktop-file-utils appstream
    clang libclang-rt-14-dev clang-format
    ccache
)

# The official JSON Schema Test Suite, test data for tst_schemaconformance: Debian 12's
# package, pinned and checked, unpacked into each build directory that runs the unit
# suites (never installed, never copied into the repository). npm has no draft-7 copy:
# json-schema-test-suite@0.0.10 stops at draft 4 and @json-schema-org/tests@2.0.0 pulls
# the data from a git host, which this project's machines cannot reach.
SCHEMA_SUITE_PACKAGE=json-schema-test-suite
SCHEMA_SUITE_VERSION=2.0.0-1.1
SCHEMA_SUITE_SHA256=2478fdd0f873e9a449335a2c2af47c83d105f0b317a47a529f035014b53cc405

# Each line says the time since the script started (mm:ss), so a slow phase shows.
log() { printf '[toolstudio %02d:%02d] %s\n' "$((SECONDS / 60))" "$((SECONDS % 60))" "$*" >&2; }

install_packages() {
    local missing=()
    local pkg
    for pkg in "${PACKAGES[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
            missing+=("$pkg")
        fi
    done
    if [ "${#missing[@]}" -eq 0 ]; then
        return
    fi
    log "installing Debian packages: ${missing[*]}"
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        if ! command -v sudo >/dev/null; then
            log "error: packages missing and sudo is not available; install as root: apt-get install ${missing[*]}"
            exit 1
        fi
        sudo=(sudo)
    fi
    "${sudo[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

generator_args() {
    if command -v ninja >/dev/null; then echo "-GNinja"; fi
}

# build DIR [CMAKE ARGS...]: configure DIR, then build what APP_TARGETS names, or every
# target (the test suites too) when it is empty.
APP_TARGETS=()
build() {
    local dir="$1"; shift
    configure "$dir" "$@"
    local targets=()
    if [ "${#APP_TARGETS[@]}" -gt 0 ]; then
        targets=(--target "${APP_TARGETS[@]}")
        log "building ${APP_TARGETS[*]} (the tests build with ./toolstudio.sh test)"
    else
        log "building"
    fi
    cmake --build "$dir" --parallel "$(nproc)" "${targets[@]}"
}

# What the studio needs to run: the app and its sandbox launcher (the translations and
# resources are built into the app), not the ~900 targets of the test suites.
app_only() { APP_TARGETS=(toolstudio toolstudio-sandbox); }

# ccache, when the machine has it, keyed on paths relative to the tree, so a second
# clone or build dir reuses what the first compiled.
launcher_args() {
    if command -v ccache >/dev/null; then echo "-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"; fi
}
export CCACHE_BASEDIR="$ROOT" CCACHE_NOHASHDIR=1

configure() {
    local dir="$1"; shift
    if [ ! -f "$dir/CMakeCache.txt" ]; then
        log "configuring in ${dir#"$ROOT"/}"
        cmake -S "$ROOT" -B "$dir" $(generator_args) $(launcher_args) "$@" >/dev/null
    fi
}

# fetch_schema_suite BUILD_DIR: BUILD_DIR/json-schema-test-suite (the package's files,
# tests/draft7 under usr/share/json-schema-test-suite). A failure is only logged: the
# suite then fails and says how to get the data.
fetch_schema_suite() {
    local dest="$1/json-schema-test-suite" work deb
    if [ "$(cat "$dest/.version" 2>/dev/null)" = "$SCHEMA_SUITE_VERSION" ]; then
        return 0
    fi
    log "fetching the JSON Schema Test Suite ($SCHEMA_SUITE_PACKAGE $SCHEMA_SUITE_VERSION) into ${dest#"$ROOT"/}"
    work="$(mktemp -d)"
    chmod 0777 "$work" # apt-get download writes as the _apt user where it can
    if ! (cd "$work" && apt-get download -qq "$SCHEMA_SUITE_PACKAGE=$SCHEMA_SUITE_VERSION" 2>/dev/null); then
        if [ "$(id -u)" -eq 0 ]; then
            apt-get update -qq || true
        fi
        (cd "$work" && apt-get download -qq "$SCHEMA_SUITE_PACKAGE=$SCHEMA_SUITE_VERSION") || true
    fi
    deb="$work/${SCHEMA_SUITE_PACKAGE}_${SCHEMA_SUITE_VERSION}_all.deb"
    if [ ! -f "$deb" ]; then
        log "warning: could not download $SCHEMA_SUITE_PACKAGE=$SCHEMA_SUITE_VERSION; tst_schemaconformance will fail"
    elif ! echo "$SCHEMA_SUITE_SHA256  $deb" | sha256sum --check --status; then
        log "warning: $deb is not the pinned package (sha256 differs); tst_schemaconformance will fail"
    else
        rm -rf "$dest"
        mkdir -p "$dest"
        if dpkg-deb -x "$deb" "$dest"; then
            echo "$SCHEMA_SUITE_VERSION" >"$dest/.version"
        else
            log "warning: could not unpack $deb; tst_schemaconformance will fail"
        fi
    fi
    rm -rf "$work"
}

# The MCP reference servers the MCP client's tests talk to (tst_mcpsession), the
# TypeScript SDK 1.x whose client tst_mcpserverclients drives the studio's MCP server with, and the
# TypeScript SDK 2.x (2026-07-28 revision) whose client and server tst_mcpsdk2 talks to, from the
# npm registry, pinned, into a cache of their own outside the tree; the tests find it
# through TOOLSTUDIO_MCP_SERVERS_DIR. Debian's npm package is installed when there is no
# npm. A failure is only logged: those tests then skip, saying so.
MCP_SERVERS=("@modelcontextprotocol/server-everything@2026.8.31" "@modelcontextprotocol/sdk@1.32.2"
    "@modelcontextprotocol/client@2.4.0" "@modelcontextprotocol/server@2.4.0")
install_mcp_servers() {
    local dir="${XDG_CACHE_HOME:-$HOME/.cache}/toolstudio/test-mcp-servers"
    export TOOLSTUDIO_MCP_SERVERS_DIR="$dir"
    if [ "$(cat "$dir/.pinned" 2>/dev/null)" = "${MCP_SERVERS[*]}" ]; then
        return 0
    fi
    if ! command -v npm >/dev/null; then
        (PACKAGES=(npm) && install_packages) || true
    fi
    if ! command -v npm >/dev/null; then
        log "warning: no npm; the tests with the MCP reference servers will skip"
        return 0
    fi
    log "installing the MCP reference servers for the tests into $dir: ${MCP_SERVERS[*]}"
    mkdir -p "$dir"
    if timeout 600 npm install --prefix "$dir" --no-audit --no-fund --no-save --loglevel=error \
        "${MCP_SERVERS[@]}" >&2; then
        echo "${MCP_SERVERS[*]}" >"$dir/.pinned"
    else
        log "warning: npm could not install ${MCP_SERVERS[*]} (is the npm registry reachable?);" \
            "the tests with the MCP reference servers will skip"
    fi
}

# Every tracked C++ file of ours must be as .clang-format (clang-format 14) writes it.
check_format() {
    local files=() unformatted=()
    if git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
        mapfile -t files < <(git -C "$ROOT" ls-files -- 'app/*.cpp' 'app/*.h' 'widgets/*.cpp' 'widgets/*.h' \
            'sandbox/*.cpp' 'sandbox/*.h' 'tests/*.cpp' 'tests/*.h')
    else
        mapfile -t files < <(cd "$ROOT" && find app widgets sandbox tests -name '*.cpp' -o -name '*.h' | sort)
    fi
    local output rc=0
    output="$(cd "$ROOT" && clang-format --dry-run --Werror "${files[@]}" 2>&1)" || rc=$?
    mapfile -t unformatted < <(printf '%s\n' "$output" \
        | sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*/\1/p' | sort -u)
    if [ "$rc" -ne 0 ] && [ "${#unformatted[@]}" -eq 0 ]; then
        log "error: clang-format failed: $output"
        return 1
    fi
    if [ "${#unformatted[@]}" -ne 0 ]; then
        log "error: ${#unformatted[@]} file(s) not formatted as .clang-format says: ${unformatted[*]}"
        log "  fix: clang-format -i ${unformatted[*]}"
        return 1
    fi
    log "clang-format: ${#files[@]} files formatted"
}

# run_suites BUILD_DIR NAME LABEL MINUTES [CTEST ARGS...]: the suites of LABEL, as many at
# once as there are cores (-j1 among the arguments runs them one by one), stopped when they
# take longer than their budget (CI has 90 minutes on 2 cores for everything).
run_suites() {
    local dir="$1" name="$2" label="$3" minutes="$4" rc=0
    shift 4
    log "$name: $label suites (budget $minutes min)"
    timeout --kill-after=30 "$((minutes * 60))" ctest --test-dir "$dir" --output-on-failure -L "^$label\$" \
        --parallel "$(nproc)" "$@" "${CTEST_ARGS[@]}" || rc=$?
    if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
        log "error: $name $label suites went over their budget of $minutes min"
    fi
    SUMMARY+=("$name $label: $([ "$rc" -eq 0 ] && echo passed || echo "FAILED ($rc)")")
    return "$rc"
}

# x_display_number DISPLAY: N for a local display ":N" or ":N.M", nothing otherwise.
x_display_number() {
    local display="$1"
    if [[ "$display" =~ ^:([0-9]+)(\.[0-9]+)?$ ]]; then
        echo "${BASH_REMATCH[1]}"
    fi
}

# x_display_reachable DISPLAY: whether Qt can likely connect, so that a DISPLAY left over
# from a closed session (or an ssh login without forwarding) falls back to the headless
# run instead of Qt aborting. A local display ":N" needs the X server's socket
# /tmp/.X11-unix/XN; a remote one ("host:N", forwarded by ssh -X) is taken as reachable.
x_display_reachable() {
    local number
    number="$(x_display_number "$1")"
    if [ -z "$number" ]; then
        return 0
    fi
    [ -S "/tmp/.X11-unix/X$number" ]
}

# wayland_socket: the compositor's socket ($WAYLAND_DISPLAY is a name under
# $XDG_RUNTIME_DIR, or an absolute path); wayland_reachable: it exists.
wayland_socket() {
    if [ "${WAYLAND_DISPLAY:0:1}" = / ]; then
        echo "$WAYLAND_DISPLAY"
    else
        echo "${XDG_RUNTIME_DIR:-}/$WAYLAND_DISPLAY"
    fi
}
wayland_reachable() {
    [ -S "$(wayland_socket)" ]
}

install_packages

case "${1:-}" in
test)
    shift
    CTEST_ARGS=("$@")
    SUMMARY=()
    status=0
    check_format || { status=1; SUMMARY+=("clang-format: FAILED (see above)"); }
    "$ROOT/tools/check-layers.sh" || { status=1; SUMMARY+=("check-layers: FAILED (see above)"); }
    build "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Debug
    fetch_schema_suite "$BUILD_DIR"
    install_mcp_servers
    export QT_QPA_PLATFORM=offscreen
    # The fuzzers (libFuzzer, clang, their own build dir) for a bounded time each: in CI
    # (CI=true) or when asked (TOOLSTUDIO_FUZZ=1; TOOLSTUDIO_FUZZ_SECONDS, default 60).
    if [ "${CI:-}" = true ] || [ "${TOOLSTUDIO_FUZZ:-}" = 1 ]; then
        if [ ! -f "$ROOT/build-fuzz/CMakeCache.txt" ]; then
            log "configuring in build-fuzz (clang)"
            CC=clang CXX=clang++ cmake -S "$ROOT" -B "$ROOT/build-fuzz" $(generator_args) $(launcher_args) \
                -DCMAKE_BUILD_TYPE=RelWithDebInfo \
                -DTOOLSTUDIO_BUILD_FUZZERS=ON -DTOOLSTUDIO_BUILD_TESTS=OFF >/dev/null
        fi
        # Target, corpus folder, seconds: the bridge and the validator get the most time,
        # the file readers a share each (docs/testing.md "Fuzzing").
        seconds="${TOOLSTUDIO_FUZZ_SECONDS:-60}"
        # A fixed seed (TOOLSTUDIO_FUZZ_SEED, default 1): the same commit explores the
        # same inputs in the same order, so a pass here is a pass in CI; give another
        # seed (or 0: libFuzzer picks one) to explore further.
        seed="${TOOLSTUDIO_FUZZ_SEED:-1}"
        fuzzers=(
            "fuzz_bridge corpus $seconds"
            "fuzz_schema corpus_schema $seconds"
            "fuzz_handleroutput corpus_output $((seconds / 3))"
            "fuzz_answers corpus_answers $((seconds / 3))"
            "fuzz_cassette corpus_cassette $((seconds / 3))"
            "fuzz_importedrun corpus_run $((seconds / 3))"
            "fuzz_toolfile corpus_toolfile $((seconds / 3))"
            "fuzz_manifest corpus_manifest $((seconds / 3))"
            "fuzz_jsonrpc corpus_jsonrpc $((seconds / 3))"
            "fuzz_modelreply corpus_modelreply $((seconds / 3))"
            "fuzz_httpbody corpus_httpbody $((seconds / 3))"
            "fuzz_answerbody corpus_answerbody $((seconds / 3))"
            "fuzz_mcpconfig corpus_mcpconfig $((seconds / 3))"
        )
        targets=()
        for entry in "${fuzzers[@]}"; do targets+=("${entry%% *}"); done
        cmake --build "$ROOT/build-fuzz" --target "${targets[@]}"
        work="$(mktemp -d)"
        for entry in "${fuzzers[@]}"; do
            read -r name corpus time <<<"$entry"
            mkdir -p "$work/$name"
            log "fuzzing $name for $time s, seed $seed (new inputs in $work/$name; crashes in $work)"
            "$ROOT/build-fuzz/tests/fuzz/$name" -seed="$seed" -max_total_time="$time" -max_len=4096 -timeout=5 \
                -rss_limit_mb=2048 \
                -artifact_prefix="$work/$name-" -print_final_stats=1 "$work/$name" "$ROOT/tests/fuzz/$corpus" \
                || { status=1; SUMMARY+=("$name: FAILED (crash input in $work)"); }
        done
    fi
    # The unit and system suites again under AddressSanitizer and UBSan (build-asan, the
    # asan-ubsan preset; the sandbox launcher stays uninstrumented): in CI or when asked
    # (TOOLSTUDIO_SANITIZERS=1). Only what those labels run is built.
    sanitizers=false
    if [ "${CI:-}" = true ] || [ "${TOOLSTUDIO_SANITIZERS:-}" = 1 ]; then
        sanitizers=true
        configure "$ROOT/build-asan" -DCMAKE_BUILD_TYPE=Debug -DTOOLSTUDIO_SANITIZE=address,undefined
        log "building the sanitizer build (build-asan)"
        cmake --build "$ROOT/build-asan" --parallel "$(nproc)" --target tests_unit tests_system
        fetch_schema_suite "$ROOT/build-asan"
    fi
    # The test suites last, each label within its budget, the summary the closing lines.
    run_suites "$BUILD_DIR" debug unit 3 || status=1
    run_suites "$BUILD_DIR" debug gui 8 || status=1
    run_suites "$BUILD_DIR" debug system 24 || status=1
    if [ "$sanitizers" = true ]; then
        run_suites "$ROOT/build-asan" asan-ubsan unit 5 || status=1
        # The battery's re-runs as nobody and at Landlock ABI 2 exercise the launcher, which
        # is never instrumented: the Debug pass runs them, the sanitizer pass need not.
        run_suites "$ROOT/build-asan" asan-ubsan system 32 -E '_user$|_abi2$' || status=1
    fi
    for line in "${SUMMARY[@]}"; do log "$line"; done
    exit "$status"
    ;;
bench)
    shift
    build "$ROOT/build-release" -DCMAKE_BUILD_TYPE=Release -DTOOLSTUDIO_BUILD_TESTS=OFF -DTOOLSTUDIO_BUILD_BENCHMARKS=ON
    exec "$ROOT/build-release/tests/benchmarks/toolstudio-bench" "$@"
    ;;
"")
    app_only
    build "$BUILD_DIR"
    if [ -n "${WAYLAND_DISPLAY:-}" ] && wayland_reachable; then
        exec "$BUILD_DIR/app/toolstudio" "$EXAMPLE"
    fi
    if [ -n "${DISPLAY:-}" ] && x_display_reachable "$DISPLAY"; then
        exec "$BUILD_DIR/app/toolstudio" "$EXAMPLE"
    fi
    if [ -n "${DISPLAY:-}" ]; then
        log "the display DISPLAY=$DISPLAY could not be reached (no X server socket" \
            "/tmp/.X11-unix/X$(x_display_number "$DISPLAY")): running the example headless"
    fi
    if [ -n "${WAYLAND_DISPLAY:-}" ]; then
        log "the display WAYLAND_DISPLAY=$WAYLAND_DISPLAY could not be reached (no socket" \
            "$(wayland_socket)): running the example headless"
    fi
    if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
        log "no display (DISPLAY and WAYLAND_DISPLAY are unset): running the example headless"
    fi
    log "(--trust: this shipped example is trusted and the grant recorded; see README \"Trust\")"
    status=0
    "$BUILD_DIR/app/toolstudio" run --trust "$EXAMPLE" || status=$?
    log "to open the window, run ./toolstudio.sh from a desktop session, or under Xvfb:"
    log "  xvfb-run -a ./toolstudio.sh"
    exit "$status"
    ;;
*)
    app_only
    build "$BUILD_DIR"
    exec "$BUILD_DIR/app/toolstudio" "$@"
    ;;
esac
