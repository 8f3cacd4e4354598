//! The small C examples of `examples/`, compiled with the system C compiler
//! against the library cargo built for this test run, and run:
//!
//! - `tour.c`: the API in one page; its output is checked line by line;
//! - `match.c`: two players over a few seeded games: W/D/L adding up, the
//!   colours swapped within each pair, the same seed giving the same match;
//!   the engines' opening book on, off, per player, or read from a file;
//!   engines on 2 threads;
//! - `solve.c`: endgame positions (from `.obf` lines with their scores)
//!   solved exactly, with mismatches and bad input reported; the same
//!   scores on 2 threads and on one per core;
//!
//! each one linked to the shared library, to the static library under
//! AddressSanitizer + UBSan, and under valgrind when it is installed. The
//! console game has its own tests in `tests/console.rs`.

use othello::board::S8;
use othello::notation::board_string;
use othello::obf;
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

mod cbuild;
use cbuild::{build_example, manifest_dir, on_path, run_with_input, valgrind, Ran, ASAN_ENV};

/// The first positions of the FFO endgame test suite (fforum-1-19.obf), with
/// the scores of their moves: exact solves of 14 empties take milliseconds.
const FFORUM: &str = "\
--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;
-XXXXXX---XOOOO--XOXXOOX-OOOOOOOOOOOXXOOOOOXXOOX--XXOO----XXXXX- X; A4:+10; B2:+0; A3:-6; G7:-8; A7:-12; H7:-14; B7:-14; H2:-24;
----OX----OOXX---OOOXX-XOOXXOOOOOXXOXXOOOXXXOOOOOXXXXOXO--OOOOOX X; D1:+2; G3:+0; B8:-2; B1:-4; C1:-4; A2:-4; A3:-6; B2:-12;
";

/// The positions of [`FFORUM`] with their scored moves.
fn ffo() -> Vec<obf::Line<S8>> {
    obf::parse(FFORUM).expect("FFORUM is an .obf text")
}

/// The whole file: the FFO set's positions 1-19, kept in the repository.
const FFORUM_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/fforum-1-19.obf");

// ---------------------------------------------------------------------------
// Building and running

#[derive(Clone, Copy)]
enum Link {
    /// `-lothello` from the shared library, with an rpath.
    Shared = 0,
    /// `libothello.a` under AddressSanitizer + UBSan.
    StaticSanitized = 1,
}

const PROGRAMS: [&str; 3] = ["tour", "match", "solve"];

/// `examples/<program>.c` built with `link`, compiled once for all tests.
fn compile(program: &str, link: Link) -> PathBuf {
    static BUILT: [OnceLock<PathBuf>; 2 * PROGRAMS.len()] = [const { OnceLock::new() }; 6];
    let index = PROGRAMS
        .iter()
        .position(|&p| p == program)
        .unwrap_or_else(|| panic!("{program} is not one of {PROGRAMS:?}"));
    let slot = &BUILT[2 * index + link as usize];
    slot.get_or_init(|| build_example(program, matches!(link, Link::StaticSanitized), &[]))
        .clone()
}

/// Runs `exe args` (under `wrapper`, e.g. valgrind, if not empty) with
/// `input` on its standard input.
fn run_in(
    wrapper: &[OsString],
    exe: &Path,
    args: &[&str],
    input: &str,
    env_vars: &[(&str, &str)],
) -> Ran {
    let run = run_with_input(wrapper, exe, args, input.as_bytes(), env_vars);
    print!("{}", run.stdout);
    run
}

fn run(exe: &Path, args: &[&str], input: &str) -> Ran {
    run_in(&[], exe, args, input, &[])
}

impl Ran {
    fn expect_code(&self, code: i32, what: &str) -> &Self {
        assert_eq!(
            self.status.code(),
            Some(code),
            "{what}: exit status\n--- stdout ---\n{}\n--- stderr ---\n{}",
            self.stdout,
            self.stderr
        );
        self
    }
}

