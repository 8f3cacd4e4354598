//! The NBoard protocol program `examples/nboard.c`, compiled against the
//! library cargo built for this test run and driven as a GUI drives it, one
//! command line at a time, with its replies checked as they come:
//!
//! - a whole game: the engine chooses black's moves with `go`, the "GUI"
//!   plays white (passes included), pings on the way; then `analyze` on the
//!   finished game must agree with the final score and the turn count;
//! - hints (`hint N`) on an endgame position with known exact scores, a
//!   pass position, and `go` there; the same exact hints and move with
//!   `--threads 2` and `set threads N`;
//! - `ping` during `go`, `hint` and `analyze` at depth 60: the search stops,
//!   its result comes before the `pong`; `quit` and end of input during a
//!   search end the program at once;
//! - `set game` with malformed GGF (each answered by one error line, the game
//!   kept), and every other kind of bad line, none stopping the program;
//! - the game's clock as GUIs write it (GGF's `TI`, `TB`, `TW`): the clock
//!   `go` says it goes by, none for a clock of nothing (FFO #1 then solved
//!   exactly at `set depth 10`), the moves' times counted, unreadable
//!   clocks refused;
//! - `analyze` against the rules (exact scores of consecutive positions);
//! - `learn`, `set contempt`, protocol version 1's bare moves;
//! - the opening book: `book` lines for `hint` and `go` in the positions it
//!   knows (and `search` lines for the moves it does not), none with
//!   `set book 0` or `--no-book`, a book file read with `--book-file`;
//! - the evaluation's weights read with `--weights`;
//! - a session under AddressSanitizer + UBSan (static library).
//!
//! Our side of the game is tracked with the crate's own rules (`Game`).

use othello::board::{Bits, S8};
use othello::notation::{parse_board, parse_square, square_name};
use othello::Color;

type Game = othello::Game<S8>;

/// The square of an 8x8 square name (`a1`..`h8`, either case).
fn sq(name: &str) -> u32 {
    parse_square(8, name).expect("a square name")
}
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::OnceLock;
use std::thread;
use std::time::{Duration, Instant};

mod cbuild;
use cbuild::{build_example, drain, lines_of, program, spawn_piped, ASAN_ENV};

/// The longest wait for one reply (sanitized builds included).
const TIMEOUT: Duration = Duration::from_secs(60);

/// How soon a `ping` must stop a deep search.
const PING_LATENCY: Duration = Duration::from_secs(10);

/// FFO endgame position #1 (black to move, 14 empties) and the exact scores.
const FFO1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";
const FFO1_BEST: [(&str, i32); 4] = [("g8", 18), ("h1", 12), ("h7", 6), ("a2", 6)];

/// White to move has no legal move (black has h8).
const PASS_POSITION: &str = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXOO- O";

const START: &str = "---------------------------OX------XO--------------------------- X";

// ---------------------------------------------------------------------------
// Building

fn compile(sanitized: bool) -> PathBuf {
    build_example("nboard", sanitized, &["-pthread"])
}

fn nboard_exe() -> &'static Path {
    static EXE: OnceLock<PathBuf> = OnceLock::new();
    EXE.get_or_init(|| compile(false))
}

// ---------------------------------------------------------------------------
// A session: the program as a child, its output read line by line

struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Option<thread::JoinHandle<Vec<u8>>>,
    /// Everything sent and received, for failure messages.
    log: Vec<String>,
}

impl Session {
    fn start(exe: &Path, env_vars: &[(&str, &str)]) -> Session {
        Session::start_program(exe, &[], env_vars)
    }

    /// With `args` after `--hash 16`.
    fn start_with(exe: &Path, args: &[&str]) -> Session {
        Session::start_program(exe, args, &[])
    }

    fn start_program(exe: &Path, args: &[&str], env_vars: &[(&str, &str)]) -> Session {
        let mut child = spawn_piped(
            program(exe)
                .args(["--hash", "16"])
                .args(args)
                .envs(env_vars.iter().copied()),
        );
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = drain(child.stderr.take().expect("piped stderr"));
        Session {
            child,
            stdin: Some(stdin),
            lines: lines_of(stdout),
            stderr: Some(stderr),
            log: Vec::new(),
        }
    }

    fn transcript(&self) -> String {
        let tail = self.log.len().saturating_sub(80);
        self.log[tail..].join("\n")
    }

    fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let shown = String::from_utf8_lossy(bytes);
        let shown: String = shown.trim_end().chars().take(200).collect();
        self.log.push(format!("> {shown}"));
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin
            .write_all(bytes)
            .and_then(|()| stdin.flush())
            .unwrap_or_else(|e| panic!("writing to nboard: {e}\n{}", self.transcript()));
    }

    fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                let line = line.trim_end_matches('\r').to_string();
                self.log.push(format!("< {line}"));
                Some(line)
            }
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Reads lines up to and including the first one `done` accepts.
    fn until(&mut self, what: &str, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + TIMEOUT;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some(line) = self.next_line(left) else {
                panic!("no {what} within {TIMEOUT:?}\n{}", self.transcript());
            };
            let last = done(&line);
            lines.push(line);
            if last {
                return lines;
            }
        }
    }

    /// `ping n`, then everything up to `pong n` (which is left out).
    fn ping(&mut self, n: u32) -> Vec<String> {
        self.send(&format!("ping {n}"));
        let pong = format!("pong {n}");
        let mut lines = self.until(&pong, |l| l == pong);
        lines.pop();
        lines
    }

    /// The replies to `line`, made sure complete by a ping.
    fn replies(&mut self, line: &str, n: u32) -> Vec<String> {
        self.send(line);
        self.ping(n)
    }

    /// Asserts that `line` is answered by exactly one error line.
    fn expect_error(&mut self, line: &str, n: u32, mentions: &str) {
        self.send(line);
        self.expect_error_reply(line, n, mentions);
    }

    fn expect_error_reply(&mut self, line: &str, n: u32, mentions: &str) {
        let replies = self.ping(n);
        let shown: String = line.chars().take(80).collect();
        assert_eq!(
            replies.len(),
            1,
            "{shown:?} should get one reply\n{}",
            self.transcript()
        );
        assert!(
            replies[0].starts_with("error ") && replies[0].contains(mentions),
            "{shown:?} should get an error line mentioning {mentions:?}, got {:?}",
            replies[0]
        );
    }

    /// `go`: the thinking output up to the `===` line, and its move. The
    /// empty status line that ends the search is read too.
    fn go(&mut self) -> (Vec<String>, String) {
        self.send("go");
        let lines = self.until("=== line", |l| l.starts_with("=== "));
        let answer = lines.last().expect("a line").clone();
        let mv = check_move_reply(&answer);
        let end = self.until("the end of the search", |l| l.starts_with("status"));
        assert_eq!(end, ["status"], "after the answer");
        (lines, mv)
    }

    /// Closes standard input and waits for a clean exit.
    fn finish(mut self) -> String {
        drop(self.stdin.take());
        let deadline = Instant::now() + TIMEOUT;
        loop {
            match self.child.try_wait().expect("waiting for nboard") {
                Some(status) => {
                    let reader = self.stderr.take().expect("the stderr reader");
                    let stderr = reader.join().expect("the stderr reader");
                    let stderr = String::from_utf8_lossy(&stderr).into_owned();
                    assert!(
                        status.success(),
                        "nboard exited with {status}\n{stderr}\n{}",
                        self.transcript()
                    );
                    return stderr;
                }
                None if Instant::now() > deadline => {
                    let _ = self.child.kill();
                    panic!("nboard did not exit at end of input\n{}", self.transcript());
                }
                None => thread::sleep(Duration::from_millis(10)),
            }
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Checks a `=== MOVE/EVAL/TIME` line; returns MOVE in lower case.
fn check_move_reply(line: &str) -> String {
    let body = line.strip_prefix("=== ").expect("a === line");
    let mut parts = body.split('/');
    let mv = parts.next().expect("a move").to_ascii_lowercase();
    assert!(
        mv == "pa" || parse_square(8, &mv).is_ok(),
        "bad move in {line:?}"
    );
    let rest: Vec<&str> = parts.collect();
    if mv != "pa" {
        assert_eq!(rest.len(), 2, "=== MOVE/EVAL/TIME expected: {line:?}");
        let eval: f64 = rest[0].parse().expect("a numeric eval");
        let time: f64 = rest[1].parse().expect("a numeric time");
        assert!(eval.abs() <= 64.0 && time >= 0.0, "{line:?}");
    }
    mv
}

/// Checks the thinking output that may precede an answer.
fn check_thinking(lines: &[String]) {
    for line in lines {
        let word = line.split(' ').next().unwrap_or("");
        assert!(
            matches!(word, "status" | "nodestats" | "search" | "book" | "==="),
            "unexpected line while thinking: {line:?}"
        );
        if word == "search" {
            parse_search(line);
        }
        if word == "book" {
            parse_book(line);
        }
    }
}

/// `book PV EVAL 0 0` (no game counts, no depth): (the PV's moves, eval).
fn parse_book(line: &str) -> (Vec<String>, f64) {
    let f: Vec<&str> = line.split(' ').collect();
    assert_eq!(f.len(), 5, "book PV EVAL 0 0 expected: {line:?}");
    assert_eq!(f[0], "book");
    assert_eq!((f[3], f[4]), ("0", "0"), "{line:?}");
    assert!(
        f[1].len().is_multiple_of(2) && !f[1].is_empty(),
        "a PV of two-letter moves: {line:?}"
    );
    let pv: Vec<String> = (0..f[1].len())
        .step_by(2)
        .map(|i| f[1][i..i + 2].to_string())
        .collect();
    for mv in &pv {
        assert!(parse_square(8, mv).is_ok(), "{line:?}");
    }
    let eval: f64 = f[2].parse().expect("a numeric eval");
    assert_eq!(eval.fract(), 0.0, "book values are whole discs: {line:?}");
    (pv, eval)
}

/// Plays `pv` on a copy of `game`: every move must be legal in turn.
fn check_line(game: &Game, pv: &[String]) {
    let mut g = game.clone();
    for mv in pv {
        if g.must_pass() {
            g.pass().expect("a forced pass");
        }
        let square = sq(mv);
        assert!(g.legal_moves().has(square), "{mv} of {pv:?} is illegal");
        g.play(square).expect("a legal move");
    }
}

/// `search PV EVAL 0 DEPTH`: (first move of the PV, eval, depth).
fn parse_search(line: &str) -> (String, f64, u32) {
    let f: Vec<&str> = line.split(' ').collect();
    assert_eq!(f.len(), 5, "search PV EVAL 0 DEPTH expected: {line:?}");
    assert_eq!(f[3], "0", "{line:?}");
    assert!(
        f[1].len().is_multiple_of(2) && !f[1].is_empty(),
        "a PV of two-letter moves: {line:?}"
    );
    let first = f[1][..2].to_ascii_lowercase();
    assert!(first == "pa" || parse_square(8, &first).is_ok(), "{line:?}");
    let eval: f64 = f[2].parse().expect("a numeric eval");
    let depth: u32 = f[4].parse().expect("a numeric depth");
    (first, eval, depth)
}

/// A GGF game: `board` (a board string) and the moves after it.
fn ggf(board: &str, moves: &[String]) -> String {
    let (squares, side) = board.split_at(64);
    let to_ggf = |c: char| match c {
        'X' => '*',
        'O' => 'O',
        _ => '-',
    };
    let squares: String = squares.chars().map(to_ggf).collect();
    let side = to_ggf(side.trim().chars().next().expect("a side"));
    let first = if side == '*' { 0 } else { 1 };
    let mut out = format!(
        "(;GM[Othello]PC[tests]DT[2024-01-01 00:00:00 GMT]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[8 {squares} {side}]"
    );
    for (i, mv) in moves.iter().enumerate() {
        let colour = if (i + first) % 2 == 0 { 'B' } else { 'W' };
        out.push_str(&format!("{colour}[{}]", mv.to_ascii_uppercase()));
    }
    out.push_str(";)");
    out
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// A small deterministic generator for the "GUI" player's choices.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

// ---------------------------------------------------------------------------
// Sessions

/// The engine plays black with `go`, we play white; the whole game.
/// With `analyze`, the finished game is analyzed too.
fn play_whole_game(exe: &Path, env_vars: &[(&str, &str)], seed: u64, analyze: bool) {
    let mut s = Session::start(exe, env_vars);
    s.send("nboard 2");
    let name = s.until("set myname", |l| l.starts_with("set myname "));
    assert_eq!(name, ["set myname othello10"]);
    let depth = if analyze { 2 } else { 1 };
    assert_eq!(
        s.replies(&format!("set depth {depth}"), 1),
        [format!("set myname othello{depth}")]
    );
    assert!(s
        .replies(&format!("set game {}", ggf(START, &[])), 2)
        .is_empty());

    let mut game = Game::new();
    let mut rng = Lcg(seed);
    let mut played: Vec<String> = Vec::new();
    let mut pings = 10;
    while !game.is_game_over() {
        if game.side_to_move() == Color::Black {
            let (lines, mv) = s.go();
            check_thinking(&lines);
            if played.is_empty() {
                // The book is on by default and knows the start.
                let book = lines
                    .iter()
                    .find(|l| l.starts_with("book "))
                    .expect("a book move");
                assert_eq!(parse_book(book).0[0], mv, "{lines:?}");
            }
            let answer = lines.last().expect("a === line").clone();
            if game.must_pass() {
                assert_eq!(mv, "pa", "black must pass: {answer:?}");
                game.pass().expect("a forced pass");
            } else {
                let sq = parse_square(8, &mv).expect("a square");
                assert!(
                    game.legal_moves().has(sq),
                    "the engine's {mv} is illegal\n{}",
                    s.transcript()
                );
                game.play(sq).expect("a legal move");
            }
            // As NBoard does: the engine's answer comes back as a move.
            s.send(&format!("move {}", answer.trim_start_matches("=== ")));
            played.push(mv);
        } else if game.must_pass() {
            s.send("move PA");
            game.pass().expect("a forced pass");
            played.push("pa".into());
        } else {
            let moves: Vec<u32> = game.legal_moves().squares().collect();
            let sq = moves[rng.below(moves.len())];
            // Upper and lower case, with and without an eval and time.
            let text = if played.len() % 4 == 1 {
                format!("move {}", square_name(8, sq).to_ascii_uppercase())
            } else {
                format!("move {}/-1.50/0.25", square_name(8, sq))
            };
            s.send(&text);
            game.play(sq).expect("a legal move");
            played.push(square_name(8, sq));
        }
        if played.len().is_multiple_of(7) {
            pings += 1;
            let extra = s.ping(pings);
            assert!(extra.is_empty(), "no reply to moves: {extra:?}");
        }
    }
    assert!(played.len() >= 58, "a whole game: {} turns", played.len());

    // The game is over: nothing to search.
    s.expect_error("go", 100, "game is over");
    s.expect_error("hint 2", 101, "game is over");
    if !analyze {
        assert!(s.finish().is_empty(), "nothing on stderr");
        return;
    }

    // The engine's game is ours: analyze ends with the final score, and
    // covers every turn, passes included.
    s.send("analyze");
    let lines = s.until("the end of the analysis", |l| l == "status");
    let analysis: Vec<(usize, f64)> = lines
        .iter()
        .filter(|l| l.starts_with("analysis "))
        .map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            assert_eq!(f.len(), 3, "{l:?}");
            (
                f[1].parse().expect("a turn"),
                f[2].parse().expect("an eval"),
            )
        })
        .collect();
    let turns: Vec<usize> = analysis.iter().map(|a| a.0).collect();
    let expected: Vec<usize> = (0..=played.len()).rev().collect();
    assert_eq!(turns, expected, "one analysis per position, last first");
    let final_score = game.position().final_score();
    assert_eq!(
        analysis[0].1,
        final_score as f64,
        "the final position's score ({} to move)",
        side_name(game.side_to_move())
    );
    assert!(s.finish().is_empty(), "nothing on stderr");
}

#[test]
fn whole_game_from_the_gui_side() {
    play_whole_game(nboard_exe(), &[], 1, true);
}

#[test]
fn hints_and_go_in_an_endgame() {
    let mut s = Session::start(nboard_exe(), &[]);
    s.send("nboard 2");
    s.send("set depth 10"); // exact from 20 empties: FFO #1 is solved
    s.send(&format!("set game {}", ggf(FFO1, &[])));
    let names = s.ping(1);
    assert_eq!(names, ["set myname othello10", "set myname othello10"]);

    s.send("hint 3");
    let lines = s.until("the end of the hints", |l| l == "status");
    check_thinking(&lines);
    let hints: Vec<(String, f64, u32)> = lines
        .iter()
        .filter(|l| l.starts_with("search "))
        .map(|l| parse_search(l))
        .collect();
    assert!(hints.len() >= 3, "{lines:?}");
    let last = &hints[hints.len() - 3..];
    assert_eq!((last[0].0.as_str(), last[0].1 as i32), FFO1_BEST[0]);
    assert_eq!((last[1].0.as_str(), last[1].1 as i32), FFO1_BEST[1]);
    assert!(
        FFO1_BEST[2..].contains(&(last[2].0.as_str(), last[2].1 as i32)),
        "third best: {:?}",
        last[2]
    );
    assert!(
        last.iter().all(|h| h.2 == 14),
        "exact: depth = the 14 empties"
    );

    // More hints than moves: all 8, best first.
    s.send("hint 20");
    let lines = s.until("the end of the hints", |l| l == "status");
    let hints: Vec<(String, f64, u32)> = lines
        .iter()
        .filter(|l| l.starts_with("search "))
        .map(|l| parse_search(l))
        .collect();
    let last = &hints[hints.len() - 8..];
    let evals: Vec<f64> = last.iter().map(|h| h.1).collect();
    assert_eq!(evals, [18.0, 12.0, 6.0, 6.0, 4.0, -4.0, -22.0, -24.0]);

    // go: the best move with its exact score; the game is not changed.
    for _ in 0..2 {
        let (lines, mv) = s.go();
        check_thinking(&lines);
        assert_eq!(mv, "g8");
        assert!(lines.last().unwrap().starts_with("=== g8/18.00/"));
    }

    // Play g8 and a reply through the protocol, then hint again.
    s.send("move g8/18.00/0.01");
    let mut game = parse_board::<S8>(FFO1).expect("FFO #1");
    game.play(sq("g8")).unwrap();
    let reply = game
        .legal_moves()
        .squares()
        .next()
        .expect("white has a move");
    s.send(&format!("move {}", square_name(8, reply)));
    game.play(reply).unwrap();
    s.send("hint 1");
    let lines = s.until("the end of the hints", |l| l == "status");
    let (mv, _, _) = parse_search(
        lines
            .iter()
            .rev()
            .find(|l| l.starts_with("search "))
            .expect("a hint"),
    );
    if game.must_pass() {
        assert_eq!(mv, "pa");
    } else {
        assert!(game.legal_moves().has(sq(&mv)), "{mv}");
    }

    // A position where the side to move must pass.
    s.send(&format!("set game {}", ggf(PASS_POSITION, &[])));
    s.send("hint 2");
    let lines = s.until("the end of the hints", |l| l == "status");
    let hints: Vec<_> = lines.iter().filter(|l| l.starts_with("search ")).collect();
    assert_eq!(hints.len(), 1, "{lines:?}");
    assert_eq!(parse_search(hints[0]).0, "pa");
    let (_, mv) = s.go();
    assert_eq!(mv, "pa");
    // The GUI sends the pass back; black then has h8, the last move.
    s.send("move PA");
    s.send("go");
    let lines = s.until("=== line", |l| l.starts_with("=== "));
    assert!(lines.last().unwrap().starts_with("=== h8/"), "{lines:?}");
    assert!(s.finish().is_empty());
}

/// Searches on several threads (`--threads`, `set threads`) give the
/// exact hints and the move of one thread.
#[test]
fn hints_and_go_on_threads() {
    let mut s = Session::start_with(nboard_exe(), &["--threads", "2"]);
    s.send("nboard 2");
    s.send("set depth 10"); // exact from 20 empties: FFO #1 is solved
    s.send(&format!("set game {}", ggf(FFO1, &[])));
    s.ping(1);
    for (n, threads) in ["2", "3", "0", "1"].iter().enumerate() {
        if n > 0 {
            let line = format!("set threads {threads}");
            assert!(s.replies(&line, 10 + n as u32).is_empty(), "{line}");
        }
        let (_, searched) = hints(&mut s, 20);
        assert!(searched.len() >= 8, "{threads} threads: {searched:?}");
        let last = &searched[searched.len() - 8..];
        let evals: Vec<f64> = last.iter().map(|h| h.1).collect();
        assert_eq!(
            evals,
            [18.0, 12.0, 6.0, 6.0, 4.0, -4.0, -22.0, -24.0],
            "{threads} threads"
        );
        assert_eq!((last[0].0.as_str(), last[0].2), ("g8", 14));
        let (lines, mv) = s.go();
        check_thinking(&lines);
        assert_eq!(mv, "g8", "{threads} threads");
        assert!(lines.last().unwrap().starts_with("=== g8/18.00/"));
    }
    assert!(s.finish().is_empty());
}

#[test]
fn pondering_keeps_go_exact() {
    // With --ponder the engine thinks after each go on the reply it
    // expects; the next go, after that reply or another, still answers
    // the exact best move and score (depth 10 solves from 20 empties).
    use othello::engine::{Engine, Limits};
    let mut s = Session::start_with(nboard_exe(), &["--ponder"]);
    s.send("nboard 2");
    s.send("set depth 10");
    s.ping(1);
    let mut after = parse_board::<S8>(FFO1).expect("FFO #1");
    after.play(sq("g8")).expect("g8");
    let replies: Vec<u32> = after.legal_moves().squares().take(3).collect();
    let mut exact = Engine::new(16);
    let stop = std::sync::atomic::AtomicBool::new(false);
    for (n, &reply) in replies.iter().enumerate() {
        s.send(&format!("set game {}", ggf(FFO1, &[])));
        s.ping(10 + n as u32);
        let (_, mv) = s.go();
        assert_eq!(mv, "g8");
        // The engine ponders now; the GUI sends the game so far, as
        // NBoard does, then go.
        let moves = ["g8".to_string(), square_name(8, reply)];
        s.send(&format!("set game {}", ggf(FFO1, &moves)));
        let (lines, mv) = s.go();
        let mut pos = after.clone();
        pos.play(reply).expect("a reply");
        let want = exact
            .search(
                pos.position(),
                &Limits::explicit(4, 60, 60).unwrap(),
                &stop,
                &mut |_| {},
            )
            .unwrap();
        assert!(want.exact);
        let answer = lines.last().unwrap();
        let eval: f64 = answer.split('/').nth(1).unwrap().parse().unwrap();
        assert_eq!(
            eval as i32 * 100,
            want.score,
            "after g8 {}: {answer}",
            moves[1]
        );
        assert!(pos.legal_moves().has(sq(&mv)), "{mv}");
    }
    // set ponder turns it off and on; anything else is refused.
    assert!(s.replies("set ponder 0", 20).is_empty());
    assert!(s.replies("set ponder 1", 21).is_empty());
    s.expect_error("set ponder 2", 22, "set ponder");
    s.expect_error("set ponder", 23, "set ponder");
    assert!(s.finish().is_empty());
}

/// The time of a `=== MOVE/EVAL/TIME` line, in seconds.
fn reply_time(line: &str) -> f64 {
    let time = line.rsplit('/').next().expect("a time");
    time.parse().expect("a numeric time")
}

/// `set selectivity N` changes every search's cuts: at the same level, the
/// most selective setting searches fewer nodes than the fixed levels' (4),
/// and that fewer than none; -1 gives the level's back (0 here: the game
/// has a clock, and a level by time searches at selectivity 0).
#[test]
fn selectivity_changes_the_searches() {
    // A session each: the table would answer a second search at once.
    let nodes = |setting: &str| -> u64 {
        let mut s = Session::start(nboard_exe(), &[]);
        s.send("nboard 2");
        s.send("set depth 8");
        s.send("set book 0");
        s.send(&ggf_set(START, &["f5", "d6", "c3", "d3", "c4"], None));
        // No error: the search is of this game, not of the start.
        let replies = s.ping(1);
        assert!(
            !replies.iter().any(|l| l.starts_with("error")),
            "{replies:?}"
        );
        assert!(s
            .replies(&format!("set selectivity {setting}"), 2)
            .is_empty());
        let (lines, _) = s.go();
        let stats = lines
            .iter()
            .rev()
            .find_map(|l| l.strip_prefix("nodestats "))
            .unwrap_or_else(|| panic!("no nodestats\n{}", s.transcript()));
        let n = stats.split(' ').next().unwrap().parse().unwrap();
        s.finish();
        n
    };
    let (most, fixed, none) = (nodes("0"), nodes("4"), nodes("5"));
    assert!(most < fixed && fixed < none, "{most} {fixed} {none}");
    assert_eq!(nodes("-1"), most);
}

/// `set movetime S` bounds each `go` (level 60 would otherwise think for
/// minutes), and the game's clock (GGF's TI and each move's time) does too:
/// a side with little time left answers within its share. By a move time
/// alone the engine searches even where its book knows the position.
#[test]
fn movetime_and_the_games_clock_bound_go() {
    const SLACK: f64 = 0.1;
    let mut s = Session::start(nboard_exe(), &[]);
    s.send("nboard 2");
    s.send("set depth 60");
    // A game without a clock: the move time alone limits the search.
    let unclocked = ggf(START, &[]).replace("TI[15:00]", "");
    s.send(&format!("set game {unclocked}"));
    s.ping(1);
    assert!(s.replies("set movetime 0.3", 2).is_empty());
    let (lines, _) = s.go();
    assert!(
        !lines.iter().any(|l| l.starts_with("book ")),
        "a book move by a move time: {lines:?}"
    );
    let took = reply_time(lines.last().unwrap());
    assert!(took <= 0.3 + SLACK, "{took} s\n{}", s.transcript());
    // The book would answer the clock's position below at once.
    s.send("set book 0");
    s.expect_error("set movetime -1", 3, "movetime");
    s.expect_error("set movetime soon", 4, "movetime");
    assert!(s.replies("set movetime 0", 5).is_empty());
    // Black has 10 s for the game and took 9.4 of them: 0.6 s left, of
    // which a move may take at most half.
    let game = "(;GM[Othello]PC[tests]PB[a]PW[b]RE[?]TI[0:10/0:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5//9.4]W[D6//1.0];)";
    s.send(&format!("set game {game}"));
    s.ping(6);
    let start = Instant::now();
    let (lines, _) = s.go();
    let wall = start.elapsed().as_secs_f64();
    let took = reply_time(lines.last().unwrap());
    assert!(
        took <= 0.3 + SLACK && wall <= 0.3 + 2.0 * SLACK,
        "{took} s, {wall} s"
    );
    // A clock that is no time is refused, and the game kept.
    s.expect_error(
        &format!("set game {}", game.replace("TI[0:10/0:00]", "TI[ten]")),
        7,
        "not a time",
    );
    assert!(s.finish().is_empty());
}

/// What `go`'s first line says the search goes by: `Some((left,
/// increment))` in seconds for a clock, `None` for none.
fn clock_of(status: &str) -> Option<(f64, f64)> {
    let rest = status
        .strip_prefix("status thinking: depth ")
        .unwrap_or_else(|| panic!("not go's first status line: {status:?}"));
    if rest.ends_with(", no clock") {
        return None;
    }
    let (left, increment) = rest
        .split_once(", clock ")
        .and_then(|(_, clock)| clock.strip_suffix(" s a move"))
        .and_then(|clock| clock.split_once(" s left + "))
        .unwrap_or_else(|| panic!("no clock in {status:?}"));
    let seconds = |t: &str| -> f64 { t.parse().unwrap_or_else(|_| panic!("{status:?}")) };
    Some((seconds(left), seconds(increment)))
}

fn assert_clock(status: &str, expected: Option<(f64, f64)>, what: &str) {
    let got = clock_of(status);
    let close = match (got, expected) {
        (None, None) => true,
        (Some((l, i)), Some((el, ei))) => (l - el).abs() < 0.002 && (i - ei).abs() < 0.002,
        _ => false,
    };
    assert!(close, "{what}: {status:?}, expected {expected:?}");
}

/// GGF clocks as GUIs write them (issue 61), in place of `TI[15:00]` in
/// FFO #1 (black to move): a clock of nothing is none, and `set depth 10`
/// decides; no time with an extension gives the extension; only an
/// increment gives each move its increment; `TB`/`TW` are each side's. In
/// every case `go` solves FFO #1 exactly (`g8 +18`), where a clock of no
/// time left searches one ply (`g2 +9`). A fresh session each: the table
/// of an earlier solve would answer even a one-ply search.
#[test]
fn clocks_as_guis_send_them() {
    let cases: &[(&str, Option<(f64, f64)>)] = &[
        ("TI[0:00]", None),
        ("TI[0]", None),
        ("TI[]", None),
        ("TI[0/0/0]", None),
        ("TI[0:00:00//]", None),
        ("", None),
        ("TI[0//2:00]", Some((120.0, 0.0))),
        ("TI[5:00]", Some((300.0, 0.0))),
        ("TI[15:00//02:00]", Some((900.0, 0.0))),
        ("TI[1:00:00/30]", Some((3600.0, 30.0))),
        ("TI[0/0:10]", Some((10.0, 10.0))),
        ("TI[90.5]", Some((90.5, 0.0))),
        ("TB[1:00]TW[2:00]", Some((60.0, 0.0))),
        ("TB[0//30]TW[0]", Some((30.0, 0.0))),
        ("TW[2:00]", None),
        ("TI[5:00]TB[0:00]", None),
        ("TB[0:00]TI[5:00]", Some((300.0, 0.0))),
    ];
    for &(clock, expected) in cases {
        let mut s = Session::start(nboard_exe(), &[]);
        s.send("nboard 2");
        s.send("set depth 10");
        let game = ggf(FFO1, &[]).replace("TI[15:00]", clock);
        s.send(&format!("set game {game}"));
        assert_eq!(s.ping(1).len(), 2, "{clock}: no error\n{}", s.transcript());
        let (lines, mv) = s.go();
        check_thinking(&lines);
        assert_clock(&lines[0], expected, clock);
        assert_eq!(mv, "g8", "{clock}\n{}", s.transcript());
        let answer = lines.last().expect("the answer");
        assert!(answer.starts_with("=== g8/18.00/"), "{clock}: {answer}");
        assert!(s.finish().is_empty());
    }
}

/// The clock after the record's moves and the `move`s since: each side's
/// time less its moves' times, plus its increments; the extension once
/// the time is spent; for a clock of only an increment, the coming move's
/// increment too.
#[test]
fn the_clock_counts_the_moves() {
    let mut s = Session::start(nboard_exe(), &[]);
    s.send("nboard 2");
    s.until("set myname", |l| l.starts_with("set myname"));
    let game = |clock: &str, moves: &str| {
        format!(
            "set game (;GM[Othello]PC[tests]PB[a]PW[b]RE[?]{clock}TY[8]BO[8 \
             ---------------------------O*------*O--------------------------- *]{moves};)"
        )
    };
    let cases: &[(String, Option<(f64, f64)>)] = &[
        // Black: 60 - 20 + 5.
        (
            game("TI[1:00/0:05]", "B[F5//20]W[D6//3]"),
            Some((45.0, 5.0)),
        ),
        // Black has spent 12 of its 10 s: the extension, less 2 s.
        (
            game("TI[0:10//1:00]", "B[F5//12]W[D6//1]"),
            Some((58.0, 0.0)),
        ),
        // Spent and more than the extension: nothing left.
        (
            game("TI[0:10//0:05]", "B[F5//20]W[D6//1]"),
            Some((0.0, 0.0)),
        ),
        // Only an increment: 2 x 10 (this move's too) less 4.
        (game("TI[0/10]", "B[F5//4]W[D6//1]"), Some((16.0, 10.0))),
        // No time, an extension: the extension, less what black took.
        (game("TI[0//2:00]", "B[F5//20]W[D6//1]"), Some((100.0, 0.0))),
        // No clock stays none, whatever the moves took.
        (game("TI[0:00]", "B[F5//20]W[D6//1]"), None),
        // White's clock only: black, to move, has none.
        (game("TW[1:00]", "B[F5//20]W[D6//1]"), None),
    ];
    for (i, (line, expected)) in cases.iter().enumerate() {
        assert!(s.replies(line, 10 + i as u32).is_empty(), "{line}");
        let (lines, _) = s.go();
        assert_clock(&lines[0], *expected, line);
    }
    // The moves sent after the game count too: black 60 - 20 - 4 + 2 x 5.
    assert!(s
        .replies(&game("TI[1:00/0:05]", "B[F5//20]W[D6//3]"), 30)
        .is_empty());
    assert!(s.replies("move c3//4", 31).is_empty());
    assert!(s.replies("move d3/0.5/2", 32).is_empty());
    let (lines, _) = s.go();
    assert_clock(&lines[0], Some((46.0, 5.0)), "after two moves");
    assert!(s.finish().is_empty());
}

/// A clock that cannot be read is refused with an error naming it, and the
/// game kept: here FFO #1 without a clock, still solved exactly.
#[test]
fn unreadable_clocks_are_refused() {
    let mut s = Session::start(nboard_exe(), &[]);
    s.send("nboard 2");
    s.send("set depth 10");
    let good = ggf(FFO1, &[]).replace("TI[15:00]", "TI[0:00]");
    s.send(&format!("set game {good}"));
    assert_eq!(s.ping(1).len(), 2);
    let long = format!("TI[{}]", "9".repeat(120));
    let bad: &[(&str, &str)] = &[
        ("TI[ten]", "\"ten\" is not a time"),
        ("TI[5:00,40]", "not a time"),
        ("TI[-5:00]", "not a time"),
        ("TI[5::00]", "not a time"),
        ("TI[1:00:00:00]", "not a time"),
        ("TI[ 5:00]", "not a time"),
        ("TI[5:00/x]", "\"x\" is not a time"),
        ("TI[inf]", "not a time"),
        ("TI[nan]", "not a time"),
        ("TI[1e999]", "not a time"),
        ("TI[99999999999]", "not a time"),
        ("TI[9999:9999:9999]", "not a time"),
        ("TB[5:00/0:02/1:00/2]", "time/increment/extension, no more"),
        ("TW[0///]", "no more"),
        (&long, "too long for a clock"),
    ];
    for (i, (clock, mentions)) in bad.iter().enumerate() {
        let line = format!("set game {}", good.replace("TI[0:00]", clock));
        s.expect_error(&line, 10 + i as u32, mentions);
        // The error names the property.
        let error = s.log.iter().rev().nth(1).expect("the error line");
        assert!(
            error.starts_with(&format!("< error set game: {}", &clock[..3])),
            "{error}"
        );
    }
    let (lines, mv) = s.go();
    assert_clock(&lines[0], None, "the kept game");
    assert_eq!(mv, "g8");
    assert!(lines.last().unwrap().starts_with("=== g8/18.00/"));
    assert!(s.finish().is_empty());
}

/// `ping` stops deep searches at once; their result comes before the pong.
#[test]
fn ping_during_searches() {
    let mut s = Session::start(nboard_exe(), &[]);
    s.send("nboard 2");
    s.send("set depth 60");
    // The book knows these openings: off, so that the engine searches.
    s.send("set book 0");
    s.send(&format!(
        "set game {}",
        ggf(START, &["f5".into(), "d6".into()])
    ));
    assert_eq!(s.ping(1).len(), 2);

    // go
    s.send("go");
    s.until("the search to start", |l| l.starts_with("search "));
    let sent = Instant::now();
    s.send("ping 2");
    let lines = s.until("pong 2", |l| l == "pong 2");
    assert!(
        sent.elapsed() < PING_LATENCY,
        "pong after {:?}",
        sent.elapsed()
    );
    let answer = lines
        .iter()
        .position(|l| l.starts_with("=== "))
        .expect("the stopped search still answers");
    let mv = check_move_reply(&lines[answer]);
    let mut game = Game::new();
    game.play(sq("f5")).unwrap();
    game.play(sq("d6")).unwrap();
    assert!(game.legal_moves().has(sq(&mv)), "{mv}");
    assert_eq!(lines[lines.len() - 2], "status", "{lines:?}");
    // Idle: an immediate pong.
    assert!(s.ping(3).is_empty());

    // hint
    s.send("hint 4");
    s.until("the first hints", |l| l.starts_with("search "));
    let sent = Instant::now();
    s.send("ping 4");
    let lines = s.until("pong 4", |l| l == "pong 4");
    assert!(
        sent.elapsed() < PING_LATENCY,
        "pong after {:?}",
        sent.elapsed()
    );
    check_thinking(&lines[..lines.len() - 1]);

    // analyze
    s.send("analyze");
    s.until("the analysis to start", |l| {
        l.starts_with("status analyzing")
    });
    let sent = Instant::now();
    s.send("ping 5");
    s.until("pong 5", |l| l == "pong 5");
    assert!(
        sent.elapsed() < PING_LATENCY,
        "pong after {:?}",
        sent.elapsed()
    );

    // Commands other than ping wait for the search: here a shallow one.
    s.send("set depth 3");
    s.send("go");
    s.send("set depth 4");
    let lines = s.until("the name", |l| l == "set myname othello4");
    assert!(
        lines.iter().any(|l| l.starts_with("=== ")),
        "go answered before the next command ran: {lines:?}"
    );

    // quit during a search ends the program at once.
    s.send("set depth 60");
    s.send("go");
    s.until("the search to start", |l| l.starts_with("search "));
    let sent = Instant::now();
    s.send("quit");
    s.finish();
    assert!(sent.elapsed() < PING_LATENCY);

    // So does the end of the input.
    let mut s = Session::start(nboard_exe(), &[]);
    s.send("set book 0");
    s.send("set depth 60");
    s.send("hint 3");
    s.until("the first hints", |l| l.starts_with("search "));
    let sent = Instant::now();
    s.finish();
    assert!(sent.elapsed() < PING_LATENCY);
}

#[test]
fn malformed_ggf_is_refused_and_the_game_kept() {
    let mut s = Session::start(nboard_exe(), &[]);
    s.send("nboard 2");
    s.send("set depth 10");
    s.send(&format!("set game {}", ggf(FFO1, &[])));
    assert_eq!(s.ping(1).len(), 2);

    let start = ggf(START, &[]);
    let board = &start[start.find("BO[").unwrap()..start.find("];)").unwrap() + 1];
    let bad: Vec<(String, &str)> = vec![
        ("set game".into(), "GGF"),
        ("set game garbage".into(), "(;"),
        (
            "set game (;GM[Chess]BO[8 x *];)".into(),
            "not an Othello game",
        ),
        ("set game (;GM[Othello]TY[10]BO[10 ---];)".into(), "8x8"),
        (format!("set game (;GM[Othello]{}", board), ")"),
        (format!("set game (;GM[Othello]{}B[F5", board), "not closed"),
        (
            format!(
                "set game {}",
                start.replacen("BO[8 -", "BO[8 ", 1).replacen(" *]", "]", 1)
            ),
            "63 squares and no side to move",
        ),
        (
            format!("set game {}", start.replacen(" *]", "]", 1)),
            "64 squares and no side to move",
        ),
        (
            format!("set game {}", start.replacen(" *]", " ?]", 1)),
            "'?'",
        ),
        (
            format!("set game {}", start.replacen(" *]", " * *]", 1)),
            "too many",
        ),
        (
            ggf_set(START, &["f5", "f4"], Some(('B', 1))),
            "white is to move",
        ),
        (ggf_set(START, &["a1"], None), "illegal move a1"),
        // White, to move, has no move: its h8 is black's (found by the
        // fuzz target fuzz/ggf.c, fuzz/regressions/ggf/).
        (
            format!("set game {}", ggf(PASS_POSITION, &["H8".into()])),
            "white has no legal move",
        ),
        (ggf_set(START, &["z9"], None), "not a move"),
        (ggf_set(START, &["f5/x/y"], None), "must be numbers"),
        (ggf_set(START, &["pa"], None), "cannot pass"),
        (format!("set game {start} trailing"), "after the end"),
        ("set game (;GM[Othello]gm[x];)".into(), "malformed"),
        (
            format!("set game (;GM[Othello]C[{}", "x".repeat(100_000)),
            "not closed",
        ),
    ];
    for (i, (line, mentions)) in bad.iter().enumerate() {
        s.expect_error(line, 10 + i as u32, mentions);
    }
    // Still FFO #1: go finds g8, +18.
    let (_, mv) = s.go();
    assert_eq!(mv, "g8");

    // Well-formed variants are accepted: escapes, extra properties, moves
    // with evals and times, a recorded pass, lower case, spaces in BO.
    let spaced: String = {
        let squares: String = START[..64]
            .chars()
            .map(|c| match c {
                'X' => '*',
                c => c,
            })
            .collect();
        let rows: Vec<&str> = (0..8).map(|r| &squares[r * 8..r * 8 + 8]).collect();
        format!(
            "(;GM[Othello]C[a \\] bracket]TY[8]BO[8 {} *]B[f5/1.5/2]W[D6//];)",
            rows.join(" ")
        )
    };
    assert_eq!(s.replies(&format!("set game {spaced}"), 50), [""; 0]);
    let (_, mv) = s.go();
    let mut g = Game::new();
    g.play(sq("f5")).unwrap();
    g.play(sq("d6")).unwrap();
    assert!(g.legal_moves().has(sq(&mv)), "{mv}");
    // A game with a pass: white passes, black plays h8.
    assert!(s
        .replies(
            &format!(
                "set game {}",
                ggf(PASS_POSITION, &["PA".into(), "H8".into()])
            ),
            51
        )
        .is_empty());
    s.expect_error("go", 52, "game is over");
    // The pass may be left out of the record.
    assert!(s
        .replies(
            &format!(
                "set game {}",
                ggf(PASS_POSITION, &[]).replace(";)", "B[H8];)")
            ),
            53
        )
        .is_empty());
    s.expect_error("hint 1", 54, "game is over");
    assert!(s.finish().is_empty());
}

/// `set game` with `moves` after `board`; `force` gives the colour letter
/// and the index of a move to mislabel.
fn ggf_set(board: &str, moves: &[&str], force: Option<(char, usize)>) -> String {
    let moves: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    let mut text = ggf(board, &moves);
    if let Some((colour, index)) = force {
        let wrong = if colour == 'B' { 'W' } else { 'B' };
        let needle = format!("{wrong}[{}]", moves[index].to_ascii_uppercase());
        text = text.replacen(
            &needle,
            &format!("{colour}[{}]", moves[index].to_ascii_uppercase()),
            1,
        );
    }
    format!("set game {text}")
}

#[test]
fn bad_lines_never_stop_it() {
    let mut s = Session::start(nboard_exe(), &[]);
    s.send("nboard 2");
    s.until("set myname", |l| l.starts_with("set myname"));
    let cases: &[(&str, &str)] = &[
        ("frobnicate", "unknown command"),
        ("set", "set: what?"),
        ("set colour 3", "unknown setting"),
        ("set depth", "not a depth"),
        ("set depth 0", "not a depth"),
        ("set depth 61", "not a depth"),
        ("set depth x", "not a depth"),
        ("set depth 99999999999999999999999", "not a depth"),
        ("set contempt lots", "centidiscs"),
        ("set contempt", "centidiscs"),
        ("set book", "not 0 (off) or 1 (on)"),
        ("set book 2", "not 0 (off) or 1 (on)"),
        ("set book on", "not 0 (off) or 1 (on)"),
        ("set threads", "not 0..256"),
        ("set threads 257", "not 0..256"),
        ("set threads -1", "not 0..256"),
        ("set threads two", "not 0..256"),
        ("set selectivity", "not -1..5"),
        ("set selectivity 6", "not -1..5"),
        ("set selectivity -2", "not -1..5"),
        ("hint", "how many"),
        ("hint 0", "how many"),
        ("hint -3", "how many"),
        ("hint x", "how many"),
        ("ping", "number"),
        ("move", "which move"),
        ("move z9", "not a move"),
        ("move a1", "illegal move a1"),
        ("move f5/abc", "must be numbers"),
        ("move PA", "cannot pass"),
        ("nboard 3", "not supported"),
        ("nboard", "not supported"),
        ("Z9", "unknown command"),
    ];
    for (i, (line, mentions)) in cases.iter().enumerate() {
        s.expect_error(line, 100 + i as u32, mentions);
    }
    // ping x: no pong for a non-number.
    s.send("ping x");
    let lines = s.ping(200);
    assert_eq!(lines.len(), 1);
    assert!(lines[0].starts_with("error ping"), "{lines:?}");

    // Bytes that are not text, a NUL, a huge line, CR LF line ends.
    s.send_bytes(b"\xff\xfe\x80 junk\n");
    s.expect_error_reply("binary", 201, "unknown command");
    s.send_bytes(b"go\0go\n");
    s.expect_error_reply("NUL", 202, "NUL");
    s.send(&"x".repeat(300_000));
    s.expect_error_reply("huge", 203, "unknown command");
    s.send_bytes(b"ping 204\r\n");
    s.until("pong 204", |l| l == "pong 204");
    // Blank lines get no reply.
    assert!(s.replies("", 205).is_empty());
    assert!(s.replies("   \t ", 206).is_empty());

    // Still playing: the start position, black to move.
    s.send("set depth 1");
    let (_, mv) = s.go();
    assert!(["d3", "c4", "f5", "e6"].contains(&mv.as_str()), "{mv}");
    assert!(s.finish().is_empty());
}

/// `analyze` on an endgame: consecutive exact scores agree with the rules.
#[test]
fn analyze_agrees_with_the_rules() {
    let mut game = parse_board::<S8>(FFO1).expect("FFO #1");
    let mut moves = Vec::new();
    let mut rng = Lcg(5);
    while !game.is_game_over() && moves.len() < 8 {
        if game.must_pass() {
            game.pass().unwrap();
            moves.push("PA".to_string());
        } else {
            let legal: Vec<u32> = game.legal_moves().squares().collect();
            let sq = legal[rng.below(legal.len())];
            game.play(sq).unwrap();
            moves.push(square_name(8, sq));
        }
    }
    let mut s = Session::start(nboard_exe(), &[]);
    s.send("nboard 2");
    s.send("set depth 10");
    s.send(&format!("set game {}", ggf(FFO1, &moves)));
    assert_eq!(s.ping(1).len(), 2);
    s.send("analyze");
    let lines = s.until("the end of the analysis", |l| l == "status");
    let evals: Vec<(usize, i32)> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("analysis "))
        .map(|l| {
            let (k, e) = l.split_once(' ').expect("analysis K EVAL");
            let e: f64 = e.parse().expect("an eval");
            assert_eq!(e.fract(), 0.0, "exact scores are whole discs");
            (k.parse().expect("a turn"), e as i32)
        })
        .collect();
    let ks: Vec<usize> = evals.iter().map(|e| e.0).collect();
    assert_eq!(ks, (0..=moves.len()).rev().collect::<Vec<_>>());
    let eval_at = |k: usize| evals.iter().find(|e| e.0 == k).unwrap().1;
    assert_eq!(eval_at(0), 18, "FFO #1 is +18");
    for (k, mv) in moves.iter().enumerate() {
        let (now, next) = (eval_at(k), eval_at(k + 1));
        if mv == "PA" {
            assert_eq!(now, -next, "a pass: turn {k}");
        } else {
            assert!(
                now >= -next,
                "turn {k} ({mv}): the best score {now} is below the move's {}",
                -next
            );
        }
    }
    assert!(s.finish().is_empty());
}

