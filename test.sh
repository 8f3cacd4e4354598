#!/usr/bin/env bash
# README's test command. Installs what the tests need and this machine lacks,
# then runs every test of the workspace; the last line is the totals of all
# test binaries, "cargo test: N passed, M failed". .ci/run runs it too.
#
#   ./test.sh [ARG...]          set up, then `cargo test --workspace ARG...`
#   ./test.sh --setup [CMD...]  only set up, and also install the Debian
#                               package CMD for each command CMD missing
#                               (.ci/run: clang, for fuzz/run.sh)
#
# The set-up: the C and C++ compilers, make, python3 with venv, pkg-config,
# CMake, Node.js with npm, Chromium and valgrind with apt-get (as root, or through sudo) when they are
# missing; cargo-c, for the install test (tests/install.rs), with `cargo
# install` when `cargo cinstall` is missing (a one-time build of 10 to 35
# minutes); rustfmt, clippy and the wasm32-unknown-unknown target with
# rustup. Without apt-get, a missing tool needed by the tests
# is an error that names it; valgrind alone is optional (its runs are then
# skipped, as README.md says).
set -euo pipefail
cd "$(dirname "$0")"

# cargo-c's last version that this toolchain builds; newer ones refuse it.
CARGO_C_VERSION=0.10.24+cargo-0.98.0

setup_only=0
extra=()
if [ "${1:-}" = --setup ]; then
    setup_only=1
    shift
    extra=("$@")
    set --
fi

say() { echo "test.sh: $*" >&2; }

as_root() {
    if [ "$(id -u)" -eq 0 ]; then
        "$@"
    else
        sudo "$@"
    fi
}

can_apt() {
    command -v apt-get >/dev/null && { [ "$(id -u)" -eq 0 ] || command -v sudo >/dev/null; }
}

has_cargo_c() {
    cargo cinstall --version >/dev/null 2>&1
}

# Debian packages: what the tests need (required) and valgrind (optional).
required=()
optional=()
need() { command -v "$1" >/dev/null || required+=("$2"); }
need cc gcc
need g++ g++
need make make
need python3 python3
# tests/bindings.rs makes a virtual environment: Debian ships venv's
# ensurepip apart from python3. (pip then fetches from PyPI.)
python3 -c 'import ensurepip, venv' 2>/dev/null || required+=(python3-venv)
need pkg-config pkg-config
need cmake cmake
# tests/web.rs: Node.js and npm for the JavaScript package, Chromium for
# the page (playwright-core, from npm, drives Debian's chromium).
need node nodejs
need npm npm
need chromium chromium
command -v valgrind >/dev/null || optional+=(valgrind)
for cmd in ${extra[@]+"${extra[@]}"}; do
    need "$cmd" "$cmd"
done
# Building cargo-c links OpenSSL.
if ! has_cargo_c && ! pkg-config --exists openssl 2>/dev/null; then
    required+=(libssl-dev)
fi

packages=(${required[@]+"${required[@]}"} ${optional[@]+"${optional[@]}"})
if [ ${#packages[@]} -gt 0 ]; then
    if can_apt; then
        say "installing ${packages[*]} with apt-get"
        as_root apt-get update -qq
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}"
    elif [ ${#required[@]} -gt 0 ]; then
        say "missing: ${required[*]} (Debian package names); install them, then run ./test.sh again"
        exit 1
    else
        say "note: valgrind is missing: the tests skip their valgrind runs"
    fi
fi

if command -v rustup >/dev/null; then
    rustup component add rustfmt clippy >/dev/null 2>&1 || say "note: rustup could not add rustfmt and clippy"
    # The web build (tests/web.rs, web/build.sh).
    rustup target add wasm32-unknown-unknown >/dev/null 2>&1 || say "note: rustup could not add the wasm32-unknown-unknown target"
fi

if ! has_cargo_c; then
    say "installing cargo-c $CARGO_C_VERSION for the install test (once; 10 to 35 minutes)"
    cargo install --locked cargo-c --version "$CARGO_C_VERSION"
fi

if [ "$setup_only" -eq 1 ]; then
    exit 0
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
cargo test --workspace "$@" 2>&1 | tee "$log" || status=$?
if [ "$status" -ne 0 ]; then
    say "cargo test failed (exit status $status)"
fi
awk '/^test result:/ { p += $4; f += $6 } END { printf "cargo test: %d passed, %d failed\n", p, f }' "$log"
exit "$status"