// ---------------------------------------------------------------------------
// Checks of each program's output

fn check_tour(out: &str) {
    let expected_lines = [
        "legal moves: d3 c4 f5 e6",
        "f5 flipped: e5",
        "move number 4",
        "after two undos: move number 2, can redo: yes",
        "after a redo: move number 3",
        "transcript: f5d6",
        "the copy from the transcript is at move 3",
        "done",
    ];
    for line in expected_lines {
        assert!(
            out.lines().any(|l| l == line),
            "tour should print {line:?}:\n{out}"
        );
    }
    let board = out
        .lines()
        .find_map(|l| l.strip_prefix("board string: "))
        .expect("a board string");
    assert_eq!(board.len(), 66);
    assert!(board.ends_with(" X"), "black to move after f5 d6: {board}");
    assert!(out.contains("\na1 now: "), "the illegal move is reported");
    for prefix in [
        "best move at level 4: ",
        "level 6: score ",
        "principal variation: ",
        "the 1986 program at skill 2 plays: ",
    ] {
        assert!(out.contains(prefix), "tour should print {prefix:?}");
    }
}

/// Checks a match's output and returns its (wins, draws, losses).
fn check_match(out: &str, first: &str, second: &str, games: usize) -> (usize, usize, usize) {
    let lines: Vec<&str> = out.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(lines.len(), games, "one line per game:\n{out}");
    let mut score = (0, 0, 0);
    for (i, line) in lines.iter().enumerate() {
        // game   1  opening f5d6c3d3    engine:2 (X) 40 - 24 classic:1 (O)
        let (black, white) = if i % 2 == 0 {
            (first, second)
        } else {
            (second, first)
        };
        let x_at = line
            .find(&format!(" {black} (X) "))
            .unwrap_or_else(|| panic!("game {}: {black} should have X: {line}", i + 1));
        assert!(
            line.ends_with(&format!(" {white} (O)")),
            "game {}: {white} should have O: {line}",
            i + 1
        );
        let counts: Vec<i32> = line[x_at + black.len() + 5..]
            .split(|c: char| !c.is_ascii_digit())
            .filter(|s| !s.is_empty())
            .take(2)
            .map(|s| s.parse().expect("a count"))
            .collect();
        let (x, o) = (counts[0], counts[1]);
        assert!(x + o <= 64 && x + o >= 13, "impossible counts in {line}");
        let diff = if i % 2 == 0 { x - o } else { o - x };
        match diff.signum() {
            1 => score.0 += 1,
            0 => score.1 += 1,
            _ => score.2 += 1,
        }
        // both games of a pair start from the same opening
        if i % 2 == 1 {
            let opening = |l: &str| l.split_whitespace().nth(3).map(str::to_string);
            assert_eq!(opening(lines[i - 1]), opening(line), "pair {}", i / 2 + 1);
        }
    }
    let total = format!("W/D/L for {first}: {}/{}/{}  (", score.0, score.1, score.2);
    assert!(
        out.contains(&total),
        "the total should read {total:?}:\n{out}"
    );
    assert!(out.contains(&format!("average disc difference for {first}: ")));
    score
}

/// Checks that `solve` solved `n` positions and agreed with every score.
fn check_solve(out: &str, n: usize) {
    let solved: Vec<&str> = out.lines().filter(|l| l.starts_with('#')).collect();
    assert_eq!(solved.len(), n, "one line per position:\n{out}");
    for line in &solved {
        assert!(line.ends_with(" ok"), "disagreement: {line}");
    }
    assert!(
        out.contains(&format!("; {n} of {n} agree with the file")),
        "{out}"
    );
}

// ---------------------------------------------------------------------------
// tour

#[test]
fn tour() {
    let exe = compile("tour", Link::Shared);
    let r = run(&exe, &[], "");
    r.expect_code(0, "tour");
    check_tour(&r.stdout);
}

