#!/usr/bin/env bash
# Builds othello.wasm, the library for the web (docs/web.md):
#
#   web/build.sh [OUT_DIR]     (default: web/, beside othello.js)
#
# cargo's release profile for wasm32-unknown-unknown, without the `header`
# feature (no C header is needed) and stripped of its symbol names (a
# name section of 69 kB that only debuggers read). Prints the sizes.
# wasm-opt -Oz (binaryen) was measured and is not run: 3% off the raw size,
# nothing off the gzipped size a server sends (docs/web.md).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
mkdir -p "$out"
cd "$here/.."
if command -v rustup >/dev/null && ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    rustup target add wasm32-unknown-unknown
fi
CARGO_PROFILE_RELEASE_STRIP=symbols \
    cargo build --quiet --release --target wasm32-unknown-unknown -p othello --no-default-features
target=${CARGO_TARGET_DIR:-target}
cp "$target/wasm32-unknown-unknown/release/othello.wasm" "$out/othello.wasm"
size() { stat -c %s "$1"; }
echo "othello.wasm: $(size "$out/othello.wasm") bytes, $(gzip -9c "$out/othello.wasm" | wc -c) gzipped"
