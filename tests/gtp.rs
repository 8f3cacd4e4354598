//! The GTP program `examples/gtp.c`, compiled against the library cargo
//! built for this test run and driven as a GTP controller drives it, one
//! command at a time, each answer read up to its empty line:
//!
//! - every command: `protocol_version`, `name`, `version`, `known_command`,
//!   `list_commands`, `boardsize`, `clear_board`, `komi`, `play`,
//!   `genmove`, `undo`, `showboard`, `final_score`, `time_settings`,
//!   `time_left`, `list_games`, `set_game`, `quit`;
//! - GTP's framing: ids echoed, comments and empty lines ignored, tabs and
//!   control characters, colours and vertices in either case;
//! - bad input, each answered by one `?` answer and the game kept: unknown
//!   commands, illegal moves, the wrong colour, bad sizes, malformed
//!   arguments and ids;
//! - passes: the one the rules require, implied before the other colour's
//!   move, and after the end of the game;
//! - whole games by `genmove` for both colours to `final_score`, on 8x8
//!   and 6x6, every move checked against the crate's rules (`Game`);
//! - a game by the clock of `time_settings` and `time_left`;
//! - a session under AddressSanitizer + UBSan (static library).

use othello::board::{final_score, Bits, Geometry, S6, S8};
use othello::notation::{parse_square, parse_transcript, square_name};
use othello::{Color, Game};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin};
use std::sync::mpsc::Receiver;
use std::sync::OnceLock;
use std::thread;
use std::time::{Duration, Instant};

mod cbuild;
use cbuild::{build_example, drain, lines_of, program, spawn_piped, ASAN_ENV};

/// The longest wait for one answer (sanitized builds included).
const TIMEOUT: Duration = Duration::from_secs(60);

fn gtp_exe() -> &'static Path {
    static EXE: OnceLock<PathBuf> = OnceLock::new();
    EXE.get_or_init(|| build_example("gtp", false, &[]))
}

// ---------------------------------------------------------------------------
// A session: the program as a child, its answers read line by line

struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: Option<thread::JoinHandle<Vec<u8>>>,
    log: Vec<String>,
}

/// One answer: success or failure, the id it repeats, its text (lines
/// joined with '\n').
#[derive(Debug, PartialEq)]
struct Answer {
    ok: bool,
    id: String,
    text: String,
}

impl Session {
    fn start(exe: &Path, args: &[&str], env_vars: &[(&str, &str)]) -> Session {
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
        let tail = self.log.len().saturating_sub(60);
        self.log[tail..].join("\n")
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        self.log
            .push(format!("> {}", String::from_utf8_lossy(bytes).trim_end()));
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin
            .write_all(bytes)
            .and_then(|()| stdin.flush())
            .unwrap_or_else(|e| panic!("writing to gtp: {e}\n{}", self.transcript()));
    }

