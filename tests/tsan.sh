#!/usr/bin/env bash
# Runs tests/threads.rs (searches of several threads, several engines at once,
# stops from other threads) with the library and the test built under
# ThreadSanitizer, by the nightly toolchain that the machine's rustup has
# (the sanitizer needs -Zsanitizer). Any report fails: TSan exits 66.
# tests/tsan/suppressions.txt lists the standard library's own
# synchronisation, invisible to TSan here (docs/fuzzing.md "ThreadSanitizer").
set -euo pipefail
cd "$(dirname "$0")/.."
if ! rustup run nightly rustc --version >/dev/null 2>&1; then
    echo "tests/tsan.sh: no nightly toolchain; installing one (minimal profile)" >&2
    rustup toolchain install nightly --profile minimal
fi
target=$(rustc -vV | sed -n 's/^host: //p')
export RUSTFLAGS="-Zsanitizer=thread -Cunsafe-allow-abi-mismatch=sanitizer"
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 suppressions=$PWD/tests/tsan/suppressions.txt"
export CARGO_TARGET_DIR="${OTHELLO_TSAN_TARGET:-target/tsan}"
cargo +nightly test --release --target "$target" --test threads
