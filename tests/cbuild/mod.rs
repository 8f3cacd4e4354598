//! Building and running C and C++ programs against the library cargo just
//! built, shared by every test that compiles them (`tests/c_api.rs`,
//! `console.rs`, `examples.rs`, `nboard.rs`, `bindings.rs`, `fuzz.rs`,
//! `stress.rs`) and by the install test's commands (`install.rs`).

#![allow(dead_code)]

use std::env;
use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

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

/// No run of a built program may take longer (valgrind included).
pub const TIMEOUT: Duration = Duration::from_secs(120);

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
    if dir.is_file() {
        // An executable of the layout before this one (`<group>/<test>`).
        fs::remove_file(&dir).unwrap_or_else(|e| panic!("cannot remove {}: {e}", dir.display()));
    }
    fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    dir
}

/// The executable `name` on PATH, if any.
pub fn on_path(name: &str) -> Option<PathBuf> {
    let path = env::var_os("PATH")?;
    env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// The valgrind command line that fails a run on any error or definite
/// leak, if valgrind is on PATH.
pub fn valgrind() -> Option<Vec<OsString>> {
    let valgrind = on_path("valgrind")?;
    Some(vec![
        valgrind.into_os_string(),
        "--error-exitcode=99".into(),
        "--leak-check=full".into(),
        "--errors-for-leak-kinds=definite".into(),
    ])
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

// ---------------------------------------------------------------------------
// Building

/// How a program is linked to the library.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Link {
    /// `-L<dir> -lothello` with an rpath to `<dir>` (run it through
    /// [`program`], without `LD_LIBRARY_PATH`, which would win).
    Shared,
    /// `<dir>/libothello.a` and the system libraries it needs.
    Static,
}

/// A C or C++ program to compile and link against the library of this test
/// run: `Build::c(C11_FLAGS).source("tests/c/x.c").build("group", "x")`.
pub struct Build {
    compiler: &'static str,
    flags: Vec<OsString>,
    sources: Vec<OsString>,
    link: Link,
}

impl Build {
    /// `cc` with `flags`, linked to the shared library unless told otherwise.
    pub fn c(flags: &[&str]) -> Build {
        Build::new("cc", flags)
    }

    /// `g++` with `flags`, linked to the shared library unless told otherwise.
    pub fn cxx(flags: &[&str]) -> Build {
        Build::new("g++", flags)
    }

    fn new(compiler: &'static str, flags: &[&str]) -> Build {
        Build {
            compiler,
            flags: Vec::new(),
            sources: Vec::new(),
            link: Link::Shared,
        }
        .flags(flags)
        .include("include")
    }

    pub fn flags(mut self, flags: &[&str]) -> Build {
        self.flags.extend(flags.iter().map(OsString::from));
        self
    }

    /// `-I` a directory of the crate.
    pub fn include(mut self, dir: &str) -> Build {
        self.flags.push("-I".into());
        self.flags.push(manifest_dir().join(dir).into_os_string());
        self
    }

    /// A source file, its path from the crate root.
    pub fn source(mut self, path: &str) -> Build {
        self.sources
            .push(manifest_dir().join(path).into_os_string());
        self
    }

    /// A C source compiled as C++ (with [`Build::cxx`]): the language is
    /// forced for it only, so that the libraries still link normally.
    pub fn source_as_cxx(mut self, path: &str) -> Build {
        self.sources.push("-x".into());
        self.sources.push("c++".into());
        self = self.source(path);
        self.sources.push("-x".into());
        self.sources.push("none".into());
        self
    }

    pub fn link(mut self, link: Link) -> Build {
        self.link = link;
        self
    }

    /// The static library under AddressSanitizer + UBSan (run the program
    /// with [`ASAN_ENV`]).
    pub fn sanitized(self) -> Build {
        self.flags(ASAN_FLAGS).link(Link::Static)
    }

    /// Compiles and links into `CARGO_TARGET_TMPDIR/<group>/<name>/<name>`;
    /// panics with the compiler's output if that fails.
    pub fn build(self, group: &str, name: &str) -> PathBuf {
        let exe = out_dir(group, name).join(name);
        let mut cmd = Command::new(self.compiler);
        cmd.args(&self.flags)
            .arg("-o")
            .arg(&exe)
            .args(&self.sources);
        let lib = lib_dir();
        match self.link {
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
        run(&format!("compiling {name}"), &mut cmd);
        exe
    }
}

/// `examples/<program>.c` as the examples' Makefile builds it (C11, -O2),
/// with `extra` flags: with `-g` against the shared library, or `sanitized`
/// against the static library under AddressSanitizer + UBSan.
pub fn build_example(program: &str, sanitized: bool, extra: &[&str]) -> PathBuf {
    let build = Build::c(C11_FLAGS)
        .flags(&["-O2"])
        .flags(extra)
        .source(&format!("examples/{program}.c"));
    if sanitized {
        build
            .sanitized()
            .build("examples", &format!("{program}_sanitized"))
    } else {
        build.flags(&["-g"]).build("examples", program)
    }
}

// ---------------------------------------------------------------------------
// Running

/// A built program, to run. Without cargo's `LD_LIBRARY_PATH`, which lists
/// `target/<profile>/` (where an earlier `cargo build` may have left a stale
/// `libothello.so`) before `deps/` and would win over the rpath: a program
/// linked to the shared library loads the one this test run built.
pub fn program(exe: &Path) -> Command {
    wrapped(&[], exe)
}

/// As [`program`], under `wrapper` (e.g. [`valgrind`]) when it is not empty.
pub fn wrapped(wrapper: &[OsString], exe: &Path) -> Command {
    let mut cmd = match wrapper.split_first() {
        Some((first, rest)) => {
            let mut c = Command::new(first);
            c.args(rest).arg(exe);
            c
        }
        None => Command::new(exe),
    };
    cmd.env_remove("LD_LIBRARY_PATH");
    cmd
}

/// Runs a built program with `args` and `env_vars`; panics unless it exits
/// with 0; returns its stdout (also printed).
pub fn run_program(exe: &Path, args: &[&str], env_vars: &[(&str, &str)]) -> String {
    let mut cmd = program(exe);
    cmd.args(args).envs(env_vars.iter().copied());
    let out = run(&format!("running {}", exe.display()), &mut cmd);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    print!("{stdout}");
    eprint!("{}", String::from_utf8_lossy(&out.stderr));
    stdout
}

/// What a run of a program did.
pub struct Ran {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `exe args` (under `wrapper`, see [`wrapped`]) with `input` on its
/// standard input, then end of input; kills it after [`TIMEOUT`].
pub fn run_with_input(
    wrapper: &[OsString],
    exe: &Path,
    args: &[&str],
    input: &[u8],
    env_vars: &[(&str, &str)],
) -> Ran {
    let mut child = spawn_piped(
        wrapped(wrapper, exe)
            .args(args)
            .envs(env_vars.iter().copied()),
    );
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = input.to_vec();
    // The program may stop reading early (quit), or never read: a broken
    // pipe is expected.
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = drain(child.stdout.take().expect("piped stdout"));
    let err = drain(child.stderr.take().expect("piped stderr"));
    let status = wait_or_kill(&mut child, &exe.display().to_string());
    writer.join().expect("the writer thread");
    Ran {
        status,
        stdout: String::from_utf8_lossy(&out.join().expect("the stdout reader")).into_owned(),
        stderr: String::from_utf8_lossy(&err.join().expect("the stderr reader")).into_owned(),
    }
}

/// Starts `cmd` with its standard input, output and error piped.
pub fn spawn_piped(cmd: &mut Command) -> Child {
    let line = describe(cmd);
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start `{line}`: {e}"))
}

/// Reads a pipe to its end on a thread.
pub fn drain(mut pipe: impl Read + Send + 'static) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut buf = Vec::new();
        pipe.read_to_end(&mut buf).expect("reading a pipe");
        buf
    })
}

/// Reads a pipe line by line on a thread: each line, without its `\n`
/// (a `\r` before it is kept), as it arrives; the channel closes at the
/// pipe's end.
pub fn lines_of(pipe: impl Read + Send + 'static) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        for line in BufReader::new(pipe).split(b'\n') {
            let Ok(line) = line else { break };
            if tx
                .send(String::from_utf8_lossy(&line).into_owned())
                .is_err()
            {
                break;
            }
        }
    });
    rx
}