// ---------------------------------------------------------------------------
// match

#[test]
fn match_two_levels() {
    let exe = compile("match", Link::Shared);
    let args = ["engine:2", "classic:1", "--games", "6", "--seed", "3"];
    let a = run(&exe, &args, "");
    a.expect_code(0, "match");
    let (w, d, l) = check_match(&a.stdout, "engine:2", "classic:1", 6);
    assert_eq!(w + d + l, 6);
    let b = run(&exe, &args, "");
    assert_eq!(a.stdout, b.stdout, "the same seed should replay the match");

    // Another seed, other openings.
    let c = run(
        &exe,
        &["engine:2", "classic:1", "--games", "6", "--seed", "4"],
        "",
    );
    assert_ne!(a.stdout, c.stdout);

    // The simple strategies, an odd number of games, no opening moves.
    let r = run(
        &exe,
        &["greedy", "random", "--games", "3", "--opening-moves", "0"],
        "",
    );
    r.expect_code(0, "greedy against random");
    check_match(&r.stdout, "greedy", "random", 3);
    assert!(r.stdout.contains("opening -  "), "no opening moves");
}

/// The `book moves:` line of a match: (player, book moves, which book).
fn book_moves(out: &str) -> Vec<(String, usize, String)> {
    let line = out
        .lines()
        .find_map(|l| l.strip_prefix("book moves: "))
        .unwrap_or_else(|| panic!("no book moves line:\n{out}"));
    line.split(", ")
        .map(|part| {
            let (name, rest) = part.split_once(' ').expect("PLAYER N (BOOK)");
            let (n, book) = rest.split_once(' ').expect("N (BOOK)");
            let book = book.strip_prefix('(').and_then(|b| b.strip_suffix(')'));
            (
                name.to_string(),
                n.parse().expect("a number of book moves"),
                book.expect("(BOOK)").to_string(),
            )
        })
        .collect()
}

/// The engines play book moves by default from level 1 up, none with the
/// book off for both or one player; a book file plays as the built-in book
/// it is a copy of. From the start (no random opening), which the book knows.
#[test]
fn match_with_and_without_the_book() {
    let exe = compile("match", Link::Shared);
    let base = [
        "engine:2",
        "engine:1",
        "--games",
        "2",
        "--opening-moves",
        "0",
    ];
    let with = |extra: &[&str]| {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        let r = run(&exe, &args, "");
        r.expect_code(0, &format!("{args:?}"));
        check_match(&r.stdout, "engine:2", "engine:1", 2);
        let books = book_moves(&r.stdout);
        assert_eq!(books.len(), 2, "{:?}", r.stdout);
        assert_eq!(
            (books[0].0.as_str(), books[1].0.as_str()),
            ("engine:2", "engine:1")
        );
        (r.stdout, books)
    };
    let (on, books) = with(&[]);
    for (name, n, book) in &books {
        assert!(*n > 0 && book == "built-in book", "{name}: {books:?}");
    }
    let (_, books) = with(&["--book", "off"]);
    for (name, n, book) in &books {
        assert!(*n == 0 && book == "book off", "{name}: {books:?}");
    }
    let (_, books) = with(&["--book1", "off"]);
    assert!(books[0].1 == 0 && books[0].2 == "book off", "{books:?}");
    assert!(books[1].1 > 0 && books[1].2 == "built-in book", "{books:?}");
    // The last word for a player wins.
    let (_, books) = with(&["--book", "off", "--book2", "on"]);
    assert!(books[0].1 == 0 && books[1].1 > 0, "{books:?}");

    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/book.bin");
    let (from_file, books) = with(&["--book-file", file]);
    assert!(books.iter().all(|b| b.1 > 0 && b.2 == file), "{books:?}");
    let games = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|l| !l.starts_with("book moves: "))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(
        games(&on),
        games(&from_file),
        "the same book, the same games"
    );

    // Level 0 plays no book move unless asked; other strategies have none.
    let r = run(
        &exe,
        &[
            "engine:0",
            "classic:1",
            "--games",
            "2",
            "--opening-moves",
            "0",
        ],
        "",
    );
    r.expect_code(0, "engine:0");
    let books = book_moves(&r.stdout);
    assert_eq!(books[0], ("engine:0".into(), 0, "book off".into()));
    assert_eq!(books[1], ("classic:1".into(), 0, "no book".into()));
    let r = run(
        &exe,
        &[
            "engine:0",
            "classic:1",
            "--games",
            "2",
            "--opening-moves",
            "0",
            "--book",
            "on",
        ],
        "",
    );
    r.expect_code(0, "engine:0 with the book");
    let books = book_moves(&r.stdout);
    assert!(books[0].1 > 0 && books[0].2 == "built-in book", "{books:?}");
    assert_eq!(books[1], ("classic:1".into(), 0, "no book".into()));
}

