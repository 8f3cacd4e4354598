//! The language bindings of `examples/`, run against the library cargo built
//! for this test run:
//!
//! - Python (`examples/python/othello.py`, ctypes): its unittest suite
//!   `examples/python/test_othello.py` (a whole game, undo/redo, a progress
//!   callback written in Python, stop from another Python thread, BUSY,
//!   errors as exceptions, context managers and garbage collection, the
//!   header's functions and codes all declared, `play.py` scripted), run with
//!   `python3 -m unittest` and `OTHELLO_LIBRARY` naming the library;
//! - C++ (`examples/cpp/othello.hpp`): `demo.cpp` and
//!   `tests/cpp/wrapper_test.cpp`, compiled with
//!   `g++ -std=c++17 -Wall -Wextra -Wpedantic -Werror` (the test also as
//!   C++20) and run; the test once more against the static library under
//!   AddressSanitizer + UBSan, whose leak check proves the handles freed.

use std::env;
use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const CXX_FLAGS: &[&str] = &["-Wall", "-Wextra", "-Wpedantic", "-Werror", "-O0"];

/// What a program linked against `libothello.a` needs from the system.
const STATIC_SYSTEM_LIBS: &[&str] = &[
    "-lgcc_s",
    "-lutil",
    "-lrt",
    "-lpthread",
    "-lm",
    "-ldl",
    "-lc",
];

const SANITIZE_FLAGS: &[&str] = &[
    "-fsanitize=address,undefined",
    "-fno-omit-frame-pointer",
    "-fno-sanitize-recover=all",
];

fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The directory of the `libothello.{so,a}` built for this test run: the
/// test executable's `deps/` directory (cargo copies the libraries up to
/// `target/<profile>/` only for `cargo build`, so that copy may be stale).
fn lib_dir() -> PathBuf {
    let exe = env::current_exe().expect("path of the test executable");
    let deps = exe.parent().expect("the test executable has a directory");
    assert_eq!(
        deps.file_name(),
        Some(OsStr::new("deps")),
        "expected the test executable in target/<profile>/deps, found {}",
        exe.display()
    );
    let libs = ["libothello.so", "libothello.a"];
    let profile = deps.parent().expect("deps/ has a parent");
    let dir = [deps, profile]
        .into_iter()
        .find(|dir| libs.iter().all(|lib| dir.join(lib).is_file()))
        .unwrap_or_else(|| panic!("libothello.so and .a not found in {}", deps.display()))
        .to_path_buf();
    dir
}

fn out_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bindings");
    fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    dir
}

fn describe(cmd: &Command) -> String {
    let mut s = cmd.get_program().to_string_lossy().into_owned();
    for arg in cmd.get_args() {
        s.push(' ');
        s.push_str(&arg.to_string_lossy());
    }
    s
}

/// Runs `cmd`; panics with its output unless it exits with status 0.
fn run(what: &str, cmd: &mut Command) -> Output {
    let line = describe(cmd);
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot start `{line}`: {e}"));
    if !out.status.success() {
        panic!(
            "{what} failed ({})\ncommand: {line}\n--- stdout ---\n{}\n--- stderr ---\n{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
    }
    out
}

fn on_path(program: &str) -> bool {
    env::var_os("PATH")
        .is_some_and(|path| env::split_paths(&path).any(|d| d.join(program).is_file()))
}

// ---------------------------------------------------------------------------
// Python

#[test]
fn python_binding() {
    assert!(
        on_path("python3"),
        "python3 is not on PATH: the Python binding cannot be tested (.ci/run installs it)"
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

/// Compiles a C++ source with the wrapper; `sanitized` links the static
/// library under ASan + UBSan, otherwise the shared one with an rpath.
fn compile_cxx(source: &Path, std: &str, sanitized: bool) -> PathBuf {
    let lib = lib_dir();
    let stem = source
        .file_stem()
        .and_then(|s| s.to_str())
        .expect("a file name");
    let exe = out_dir().join(format!(
        "{stem}_{}{}",
        std.replace('+', "x"),
        if sanitized { "_sanitized" } else { "" }
    ));
    let mut cmd = Command::new("g++");
    cmd.arg(format!("-std={std}"))
        .args(CXX_FLAGS)
        .arg("-pthread")
        .arg("-I")
        .arg(manifest_dir().join("include"))
        .arg("-I")
        .arg(manifest_dir().join("examples").join("cpp"))
        .arg("-o")
        .arg(&exe)
        .arg(source);
    if sanitized {
        cmd.args(SANITIZE_FLAGS)
            .arg(lib.join("libothello.a"))
            .args(STATIC_SYSTEM_LIBS);
    } else {
        cmd.arg("-L")
            .arg(&lib)
            .arg("-lothello")
            .arg(format!("-Wl,-rpath,{}", lib.display()));
    }
    run(
        &format!("compiling {} as {std}", source.display()),
        &mut cmd,
    );
    exe
}

#[test]
fn cpp_demo() {
    let exe = compile_cxx(
        &manifest_dir().join("examples").join("cpp").join("demo.cpp"),
        "c++17",
        false,
    );
    let out = run("examples/cpp/demo.cpp", &mut Command::new(&exe));
    let text = String::from_utf8_lossy(&out.stdout);
    print!("{text}");
    for expected in [
        "legal moves: d3 c4 f5 e6",
        "f5 flips: e5",
        "play(\"z9\") threw: status 9, ",
        "try_play(\"a1\"): illegal move (",
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
}

#[test]
fn cpp_wrapper() {
    let source = manifest_dir()
        .join("tests")
        .join("cpp")
        .join("wrapper_test.cpp");
    for std in ["c++17", "c++20"] {
        let exe = compile_cxx(&source, std, false);
        let out = run(&format!("wrapper_test ({std})"), &mut Command::new(&exe));
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("wrapper_test: ") && text.contains(" checks passed"),
            "{std}: {text}"
        );
    }
}

#[test]
fn cpp_wrapper_under_sanitizers() {
    let source = manifest_dir()
        .join("tests")
        .join("cpp")
        .join("wrapper_test.cpp");
    let exe = compile_cxx(&source, "c++17", true);
    let out = run(
        "wrapper_test under ASan + UBSan",
        Command::new(&exe)
            .env("ASAN_OPTIONS", "detect_leaks=1")
            .env("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1"),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("wrapper_test: ") && text.contains(" checks passed"),
        "{text}"
    );
}
