//! The library installed like a C library, with cargo-c, and used from
//! there (docs/guide.md "Installing"):
//!
//! - `cargo cinstall` into a temporary prefix: the shared library with its
//!   SONAME and version links, the static library, `othello.h` (the committed
//!   header, byte for byte), the C++ wrapper `othello.hpp` beside it and
//!   `othello.pc` (version, flags, the private libraries the static library
//!   needs);
//! - `tests/install/app.c` built with `pkg-config --cflags --libs othello`
//!   (shared, found at run time through the prefix's libdir) and with
//!   `--static` (no libothello.so needed at run time), `tests/install/app.cpp`
//!   (`#include <othello.hpp>`, the installed wrapper) with pkg-config, and
//!   the CMake project `tests/install/CMakeLists.txt`
//!   (`pkg_check_modules(... IMPORTED_TARGET othello)`), which builds both;
//!   each must play a whole game;
//! - `make -C examples install PREFIX=...` (docs/protocols.md), which runs
//!   the same `cargo cinstall` and installs `othello-engine` into
//!   `PREFIX/bin`: found on a `PATH` that lists it, it runs without
//!   `LD_LIBRARY_PATH` (the rpath of the prefix's libdir), says in `--help`
//!   how to add it to NBoard and to a GTP GUI, and plays a move in each
//!   protocol, chosen by flag and by the first command.
//!
//! cargo-c, pkg-config and cmake must be installed (README.md's test command,
//! `./test.sh`, installs them when they are missing): the tests fail, they do
//! not skip, without them. To stay fast, the build goes to
//! its own target directory under `CARGO_TARGET_TMPDIR` (it never waits for
//! a lock on `target/`; cargo-c's cargo could not reuse that build anyway),
//! without the default `header` feature (no cbindgen build: the committed
//! header is installed either way) and with the `dev` profile made
//! unoptimised: the files, SONAME and link flags are those of the
//! documented `--release` install, for seconds instead of minutes of
//! compiling.

use std::env;
use std::ffi::OsString;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

mod cbuild;
use cbuild::{drain, manifest_dir, on_path, program, run, spawn_piped, wait_or_kill};

/// cargo-c's version for this toolchain (newer ones refuse rustc 1.95).
const CARGO_C: &str = "cargo install cargo-c --locked --version 0.10.24+cargo-0.98.0";

fn work_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("install")
}

fn cargo() -> String {
    env::var("CARGO").unwrap_or_else(|_| "cargo".into())
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// The crate's version, from Cargo.toml.
fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

/// The SONAME suffix cargo-c gives this version: `0.MINOR` before 1.0,
/// `MAJOR` from then on (docs/guide.md "Versions and the ABI promise").
fn soname() -> String {
    let mut parts = version().split('.');
    let major = parts.next().expect("a major version");
    let minor = parts.next().expect("a minor version");
    if major == "0" {
        format!("libothello.so.0.{minor}")
    } else {
        format!("libothello.so.{major}")
    }
}

struct Installed {
    prefix: PathBuf,
    /// The prefix's libdir: `lib`, or `lib/<multiarch>` on Debian.
    libdir: PathBuf,
    pkgconfig: PathBuf,
}

/// The file called `name` under `dir`, at any depth.
fn find(dir: &Path, name: &str) -> Option<PathBuf> {
    for entry in fs::read_dir(dir).ok()? {
        let path = entry.ok()?.path();
        if path.is_dir() {
            if let Some(found) = find(&path, name) {
                return Some(found);
            }
        } else if path.file_name().is_some_and(|n| n == name) {
            return Some(path);
        }
    }
    None
}

/// Installs once for all the tests of this file.
fn installed() -> &'static Installed {
    static INSTALLED: OnceLock<Installed> = OnceLock::new();
    INSTALLED.get_or_init(install)
}

