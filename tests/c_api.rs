//! Builds the C programs of `tests/c/` with the system C compiler against the
//! library cargo just built (`libothello.so` and `libothello.a`, see
//! [`lib_dir`]) and runs them:
//!
//! - `api_test.c`: the API contract of `include/othello.h`;
//! - `perft.c`: move generation through the API from the start position;
//! - `header_twice.c`: the header included twice, as C99 and as C++17;
//! - `sizes_test.c`: boards of every size from 4x4 to 16x16;
//!
//! against the shared library, the static library, the static library under
//! AddressSanitizer + UndefinedBehaviorSanitizer, and (when installed) the
//! shared library under valgrind. Build outputs go to `CARGO_TARGET_TMPDIR`.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod cbuild;
use cbuild::{lib_dir, manifest_dir, ASAN_ENV, ASAN_FLAGS, C11_FLAGS, STATIC_SYSTEM_LIBS};

const C99_FLAGS: &[&str] = &["-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Werror"];
const CXX17_FLAGS: &[&str] = &["-std=c++17", "-Wall", "-Wextra", "-Wpedantic", "-Werror"];

/// Perft depth for the sanitizer build (the plain builds use the default, 7).
const SANITIZED_PERFT_DEPTH: &str = "5";

/// The output directory of one test: each test has its own, as they run in
/// parallel.
fn out_dir(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("c_api")
        .join(test);
    fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    dir
}

fn source(name: &str) -> PathBuf {
    manifest_dir().join("tests").join("c").join(name)
}

fn describe(cmd: &Command) -> String {
    let mut s = cmd.get_program().to_string_lossy().into_owned();
    for arg in cmd.get_args() {
        s.push(' ');
        s.push_str(&arg.to_string_lossy());
    }
    s
}

/// Runs `cmd` and panics, with its output, unless it exits with status 0.
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

/// How a C program is linked to the library.
#[derive(Clone, Copy)]
enum Link {
    /// `-L<dir> -lothello` with an rpath to `<dir>`.
    Shared,
    /// `<dir>/libothello.a` and the system libraries it needs.
    Static,
}

/// Compiles and links one C source; returns the path of the executable.
fn build(
    compiler: &str,
    lang_flags: &[&str],
    extra_flags: &[&str],
    src: &str,
    link: Link,
    test: &str,
) -> PathBuf {
    let lib = lib_dir();
    let exe = out_dir(test).join(Path::new(src).file_stem().expect("a file name"));
    let mut cmd = Command::new(compiler);
    cmd.args(lang_flags)
        .args(extra_flags)
        .arg("-I")
        .arg(manifest_dir().join("include"))
        .arg("-o")
        .arg(&exe);
    if compiler.ends_with("++") {
        // The sources are .c files: compile them as C++, then stop forcing
        // the language so that the libraries link normally.
        cmd.args(["-x", "c++"])
            .arg(source(src))
            .args(["-x", "none"]);
    } else {
        cmd.arg(source(src));
    }
    match link {
        Link::Shared => {
            cmd.arg("-L")
                .arg(&lib)
                .arg("-lothello")
                .arg(format!("-Wl,-rpath,{}", lib.display()));
        }
        Link::Static => {
            cmd.arg(lib.join("libothello.a")).args(STATIC_SYSTEM_LIBS);
        }
    }
    run(&format!("compiling {src} ({test})"), &mut cmd);
    exe
}