#[test]
fn learn_contempt_and_version_1() {
    let mut s = Session::start(nboard_exe(), &[]);
    s.send("nboard 1");
    s.until("set myname", |l| l.starts_with("set myname"));
    assert_eq!(s.replies("learn", 1), ["learned"]);
    assert!(s.replies("set contempt 150", 2).is_empty());
    assert!(s.replies("set contempt -2.5", 3).is_empty());
    // Version 1: a bare move; then white's hint is one of white's moves.
    assert!(s.replies("F5", 4).is_empty());
    s.send("set depth 2");
    s.send("hint 1");
    let lines = s.until("the end of the hints", |l| l == "status");
    // The book knows the position after f5: its line, no search.
    assert!(!lines.iter().any(|l| l.starts_with("search ")), "{lines:?}");
    let (pv, _) = parse_book(
        lines
            .iter()
            .find(|l| l.starts_with("book "))
            .expect("a hint"),
    );
    let mv = &pv[0];
    assert!(["d6", "f4", "f6"].contains(&mv.as_str()), "{mv}");
    // --help, and a bad option.
    let out = program(nboard_exe())
        .arg("--help")
        .output()
        .expect("nboard --help");
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    for option in [
        "--hash",
        "--threads",
        "--no-book",
        "--book-file",
        "--weights",
    ] {
        assert!(help.contains(option), "--help explains {option}");
    }
    for bad in [
        &["--bogus"][..],
        &["--book-file"],
        &["--book-file", "/nonexistent/book.bin"],
        &["--weights"],
        &["--weights", "/nonexistent/pattern.bin"],
        // A book file is not a weights file.
        &[
            "--weights",
            concat!(env!("CARGO_MANIFEST_DIR"), "/weights/book.bin"),
        ],
        &["--threads", "257"],
        &["--threads", "x"],
        &["--threads"],
    ] {
        let out = program(nboard_exe())
            .args(bad)
            .output()
            .expect("nboard with bad options");
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(!out.stderr.is_empty(), "{bad:?} explains itself");
    }
    assert!(s.finish().is_empty());
}