fn install() -> Installed {
    let version = Command::new(cargo())
        .args(["cinstall", "--version"])
        .output();
    let present = version.as_ref().is_ok_and(|o| o.status.success());
    assert!(
        present,
        "cargo-c is not installed (`cargo cinstall` is missing): install it with `{CARGO_C}` \
         (./test.sh does so when it is missing); {}",
        match &version {
            Ok(o) => String::from_utf8_lossy(&o.stderr).trim().to_string(),
            Err(e) => e.to_string(),
        }
    );
    let prefix = work_dir().join("prefix");
    if prefix.exists() {
        fs::remove_dir_all(&prefix)
            .unwrap_or_else(|e| panic!("cannot clear {}: {e}", prefix.display()));
    }
    run(
        "cargo cinstall",
        Command::new(cargo())
            .current_dir(manifest_dir())
            .args([
                "cinstall",
                "-p",
                "othello",
                "--debug",
                "--no-default-features",
                "--prefix",
            ])
            .arg(&prefix)
            .arg("--target-dir")
            .arg(work_dir().join("target"))
            .env("CARGO_PROFILE_DEV_OPT_LEVEL", "0")
            .env("CARGO_PROFILE_DEV_DEBUG", "false"),
    );
    // The documented command for the engine program: the same cargo
    // cinstall again (nothing to rebuild), then othello-engine. Before any
    // test runs a program on the prefix, as it rewrites the library.
    run(
        "make -C examples install",
        Command::new("make")
            .arg("-C")
            .arg(manifest_dir().join("examples"))
            .arg("install")
            .arg(format!("PREFIX={}", prefix.display()))
            .arg(format!(
                "CINSTALL_FLAGS=--debug --no-default-features --target-dir {}",
                work_dir().join("target").display()
            ))
            .arg(format!("BINDIR={}", work_dir().join("bin").display()))
            .env("CARGO", cargo())
            .env("CARGO_PROFILE_DEV_OPT_LEVEL", "0")
            .env("CARGO_PROFILE_DEV_DEBUG", "false"),
    );
    let pc = find(&prefix, "othello.pc")
        .unwrap_or_else(|| panic!("no othello.pc under {}", prefix.display()));
    let pkgconfig = pc.parent().expect("a directory").to_path_buf();
    assert_eq!(
        pkgconfig.file_name().and_then(|n| n.to_str()),
        Some("pkgconfig")
    );
    let libdir = pkgconfig.parent().expect("the libdir").to_path_buf();
    assert!(
        libdir.starts_with(prefix.join("lib")),
        "{}",
        libdir.display()
    );
    Installed {
        prefix,
        libdir,
        pkgconfig,
    }
}

fn pkg_config(args: &[&str]) -> String {
    assert!(
        on_path("pkg-config").is_some(),
        "pkg-config is not on PATH (./test.sh installs it)"
    );
    let inst = installed();
    let out = run(
        &format!("pkg-config {}", args.join(" ")),
        Command::new("pkg-config")
            .args(args)
            .env("PKG_CONFIG_PATH", &inst.pkgconfig),
    );
    stdout(&out)
}

fn app_source() -> PathBuf {
    manifest_dir().join("tests").join("install").join("app.c")
}

/// Checks the output of `app`: a whole game with this version.
fn check_game(out: &Output, what: &str) {
    let text = stdout(out);
    let first = text.lines().next().unwrap_or("");
    let expected = format!("othello {}: ", version());
    assert!(first.starts_with(&expected), "{what}: {text}");
    let numbers: Vec<u32> = first[expected.len()..]
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().expect("a number"))
        .collect();
    let (turns, black, white) = (numbers[0], numbers[1], numbers[2]);
    assert!(turns >= 55, "{what}: a whole game: {first}");
    assert!(
        black + white <= 64 && black + white >= 10,
        "{what}: {first}"
    );
    let transcript = text
        .lines()
        .find_map(|l| l.strip_prefix("transcript "))
        .unwrap_or_else(|| panic!("{what}: no transcript: {text}"));
    assert!(transcript.len() >= 2 * 55, "{what}: {transcript}");
}

/// The NEEDED entries of an ELF file (readelf -d), if readelf is there.
fn needed(file: &Path) -> Option<Vec<String>> {
    if on_path("readelf").is_none() {
        println!("note: readelf is not on PATH: dynamic section not checked");
        return None;
    }
    let out = run("readelf -d", Command::new("readelf").arg("-d").arg(file));
    let text = stdout(&out);
    Some(
        text.lines()
            .filter(|l| l.contains("(NEEDED)"))
            .filter_map(|l| {
                let start = l.find('[')? + 1;
                let end = l.rfind(']')?;
                Some(l[start..end].to_string())
            })
            .collect(),
    )
}