#[test]
fn match_command_line() {
    let exe = compile("match", Link::Shared);
    let help = run(&exe, &["--help"], "");
    help.expect_code(0, "--help");
    for word in [
        "engine:L",
        "classic:D",
        "corners",
        "greedy",
        "random",
        "--games",
        "--seed",
        "--opening-moves",
        "--book on|off",
        "--book1 on|off",
        "--book2 on|off",
        "--book-file FILE",
        "--threads N",
    ] {
        assert!(help.stdout.contains(word), "--help explains {word}");
    }
    for bad in [
        &["engine:4"][..],
        &["engine:61", "classic:1"],
        &["classic:10", "engine:1"],
        &["classic", "engine:1"],
        &["greedy:3", "engine:1"],
        &["chess:3", "engine:1"],
        &["engine:1", "engine:2", "engine:3"],
        &["engine:1", "engine:2", "--games", "0"],
        &["engine:1", "engine:2", "--games"],
        &["engine:1", "engine:2", "--seed", "x"],
        &["engine:1", "engine:2", "--bogus"],
        &["engine:1", "engine:2", "--book", "maybe"],
        &["engine:1", "engine:2", "--book1"],
        &[
            "engine:1",
            "engine:2",
            "--book-file",
            "/nonexistent/book.bin",
        ],
        &["engine:1", "engine:2", "--threads", "257"],
        &["engine:1", "engine:2", "--threads", "-1"],
        &["engine:1", "engine:2", "--threads", "two"],
        &["engine:1", "engine:2", "--threads"],
    ] {
        let r = run(&exe, bad, "");
        r.expect_code(2, &format!("{bad:?}"));
        assert!(!r.stderr.is_empty(), "{bad:?} explains itself");
        assert!(!r.stdout.contains("game "), "{bad:?} played");
    }
}

/// Engine players on 2 threads (and one per core) play whole games, and
/// the summary says so.
#[test]
fn match_with_threads() {
    let exe = compile("match", Link::Shared);
    for (threads, says) in [("2", "engines on 2 threads"), ("0", "one thread per core")] {
        let r = run(
            &exe,
            &[
                "engine:3",
                "engine:2",
                "--games",
                "2",
                "--seed",
                "2",
                "--threads",
                threads,
            ],
            "",
        );
        r.expect_code(0, &format!("--threads {threads}"));
        check_match(&r.stdout, "engine:3", "engine:2", 2);
        assert!(r.stdout.contains(says), "{}", r.stdout);
    }
    // One thread, the default, says nothing.
    let r = run(&exe, &["engine:1", "greedy", "--games", "2"], "");
    r.expect_code(0, "one thread");
    assert!(!r.stdout.contains("thread"), "{}", r.stdout);
}

// ---------------------------------------------------------------------------
// solve