/// A `book` hint line: its PV and eval.
type BookHint = (Vec<String>, f64);
/// A `search` hint line: its first move, eval and depth.
type SearchHint = (String, f64, u32);

/// The hint lines of `hint N` in `s`'s game: (book lines' PVs and evals,
/// the last depth's search lines).
fn hints(s: &mut Session, n: usize) -> (Vec<BookHint>, Vec<SearchHint>) {
    s.send(&format!("hint {n}"));
    let lines = s.until("the end of the hints", |l| l == "status");
    check_thinking(&lines);
    let book: Vec<_> = lines
        .iter()
        .filter(|l| l.starts_with("book "))
        .map(|l| parse_book(l))
        .collect();
    let searched: Vec<_> = lines
        .iter()
        .filter(|l| l.starts_with("search "))
        .map(|l| parse_search(l))
        .collect();
    let last_depth = searched.iter().map(|h| h.2).max().unwrap_or(0);
    let last = searched.into_iter().filter(|h| h.2 == last_depth).collect();
    (book, last)
}

/// The book answers `hint` and `go` where it knows the position: `book`
/// lines, best first, with legal lines; `set book 0` turns it off.
#[test]
fn book_hints_and_go() {
    let mut s = Session::start(nboard_exe(), &[]);
    s.send("nboard 2");
    s.send("set depth 3");
    assert_eq!(s.ping(1).len(), 2);
    let start = Game::new();

    // The start: every move is in the book (the four are one up to
    // symmetry), so no search.
    let (book, searched) = hints(&mut s, 1);
    assert_eq!(
        (book.len(), searched.len()),
        (1, 0),
        "{book:?} {searched:?}"
    );
    check_line(&start, &book[0].0);
    let best = book[0].clone();
    let (book, searched) = hints(&mut s, 10);
    assert!(searched.is_empty(), "{searched:?}");
    let firsts: Vec<&str> = book.iter().map(|b| b.0[0].as_str()).collect();
    assert_eq!(book.len(), 4, "{firsts:?}");
    for mv in ["d3", "c4", "f5", "e6"] {
        assert!(firsts.contains(&mv), "{firsts:?}");
    }
    assert_eq!(book[0], best, "hint 1 is the first of hint 10");
    assert!(
        book.windows(2).all(|w| w[0].1 >= w[1].1),
        "best first: {book:?}"
    );
    for b in &book {
        check_line(&start, &b.0);
    }

    // go: a book move, with its line, not searched.
    let (lines, mv) = s.go();
    check_thinking(&lines);
    assert!(!lines.iter().any(|l| l.starts_with("search ")), "{lines:?}");
    let line = lines
        .iter()
        .find(|l| l.starts_with("book "))
        .expect("a book line");
    let (pv, eval) = parse_book(line);
    assert_eq!(pv[0], mv);
    check_line(&start, &pv);
    let answer = lines.last().expect("the answer");
    assert!(
        answer.starts_with(&format!("=== {mv}/{eval:.2}/")),
        "{lines:?}"
    );

    // Book off: searched moves only.
    assert!(s.replies("set book 0", 2).is_empty());
    let (book, searched) = hints(&mut s, 2);
    assert!(
        book.is_empty() && searched.len() == 2,
        "{book:?} {searched:?}"
    );
    assert!(searched.iter().all(|h| h.2 == 3), "depth 3: {searched:?}");
    let (lines, _) = s.go();
    assert!(!lines.iter().any(|l| l.starts_with("book ")), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("search ")), "{lines:?}");
    // And on again.
    assert!(s.replies("set book 1", 3).is_empty());
    let (book, _) = hints(&mut s, 1);
    assert_eq!(book, std::slice::from_ref(&best));

    assert!(s.finish().is_empty());

    // A book that knows one move of the start, f5 at +2 (the file format
    // of src/book.rs: the start is its own canonical form): a book line
    // for it, search lines for the three others, each legal move once.
    let mut bytes = b"OTHBOOK\0".to_vec();
    for word in [1u32, 8, 1, 0] {
        bytes.extend_from_slice(&word.to_le_bytes());
    }
    let (black, white) = (
        (1u64 << sq("e4")) | (1 << sq("d5")),
        (1u64 << sq("d4")) | (1 << sq("e5")),
    );
    bytes.extend_from_slice(&black.to_le_bytes());
    bytes.extend_from_slice(&white.to_le_bytes());
    bytes.extend_from_slice(&[1, sq("f5") as u8, 2]);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("nboard");
    std::fs::create_dir_all(&dir).expect("a directory for the book");
    let one_move = dir.join("one-move.book");
    std::fs::write(&one_move, &bytes).expect("writing the book");
    let mut s = Session::start_with(
        nboard_exe(),
        &["--book-file", one_move.to_str().expect("UTF-8")],
    );
    assert_eq!(s.replies("set depth 3", 1), ["set myname othello3"]);
    let (book, searched) = hints(&mut s, 10);
    assert_eq!(book.len(), 1, "{book:?}");
    let booked = book[0].0[0].clone();
    assert!(
        ["d3", "c4", "f5", "e6"].contains(&booked.as_str()),
        "{book:?}"
    );
    assert_eq!((book[0].0.len(), book[0].1), (1, 2.0), "{book:?}");
    let mut all: Vec<String> = searched.iter().map(|h| h.0.clone()).collect();
    assert_eq!(all.len(), 3, "{searched:?}");
    assert!(searched.iter().all(|h| h.2 == 3), "{searched:?}");
    all.push(booked.clone());
    all.sort();
    assert_eq!(all, ["c4", "d3", "e6", "f5"]);
    // Fewer hints than book moves: the book line only.
    let (few, searched) = hints(&mut s, 1);
    assert!(searched.is_empty() && few == book, "{few:?} {searched:?}");
    let (lines, mv) = s.go();
    assert_eq!(mv, booked);
    assert!(
        lines
            .last()
            .unwrap()
            .starts_with(&format!("=== {mv}/2.00/")),
        "{lines:?}"
    );
    assert!(s.finish().is_empty());

    // --no-book: searched from the start; --book-file: the book of a file
    // (here the library's own, so the same lines as the built-in book).
    let mut s = Session::start_with(nboard_exe(), &["--no-book"]);
    assert_eq!(s.replies("set depth 2", 1), ["set myname othello2"]);
    let (book, searched) = hints(&mut s, 1);
    assert!(
        book.is_empty() && searched.len() == 1,
        "{book:?} {searched:?}"
    );
    assert!(s.finish().is_empty());
    // --weights: the built-in weights read from their file search alike.
    let weights = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/pattern.bin");
    let mut s = Session::start_with(nboard_exe(), &["--no-book", "--weights", weights]);
    assert_eq!(s.replies("set depth 2", 1), ["set myname othello2"]);
    assert_eq!(hints(&mut s, 1), (vec![], searched));
    assert!(s.finish().is_empty());
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/weights/book.bin");
    let mut s = Session::start_with(nboard_exe(), &["--book-file", file]);
    assert_eq!(s.replies("set depth 3", 1), ["set myname othello3"]);
    let (book, _) = hints(&mut s, 1);
    assert_eq!(book, [best]);
    assert!(s.finish().is_empty());
}

#[test]
fn whole_game_under_sanitizers() {
    let exe = compile(true);
    play_whole_game(&exe, ASAN_ENV, 2, false);
    // A ping during a search, under the sanitizers too.
    let mut s = Session::start(&exe, ASAN_ENV);
    s.send("set depth 60");
    s.send("set book 0");
    s.send("go");
    s.until("the search to start", |l| l.starts_with("search "));
    s.send("ping 1");
    s.until("pong 1", |l| l == "pong 1");
    assert!(s.finish().is_empty());
}
