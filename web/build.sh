#!/usr/bin/env bash
# Builds othello.wasm, the library for the web (docs/web.md):
#
#   web/build.sh [OUT_DIR]     (default: web/, beside othello.js)
#
# cargo's release profile for wasm32-unknown-unknown, without the `header`
# feature (no C header is needed), then wasm-opt -Oz when it is on PATH
# (binaryen; npm's `binaryen` package has it too). Prints the sizes.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
mkdir -p "$out"
cd "$here/.."
if command -v rustup >/dev/null && ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
fi
cargo build --quiet --release --target wasm32-unknown-unknown -p othello --no-default-features
target=${CARGO_TARGET_DIR:-target}
cp "$target/wasm32-unknown-unknown/release/othello.wasm" "$out/othello.wasm"
size() { stat -c %s "$1"; }
echo "othello.wasm: $(size "$out/othello.wasm") bytes from cargo, $(gzip -9c "$out/othello.wasm" | wc -c) gzipped"
if command -v wasm-opt >/dev/null; then
    wasm-opt -Oz --strip-debug "$out/othello.wasm" -o "$out/othello.opt.wasm"
    mv "$out/othello.opt.wasm" "$out/othello.wasm"
    echo "othello.wasm: $(size "$out/othello.wasm") bytes after wasm-opt -Oz, $(gzip -9c "$out/othello.wasm" | wc -c) gzipped"
fi