#[test]
fn installed_files_pkg_config_file_and_soname() {
    let inst = installed();
    let v = version();
    // The header, byte for byte the committed one.
    let header = inst.prefix.join("include").join("othello.h");
    assert_eq!(
        fs::read(&header).unwrap_or_else(|e| panic!("{}: {e}", header.display())),
        fs::read(manifest_dir().join("include").join("othello.h")).expect("include/othello.h"),
        "the installed header is the committed one"
    );
    // The C++ wrapper, byte for byte the one of examples/cpp, beside it.
    let wrapper = inst.prefix.join("include").join("othello.hpp");
    assert_eq!(
        fs::read(&wrapper).unwrap_or_else(|e| panic!("{}: {e}", wrapper.display())),
        fs::read(
            manifest_dir()
                .join("examples")
                .join("cpp")
                .join("othello.hpp")
        )
        .expect("examples/cpp/othello.hpp"),
        "the installed wrapper is examples/cpp/othello.hpp"
    );
    // The libraries: the real file and its two links.
    let real = inst.libdir.join(format!("libothello.so.{v}"));
    let meta = fs::symlink_metadata(&real).unwrap_or_else(|e| panic!("{}: {e}", real.display()));
    assert!(meta.file_type().is_file(), "{} is a file", real.display());
    for link in [soname(), "libothello.so".to_string()] {
        let path = inst.libdir.join(&link);
        let target = fs::canonicalize(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(
            target,
            fs::canonicalize(&real).unwrap(),
            "{link} leads to libothello.so.{v}"
        );
    }
    assert!(inst.libdir.join("libothello.a").is_file());
    if on_path("readelf").is_some() {
        let out = run("readelf -d", Command::new("readelf").arg("-d").arg(&real));
        let text = stdout(&out);
        let line = text
            .lines()
            .find(|l| l.contains("(SONAME)"))
            .unwrap_or_else(|| panic!("no SONAME in {}:\n{text}", real.display()));
        assert!(line.contains(&format!("[{}]", soname())), "{line}");
    }

    // The .pc file.
    assert_eq!(pkg_config(&["--modversion", "othello"]), v);
    assert_eq!(
        pkg_config(&["--variable=prefix", "othello"]),
        inst.prefix.display().to_string()
    );
    let cflags = pkg_config(&["--cflags", "othello"]);
    assert_eq!(
        cflags,
        format!("-I{}", inst.prefix.join("include").display())
    );
    let libs = pkg_config(&["--libs", "othello"]);
    assert_eq!(libs, format!("-L{} -lothello", inst.libdir.display()));
    let libs_static = pkg_config(&["--libs", "--static", "othello"]);
    for lib in ["-lothello", "-lpthread", "-ldl", "-lm", "-lgcc_s"] {
        assert!(
            libs_static.split(' ').any(|f| f == lib),
            "--static should list {lib}: {libs_static}"
        );
    }
}

#[test]
fn pkg_config_shared() {
    let inst = installed();
    let exe = work_dir().join("app_shared");
    let flags = pkg_config(&["--cflags", "--libs", "othello"]);
    let libdir = pkg_config(&["--variable=libdir", "othello"]);
    run(
        "cc with pkg-config --cflags --libs othello",
        Command::new("cc")
            .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-o"])
            .arg(&exe)
            .arg(app_source())
            .args(flags.split_whitespace())
            .arg(format!("-Wl,-rpath,{libdir}")),
    );
    if let Some(needed) = needed(&exe) {
        assert!(
            needed.contains(&soname()),
            "the program needs {}: {needed:?}",
            soname()
        );
    }
    // Found through the rpath of the prefix's libdir.
    let out = run("the shared build", &mut program(&exe));
    check_game(&out, "shared");
    // And through LD_LIBRARY_PATH, without the rpath.
    let plain = work_dir().join("app_shared_plain");
    run(
        "cc without an rpath",
        Command::new("cc")
            .arg("-o")
            .arg(&plain)
            .arg(app_source())
            .args(flags.split_whitespace()),
    );
    let out = run(
        "the shared build with LD_LIBRARY_PATH",
        Command::new(&plain).env("LD_LIBRARY_PATH", &inst.libdir),
    );
    check_game(&out, "LD_LIBRARY_PATH");
}

#[test]
fn pkg_config_static() {
    let exe = work_dir().join("app_static");
    let cflags = pkg_config(&["--cflags", "othello"]);
    let libs = pkg_config(&["--libs", "--static", "othello"]);
    // Both libraries are installed: name the archive (docs/guide.md).
    let libs: Vec<String> = libs
        .split_whitespace()
        .map(|f| {
            if f == "-lothello" {
                "-l:libothello.a".to_string()
            } else {
                f.to_string()
            }
        })
        .collect();
    run(
        "cc with pkg-config --libs --static othello",
        Command::new("cc")
            .args(["-std=c11", "-Wall", "-Wextra", "-Werror", "-o"])
            .arg(&exe)
            .arg(app_source())
            .args(cflags.split_whitespace())
            .args(&libs),
    );
    if let Some(needed) = needed(&exe) {
        assert!(
            !needed.iter().any(|n| n.starts_with("libothello")),
            "a static build needs no libothello: {needed:?}"
        );
    }
    let out = run("the static build", &mut program(&exe));
    check_game(&out, "static");
}

/// The C++ wrapper from the prefix: `#include <othello.hpp>`, which
/// includes the `othello.h` beside it, compiled with the flags pkg-config
/// gives and nothing else on the include path.
#[test]
fn pkg_config_cpp() {
    let inst = installed();
    let source = manifest_dir().join("tests").join("install").join("app.cpp");
    let flags = pkg_config(&["--cflags", "--libs", "othello"]);
    let cflags = pkg_config(&["--cflags", "othello"]);
    let libdir = pkg_config(&["--variable=libdir", "othello"]);
    let std_flags = ["-std=c++17", "-Wall", "-Wextra", "-Wpedantic", "-Werror"];
    // The headers it includes are the installed ones (g++ -M lists them).
    let deps = run(
        "g++ -M with pkg-config --cflags othello",
        Command::new("g++")
            .args(std_flags)
            .arg("-M")
            .arg(&source)
            .args(cflags.split_whitespace()),
    );
    let deps = stdout(&deps);
    for header in ["othello.hpp", "othello.h"] {
        let installed = inst.prefix.join("include").join(header);
        assert!(
            deps.split_whitespace()
                .any(|d| Path::new(d) == installed.as_path()),
            "app.cpp should include {}:\n{deps}",
            installed.display()
        );
    }
    let exe = work_dir().join("app_cpp");
    run(
        "g++ with pkg-config --cflags --libs othello",
        Command::new("g++")
            .args(std_flags)
            .arg("-o")
            .arg(&exe)
            .arg(&source)
            .args(flags.split_whitespace())
            .arg(format!("-Wl,-rpath,{libdir}")),
    );
    let out = run("the C++ build", &mut program(&exe));
    check_game(&out, "c++");
}

#[test]
fn cmake_project() {
    assert!(
        on_path("cmake").is_some(),
        "cmake is not on PATH (./test.sh installs it)"
    );
    let inst = installed();
    let build = work_dir().join("cmake-build");
    if build.exists() {
        fs::remove_dir_all(&build).expect("clearing the CMake build directory");
    }
    run(
        "cmake (configure)",
        Command::new("cmake")
            .arg("-S")
            .arg(manifest_dir().join("tests").join("install"))
            .arg("-B")
            .arg(&build)
            .env("PKG_CONFIG_PATH", &inst.pkgconfig),
    );
    run(
        "cmake --build",
        Command::new("cmake").arg("--build").arg(&build),
    );
    // CMake links the imported target by its full path and records the
    // prefix's libdir as the build tree's rpath.
    let out = run("the CMake build", &mut program(&build.join("app")));
    check_game(&out, "cmake");
    let out = run("the CMake C++ build", &mut program(&build.join("app_cpp")));
    check_game(&out, "cmake c++");
}

// ---------------------------------------------------------------------------
// The engine program

/// A `PATH` with the prefix's `bin` first.
fn path_with_prefix() -> OsString {
    let mut dirs = vec![installed().prefix.join("bin")];
    dirs.extend(env::split_paths(&env::var_os("PATH").unwrap_or_default()));
    env::join_paths(dirs).expect("a PATH")
}

/// `othello-engine` run by name from [`path_with_prefix`], with `input` on
/// its standard input; its standard output. It must exit with 0.
fn engine(args: &[&str], input: &str) -> String {
    let mut child = spawn_piped(
        Command::new("othello-engine")
            .args(args)
            .env("PATH", path_with_prefix())
            .env_remove("LD_LIBRARY_PATH"),
    );
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = input.as_bytes().to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = drain(child.stdout.take().expect("piped stdout"));
    let err = drain(child.stderr.take().expect("piped stderr"));
    let status = wait_or_kill(&mut child, "othello-engine");
    writer.join().expect("the writer thread");
    let out = String::from_utf8_lossy(&out.join().expect("stdout")).into_owned();
    let err = String::from_utf8_lossy(&err.join().expect("stderr")).into_owned();
    assert!(
        status.success(),
        "othello-engine {args:?}: {status}\n{out}\n{err}"
    );
    out
}

/// The first moves of the game, one of which each protocol must answer.
const OPENING_MOVES: [&str; 4] = ["d3", "c4", "f5", "e6"];

/// GTP: `name`, then `genmove b` answers a legal first move.
fn check_gtp(args: &[&str]) {
    let out = engine(args, "name\n1 genmove b\nquit\n");
    assert!(out.starts_with("= othello\n\n"), "{args:?}: {out}");
    let answer = out
        .lines()
        .find_map(|l| l.strip_prefix("=1 "))
        .unwrap_or_else(|| panic!("{args:?}: no answer to genmove: {out}"));
    assert!(OPENING_MOVES.contains(&answer), "{args:?}: {answer}");
}

/// NBoard: a game at depth 2, and `go` answers `=== MOVE/EVAL/TIME` with a
/// legal first move.
fn check_nboard(args: &[&str]) {
    let game = "(;GM[Othello]PC[NBoard]BO[8 ---------------------------O*------*O--------------------------- *];)";
    let out = engine(
        args,
        &format!("nboard 2\nset depth 2\nset game {game}\ngo\nquit\n"),
    );
    assert!(out.contains("set myname othello2\n"), "{args:?}: {out}");
    let answer = out
        .lines()
        .find_map(|l| l.strip_prefix("=== "))
        .unwrap_or_else(|| panic!("{args:?}: no answer to go: {out}"));
    let mv = answer.split('/').next().unwrap_or("").to_ascii_lowercase();
    assert!(OPENING_MOVES.contains(&mv.as_str()), "{args:?}: {answer}");
}

#[test]
fn engine_program_on_path() {
    let inst = installed();
    let exe = inst.prefix.join("bin").join("othello-engine");
    // The shell finds it on PATH.
    let out = run(
        "command -v othello-engine",
        Command::new("sh")
            .args(["-c", "command -v othello-engine"])
            .env("PATH", path_with_prefix()),
    );
    assert_eq!(Path::new(&stdout(&out)), exe.as_path());
    if let Some(needed) = needed(&exe) {
        assert!(needed.contains(&soname()), "{needed:?}");
    }

    let help = engine(&["--help"], "");
    for word in [
        "NBoard",
        "GTP",
        "othello-engine --nboard",
        "othello-engine --gtp",
    ] {
        assert!(help.contains(word), "--help should name {word}:\n{help}");
    }
    check_gtp(&["--gtp"]);
    check_gtp(&[]);
    check_nboard(&["--nboard"]);
    check_nboard(&["--hash", "16"]);
    // The flag wins over the first command.
    let out = engine(&["--gtp"], "nboard 2\n");
    assert!(out.starts_with("? unknown command"), "{out}");
}
