//! The language bindings of `examples/`, run against the library cargo built
//! for this test run:
//!
//! - Python (`examples/python/othello.py`, ctypes): its unittest suite
//!   `examples/python/test_othello.py` (a whole game, undo/redo, a progress
//!   callback written in Python, stop from another Python thread, BUSY,
//!   errors as exceptions, context managers and garbage collection, the
//!   opening book (built-in, none, loaded from `weights/book.bin`), the
//!   header's functions and codes all declared, `play.py` scripted), run with
//!   `python3 -m unittest` and `OTHELLO_LIBRARY` naming the library;
//! - C++ (`examples/cpp/othello.hpp`): `demo.cpp` and
//!   `tests/cpp/wrapper_test.cpp` (given the path of `weights/book.bin`,
//!   which it loads as a book), compiled with
//!   `g++ -std=c++17 -Wall -Wextra -Wpedantic -Werror` (the test also as
//!   C++20) and run; the test once more against the static library under
//!   AddressSanitizer + UBSan, whose leak check proves the handles freed.

use std::path::PathBuf;
use std::process::Command;

mod cbuild;
use cbuild::{lib_dir, manifest_dir, on_path, program, run, Build, ASAN_ENV};

const CXX_FLAGS: &[&str] = &[
    "-Wall",
    "-Wextra",
    "-Wpedantic",
    "-Werror",
    "-O0",
    "-pthread",
];

// ---------------------------------------------------------------------------
// Python

#[test]
fn python_binding() {
    assert!(
        on_path("python3").is_some(),
        "python3 is not on PATH: the Python binding cannot be tested (./test.sh installs it)"
    );
    let lib = lib_dir().join("libothello.so");
    let out = run(
        "the Python tests (examples/python/test_othello.py)",
        Command::new("python3")
            .args(["-m", "unittest", "discover", "-v", "-s"])
            .arg(manifest_dir().join("examples").join("python"))
            .args(["-p", "test_*.py"])
            .current_dir(manifest_dir())
            .env("OTHELLO_LIBRARY", &lib)
            .env("PYTHONDONTWRITEBYTECODE", "1"),
    );
    // unittest reports on stderr.
    let report = String::from_utf8_lossy(&out.stderr);
    print!("{report}");
    let ran = report
        .lines()
        .find_map(|l| l.strip_prefix("Ran "))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse::<usize>().ok())
        .expect("unittest's \"Ran N tests\" line");
    assert!(ran >= 20, "only {ran} Python tests ran");
    assert!(report.trim_end().ends_with("OK"), "{report}");
    assert!(!report.contains("skipped"), "no Python test may be skipped");
}

// ---------------------------------------------------------------------------
// C++

/// Compiles a C++ source (path from the crate root) with the wrapper;
/// `sanitized` links the static library under ASan + UBSan, otherwise the
/// shared one with an rpath.
fn compile_cxx(source: &str, std: &str, sanitized: bool) -> PathBuf {
    let stem = source
        .rsplit('/')
        .next()
        .and_then(|name| name.strip_suffix(".cpp"))
        .expect("a .cpp file");
    let name = format!(
        "{stem}_{}{}",
        std.replace('+', "x"),
        if sanitized { "_sanitized" } else { "" }
    );
    let build = Build::cxx(&[format!("-std={std}").as_str()])
        .flags(CXX_FLAGS)
        .include("examples/cpp")
        .source(source);
    if sanitized {
        build.sanitized().build("bindings", &name)
    } else {
        build.build("bindings", &name)
    }
}

#[test]
fn cpp_demo() {
    let exe = compile_cxx("examples/cpp/demo.cpp", "c++17", false);
    let out = run("examples/cpp/demo.cpp", &mut program(&exe));
    let text = String::from_utf8_lossy(&out.stdout);
    print!("{text}");
    for expected in [
        "legal moves: d3 c4 f5 e6",
        "f5 flips: e5",
        "play(\"z9\") threw: status 9, ",
        "try_play(\"a1\"): illegal move (",
        "book moves: ",
        "book search: ",
        "redone: same position",
        "ffo #1: g8 +18 (exact) h1 +12 (exact) ",
        "callback exception: search stopped",
        "boards: 2, the second at move 4; best there: ",
        "moved-from board: ",
        "done",
    ] {
        assert!(
            text.lines().any(|l| l.starts_with(expected)),
            "demo.cpp should print a line starting {expected:?}:\n{text}"
        );
    }
    let game = text
        .lines()
        .find_map(|l| l.strip_prefix("game over: black "))
        .expect("a finished game");
    let numbers: Vec<i32> = game
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().expect("a number"))
        .collect();
    let (black, white, passes, turns) = (numbers[0], numbers[1], numbers[2], numbers[3]);
    assert!(black + white <= 64 && black + white >= 10, "{game}");
    assert!(turns >= 55 && passes <= turns, "{game}");
    let first = text
        .lines()
        .find_map(|l| l.strip_prefix("first search: "))
        .expect("the first search");
    assert!(first.ends_with("after 3 iterations"), "{first}");
    let booked = text
        .lines()
        .find_map(|l| l.strip_prefix("book search: "))
        .expect("the book search");
    assert!(booked.ends_with("from book yes, 0 nodes"), "{booked}");
    let book_moves = text
        .lines()
        .find_map(|l| l.strip_prefix("book moves: "))
        .expect("the book moves");
    let played = booked.split(' ').next().expect("the book move");
    assert!(
        book_moves.split(' ').any(|w| w == played),
        "{played} is not among the book moves {book_moves}"
    );
}

const WRAPPER_TEST: &str = "tests/cpp/wrapper_test.cpp";

/// The wrapper test's argument: the built-in book's file, which it loads.
fn book_file() -> PathBuf {
    manifest_dir().join("weights").join("book.bin")
}

#[test]
fn cpp_wrapper() {
    for std in ["c++17", "c++20"] {
        let exe = compile_cxx(WRAPPER_TEST, std, false);
        let out = run(
            &format!("wrapper_test ({std})"),
            program(&exe).arg(book_file()),
        );
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("wrapper_test: ") && text.contains(" checks passed"),
            "{std}: {text}"
        );
    }
}

#[test]
fn cpp_wrapper_under_sanitizers() {
    let exe = compile_cxx(WRAPPER_TEST, "c++17", true);
    let out = run(
        "wrapper_test under ASan + UBSan",
        program(&exe)
            .arg(book_file())
            .envs(ASAN_ENV.iter().copied()),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("wrapper_test: ") && text.contains(" checks passed"),
        "{text}"
    );
}