/// Runs a built program and returns its stdout.
fn run_program(exe: &Path, args: &[&str], env_vars: &[(&str, &str)]) -> String {
    let mut cmd = Command::new(exe);
    // cargo's LD_LIBRARY_PATH lists target/<profile> before deps/, where a
    // stale libothello.so from an earlier `cargo build` would win over the
    // rpath: the program must load the library this test run built.
    cmd.env_remove("LD_LIBRARY_PATH").args(args);
    for (k, v) in env_vars {
        cmd.env(k, v);
    }
    let out = run(&format!("running {}", exe.display()), &mut cmd);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    print!("{stdout}");
    stdout
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

/// The executable `name` on PATH, if any.
fn on_path(name: &str) -> Option<PathBuf> {
    let path = env::var_os("PATH")?;
    env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

#[test]
fn header_twice_c99() {
    let exe = build(
        "cc",
        C99_FLAGS,
        &[],
        "header_twice.c",
        Link::Shared,
        "header_twice_c99",
    );
    run_program(&exe, &[], &[]);
}

#[test]
fn header_twice_cxx17() {
    let exe = build(
        "g++",
        CXX17_FLAGS,
        &[],
        "header_twice.c",
        Link::Shared,
        "header_twice_cxx17",
    );
    run_program(&exe, &[], &[]);
}

#[test]
fn api_test_shared() {
    let exe = build(
        "cc",
        C11_FLAGS,
        &[],
        "api_test.c",
        Link::Shared,
        "api_test_shared",
    );
    assert_api_test_passed(&run_program(&exe, &[], &[]));
}

#[test]
fn perft_shared() {
    let exe = build(
        "cc",
        C11_FLAGS,
        &[],
        "perft.c",
        Link::Shared,
        "perft_shared",
    );
    assert_perft_passed(&run_program(&exe, &[], &[]), 7);
}

#[test]
fn api_test_static() {
    let exe = build(
        "cc",
        C11_FLAGS,
        &[],
        "api_test.c",
        Link::Static,
        "api_test_static",
    );
    assert_api_test_passed(&run_program(&exe, &[], &[]));
}

#[test]
fn perft_static() {
    let exe = build(
        "cc",
        C11_FLAGS,
        &[],
        "perft.c",
        Link::Static,
        "perft_static",
    );
    assert_perft_passed(&run_program(&exe, &[], &[]), 7);
}

#[test]
fn api_test_sanitized() {
    let exe = build(
        "cc",
        C11_FLAGS,
        ASAN_FLAGS,
        "api_test.c",
        Link::Static,
        "api_test_sanitized",
    );
    assert_api_test_passed(&run_program(&exe, &[], ASAN_ENV));
}

#[test]
fn perft_sanitized() {
    let exe = build(
        "cc",
        C11_FLAGS,
        ASAN_FLAGS,
        "perft.c",
        Link::Static,
        "perft_sanitized",
    );
    assert_perft_passed(
        &run_program(&exe, &[SANITIZED_PERFT_DEPTH], ASAN_ENV),
        SANITIZED_PERFT_DEPTH.parse().expect("a number"),
    );
}

#[test]
fn api_test_valgrind() {
    let Some(valgrind) = on_path("valgrind") else {
        println!("note: valgrind is not on PATH: skipping the valgrind run of api_test");
        return;
    };
    let exe = build(
        "cc",
        C11_FLAGS,
        &["-g"],
        "api_test.c",
        Link::Shared,
        "api_test_valgrind",
    );
    let out = run(
        "api_test under valgrind",
        Command::new(valgrind)
            .args([
                "--error-exitcode=99",
                "--leak-check=full",
                "--errors-for-leak-kinds=definite",
            ])
            .arg(&exe),
    );
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
    let exe = build(
        "cc",
        C11_FLAGS,
        &[],
        "sizes_test.c",
        Link::Shared,
        "sizes_test_shared",
    );
    assert_sizes_test_passed(&run_program(&exe, &[], &[]));
}

#[test]
fn sizes_test_sanitized() {
    let exe = build(
        "cc",
        C11_FLAGS,
        ASAN_FLAGS,
        "sizes_test.c",
        Link::Static,
        "sizes_test_sanitized",
    );
    assert_sizes_test_passed(&run_program(&exe, &[], ASAN_ENV));
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
        "cc",
        C11_FLAGS,
        &["-pthread"],
        "engine_test.c",
        Link::Shared,
        "engine_test_shared",
    );
    assert_engine_test_passed(&run_program(&exe, &[], &[]));
}

#[test]
fn engine_test_sanitized() {
    let exe = build(
        "cc",
        C11_FLAGS,
        &[
            "-pthread",
            ASAN_FLAGS[0],
            ASAN_FLAGS[1],
            ASAN_FLAGS[2],
            ASAN_FLAGS[3],
        ],
        "engine_test.c",
        Link::Static,
        "engine_test_sanitized",
    );
    assert_engine_test_passed(&run_program(&exe, &[], ASAN_ENV));
}
