#!/usr/bin/env bash
# Runs the core's unit tests under Miri (issue 62): the rules and positions
# (src/board), the game, notation, book, evaluation (src/eval), the
# transposition table, the move list, the OBF reader and src/ffi's own
# tests; and the C API's pointer handling, through the games tests/sizes.rs
# plays by it. Any undefined behaviour or failing test fails the run. Tests
# too slow for Miri are ignored there, each with its reason; docs/fuzzing.md
# "Miri" lists them and the modules left out.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! cargo +nightly miri --version >/dev/null 2>&1; then
    echo "tests/miri.sh: installing Miri on the nightly toolchain" >&2
    if rustup run nightly rustc --version >/dev/null 2>&1; then
        rustup component add --toolchain nightly miri rust-src
    else
        rustup toolchain install nightly --profile minimal --component miri,rust-src
    fi
fi
# Every copy the library compiles for newer CPUs (x86-64-v3; AVX-512 F, VL
# and CD) runs too: Miri implements their intrinsics and reports them present.
export RUSTFLAGS="-Ctarget-feature=+avx2,+bmi1,+bmi2,+lzcnt,+popcnt,+avx512f,+avx512vl,+avx512cd"
export CARGO_TARGET_DIR="${OTHELLO_MIRI_TARGET:-target/miri}"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# Without the `header` feature: the tests need no cbindgen.
cargo +nightly miri test -p othello --no-default-features --lib --test sizes -- \
    board:: game:: notation:: book:: eval:: search::table search::moves ffi:: rng:: obf:: \
    --skip search::endgame --skip search::midgame \
    random_games_match_the_reference_4x4_and_6x6 bad_sizes_squares_and_strings \
    2>&1 | tee "$log"
count() { grep '^test result: ok\.' "$log" | grep -oE "[0-9]+ $1" | awk '{n += $1} END {print n}'; }
echo "tests/miri.sh: $(count passed) tests passed under Miri, $(count ignored) ignored there"
