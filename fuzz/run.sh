#!/usr/bin/env bash
# Builds a libFuzzer target and fuzzes it for a bounded time.
#
#   fuzz/run.sh TARGET SECONDS [libFuzzer options...]
#   fuzz/run.sh all SECONDS            # every target, one after the other
#   fuzz/run.sh build [TARGET]         # only build (all targets by default)
#
# TARGET is one of: api square board_string transcript nboard ggf book weights
# (fuzz/TARGET.c; weights only when include/othello.h declares
# othello_engine_load_weights_buffer). nboard and ggf include the NBoard
# protocol program examples/nboard.c.
#
# The Rust library is built as a static library into target/fuzz/ with
# SanitizerCoverage instrumentation (stable rustc: `-C passes=sancov-module`
# and LLVM options), so libFuzzer is guided by the Rust code's edges and
# comparisons as well as the harness's; OTHELLO_FUZZ_RUST_COVERAGE=0 builds
# it without. The harness is built with clang -fsanitize=fuzzer,address,
# undefined and linked against it.
#
# Corpus: new inputs go to target/fuzz/corpus/TARGET/ (not committed); the
# committed seeds in fuzz/corpus/TARGET/ are read too. A crash, leak or
# timeout is written to target/fuzz/artifacts/TARGET/ and the script exits
# non-zero. FUZZ_JOBS=N runs N fuzzing processes in parallel (for long runs).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

targets=(api square board_string transcript nboard ggf book)
# The weights file parser, once othello.h declares its loader.
grep -q othello_engine_load_weights_buffer include/othello.h && targets+=(weights)
# Longest input per target and the time after which one input is a hang.
declare -A max_len=([api]=1024 [square]=16 [board_string]=300 [transcript]=400 [nboard]=4096 [ggf]=2048 [book]=4096 [weights]=2048)
timeout_s=10

usage() {
    echo "usage: fuzz/run.sh TARGET|all SECONDS [libFuzzer options...] | fuzz/run.sh build [TARGET]" >&2
    echo "targets: ${targets[*]}" >&2
    exit 2
}

[ $# -ge 1 ] || usage
command -v clang >/dev/null || {
    echo "fuzz/run.sh: clang is needed (Debian: apt-get install -y clang)" >&2
    exit 2
}

host="$(rustc -vV | sed -n 's/^host: //p')"
out="$root/target/fuzz"
lib="$out/$host/debug/libothello.a"

build_lib() {
    local flags=""
    if [ "${OTHELLO_FUZZ_RUST_COVERAGE:-1}" != 0 ]; then
        # With an explicit --target, RUSTFLAGS reach only the target's crates,
        # not build scripts (which could not link the sancov callbacks).
        flags="-C passes=sancov-module -C llvm-args=-sanitizer-coverage-level=3"
        flags+=" -C llvm-args=-sanitizer-coverage-inline-8bit-counters"
        flags+=" -C llvm-args=-sanitizer-coverage-pc-table"
        flags+=" -C llvm-args=-sanitizer-coverage-trace-compares"
    fi
    # The dev profile: optimised (opt-level 3) with debug assertions and
    # overflow checks, whose panics reach C as OTHELLO_STATUS_PANIC.
    RUSTFLAGS="$flags" cargo rustc --quiet --lib --crate-type staticlib \
        --target "$host" --target-dir "$out"
}

build_target() {
    local t="$1"
    mkdir -p "$out/bin"
    clang -std=c11 -g -O1 -Wall -Wextra -Werror \
        -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
        -pthread -I "$root/include" "$root/fuzz/$t.c" "$lib" \
        -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc \
        -o "$out/bin/$t"
}

known() {
    local t
    for t in "${targets[@]}"; do [ "$t" = "$1" ] && return 0; done
    return 1
}

fuzz_one() {
    local t="$1" secs="$2"
    shift 2
    local work="$out/corpus/$t" artifacts="$out/artifacts/$t/" log="$out/logs/$t.log"
    mkdir -p "$work" "$artifacts" "$(dirname "$log")"
    local dict=()
    [ -f "$root/fuzz/$t.dict" ] && dict=(-dict="$root/fuzz/$t.dict")
    local jobs=()
    if [ "${FUZZ_JOBS:-1}" -gt 1 ]; then
        jobs=(-fork="$FUZZ_JOBS" -ignore_crashes=0)
    fi
    echo "fuzz/run.sh: fuzzing $t for $secs s (log: $log)"
    local status=0
    ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}" \
        UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}" \
        "$out/bin/$t" "$work" "$root/fuzz/corpus/$t" \
        -max_total_time="$secs" -timeout="$timeout_s" -rss_limit_mb=2048 \
        -max_len="${max_len[$t]}" -artifact_prefix="$artifacts" -print_final_stats=1 \
        "${dict[@]}" "${jobs[@]}" "$@" >"$log" 2>&1 || status=$?
    local execs cov
    execs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)"
    # -fork mode reports "#N: cov: ..." lines instead.
    [ -n "$execs" ] || execs="$(grep -oE '^#[0-9]+:' "$log" | tail -1 | tr -d '#:' || true)"
    cov="$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)"
    echo "fuzz/run.sh: $t: ${execs:-?} executions in $secs s, coverage ${cov:-?} edges," \
        "corpus $(find "$work" -type f | wc -l) files, exit $status"
    if [ "$status" != 0 ]; then
        echo "fuzz/run.sh: $t FAILED; the end of its log:" >&2
        tail -n 60 "$log" >&2
        return "$status"
    fi
}

case "$1" in
build)
    build_lib
    if [ $# -ge 2 ]; then
        known "$2" || usage
        build_target "$2"
    else
        for t in "${targets[@]}"; do build_target "$t"; done
    fi
    ;;
all)
    [ $# -ge 2 ] || usage
    secs="$2"
    shift 2
    build_lib
    for t in "${targets[@]}"; do build_target "$t"; done
    for t in "${targets[@]}"; do fuzz_one "$t" "$secs" "$@"; done
    ;;
*)
    known "$1" && [ $# -ge 2 ] || usage
    t="$1"
    secs="$2"
    shift 2
    build_lib
    build_target "$t"
    fuzz_one "$t" "$secs" "$@"
    ;;
esac
