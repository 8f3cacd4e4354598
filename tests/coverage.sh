#!/usr/bin/env bash
# Line coverage of the library's tests, per folder of src/ (issue 62).
# Installs what it needs when missing (rustup's llvm-tools, cargo-llvm-cov),
# runs the tests of the `othello` crate with the library instrumented, then
# prints lines covered/total per folder. The C programs that the tests build
# link the instrumented libothello.so or libothello.a and write their own
# profiles (cargo-llvm-cov sets LLVM_PROFILE_FILE for every child), so what
# only C calls is counted too. A file's lines are llvm-cov's count: for
# generic code, those of its best-covered instantiation. About 16 minutes
# on two cores (half of it the instrumented build).
#
#   tests/coverage.sh            run the tests, then the table
#   tests/coverage.sh --report   the table from the last run's profiles
#   tests/coverage.sh --html     also the line-by-line report,
#                                target/llvm-cov/html/index.html
#
# Not run here: tests/bindings.rs (pip builds the library again as a Python
# module, in release), tests/web.rs (the library built for wasm32, run in
# Node and Chromium), tests/install.rs (cargo-c builds and installs a
# release copy): their libraries are other builds, which this report does
# not read, and they take most of the suite's time; the `*valgrind*` tests
# (the same C programs as their plain runs, many times slower); and in
# tests/docs.rs, the documentation's checks (they need the tools' programs
# and that Python build; its C blocks are small programs of the API that
# the C tests run too, and it takes some four minutes here).
set -euo pipefail
cd "$(dirname "$0")/.."

# Pinned; it needs rustc 1.87 or later.
CARGO_LLVM_COV_VERSION=0.9.1
SKIP_FILES=(bindings web install docs)
SKIP_TESTS=(valgrind)

run=1
html=0
for arg in "$@"; do
    case $arg in
    --report) run=0 ;;
    --html) html=1 ;;
    *)
        echo "usage: tests/coverage.sh [--report] [--html]" >&2
        exit 2
        ;;
    esac
done

say() { echo "coverage.sh: $*" >&2; }

# The component is `llvm-tools` on current toolchains, `llvm-tools-preview`
# on older ones.
if ! rustup component list --installed 2>/dev/null | grep -q '^llvm-tools'; then
    say "installing rustup's llvm-tools"
    rustup component add llvm-tools 2>/dev/null || rustup component add llvm-tools-preview
fi
if [ "$(cargo llvm-cov --version 2>/dev/null)" != "cargo-llvm-cov $CARGO_LLVM_COV_VERSION" ]; then
    say "installing cargo-llvm-cov $CARGO_LLVM_COV_VERSION"
    cargo install cargo-llvm-cov --version "$CARGO_LLVM_COV_VERSION" --locked
fi

# Coverage needs no debug info: without it the instrumented build (in
# target/llvm-cov-target) is a fraction of the size. The runs of one
# program (hundreds of C processes on the one libothello.so) merge into a
# few profiles rather than one file each.
export CARGO_PROFILE_DEV_DEBUG=0 CARGO_INCREMENTAL=0
export LLVM_PROFILE_FILE_NAME=othello-%4m.profraw

if [ $run = 1 ]; then
    tests=(--lib)
    for file in tests/*.rs; do
        name=$(basename "$file" .rs)
        [[ " ${SKIP_FILES[*]} " == *" $name "* ]] || tests+=(--test "$name")
    done
    skips=()
    for t in "${SKIP_TESTS[@]}"; do
        skips+=(--skip "$t")
    done
    cargo llvm-cov clean --workspace
    # The profile runtime inside libothello.a is linked only when something
    # asks for it (rustc passes `-u __llvm_profile_runtime` to the links it
    # makes; cc does not): without it the C programs linked statically (the
    # sanitizer runs, the fuzz replays, the out-of-memory test) would write
    # no profile. The tests call cc and g++ by name: these come first.
    wrappers=$PWD/target/llvm-cov/bin
    mkdir -p "$wrappers"
    for compiler in cc g++; do
        real=$(command -v "$compiler")
        cat >"$wrappers/$compiler" <<EOF
#!/bin/sh
for arg; do
    case \$arg in
    *libothello.a) exec "$real" "\$@" -Wl,-u,__llvm_profile_runtime ;;
    esac
done
exec "$real" "\$@"
EOF
        chmod +x "$wrappers/$compiler"
    done
    export PATH="$wrappers:$PATH"
    start=$SECONDS
    status=0
    cargo llvm-cov --no-report -p othello --no-fail-fast "${tests[@]}" -- "${skips[@]}" || status=$?
    say "built and tested in $((SECONDS - start)) s"
fi

summary=target/llvm-cov/summary.json
mkdir -p "$(dirname "$summary")"
cargo llvm-cov report -p othello --json --summary-only --output-path "$summary"
if [ $html = 1 ]; then
    cargo llvm-cov report -p othello --html
fi

python3 - "$summary" "$PWD" <<'EOF'
import json, sys
from collections import defaultdict

summary, root = sys.argv[1], sys.argv[2].rstrip("/") + "/"
lines = defaultdict(lambda: [0, 0])
for export in json.load(open(summary))["data"]:
    for f in export["files"]:
        name = f["filename"].removeprefix(root)
        if not name.startswith("src/"):
            continue
        parts = name.split("/")
        folder = "src/ (files)" if len(parts) == 2 else "/".join(parts[:2])
        s = f["summary"]["lines"]
        for key in (folder, "total"):
            lines[key][0] += s["covered"]
            lines[key][1] += s["count"]

print(f"{'folder':<14} {'covered':>8} {'lines':>7} {'%':>7}")
for folder in sorted(k for k in lines if k != "total") + ["total"]:
    covered, count = lines[folder]
    print(f"{folder:<14} {covered:>8} {count:>7} {100 * covered / max(count, 1):>6.1f}%")
EOF

if [ "${status:-0}" != 0 ]; then
    say "some tests failed (exit status $status): the table counts what ran"
    exit "$status"
fi