#[test]
fn solve_positions() {
    let exe = compile("solve", Link::Shared);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("examples");
    fs::create_dir_all(&dir).expect("the output directory");
    let file = dir.join("fforum-1-3.obf");
    fs::write(&file, FFORUM).expect("writing the positions");
    let file = file.to_str().expect("a UTF-8 path");

    let r = run(&exe, &[file], "");
    r.expect_code(0, "solve");
    check_solve(&r.stdout, 3);
    for best in [
        "best g8  score +18",
        "best a4  score +10",
        "best d1  score  +2",
    ] {
        assert!(r.stdout.contains(best), "expected {best:?}");
    }

    // From standard input, with --max, comments and blank lines; a bare
    // board string has no score to check.
    let input = format!("# comment\n\n% also\n{}", board_string(&ffo()[0].game()));
    let r = run(&exe, &["--max", "1"], &format!("{input}\n{FFORUM}"));
    r.expect_code(0, "solve from stdin");
    assert!(r.stdout.contains("best g8  score +18"));
    assert!(r.stdout.contains("1 position solved"));
    assert!(!r.stdout.contains("agree"));

    // A wrong score in the file is reported.
    let wrong = FFORUM.replacen("G8:+18", "G8:+16", 1);
    let r = run(&exe, &["-"], &wrong);
    r.expect_code(1, "a wrong score");
    assert!(r.stdout.contains("file +16 MISMATCH"));
    assert!(r.stdout.contains("2 of 3 agree"));

    // Bad input is an error, reported with its line number.
    let r = run(&exe, &[], "not a board\n");
    r.expect_code(2, "a bad line");
    assert!(r.stderr.contains("stdin:1"), "{}", r.stderr);
    let r = run(&exe, &["--depth", "0"], "");
    r.expect_code(2, "--depth 0");
    for bad in [
        &["--threads", "257"][..],
        &["--threads", "-1"],
        &["--threads"],
    ] {
        let r = run(&exe, bad, FFORUM);
        r.expect_code(2, &format!("{bad:?}"));
        assert!(r.stderr.contains("--threads"), "{bad:?}: {}", r.stderr);
        assert!(!r.stdout.contains("best "), "{bad:?} solved");
    }
    let r = run(&exe, &["/nonexistent/positions.obf"], "");
    r.expect_code(2, "a missing file");
    let r = run(&exe, &["--help"], "");
    r.expect_code(0, "--help");
    assert!(r.stdout.contains("--depth") && r.stdout.contains("--max"));
    assert!(r.stdout.contains("--threads N"));

    // The whole file.
    let r = run(&exe, &[FFORUM_FILE], "");
    r.expect_code(0, FFORUM_FILE);
    check_solve(&r.stdout, 19);
}

/// The best scores of `solve`'s output, one per position.
fn solved_scores(out: &str) -> Vec<i32> {
    out.lines()
        .filter(|l| l.starts_with('#'))
        .map(|l| {
            let score = l.split("score ").nth(1).expect("a score");
            score
                .split_whitespace()
                .next()
                .and_then(|s| s.parse().ok())
                .unwrap_or_else(|| panic!("no score in {l}"))
        })
        .collect()
}

/// More threads solve to the same exact scores as one (the file's).
#[test]
fn solve_with_threads() {
    let exe = compile("solve", Link::Shared);
    let one = run(&exe, &[], FFORUM);
    one.expect_code(0, "one thread");
    check_solve(&one.stdout, 3);
    for threads in ["2", "0"] {
        let r = run(&exe, &["--threads", threads], FFORUM);
        r.expect_code(0, &format!("--threads {threads}"));
        check_solve(&r.stdout, 3);
        assert_eq!(solved_scores(&r.stdout), solved_scores(&one.stdout));
    }
    let best: Vec<i32> = ffo().iter().filter_map(|p| p.best()).map(|b| b.1).collect();
    assert_eq!(solved_scores(&one.stdout), best);
    let r = run(&exe, &["--threads", "3", FFORUM_FILE], "");
    r.expect_code(0, "fforum-1-19 on 3 threads");
    check_solve(&r.stdout, 19);
}

