//! The thread stress test, `tests/c/stress.c`: twelve threads searching on
//! shared engines with random limits, pondering, stopping them at random
//! moments, checking BUSY, cloning, handing over and freeing boards,
//! creating and freeing private engines, and playing games by random calls
//! that are replayed on one thread afterwards, all at once, for a few
//! seconds (see the file for what each thread checks). Run under AddressSanitizer + UBSan (LeakSanitizer
//! at exit) and under ThreadSanitizer. Only the C side is instrumented: the
//! Rust library is not (that needs a nightly compiler), so ThreadSanitizer
//! sees the harness's own memory and every malloc/free, not the library's
//! loads and stores (nor the libc calls it makes: see the TSan test).
//!
//! `OTHELLO_STRESS_SECONDS` and `OTHELLO_STRESS_SEED` change the run (for
//! example `OTHELLO_STRESS_SECONDS=600 cargo test --release --test stress`).

mod cbuild;

use cbuild::{output, program, Build, Link, ASAN_ENV, C11_FLAGS};

fn seconds(default: &str) -> String {
    std::env::var("OTHELLO_STRESS_SECONDS").unwrap_or_else(|_| default.into())
}

fn seed() -> String {
    std::env::var("OTHELLO_STRESS_SEED").unwrap_or_else(|_| "1".into())
}

/// Runs the stress program; returns (success, stdout, stderr).
fn stress(exe: &std::path::Path, secs: &str, env: &[(&str, &str)]) -> (bool, String, String) {
    let out = output(
        "running the stress test",
        program(exe).args([secs, &seed()]).envs(env.iter().copied()),
    );
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    print!("{stdout}");
    eprint!("{stderr}");
    (out.status.success(), stdout, stderr)
}

fn assert_passed(ok: bool, stdout: &str, stderr: &str) {
    assert!(
        ok && stdout.contains(" checks passed"),
        "the stress test failed:\n--- stdout ---\n{stdout}\n--- stderr ---\n{stderr}"
    );
}

#[test]
fn stress_address_sanitizer() {
    let exe = Build::c(C11_FLAGS)
        .flags(&["-pthread"])
        .source("tests/c/stress.c")
        .sanitized()
        .build("stress", "stress_asan");
    let (ok, stdout, stderr) = stress(&exe, &seconds("6"), ASAN_ENV);
    assert_passed(ok, &stdout, &stderr);
}

#[test]
fn stress_thread_sanitizer() {
    // The shared library, an uninstrumented module whose own accesses
    // (the memset of a table clear included) ThreadSanitizer then ignores
    // (ignore_noninstrumented_modules): it cannot see the atomics that
    // order them either, so with the static library a clear on one engine
    // from two threads in turn was reported as a race.
    let exe = Build::c(C11_FLAGS)
        .flags(&["-fsanitize=thread", "-g", "-O1", "-pthread"])
        .source("tests/c/stress.c")
        .link(Link::Shared)
        .build("stress", "stress_tsan");
    let (ok, stdout, stderr) = stress(
        &exe,
        &seconds("3"),
        &[(
            "TSAN_OPTIONS",
            "halt_on_error=1 second_deadlock_stack=1 ignore_noninstrumented_modules=1",
        )],
    );
    if !ok && stderr.contains("FATAL: ThreadSanitizer") && !stderr.contains("WARNING:") {
        // The runtime cannot start on this kernel (its memory layout): not a
        // finding about the library.
        println!("note: ThreadSanitizer cannot run here, skipped:\n{stderr}");
        return;
    }
    assert_passed(ok, &stdout, &stderr);
}