/// Waits for `child`, killing it after [`TIMEOUT`].
pub fn wait_or_kill(child: &mut Child, what: &str) -> ExitStatus {
    let deadline = Instant::now() + TIMEOUT;
    loop {
        if let Some(status) = child
            .try_wait()
            .unwrap_or_else(|e| panic!("waiting for {what}: {e}"))
        {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: no exit after {TIMEOUT:?}");
        }
        thread::sleep(Duration::from_millis(5));
    }
}

/// The cargo build of the Python package's native module for the tests, in
/// its own target directory (never waiting on `target/`'s lock): the release
/// profile without LTO, a minute or two instead of four. pip's build of the
/// wheel (`tests/bindings.rs`) sets the same variables.
pub fn python_build_env(cmd: &mut Command) -> &mut Command {
    cmd.env(
        "CARGO_TARGET_DIR",
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("python"),
    )
    .env("CARGO_PROFILE_RELEASE_LTO", "false")
    .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16")
}

/// A directory to put on `PYTHONPATH` for the checkout's Python package
/// without installing it: `othello/` holding links to the Python files of
/// `python/othello` and to its native module, built by cargo for the tests.
pub fn python_package_dir() -> PathBuf {
    let cargo = env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    run(
        "cargo build -p othello-python",
        python_build_env(Command::new(cargo).current_dir(manifest_dir()).args([
            "build",
            "--release",
            "-p",
            "othello-python",
        ])),
    );
    let built = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("python")
        .join("release")
        .join("lib_native.so");
    let dir = out_dir("python", "package");
    let package = dir.join("othello");
    fs::create_dir_all(&package).expect("the package directory");
    let source = manifest_dir().join("python").join("othello");
    let mut links = vec![(built, package.join("_native.abi3.so"))];
    for entry in fs::read_dir(&source).expect("python/othello") {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_some_and(|e| e == "py" || e == "pyi") {
            links.push((
                path.clone(),
                package.join(path.file_name().expect("a file name")),
            ));
        }
    }
    for (from, to) in links {
        let _ = fs::remove_file(&to);
        std::os::unix::fs::symlink(&from, &to)
            .unwrap_or_else(|e| panic!("cannot link {}: {e}", to.display()));
    }
    dir
}