// ---------------------------------------------------------------------------
// Sanitizers and valgrind

#[test]
fn examples_under_sanitizers() {
    let tour = compile("tour", Link::StaticSanitized);
    let r = run_in(&[], &tour, &[], "", ASAN_ENV);
    r.expect_code(0, "sanitized tour");
    check_tour(&r.stdout);

    let matcher = compile("match", Link::StaticSanitized);
    let r = run_in(
        &[],
        &matcher,
        &["engine:2", "corners", "--games", "2", "--seed", "5"],
        "",
        ASAN_ENV,
    );
    r.expect_code(0, "sanitized match");
    check_match(&r.stdout, "engine:2", "corners", 2);

    let solve = compile("solve", Link::StaticSanitized);
    let r = run_in(&[], &solve, &[], FFORUM, ASAN_ENV);
    r.expect_code(0, "sanitized solve");
    check_solve(&r.stdout, 3);
    let r = run_in(&[], &solve, &["--threads", "2"], FFORUM, ASAN_ENV);
    r.expect_code(0, "sanitized solve on 2 threads");
    check_solve(&r.stdout, 3);
    let r = run_in(&[], &solve, &[], "garbage\n", ASAN_ENV);
    r.expect_code(2, "sanitized solve, bad input");
}

#[test]
fn examples_under_valgrind() {
    let Some(valgrind) = valgrind() else {
        println!("note: valgrind is not on PATH: skipping the valgrind runs of the examples");
        return;
    };
    let clean = |r: &Ran, what: &str| {
        r.expect_code(0, what);
        assert!(
            r.stderr.contains("ERROR SUMMARY: 0 errors"),
            "{what}:\n{}",
            r.stderr
        );
    };
    let tour = compile("tour", Link::Shared);
    let r = run_in(&valgrind, &tour, &[], "", &[]);
    clean(&r, "tour under valgrind");
    check_tour(&r.stdout);

    let matcher = compile("match", Link::Shared);
    let r = run_in(
        &valgrind,
        &matcher,
        &["engine:1", "classic:1", "--games", "2"],
        "",
        &[],
    );
    clean(&r, "match under valgrind");
    check_match(&r.stdout, "engine:1", "classic:1", 2);

    let solve = compile("solve", Link::Shared);
    let first = FFORUM.lines().next().expect("a position");
    let r = run_in(&valgrind, &solve, &[], first, &[]);
    clean(&r, "solve under valgrind");
    check_solve(&r.stdout, 1);
}

// ---------------------------------------------------------------------------
// The Makefile

/// `make -n` shows what `make -C examples all` would run: the library by
/// cargo, then each program with the warning flags and an rpath.
#[test]
fn makefile_builds_everything() {
    let make = on_path("make").expect("make is not on PATH (README.md: what ./test.sh installs)");
    let examples = manifest_dir().join("examples");
    // -B: as if nothing were built yet, so every command shows.
    let out = Command::new(make)
        .args(["-n", "-B", "-C"])
        .arg(&examples)
        .arg("all")
        .output()
        .expect("running make -n");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "make -n all failed:\n{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("cargo build --release"), "{text}");
    for program in ["othello", "tour", "match", "solve"] {
        let line = text
            .lines()
            .find(|l| l.contains(&format!("examples/{program}.c")))
            .unwrap_or_else(|| panic!("no command builds {program}.c:\n{text}"));
        for flag in [
            "-std=c11",
            "-Wall",
            "-Wextra",
            "-Wpedantic",
            "-Werror",
            "-lothello",
            "-Wl,-rpath,",
            &format!("target/examples/{program} "),
        ] {
            assert!(line.contains(flag), "{program}: no {flag} in {line}");
        }
    }
}
