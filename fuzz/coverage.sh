#!/usr/bin/env bash
# Source-based coverage of the C API layer (src/ffi/) and the parsers
# (src/notation.rs, src/board/square.rs, src/eval/pattern/file.rs) reached by the fuzz corpora.
#
#   fuzz/coverage.sh [TARGET...]      (default: every target)
#
# The Rust library is built with `-C instrument-coverage` (stable rustc) into
# target/fuzz-cov/; each target is built with the system C compiler and
# fuzz/standalone.c as its main (no libFuzzer) and run over the committed
# corpus, the local corpus that fuzz/run.sh grew (target/fuzz/corpus/) and
# the regression inputs. The report needs llvm-profdata and llvm-cov of the
# LLVM version rustc uses (`rustc -vV`; Debian: apt-get install llvm-NN).
# It prints llvm-cov's per-file table (regions, functions, lines, branches);
# `COVERAGE_HTML=dir` also writes an HTML report there.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(api square board_string transcript nboard ggf book)
    grep -q othello_engine_load_weights_buffer include/othello.h && targets+=(weights)
fi

llvm="$(rustc -vV | sed -n 's/^LLVM version: \([0-9]*\).*/\1/p')"
profdata="$(command -v "llvm-profdata-$llvm" || command -v llvm-profdata || true)"
cov="$(command -v "llvm-cov-$llvm" || command -v llvm-cov || true)"
if [ -z "$profdata" ] || [ -z "$cov" ] || ! "$cov" --version | grep -q "version $llvm\."; then
    echo "fuzz/coverage.sh: needs llvm-cov and llvm-profdata of LLVM $llvm (apt-get install llvm-$llvm)" >&2
    exit 2
fi

host="$(rustc -vV | sed -n 's/^host: //p')"
out="$root/target/fuzz-cov"
lib="$out/$host/debug/libothello.a"
RUSTFLAGS="-C instrument-coverage" cargo rustc --quiet --lib --crate-type staticlib \
    --target "$host" --target-dir "$out"

rm -rf "$out/prof"
mkdir -p "$out/bin" "$out/prof"
objects=()
for t in "${targets[@]}"; do
    cc -std=c11 -O1 -g -I "$root/include" "$root/fuzz/$t.c" "$root/fuzz/standalone.c" "$lib" \
        -Wl,-u,__llvm_profile_runtime -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc -o "$out/bin/$t"
    inputs=()
    for d in "$root/fuzz/corpus/$t" "$root/target/fuzz/corpus/$t" "$root/fuzz/regressions/$t"; do
        [ -d "$d" ] && inputs+=("$d")
    done
    LLVM_PROFILE_FILE="$out/prof/$t-%p.profraw" "$out/bin/$t" "${inputs[@]}" >/dev/null
    objects+=(-object "$out/bin/$t")
done

"$profdata" merge -sparse "$out"/prof/*.profraw -o "$out/all.profdata"
sources=("$root/src/ffi" "$root/src/notation.rs" "$root/src/board/square.rs"
    "$root/src/eval/pattern/file.rs")
echo "coverage of ${targets[*]} over their corpora:"
"$cov" report "${objects[@]:1}" -instr-profile="$out/all.profdata" "${sources[@]}"
if [ -n "${COVERAGE_HTML:-}" ]; then
    "$cov" show "${objects[@]:1}" -instr-profile="$out/all.profdata" -format=html \
        -output-dir="$COVERAGE_HTML" "${sources[@]}"
    echo "HTML report: $COVERAGE_HTML/index.html"
fi
