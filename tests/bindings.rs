//! The language bindings: the C++ wrapper against the library cargo built
//! for this test run, the Python package built by pip from the checkout:
//!
//! - Python (`python/`, the `othello` package: the library built into a
//!   native module, pyo3 for the board and ctypes for the rest): a wheel
//!   built with pip, installed into a fresh virtual environment outside the
//!   checkout, `mypy --strict` on it, and its tests `python/tests` (a whole
//!   game, undo/redo, a progress callback written in Python, stop from
//!   another Python thread, BUSY, errors as exceptions, context managers and
//!   garbage collection, the opening book (built-in, none, loaded from
//!   `weights/book.bin`), the header's functions and codes all declared, the
//!   bulk calls and arrays, `python -m othello` scripted) run there with
//!   pytest;
//! - C++ (`examples/cpp/othello.hpp`): `demo.cpp` and
//!   `tests/cpp/wrapper_test.cpp` (given the path of `weights/book.bin`,
//!   which it loads as a book), compiled with
//!   `g++ -std=c++17 -Wall -Wextra -Wpedantic -Werror` (the test also as
//!   C++20) and run; the test once more against the static library under
//!   AddressSanitizer + UBSan, whose leak check proves the handles freed.

use std::env;
use std::ffi::OsStr;
use std::fs;
use std::path::PathBuf;
use std::process::{self, Command};

mod cbuild;
use cbuild::{manifest_dir, on_path, program, python_build_env, run, Build, ASAN_ENV};

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

/// A directory under the system's temporary directory, outside the
/// checkout (the package must not be importable from where it runs),
/// removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = env::temp_dir().join(format!("{name}-{}", process::id()));
        if dir.exists() {
            fs::remove_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        }
        fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// The package of `python/` as a new user gets it: a wheel built by pip
/// (setuptools-rust running cargo on python/Cargo.toml), installed into a
/// fresh virtual environment outside the checkout, with pytest, numpy and
/// mypy; then `python/tests` run there by pytest (InstalledTest checks that
/// they import the installed copy and its own native module), and `mypy
/// --strict` checks the installed package. pip fetches setuptools-rust,
/// pytest, numpy and mypy from PyPI (from its cache after the first run).
/// The wheel's cargo build goes to its own target directory under
/// `CARGO_TARGET_TMPDIR` (kept between runs; it never waits for a lock on
/// `target/`), optimised but without the release profile's LTO: the same
/// module, in a minute or two of compiling instead of four.
#[test]
fn python_package() {
    let python3 = on_path("python3").expect(
        "python3 is not on PATH: the Python package cannot be tested (./test.sh installs it)",
    );
    let work = TempDir::new("othello-python-package");
    let venv = work.0.join("venv");
    run(
        "python3 -m venv (./test.sh installs python3-venv)",
        Command::new(&python3).args(["-m", "venv"]).arg(&venv),
    );
    let python = venv.join("bin").join("python");
    let python_env = |cmd: &mut Command| {
        cmd.current_dir(&work.0)
            .env_remove("PYTHONPATH")
            .env_remove("OTHELLO_LIBRARY")
            .env("PYTHONDONTWRITEBYTECODE", "1")
            .env("PIP_DISABLE_PIP_VERSION_CHECK", "1");
    };

    let dist = work.0.join("dist");
    let mut wheel = Command::new(&python);
    python_env(&mut wheel);
    python_build_env(&mut wheel);
    run(
        "pip wheel python/",
        wheel
            .args(["-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir"])
            .arg(&dist)
            .arg(manifest_dir().join("python")),
    );
    let wheels: Vec<PathBuf> = fs::read_dir(&dist)
        .expect("the wheel directory")
        .map(|e| e.expect("a directory entry").path())
        .collect();
    assert_eq!(wheels.len(), 1, "one wheel: {wheels:?}");
    let wheel_name = wheels[0].file_name().and_then(OsStr::to_str).unwrap_or("");
    assert!(
        wheel_name.starts_with(&format!("othello-{}-", env!("CARGO_PKG_VERSION")))
            && wheel_name.ends_with(".whl"),
        "{wheel_name}"
    );

    let mut install = Command::new(&python);
    python_env(&mut install);
    run(
        "pip install the wheel and pytest",
        install
            .args(["-m", "pip", "install", "--quiet"])
            .arg(&wheels[0])
            .args(["pytest>=7", "numpy", "mypy"]),
    );
    let mut pytest = Command::new(&python);
    python_env(&mut pytest);
    let out = run(
        "pytest python/tests against the installed package",
        pytest
            .args(["-m", "pytest", "-v", "-p", "no:cacheprovider"])
            .arg(manifest_dir().join("python").join("tests")),
    );
    let report = String::from_utf8_lossy(&out.stdout);
    print!("{report}");
    let summary = report.lines().last().unwrap_or("");
    let passed = summary
        .split([' ', '='])
        .collect::<Vec<_>>()
        .windows(2)
        .find(|w| w[1] == "passed")
        .and_then(|w| w[0].parse::<usize>().ok())
        .unwrap_or_else(|| panic!("pytest's summary line: {summary:?}"));
    assert!(passed >= 30, "only {passed} Python tests passed");
    for word in ["failed", "skipped", "error", "xfail"] {
        assert!(!summary.contains(word), "{summary}");
    }
    // The package's types, as a user's `mypy --strict` reads them.
    let mut mypy = Command::new(&python);
    python_env(&mut mypy);
    run(
        "mypy --strict on the installed package",
        mypy.args([
            "-m",
            "mypy",
            "--strict",
            "--no-incremental",
            "-p",
            "othello",
        ]),
    );
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