    /// The next answer: its lines up to the empty one.
    fn answer(&mut self) -> Answer {
        let deadline = Instant::now() + TIMEOUT;
        let mut lines: Vec<String> = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Ok(line) = self.lines.recv_timeout(left) else {
                panic!(
                    "no complete answer within {TIMEOUT:?}\n{}",
                    self.transcript()
                );
            };
            self.log.push(format!("< {line}"));
            if line.is_empty() {
                break;
            }
            lines.push(line);
        }
        let first = lines.first().cloned().unwrap_or_default();
        let ok = match first.chars().next() {
            Some('=') => true,
            Some('?') => false,
            _ => panic!(
                "an answer starts with = or ?: {first:?}\n{}",
                self.transcript()
            ),
        };
        let head = &first[1..];
        let id: String = head.chars().take_while(char::is_ascii_digit).collect();
        let rest = &head[id.len()..];
        assert!(
            rest.is_empty() || rest.starts_with(' '),
            "the id is followed by a space: {first:?}"
        );
        let mut text = vec![rest.trim().to_string()];
        text.extend(lines[1..].iter().cloned());
        Answer {
            ok,
            id,
            text: text.join("\n").trim_matches('\n').to_string(),
        }
    }

    /// Sends `command`; its answer.
    fn ask(&mut self, command: &str) -> Answer {
        self.send_bytes(format!("{command}\n").as_bytes());
        self.answer()
    }

    /// `command` must succeed; its text.
    fn ok(&mut self, command: &str) -> String {
        let a = self.ask(command);
        assert!(
            a.ok && a.id.is_empty(),
            "{command:?} should succeed, got {a:?}\n{}",
            self.transcript()
        );
        a.text
    }

    /// `command` must fail with a message containing `mentions`.
    fn fails(&mut self, command: &str, mentions: &str) {
        let a = self.ask(command);
        assert!(
            !a.ok && a.text.contains(mentions),
            "{command:?} should fail mentioning {mentions:?}, got {a:?}\n{}",
            self.transcript()
        );
    }

    /// The board as `showboard` draws it: the rows' marks, from row 1.
    fn board_rows(&mut self) -> Vec<String> {
        let text = self.ok("showboard");
        let lines: Vec<&str> = text.lines().collect();
        let rows: Vec<String> = lines
            .iter()
            .filter(|l| {
                l.trim_start()
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_digit())
            })
            .map(|l| {
                l.split_whitespace()
                    .filter(|w| w.len() == 1 && "XO.-".contains(*w))
                    .collect()
            })
            .collect();
        rows
    }

    /// Closes standard input and waits for a clean exit; the output not
    /// yet read.
    fn finish(mut self) -> Vec<String> {
        drop(self.stdin.take());
        let deadline = Instant::now() + TIMEOUT;
        loop {
            match self.child.try_wait().expect("waiting for gtp") {
                Some(status) => {
                    let stderr = self.stderr.take().expect("stderr").join().expect("stderr");
                    assert!(
                        status.success(),
                        "gtp exited with {status}\n{}\n{}",
                        String::from_utf8_lossy(&stderr),
                        self.transcript()
                    );
                    return self.lines.try_iter().collect();
                }
                None if Instant::now() > deadline => panic!("gtp did not exit"),
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

/// The rows of `game` as `showboard` draws them.
fn rows_of<G: Geometry>(game: &Game<G>) -> Vec<String> {
    let n = G::N;
    let legal = game.legal_moves();
    (0..n)
        .map(|r| {
            (0..n)
                .map(|c| {
                    let sq = r * n + c;
                    match game.at(sq) {
                        Some(Color::Black) => 'X',
                        Some(Color::White) => 'O',
                        None if legal.has(sq) => '.',
                        None => '-',
                    }
                })
                .collect()
        })
        .collect()
}

/// GTP's score of a finished game.
fn score_text<G: Geometry>(game: &Game<G>) -> String {
    let black = final_score::<G>(game.discs(Color::Black), game.discs(Color::White));
    match black {
        0 => "0".to_string(),
        d if d > 0 => format!("B+{d}"),
        d => format!("W+{}", -d),
    }
}

fn gtp_color(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// A whole game by `genmove` for both colours, from the side to move
/// (a `genmove` for the colour that must pass is answered `pass`), every
/// move checked against the rules; then `final_score`. The moves played.
fn genmove_game<G: Geometry>(s: &mut Session) -> Vec<String> {
    let mut game = Game::<G>::new();
    let mut moves = Vec::new();
    while !game.is_game_over() {
        let color = game.side_to_move();
        let mv = s.ok(&format!("genmove {}", gtp_color(color)));
        if game.must_pass() {
            assert_eq!(mv, "pass", "{color:?} must pass\n{}", s.transcript());
            game.pass().expect("a pass");
        } else {
            let sq = parse_square(G::N, &mv)
                .unwrap_or_else(|_| panic!("{mv:?} is a square\n{}", s.transcript()));
            assert!(
                game.legal_moves().has(sq),
                "{mv} is legal for {color:?}\n{}",
                s.transcript()
            );
            game.play(sq).expect("a legal move");
        }
        moves.push(mv);
        assert_eq!(s.board_rows(), rows_of(&game), "after {}", moves.join(" "));
    }
    // After the end, both colours pass.
    assert_eq!(s.ok("genmove black"), "pass");
    assert_eq!(s.ok("genmove w"), "pass");
    assert_eq!(s.ok("final_score"), score_text(&game));
    assert_eq!(s.board_rows(), rows_of(&game));
    moves
}

/// Replays `moves` with `play` on a fresh session of size `n`: each is
/// accepted, colours alternating as the game says.
fn replay<G: Geometry>(moves: &[String]) -> String {
    let mut s = Session::start(gtp_exe(), &[], &[]);
    s.ok(&format!("boardsize {}", G::N));
    let mut game = Game::<G>::new();
    for mv in moves {
        let color = game.side_to_move();
        s.ok(&format!("play {} {}", gtp_color(color), mv.to_uppercase()));
        if mv == "pass" {
            game.pass().expect("a pass");
        } else {
            game.play(parse_square(G::N, mv).expect("a square"))
                .expect("legal");
        }
    }
    s.ok("final_score")
}

// ---------------------------------------------------------------------------
// Tests

#[test]
fn whole_games_by_genmove_on_8x8_and_6x6() {
    let mut s = Session::start(gtp_exe(), &["--level", "4"], &[]);
    let moves8 = genmove_game::<S8>(&mut s);
    assert!(moves8.len() >= 30, "a whole game: {moves8:?}");
    let score8 = s.ok("final_score");
    s.ok("boardsize 6");
    let moves6 = genmove_game::<S6>(&mut s);
    assert!(moves6.len() >= 10, "a whole game: {moves6:?}");
    let score6 = s.ok("final_score");
    s.ok("quit");
    assert!(s.finish().is_empty(), "nothing after quit's answer");
    // The same games, move by move with play, score the same.
    assert_eq!(replay::<S8>(&moves8), score8);
    assert_eq!(replay::<S6>(&moves6), score6);
}

#[test]
fn administrative_commands() {
    let mut s = Session::start(gtp_exe(), &[], &[]);
    assert_eq!(s.ok("protocol_version"), "2");
    assert_eq!(s.ok("name"), "othello");
    assert_eq!(s.ok("version"), env!("CARGO_PKG_VERSION"));
    let listed: Vec<String> = s.ok("list_commands").lines().map(String::from).collect();
    let all = [
        "protocol_version",
        "name",
        "version",
        "known_command",
        "list_commands",
        "boardsize",
        "clear_board",
        "komi",
        "play",
        "genmove",
        "undo",
        "showboard",
        "final_score",
        "time_settings",
        "time_left",
        "quit",
        "list_games",
        "set_game",
    ];
    for c in all {
        assert!(listed.iter().any(|l| l == c), "{c} listed: {listed:?}");
        assert_eq!(s.ok(&format!("known_command {c}")), "true");
    }
    assert_eq!(listed.len(), all.len(), "{listed:?}");
    assert_eq!(s.ok("known_command loadsgf"), "false");
    assert_eq!(
        s.ok("known_command PLAY"),
        "false",
        "commands are lower case"
    );
    s.fails("known_command", "syntax error");
    s.ok("komi 6.5");
    s.ok("komi -3");
    s.ok("komi 0");
    s.fails("komi", "syntax error");
    s.fails("komi six", "syntax error");
    assert_eq!(s.ok("list_games"), "Othello");
    s.ok("set_game Othello");
    s.fails("set_game Go", "unsupported game");
    s.ok("quit");
    assert!(s.finish().is_empty());
}

#[test]
fn framing_ids_comments_and_case() {
    let mut s = Session::start(gtp_exe(), &[], &[]);
    let a = s.ask("7 name");
    assert_eq!(
        (a.ok, a.id.as_str(), a.text.as_str()),
        (true, "7", "othello")
    );
    let a = s.ask("12 frobnicate");
    assert_eq!(
        (a.ok, a.id.as_str(), a.text.as_str()),
        (false, "12", "unknown command")
    );
    let a = s.ask("3 play black z9");
    assert!(!a.ok && a.id == "3", "{a:?}");
    let a = s.ask("4");
    assert!(!a.ok && a.id == "4", "an id alone: {a:?}");
    let a = s.ask("99999999999999999999 name");
    assert!(!a.ok && a.text.contains("syntax error"), "{a:?}");
    // Comments, empty lines and whitespace-only lines get no answer: the
    // next answer is the one of the next command.
    s.send_bytes(b"# a comment\n\n   \t \n");
    let a = s.ask("5 protocol_version # the version");
    assert_eq!((a.ok, a.id.as_str(), a.text.as_str()), (true, "5", "2"));
    // Tabs separate words; other control characters are dropped; CRLF.
    assert_eq!(s.ok("known_command\tplay\r"), "true");
    assert_eq!(s.ok("na\x01me"), "othello");
    // Colours and vertices in either case; pass in either case.
    s.ok("play B d3");
    s.ok("play WHITE C3");
    s.ok("play Black c4");
    s.ok("play w E3");
    s.fails("play b PASS", "illegal move");
    s.fails("play bl c5", "syntax error");
    s.fails("play", "syntax error");
    s.fails("play b", "syntax error");
    s.fails("play b c5 c6", "syntax error");
    s.fails("genmove", "syntax error");
    s.fails("genmove purple", "syntax error");
    s.fails("genmove b w", "syntax error");
    s.fails("frobnicate", "unknown command");
    s.fails("Name", "unknown command");
    s.fails("name extra", "syntax error");
    s.fails("showboard now", "syntax error");
    assert_eq!(
        s.board_rows(),
        rows_of(&parse_transcript::<S8>("d3c3c4e3").expect("moves"))
    );
    s.ok("quit");
    assert!(s.finish().is_empty());
}

#[test]
fn illegal_moves_and_wrong_colors_keep_the_game() {
    let mut s = Session::start(gtp_exe(), &[], &[]);
    let start = s.board_rows();
    s.fails("play white d3", "wrong color");
    s.fails("genmove white", "wrong color");
    s.fails("play black a1", "illegal move");
    s.fails("play black d4", "illegal move");
    s.fails("play black i1", "syntax error");
    s.fails("play black a9", "syntax error");
    s.fails("play black a0", "syntax error");
    s.fails("play black d", "syntax error");
    s.fails("play black 33", "syntax error");
    s.fails("play black pass", "illegal move");
    assert_eq!(s.board_rows(), start, "nothing was played");
    s.ok("play black f5");
    s.fails("play black d6", "wrong color");
    s.ok("play white d6");
    // undo takes back one move at a time, then nothing is left.
    s.ok("undo");
    s.ok("undo");
    s.fails("undo", "cannot undo");
    assert_eq!(s.board_rows(), start);
    s.fails("undo extra", "syntax error");
    s.ok("quit");
}

#[test]
fn board_sizes() {
    let mut s = Session::start(gtp_exe(), &[], &[]);
    for bad in ["3", "5", "17", "18", "2", "0", "-8", "1000000000000"] {
        s.fails(&format!("boardsize {bad}"), "unacceptable size");
    }
    s.fails("boardsize", "syntax error");
    s.fails("boardsize eight", "syntax error");
    s.fails("boardsize 8 8", "syntax error");
    // A bad size keeps the game.
    s.ok("play b d3");
    s.fails("boardsize 7", "unacceptable size");
    assert_eq!(s.board_rows().len(), 8);
    s.fails("play b c3", "wrong color");
    for n in [4usize, 6, 10, 12, 14, 16, 8] {
        s.ok(&format!("boardsize {n}"));
        let rows = s.board_rows();
        assert_eq!(rows.len(), n, "{rows:?}");
        assert!(rows.iter().all(|r| r.len() == n), "{rows:?}");
        let discs: usize = rows
            .iter()
            .map(|r| r.chars().filter(|&c| c == 'X' || c == 'O').count())
            .sum();
        assert_eq!(discs, 4, "a new game on {n}x{n}");
    }
    // 10x10: the tenth column and row, and the library's start.
    s.ok("boardsize 10");
    let game10 = Game::<othello::board::S10>::new();
    assert_eq!(s.board_rows(), rows_of(&game10));
    let first = game10.legal_moves().squares().next().expect("a move");
    s.ok(&format!("play b {}", square_name(10, first)));
    s.fails("play w j11", "syntax error");
    s.fails("play w k1", "syntax error");
    // clear_board restarts at the current size.
    s.ok("clear_board");
    assert_eq!(s.board_rows(), rows_of(&game10));
    s.fails("clear_board now", "syntax error");
    s.ok("boardsize 4");
    s.fails("play b e1", "syntax error");
    assert_eq!(s.ok("final_score"), "0");
    s.ok("quit");
}

#[test]
fn passes_the_rules_make() {
    // A game of 4x4, where passes come early, up to a pass: found with
    // the crate's rules, then played.
    let mut s = Session::start(gtp_exe(), &[], &[]);
    s.ok("boardsize 4");
    let (moves, at) = game_with_pass::<othello::board::S4>();
    let mut game = Game::<othello::board::S4>::new();
    for &sq in &moves[..at] {
        let color = game.side_to_move();
        s.ok(&format!("play {} {}", gtp_color(color), square_name(4, sq)));
        game.play(sq).expect("legal");
    }
    assert!(game.must_pass(), "the side to move must pass");
    let passer = game.side_to_move();
    let other = passer.opponent();
    let before = s.board_rows();
    // The passer's pass is accepted, and undone alone; the other colour
    // has a move, so its pass is illegal.
    s.fails(&format!("play {} pass", gtp_color(other)), "illegal move");
    s.ok(&format!("play {} pass", gtp_color(passer)));
    s.ok("undo");
    assert_eq!(s.board_rows(), before);
    // genmove for the passer answers pass.
    assert_eq!(s.ok(&format!("genmove {}", gtp_color(passer))), "pass");
    s.ok("undo");
    // A move by the other colour implies the pass; undo takes both back.
    let reply = moves[at];
    s.ok(&format!(
        "play {} {}",
        gtp_color(other),
        square_name(4, reply)
    ));
    let mut after = game.clone();
    after.pass().expect("pass");
    after.play(reply).expect("legal");
    assert_eq!(s.board_rows(), rows_of(&after));
    s.ok("undo");
    assert_eq!(s.board_rows(), before);
    // genmove for the other colour too.
    let mv = s.ok(&format!("genmove {}", gtp_color(other)));
    let mut after = game.clone();
    after.pass().expect("pass");
    let sq = parse_square(4, &mv).expect("a square");
    assert!(after.legal_moves().has(sq), "{mv} legal after the pass");
    s.ok("undo");
    assert_eq!(s.board_rows(), before);
    s.ok("quit");
}

/// A random 4x4 game in which a side must pass before
/// the end: its moves, and the index of the move after the first pass.
fn game_with_pass<G: Geometry>() -> (Vec<u32>, usize) {
    let mut rng = othello::rng::Rng::new(7);
    for _ in 0..10_000 {
        let mut game = Game::<G>::new();
        let mut moves = Vec::new();
        while !game.is_game_over() {
            if game.must_pass() {
                game.pass().expect("pass");
                let at = moves.len();
                let legal: Vec<u32> = game.legal_moves().squares().collect();
                moves.push(legal[0]);
                return (moves, at);
            }
            let legal: Vec<u32> = game.legal_moves().squares().collect();
            let sq = legal[rng.below(legal.len())];
            game.play(sq).expect("legal");
            moves.push(sq);
        }
    }
    panic!("no 4x4 game with a pass");
}

#[test]
fn passes_after_the_end_and_the_score() {
    let mut s = Session::start(gtp_exe(), &[], &[]);
    // 4x4: play a game to its end with play, then pass twice.
    s.ok("boardsize 4");
    let mut game = Game::<othello::board::S4>::new();
    while !game.is_game_over() {
        let color = game.side_to_move();
        if game.must_pass() {
            s.ok(&format!("play {} pass", gtp_color(color)));
            game.pass().expect("pass");
            continue;
        }
        let sq = game.legal_moves().squares().last().expect("a move");
        s.ok(&format!("play {} {}", gtp_color(color), square_name(4, sq)));
        game.play(sq).expect("legal");
    }
    let end = s.board_rows();
    s.ok("play black pass");
    s.ok("play white pass");
    s.fails("play black a1", "illegal move");
    assert_eq!(s.ok("genmove white"), "pass");
    assert_eq!(s.ok("final_score"), score_text(&game));
    // The passes after the end are undone one by one, changing nothing,
    // then the last move.
    for _ in 0..3 {
        s.ok("undo");
        assert_eq!(s.board_rows(), end);
    }
    s.ok("undo");
    assert_ne!(s.board_rows(), end);
    s.fails("final_score extra", "syntax error");
    s.ok("quit");
}

#[test]
fn final_score_and_showboard_mid_game() {
    let mut s = Session::start(gtp_exe(), &[], &[]);
    assert_eq!(s.ok("final_score"), "0");
    s.ok("play b f5");
    // 4 black, 1 white, 59 empties to black.
    assert_eq!(s.ok("final_score"), "B+62");
    let text = s.ok("showboard");
    assert!(text.contains("white to move"), "{text}");
    assert!(text.contains("a b c d e f g h"), "{text}");
    s.ok("quit");
}

#[test]
fn time_settings_and_time_left() {
    // Level 60 without the book: only the clock stops the search.
    let mut s = Session::start(gtp_exe(), &["--level", "60", "--no-book"], &[]);
    for bad in [
        "time_settings",
        "time_settings 10",
        "time_settings 10 0",
        "time_settings ten 0 0",
        "time_settings -1 0 0",
        "time_settings 10 0 0 0",
        "time_settings 10 5 -1",
        "time_settings 10 5 2.5",
        "time_left",
        "time_left black",
        "time_left black 10",
        "time_left purple 10 0",
        "time_left black -1 0",
        "time_left black nan 0",
        "time_left black 10 -2",
        "time_left black 10 0 0",
    ] {
        s.fails(bad, "syntax error");
    }
    // Absolute time: 4 s for the game, at level 60 (the clock decides).
    // Each side's genmove is answered well within the time left.
    s.ok("time_settings 4 0 0");
    let mut game = Game::<S8>::new();
    let mut left = [4.0f64, 4.0];
    let start = Instant::now();
    while !game.is_game_over() {
        let color = game.side_to_move();
        let i = color as usize;
        s.ok(&format!("time_left {} {:.3} 0", gtp_color(color), left[i]));
        let t = Instant::now();
        let mv = s.ok(&format!("genmove {}", gtp_color(color)));
        let took = t.elapsed().as_secs_f64();
        assert!(
            took < left[i] / 2.0 + 0.5,
            "{mv} took {took:.3} s with {:.3} s left\n{}",
            left[i],
            s.transcript()
        );
        left[i] -= took;
        if mv == "pass" {
            game.pass().expect("pass");
        } else {
            game.play(parse_square(8, &mv).expect("a square"))
                .expect("legal");
        }
    }
    assert!(
        left.iter().all(|&l| l > 0.0),
        "neither side ran out: {left:?} in {:?}",
        start.elapsed()
    );
    // Without time_left it counts its own thinking: a whole game on 2 s
    // each stays within them (a clock that forgot the time spent would
    // give each move a share of the whole 2 s again: about 8 s a side).
    s.ok("clear_board");
    s.ok("time_settings 2 0 0");
    let mut game = Game::<S8>::new();
    let mut spent = [0.0f64, 0.0];
    while !game.is_game_over() {
        let color = game.side_to_move();
        let t = Instant::now();
        let mv = s.ok(&format!("genmove {}", gtp_color(color)));
        spent[color as usize] += t.elapsed().as_secs_f64();
        if mv == "pass" {
            game.pass().expect("pass");
        } else {
            game.play(parse_square(8, &mv).expect("a square"))
                .expect("legal");
        }
    }
    assert!(
        spent.iter().all(|&t| t < 2.0 + 1.0),
        "each side within its 2 s (and the pipe's time): {spent:?}"
    );
    // Byo-yomi: 0 main time, 1 s for 5 moves; time_left in byo-yomi.
    s.ok("clear_board");
    s.ok("time_settings 0 1 5");
    s.ok("time_left black 0.5 5");
    let t = Instant::now();
    s.ok("genmove black");
    assert!(t.elapsed() < Duration::from_secs(1), "{:?}", t.elapsed());
    // No time limit: B > 0 with S 0 (the level decides: not tried here,
    // level 60 would search the whole game).
    s.ok("time_settings 0 1 0");
    s.ok("quit");
    // Without a clock the level decides.
    let mut s = Session::start(gtp_exe(), &["--level", "5", "--no-book"], &[]);
    s.ok("time_settings 0 1 0");
    s.ok("genmove black");
    s.ok("quit");
}

#[test]
fn quit_and_end_of_input() {
    let mut s = Session::start(gtp_exe(), &[], &[]);
    let a = s.ask("42 quit");
    assert_eq!((a.ok, a.id.as_str(), a.text.as_str()), (true, "42", ""));
    assert!(s.finish().is_empty());
    let mut s = Session::start(gtp_exe(), &[], &[]);
    s.ok("play b d3");
    assert!(s.finish().is_empty(), "end of input ends it quietly");
}

#[test]
fn bad_command_lines() {
    let out = cbuild::output("gtp --level 0", program(gtp_exe()).args(["--level", "0"]));
    assert_eq!(out.status.code(), Some(2));
    let out = cbuild::output("gtp --frob", program(gtp_exe()).arg("--frob"));
    assert_eq!(out.status.code(), Some(2));
    let out = cbuild::run("gtp --help", program(gtp_exe()).arg("--help"));
    let help = String::from_utf8_lossy(&out.stdout);
    for flag in [
        "--level",
        "--hash",
        "--threads",
        "--no-book",
        "--book-file",
        "--weights",
    ] {
        assert!(help.contains(flag), "{flag} in --help");
    }
    let out = cbuild::output(
        "gtp --book-file",
        program(gtp_exe()).args(["--book-file", "/nonexistent/book"]),
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn pondering_between_genmoves() {
    // With --ponder and a clock, the engine plays black by genmove and
    // ponders while white's moves come by play: every move legal, the
    // board and the score as the rules say.
    let mut s = Session::start(gtp_exe(), &["--level", "6", "--ponder"], &[]);
    s.ok("time_settings 20 0 0");
    let mut game = Game::<S8>::new();
    let mut rng = othello::rng::Rng::new(4);
    while !game.is_game_over() {
        let color = game.side_to_move();
        if game.must_pass() {
            game.pass().expect("a pass");
            continue;
        }
        let sq = if color == Color::Black {
            let mv = s.ok("genmove black");
            parse_square(8, &mv).unwrap_or_else(|_| panic!("{mv:?}\n{}", s.transcript()))
        } else {
            let moves: Vec<u32> = game.legal_moves().squares().collect();
            let sq = moves[rng.below(moves.len())];
            s.ok(&format!("play white {}", square_name(8, sq)));
            sq
        };
        assert!(game.legal_moves().has(sq), "{}", s.transcript());
        game.play(sq).expect("a legal move");
        assert_eq!(s.board_rows(), rows_of(&game));
    }
    assert_eq!(s.ok("final_score"), score_text(&game));
    s.ok("quit");
    assert!(s.finish().is_empty());
}

#[test]
fn no_book_and_threads() {
    // The flags nboard shares: each session plays a legal first move.
    for args in [&["--no-book"][..], &["--threads", "2"][..]] {
        let mut s = Session::start(gtp_exe(), args, &[]);
        let mv = s.ok("genmove b");
        let game = Game::<S8>::new();
        assert!(
            game.legal_moves()
                .has(parse_square(8, &mv).expect("a square")),
            "{args:?}: {mv}"
        );
        s.ok("quit");
    }
}

#[test]
fn session_under_sanitizers() {
    let exe = build_example("gtp", true, &[]);
    let mut s = Session::start(&exe, &["--level", "2"], ASAN_ENV);
    s.ok("boardsize 6");
    genmove_game::<S6>(&mut s);
    for bad in [
        "play",
        "play b zz99",
        "boardsize 99",
        "time_left b x 0",
        "7",
        "known_command",
    ] {
        let a = s.ask(bad);
        assert!(!a.ok, "{bad:?}: {a:?}");
    }
    // A line of control characters alone gets no answer; a NUL is dropped.
    s.send_bytes(b"\x7f\x01\n");
    s.send_bytes(&[b'n', b'a', 0, b'm', b'e', b'\n']);
    assert_eq!(s.answer().text, "othello");
    let long = format!("play b {}", "a".repeat(100_000));
    s.fails(&long, "syntax error");
    s.ok("showboard");
    s.ok("quit");
    s.finish();
}
