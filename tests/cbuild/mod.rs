//! Building and running C programs against the library cargo just built,
//! shared by every test that compiles C (`tests/c_api.rs`, `console.rs`,
//! `examples.rs`, `nboard.rs`, `fuzz.rs`, `stress.rs`).

#![allow(dead_code)]

use std::env;
use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// What a program linked against `libothello.a` needs from the system
/// (`cargo rustc -- --print native-static-libs`).
pub const STATIC_SYSTEM_LIBS: &[&str] = &[
    "-lgcc_s",
    "-lutil",
    "-lrt",
    "-lpthread",
    "-lm",
    "-ldl",
    "-lc",
];

/// C11 with warnings as errors.
pub const C11_FLAGS: &[&str] = &["-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror"];

/// AddressSanitizer (with LeakSanitizer) and UndefinedBehaviorSanitizer.
pub const ASAN_FLAGS: &[&str] = &[
    "-fsanitize=address,undefined",
    "-fno-omit-frame-pointer",
    "-fno-sanitize-recover=all",
    "-g",
];

pub const ASAN_ENV: &[(&str, &str)] = &[
    ("ASAN_OPTIONS", "detect_leaks=1"),
    ("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1"),
];

pub fn manifest_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

const LIBS: [&str; 2] = ["libothello.so", "libothello.a"];

/// The directory holding the `libothello.{so,a}` built for this test run.
///
/// The test executable runs from `target/<profile>/deps/`. Building the test
/// builds the library there, with all its crate types, but cargo copies them
/// up to `target/<profile>/` only for `cargo build`: that copy is missing on a
/// fresh checkout and stale after a source change followed by `cargo test`.
/// So `deps/` comes first, and `target/<profile>/` is only a fallback.
pub fn lib_dir() -> PathBuf {
    let exe = env::current_exe().expect("path of the test executable");
    let deps = exe
        .parent()
        .expect("the test executable has a parent directory");
    assert_eq!(
        deps.file_name(),
        Some(OsStr::new("deps")),
        "expected the test executable in target/<profile>/deps, found {}",
        exe.display()
    );
    let profile = deps.parent().expect("deps/ has a parent directory");
    let found = [deps, profile]
        .into_iter()
        .find(|dir| LIBS.iter().all(|lib| dir.join(lib).is_file()))
        .unwrap_or_else(|| {
            panic!(
                "{} not found in {} nor in {}",
                LIBS.join(" and "),
                deps.display(),
                profile.display()
            )
        })
        .to_path_buf();
    found
}

/// A fresh output directory per test (tests run in parallel).
pub fn out_dir(group: &str, test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(group)
        .join(test);
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

/// Runs `cmd`; its output, whatever the exit status.
pub fn output(what: &str, cmd: &mut Command) -> Output {
    let line = describe(cmd);
    cmd.output()
        .unwrap_or_else(|e| panic!("{what}: cannot start `{line}`: {e}"))
}

/// Runs `cmd` and panics, with its output, unless it exits with status 0.
pub fn run(what: &str, cmd: &mut Command) -> Output {
    let line = describe(cmd);
    let out = output(what, cmd);
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

/// Compiles `sources` (paths from the crate root) with `cc` and `flags`, links
/// them against `libothello.a`, and returns the executable's path.
pub fn build_static(group: &str, test: &str, sources: &[&str], flags: &[&str]) -> PathBuf {
    build(group, test, sources, flags, true)
}

/// As [`build_static`], linked against `libothello.so` instead (found
/// through an rpath: run it without `LD_LIBRARY_PATH`, which would win).
pub fn build_shared(group: &str, test: &str, sources: &[&str], flags: &[&str]) -> PathBuf {
    build(group, test, sources, flags, false)
}

fn build(group: &str, test: &str, sources: &[&str], flags: &[&str], fixed: bool) -> PathBuf {
    let exe = out_dir(group, test).join(test);
    let mut cmd = Command::new("cc");
    cmd.args(flags)
        .arg("-I")
        .arg(manifest_dir().join("include"))
        .arg("-o")
        .arg(&exe);
    for src in sources {
        cmd.arg(manifest_dir().join(src));
    }
    let lib = lib_dir();
    if fixed {
        cmd.arg(lib.join("libothello.a")).args(STATIC_SYSTEM_LIBS);
    } else {
        cmd.arg("-L")
            .arg(&lib)
            .arg("-lothello")
            .arg(format!("-Wl,-rpath,{}", lib.display()));
    }
    run(
        &format!("compiling {} ({test})", sources.join(" ")),
        &mut cmd,
    );
    exe
}

/// Runs a built program with `args` and `env_vars`; panics unless it exits
/// with 0; returns its stdout (also printed).
pub fn run_program(exe: &Path, args: &[&str], env_vars: &[(&str, &str)]) -> String {
    let mut cmd = Command::new(exe);
    cmd.args(args);
    for (k, v) in env_vars {
        cmd.env(k, v);
    }
    let out = run(&format!("running {}", exe.display()), &mut cmd);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    print!("{stdout}");
    eprint!("{}", String::from_utf8_lossy(&out.stderr));
    stdout
}
