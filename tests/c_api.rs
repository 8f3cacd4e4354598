//! Builds the C programs of `tests/c/` with the system C compiler against the
//! library cargo just built (`libothello.so` and `libothello.a`, see
//! `cbuild::lib_dir`) and runs them:
//!
//! - `api_test.c`: the API contract of `include/othello.h`;
//! - `perft.c`: move generation through the API from the start position;
//! - `header_twice.c`: the header included twice, as C99 and as C++17;
//! - `sizes_test.c`: boards of every size from 4x4 to 16x16;
//!
//! against the shared library, the static library, the static library under
//! AddressSanitizer + UndefinedBehaviorSanitizer, and (when installed) the
//! shared library under valgrind. Build outputs go to `CARGO_TARGET_TMPDIR`.

use std::path::PathBuf;

mod cbuild;
use cbuild::{run, run_program, valgrind, wrapped, Build, Link, ASAN_ENV, C11_FLAGS};

const C99_FLAGS: &[&str] = &["-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Werror"];
const CXX17_FLAGS: &[&str] = &["-std=c++17", "-Wall", "-Wextra", "-Wpedantic", "-Werror"];

/// Perft depth for the sanitizer build (the plain builds use the default, 7).
const SANITIZED_PERFT_DEPTH: &str = "5";

/// `tests/c/<src>` compiled with `cc`, C11 and `extra` flags, linked by
/// `link`, into the output directory of `test`.
fn build(src: &str, extra: &[&str], link: Link, test: &str) -> PathBuf {
    Build::c(C11_FLAGS)
        .flags(extra)
        .source(&format!("tests/c/{src}"))
        .link(link)
        .build("c_api", test)
}

/// `tests/c/<src>` under AddressSanitizer + UBSan (static library).
fn build_sanitized(src: &str, extra: &[&str], test: &str) -> PathBuf {
    Build::c(C11_FLAGS)
        .flags(extra)
        .source(&format!("tests/c/{src}"))
        .sanitized()
        .build("c_api", test)
}

fn assert_api_test_passed(stdout: &str) {
    assert!(
        stdout.contains("api_test: ") && stdout.contains(" checks passed"),
        "api_test did not report its checks:\n{stdout}"
    );
}

fn assert_perft_passed(stdout: &str, depth: u32) {
    assert!(
        stdout.contains(&format!("perft: depths 1..{depth} ok")),
        "perft did not report depths 1..{depth}:\n{stdout}"
    );
}

#[test]
fn header_twice_c99() {
    let exe = Build::c(C99_FLAGS)
        .source("tests/c/header_twice.c")
        .build("c_api", "header_twice_c99");
    run_program(&exe, &[], &[]);
}

#[test]
fn header_twice_cxx17() {
    let exe = Build::cxx(CXX17_FLAGS)
        .source_as_cxx("tests/c/header_twice.c")
        .build("c_api", "header_twice_cxx17");
    run_program(&exe, &[], &[]);
}

#[test]
fn api_test_shared() {
    let exe = build("api_test.c", &[], Link::Shared, "api_test_shared");
    assert_api_test_passed(&run_program(&exe, &[], &[]));
}

#[test]
fn perft_shared() {
    let exe = build("perft.c", &[], Link::Shared, "perft_shared");
    assert_perft_passed(&run_program(&exe, &[], &[]), 7);
}

#[test]
fn api_test_static() {
    let exe = build("api_test.c", &[], Link::Static, "api_test_static");
    assert_api_test_passed(&run_program(&exe, &[], &[]));
}

#[test]
fn perft_static() {
    let exe = build("perft.c", &[], Link::Static, "perft_static");
    assert_perft_passed(&run_program(&exe, &[], &[]), 7);
}

#[test]
fn api_test_sanitized() {
    let exe = build_sanitized("api_test.c", &[], "api_test_sanitized");
    assert_api_test_passed(&run_program(&exe, &[], ASAN_ENV));
}

#[test]
fn perft_sanitized() {
    let exe = build_sanitized("perft.c", &[], "perft_sanitized");
    assert_perft_passed(
        &run_program(&exe, &[SANITIZED_PERFT_DEPTH], ASAN_ENV),
        SANITIZED_PERFT_DEPTH.parse().expect("a number"),
    );
}

#[test]
fn api_test_valgrind() {
    let Some(valgrind) = valgrind() else {
        println!("note: valgrind is not on PATH: skipping the valgrind run of api_test");
        return;
    };
    let exe = build("api_test.c", &["-g"], Link::Shared, "api_test_valgrind");
    let out = run("api_test under valgrind", &mut wrapped(&valgrind, &exe));
    let stdout = String::from_utf8_lossy(&out.stdout);
    print!("{stdout}");
    assert_api_test_passed(&stdout);
}

fn assert_sizes_test_passed(stdout: &str) {
    assert!(
        stdout.contains("sizes_test: ") && stdout.contains(" checks passed"),
        "sizes_test did not report its checks:\n{stdout}"
    );
}

#[test]
fn sizes_test_shared() {
    let exe = build("sizes_test.c", &[], Link::Shared, "sizes_test_shared");
    assert_sizes_test_passed(&run_program(&exe, &[], &[]));
}

#[test]
fn sizes_test_sanitized() {
    let exe = build_sanitized("sizes_test.c", &[], "sizes_test_sanitized");
    assert_sizes_test_passed(&run_program(&exe, &[], ASAN_ENV));
}

/// The built-in book's file, for engine_test's loading checks.
fn book_file() -> String {
    cbuild::manifest_dir()
        .join("weights/book.bin")
        .display()
        .to_string()
}

fn assert_engine_test_passed(stdout: &str) {
    assert!(
        stdout.contains("engine_test: ") && stdout.contains(" checks passed"),
        "engine_test did not report its checks:\n{stdout}"
    );
}

#[test]
fn engine_test_shared() {
    let exe = build(
        "engine_test.c",
        &["-pthread"],
        Link::Shared,
        "engine_test_shared",
    );
    assert_engine_test_passed(&run_program(&exe, &[&book_file()], &[]));
}

#[test]
fn engine_test_sanitized() {
    let exe = build_sanitized("engine_test.c", &["-pthread"], "engine_test_sanitized");
    assert_engine_test_passed(&run_program(&exe, &[&book_file()], ASAN_ENV));
}
