//! The fuzz targets of `fuzz/` as regression tests, without libFuzzer:
//!
//! - each target, built with the system C compiler, AddressSanitizer and
//!   UBSan and `fuzz/standalone.c` as its `main`, replays its committed seed
//!   corpus (`fuzz/corpus/<target>/`) and the inputs that once found a bug
//!   (`fuzz/regressions/<target>/`): a check failing, a sanitizer report or
//!   a leak fails the test (`nboard` and `ggf` include the NBoard protocol
//!   program `examples/nboard.c`, whose bugs they found: their inputs in
//!   `fuzz/regressions/` are its regression tests, with `tests/nboard.rs`);
//! - `tests/c/fuzz_regressions.c` holds a C test per bug the fuzzers found.
//!
//! Fuzzing itself (coverage-guided, with clang's libFuzzer) is `fuzz/run.sh`;
//! see docs/fuzzing.md.

mod cbuild;

use cbuild::{manifest_dir, run_program, Build, Link, ASAN_ENV, C11_FLAGS};
use std::path::PathBuf;

/// `sources` under AddressSanitizer + UBSan, with `extra` flags.
fn build_sanitized(name: &str, sources: &[&str], extra: &[&str]) -> PathBuf {
    sources
        .iter()
        .fold(Build::c(C11_FLAGS).flags(extra), |b, src| b.source(src))
        .sanitized()
        .build("fuzz", name)
}

fn replay(target: &str) {
    replay_with(target, &[]);
}

/// Replays `target` built with `extra` flags too.
fn replay_with(target: &str, extra: &[&str]) {
    let src = format!("fuzz/{target}.c");
    let exe = build_sanitized(
        &format!("replay_{target}"),
        &[&src, "fuzz/standalone.c"],
        extra,
    );
    let mut dirs = Vec::new();
    for kind in ["corpus", "regressions"] {
        let dir = manifest_dir().join("fuzz").join(kind).join(target);
        if dir.is_dir() {
            dirs.push(dir.to_string_lossy().into_owned());
        }
    }
    assert!(!dirs.is_empty(), "fuzz/corpus/{target}/ is missing");
    let args: Vec<&str> = dirs.iter().map(String::as_str).collect();
    let stdout = run_program(&exe, &args, ASAN_ENV);
    assert!(
        stdout.contains("inputs run, 0 unreadable"),
        "the replay of {target} did not finish:\n{stdout}"
    );
}

#[test]
fn replay_api() {
    replay("api");
}

#[test]
fn replay_square() {
    replay("square");
}

#[test]
fn replay_board_string() {
    replay("board_string");
}

#[test]
fn replay_transcript() {
    replay("transcript");
}

/// The NBoard protocol program (`examples/nboard.c`, included by the
/// target) on whole sessions of input lines; it starts a search thread.
#[test]
fn replay_nboard() {
    replay_with("nboard", &["-pthread"]);
}

/// The GGF game reader of `examples/nboard.c`.
#[test]
fn replay_ggf() {
    replay_with("ggf", &["-pthread"]);
}

/// The opening book file parser.
#[test]
fn replay_book() {
    replay("book");
}

/// Only once `othello.h` declares the weights loader (`fuzz/run.sh` checks
/// the same).
#[test]
fn replay_weights() {
    let header = std::fs::read_to_string(manifest_dir().join("include/othello.h"))
        .expect("include/othello.h is readable");
    if !header.contains("othello_engine_load_weights_buffer") {
        println!("note: othello.h has no othello_engine_load_weights_buffer: skipped");
        return;
    }
    replay("weights");
}

#[test]
fn fuzz_regressions_sanitized() {
    let exe = build_sanitized("fuzz_regressions", &["tests/c/fuzz_regressions.c"], &[]);
    let stdout = run_program(&exe, &[], ASAN_ENV);
    assert!(
        stdout.contains("fuzz_regressions: ") && stdout.contains(" checks passed"),
        "fuzz_regressions did not report its checks:\n{stdout}"
    );
}

/// `othello_engine_new()` when the table cannot be allocated: must return
/// NULL with OTHELLO_STATUS_OUT_OF_MEMORY, not abort the process (the
/// table is allocated with `try_reserve`, src/search/table.rs `Table::try_new`).
#[test]
fn engine_new_out_of_memory() {
    // No sanitizer: AddressSanitizer needs more address space than the
    // test allows.
    let exe = Build::c(C11_FLAGS)
        .source("tests/c/fuzz_regressions.c")
        .link(Link::Static)
        .build("fuzz", "fuzz_regressions_plain");
    let stdout = run_program(&exe, &["out-of-memory"], &[]);
    assert!(stdout.contains(" checks passed"), "{stdout}");
}

/// A second exact search of a position on the same engine must return a
/// move that reaches the exact score it reports: the table keeps a solved
/// entry's best move when a midgame result for the same position is stored
/// (src/search/table.rs, `Table::store`).
#[test]
fn warm_exact_search_move() {
    let exe = build_sanitized(
        "fuzz_regressions_warm_exact",
        &["tests/c/fuzz_regressions.c"],
        &[],
    );
    let stdout = run_program(&exe, &["warm-exact"], ASAN_ENV);
    assert!(stdout.contains(" checks passed"), "{stdout}");
}
