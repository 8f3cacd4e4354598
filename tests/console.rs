//! The console game `examples/othello.c` ("OTHELLO v1.1.8" recreated on the
//! library), compiled with the system C compiler against the library cargo
//! built for this test run and driven through its standard input:
//!
//! - whole games: typed move by move (half of them asked of `suggest`, half
//!   chosen from the board the game prints), finished by `auto`, with the
//!   computer moving first, in standard notation, with the real engine (on
//!   one thread and on several: `--threads`), seeded;
//! - games on other board sizes (`--size`: 4x4 to 16x16, scripted on 6x6
//!   and 10x10), checked by a model of any size and the printed layout;
//! - every command (help, ?, instructions, printboard, suggest, log, stats,
//!   undo, redo, auto, quit, stop) and every kind of wrong input;
//! - the opening book: `book on|off` and `--no-book`, `suggest` with and
//!   without it, the engine's book replies, the 1986 levels unchanged by it;
//! - the engine's game clock (`--clock`, 0 for none): `stats` shows it
//!   before the first move and after every move, book moves included;
//! - end of input at each of the three opening questions, at "Move:" and at
//!   the level question of `auto`;
//! - a scripted game under AddressSanitizer + UBSan (static library) and under
//!   valgrind (shared library) when valgrind is installed.
//!
//! The output is checked against a small model of the rules written here:
//! every board printed after a move must follow from the one before by that
//! move, passes must be forced, the game must end exactly when neither side
//! can move, and the final tally must be the discs on the last board.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::OnceLock;
use std::thread;
use std::time::Instant;

mod cbuild;
use cbuild::{build_example, run_with_input, valgrind, wait_or_kill, Ran, ASAN_ENV, TIMEOUT};

// ---------------------------------------------------------------------------
// Building and running

/// The game linked to the shared library, compiled once for all tests.
fn game() -> &'static Path {
    static EXE: OnceLock<PathBuf> = OnceLock::new();
    EXE.get_or_init(|| build_example("othello", false, &[]))
}

fn sanitized_game() -> &'static Path {
    static EXE: OnceLock<PathBuf> = OnceLock::new();
    EXE.get_or_init(|| build_example("othello", true, &[]))
}

impl Ran {
    fn context(&self) -> String {
        let tail: String = {
            let lines: Vec<&str> = self.stdout.lines().collect();
            lines[lines.len().saturating_sub(60)..].join("\n")
        };
        format!(
            "status: {}\n--- stdout (last lines) ---\n{tail}\n--- stderr ---\n{}",
            self.status, self.stderr
        )
    }

    fn assert_clean_exit(&self) {
        assert!(self.status.success(), "the game failed\n{}", self.context());
    }
}

fn play(args: &[&str], input: &str) -> Ran {
    run_with_input(&[], game(), args, input.as_bytes(), &[])
}

// ---------------------------------------------------------------------------
// A model of the rules, to check what the game prints

type Cells = [u8; 64];

const EMPTY: u8 = b'-';
const DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

fn opponent(side: u8) -> u8 {
    if side == b'X' {
        b'O'
    } else {
        b'X'
    }
}

/// The discs `side` would flip by playing `square` (empty when illegal).
fn flips(cells: &Cells, square: usize, side: u8) -> Vec<usize> {
    let mut all = Vec::new();
    if cells[square] != EMPTY {
        return all;
    }
    let (row, col) = ((square / 8) as i32, (square % 8) as i32);
    for (dr, dc) in DIRECTIONS {
        let mut line = Vec::new();
        let (mut r, mut c) = (row + dr, col + dc);
        while (0..8).contains(&r) && (0..8).contains(&c) {
            let sq = (r * 8 + c) as usize;
            if cells[sq] == opponent(side) {
                line.push(sq);
            } else {
                if cells[sq] == side {
                    all.extend(&line);
                }
                break;
            }
            r += dr;
            c += dc;
        }
    }
    all
}

fn legal_moves(cells: &Cells, side: u8) -> Vec<usize> {
    (0..64)
        .filter(|&sq| !flips(cells, sq, side).is_empty())
        .collect()
}

fn apply(cells: &Cells, square: usize, side: u8) -> Cells {
    let mut next = *cells;
    for sq in flips(cells, square, side) {
        next[sq] = side;
    }
    next[square] = side;
    next
}

fn start_cells() -> Cells {
    let mut cells = [EMPTY; 64];
    // The library's start: white d4 e5, black d5 e4 (the original's O at D4
    // and E5, X at D5 and E4).
    cells[27] = b'O';
    cells[36] = b'O';
    cells[28] = b'X';
    cells[35] = b'X';
    cells
}

fn count(cells: &Cells, side: u8) -> usize {
    cells.iter().filter(|&&c| c == side).count()
}

// ---------------------------------------------------------------------------
// Reading the game's output

#[derive(Clone, Copy, PartialEq, Debug)]
enum Notation {
    /// The original's: row letter, column digit ("D3").
    Original,
    /// The library's: column letter, row digit ("c4").
    Standard,
}

impl Notation {
    fn name(self, square: usize) -> String {
        let (row, col) = ((square / 8) as u8, (square % 8) as u8);
        match self {
            Notation::Original => format!("{}{}", (b'A' + row) as char, (b'1' + col) as char),
            Notation::Standard => format!("{}{}", (b'a' + col) as char, (b'1' + row) as char),
        }
    }

    fn parse(self, text: &str) -> Option<usize> {
        let b = text.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let (row, col) = match self {
            Notation::Original => (
                b[0].to_ascii_uppercase().wrapping_sub(b'A'),
                b[1].wrapping_sub(b'1'),
            ),
            Notation::Standard => (
                b[1].wrapping_sub(b'1'),
                b[0].to_ascii_lowercase().wrapping_sub(b'a'),
            ),
        };
        (row < 8 && col < 8).then(|| row as usize * 8 + col as usize)
    }
}

/// One board as printed by the game.
#[derive(Clone, Debug)]
struct Board {
    cells: Cells,
    notation: Notation,
    /// The message on the second row ("X just took 4 pieces").
    message: String,
    /// Byte offset of the board in the output.
    at: usize,
}

/// Every board in `out`, checking each one's layout and score line.
fn boards(out: &str) -> Vec<Board> {
    let lines: Vec<(usize, &str)> = out
        .split_inclusive('\n')
        .scan(0, |offset, line| {
            let at = *offset;
            *offset += line.len();
            Some((at, line.trim_end_matches('\n')))
        })
        .collect();
    let mut found = Vec::new();
    for (i, &(at, line)) in lines.iter().enumerate() {
        let (labels, notation) = if let Some(p) = line.find("  1 2 3 4 5 6 7 8     You:") {
            (p, Notation::Original)
        } else if let Some(p) = line.find("  a b c d e f g h     You:") {
            (p, Notation::Standard)
        } else {
            continue;
        };
        let header = &line[labels..];
        assert!(
            i + 9 < lines.len(),
            "a board is cut short at the end of the output:\n{}",
            &out[at..]
        );
        let mut cells = [EMPTY; 64];
        let mut message = String::new();
        for row in 0..8 {
            let text = lines[i + 1 + row].1;
            let label = match notation {
                Notation::Original => (b'A' + row as u8) as char,
                Notation::Standard => (b'1' + row as u8) as char,
            };
            let b = text.as_bytes();
            assert!(
                b.len() >= 19 && b[0] == label as u8 && b[18] == label as u8,
                "board row {label} is malformed: {text:?}"
            );
            for col in 0..8 {
                let c = b[2 + 2 * col];
                assert!(
                    matches!(c, b'X' | b'O' | b'-') && b[3 + 2 * col] == b' ',
                    "board row {label}: bad square in {text:?}"
                );
                cells[row * 8 + col] = c;
            }
            if row == 1 {
                message = text[19..].trim().to_string();
            } else {
                assert_eq!(text.len(), 19, "row {label} has trailing text: {text:?}");
            }
        }
        let footer = lines[i + 9].1;
        assert_eq!(
            footer,
            &header[..17],
            "the column labels below the board differ from those above"
        );
        check_score_line(header, &cells);
        found.push(Board {
            cells,
            notation,
            message,
            at,
        });
    }
    found
}

/// "  1 2 3 4 5 6 7 8     You:  2  Me:  2    We are tied."
fn check_score_line(header: &str, cells: &Cells) {
    let (you, me) = (count(cells, b'X'), count(cells, b'O'));
    let ahead = match you.cmp(&me) {
        std::cmp::Ordering::Equal => "We are tied.".to_string(),
        std::cmp::Ordering::Greater => plural("You are ahead by", you - me),
        std::cmp::Ordering::Less => plural("I am ahead by", me - you),
    };
    let expected = format!("     You: {you:2}  Me: {me:2}    {ahead}");
    assert_eq!(&header[17..], expected, "score line of a board");
}

fn plural(prefix: &str, n: usize) -> String {
    format!("{prefix} {n} piece{}.", if n == 1 { "" } else { "s" })
}

/// The squares announced by lines starting with `prefix` ("Computer moves at ").
fn announced(out: &str, prefix: &str, notation: Notation) -> Vec<usize> {
    out.lines()
        .filter_map(|l| l.strip_prefix(prefix))
        .map(|name| {
            notation
                .parse(name.trim())
                .unwrap_or_else(|| panic!("bad square in {prefix}{name:?}"))
        })
        .collect()
}

/// What a checked game came to.
#[derive(Debug)]
struct Summary {
    moves: usize,
    passes: usize,
    over: bool,
}

/// Checks a whole session: every board follows from the one before (a move
/// by the side to move with exactly the flips the rules give, or a forced
/// pass); the computer's announced moves are the O moves seen; at the end,
/// neither side can move and the tally is the discs on the board.
fn check_game(out: &str) -> Summary {
    let boards = boards(out);
    let first = boards.first().expect("the game printed no board");
    assert_eq!(first.message, "Beginning new game");
    assert_eq!(first.cells, start_cells(), "the start position");
    let notation = first.notation;
    // X moves first unless the computer opened: then the next board shows
    // O's first move, which leaves X a single disc.
    let mut side = match boards.get(1) {
        Some(b) if count(&b.cells, b'X') == 1 => b'O',
        _ => b'X',
    };
    let mut cells = first.cells;
    let (mut moves, mut passes) = (0, 0);
    let mut moved_by = Vec::new();
    for b in &boards[1..] {
        match b.message.as_str() {
            "Reprint of Board" => {
                assert_eq!(b.cells, cells, "the reprinted board differs");
                continue;
            }
            "You took back your move" | "Your move is replayed" => {
                // Checked by the tests that use them; the model follows.
                cells = b.cells;
                side = b'X';
                moved_by.clear();
                continue;
            }
            _ => {}
        }
        if b.message.contains("pass") {
            let passer = if b.message == "X is forced to pass." {
                b'X'
            } else {
                assert_eq!(b.message, "O was forced to pass");
                b'O'
            };
            assert_eq!(passer, side, "{} passed out of turn", passer as char);
            assert!(
                legal_moves(&cells, side).is_empty(),
                "a pass with a legal move"
            );
            assert!(
                !legal_moves(&cells, opponent(side)).is_empty(),
                "a pass after the game should have ended"
            );
            assert_eq!(b.cells, cells, "a pass changed the board");
            passes += 1;
            side = opponent(side);
            continue;
        }
        let placed: Vec<usize> = (0..64)
            .filter(|&sq| cells[sq] == EMPTY && b.cells[sq] != EMPTY)
            .collect();
        assert_eq!(
            placed.len(),
            1,
            "expected one new disc, found {placed:?}, message {:?}\n{}",
            b.message,
            &out[b.at..]
        );
        let square = placed[0];
        let mover = b.cells[square];
        assert_eq!(
            mover,
            side,
            "{} moved out of turn at {}",
            mover as char,
            notation.name(square)
        );
        let flipped = flips(&cells, square, mover);
        assert!(
            !flipped.is_empty(),
            "illegal move {}",
            notation.name(square)
        );
        assert_eq!(
            b.cells,
            apply(&cells, square, mover),
            "the board after {} {} is wrong",
            mover as char,
            notation.name(square)
        );
        let n = flipped.len();
        assert_eq!(
            b.message,
            format!(
                "{} just took {n} piece{}",
                mover as char,
                if n == 1 { "" } else { "s" }
            )
        );
        moved_by.push((mover, square));
        cells = b.cells;
        side = opponent(side);
        moves += 1;
    }

    // The computer announced its O moves, the stand-in of `auto` its X ones.
    let o_moves: Vec<usize> = moved_by
        .iter()
        .filter(|m| m.0 == b'O')
        .map(|m| m.1)
        .collect();
    let computer = announced(out, "Computer moves at ", notation);
    assert!(
        computer.ends_with(&o_moves),
        "announced {computer:?}, played {o_moves:?}"
    );
    let x_moves: Vec<usize> = moved_by
        .iter()
        .filter(|m| m.0 == b'X')
        .map(|m| m.1)
        .collect();
    let stand_in = announced(out, "Nonplayer moves at ", notation);
    assert!(
        x_moves.ends_with(&stand_in),
        "announced {stand_in:?}, X played {x_moves:?}"
    );

    let over = out.contains("\nThe Game is Over.\n");
    if over {
        assert!(
            legal_moves(&cells, b'X').is_empty() && legal_moves(&cells, b'O').is_empty(),
            "the game ended with a side still able to move"
        );
        let (you, me) = (count(&cells, b'X'), count(&cells, b'O'));
        let verdict = match you.cmp(&me) {
            std::cmp::Ordering::Greater => "You win.\n".to_string(),
            std::cmp::Ordering::Less => {
                "I win.\nOne more in the bag for Artificial Intelligence.\n".to_string()
            }
            std::cmp::Ordering::Equal => "A tie.\n".to_string(),
        };
        let tally =
            format!("\nThe Game is Over.\n\nFINAL TALLY\nYou:  {you}\nMe:   {me}\n\n{verdict}");
        assert!(
            out.ends_with(&tally),
            "the final tally should be\n{tally}\nbut the output ends with\n{}",
            &out[out.len().saturating_sub(300)..]
        );
    } else {
        assert!(
            !legal_moves(&cells, b'X').is_empty() || !legal_moves(&cells, b'O').is_empty(),
            "the game is over but did not say so"
        );
    }
    Summary {
        moves,
        passes,
        over,
    }
}

/// A game that must have been played to its end.
fn check_finished(run: &Ran) -> Summary {
    run.assert_clean_exit();
    let summary = check_game(&run.stdout);
    assert!(summary.over, "the game did not finish\n{}", run.context());
    assert!(
        summary.moves >= 9,
        "a game of {} moves?\n{}",
        summary.moves,
        run.context()
    );
    summary
}

/// The output with the prompts taken out: with its input piped, the game's
/// answer to a command starts on the prompt's line.
fn unprompted(out: &str) -> String {
    out.replace("Move: ", "")
}

fn occurrences(haystack: &str, needle: &str) -> usize {
    haystack.matches(needle).count()
}

/// The first suggestion in `text`: "I suggest moving at E6", or with the
/// book's value "I suggest moving at E6 (book move, +0)". The square as
/// printed and the value of a book move; None when there is none or the
/// line is malformed.
fn suggestion(text: &str) -> Option<(String, Option<i32>)> {
    let rest = text
        .lines()
        .find_map(|l| l.strip_prefix("I suggest moving at "))?;
    let Some((square, note)) = rest.split_once(' ') else {
        return Some((rest.to_string(), None));
    };
    let value = note.strip_prefix("(book move, ")?.strip_suffix(')')?;
    // Printed with its sign: +0, +3, -2.
    if !value.starts_with(['+', '-']) {
        return None;
    }
    Some((square.to_string(), Some(value.parse().ok()?)))
}

// ---------------------------------------------------------------------------
// An interactive session, for the game typed move by move

struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    output: Receiver<Vec<u8>>,
    text: String,
    closed: bool,
}

impl Session {
    fn start(program: &Path, args: &[&str]) -> Session {
        let mut child = cbuild::program(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", program.display()));
        let stdin = child.stdin.take();
        let mut stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = mpsc::channel();
        thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut buf) {
                if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        Session {
            child,
            stdin,
            output: rx,
            text: String::new(),
            closed: false,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush())
            .unwrap_or_else(|e| panic!("writing {line:?} to the game: {e}\n{}", self.text));
    }

    /// Waits until the output after byte `from` contains `needle`; returns
    /// its offset, or None if the game closed its output first.
    fn wait_for(&mut self, needle: &str, from: usize) -> Option<usize> {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if let Some(p) = self.text[from..].find(needle) {
                return Some(from + p);
            }
            if self.closed {
                return None;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.output.recv_timeout(left) {
                Ok(bytes) => self.text.push_str(&String::from_utf8_lossy(&bytes)),
                Err(RecvTimeoutError::Disconnected) => self.closed = true,
                Err(RecvTimeoutError::Timeout) => {
                    let _ = self.child.kill();
                    panic!(
                        "no {needle:?} from the game after {TIMEOUT:?}:\n{}",
                        self.text
                    );
                }
            }
        }
    }

    /// Closes the game's input, reads its output to the end and waits for it.
    fn finish(mut self) -> (String, ExitStatus) {
        drop(self.stdin.take());
        let deadline = Instant::now() + TIMEOUT;
        while !self.closed {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.output.recv_timeout(left) {
                Ok(bytes) => self.text.push_str(&String::from_utf8_lossy(&bytes)),
                Err(RecvTimeoutError::Disconnected) => self.closed = true,
                Err(RecvTimeoutError::Timeout) => {
                    let _ = self.child.kill();
                    panic!("the game does not end:\n{}", self.text);
                }
            }
        }
        let status = wait_or_kill(&mut self.child, "the interactive game");
        (self.text, status)
    }
}

// ---------------------------------------------------------------------------
// Whole games

/// A game typed move by move to its end: on even turns the move `suggest`
/// proposes, on odd turns one chosen from the board the game printed (typed
/// in lower case). Each move must show on the next board with its flips.
#[test]
fn typed_game_to_the_end() {
    typed_game(&[]);
}

/// The same against the engine pondering while the moves are typed.
#[test]
fn typed_game_against_a_pondering_engine() {
    typed_game(&["--engine", "4", "--ponder"]);
}

fn typed_game(args: &[&str]) {
    let mut s = Session::start(game(), args);
    s.send(""); // instructions: the default, no
    s.send(""); // go first: the default, yes
    if !args.contains(&"--engine") {
        s.send("0"); // skill level
    }
    let mut seen = 0;
    let mut expected: Option<Cells> = None;
    let mut typed = 0;
    while let Some(prompt) = s.wait_for("Move: ", seen) {
        let printed = boards(&s.text[..prompt]);
        let since = boards(&s.text[seen..prompt]);
        if let Some(cells) = expected.take() {
            let after = since.first().expect("a board after the move");
            assert_eq!(after.cells, cells, "the board after the typed move");
        }
        let cells = printed.last().expect("a board before the prompt").cells;
        let legal = legal_moves(&cells, b'X');
        assert!(
            !legal.is_empty(),
            "a prompt with no legal move:\n{}",
            s.text
        );
        seen = prompt + "Move: ".len();
        let square = if typed % 2 == 0 {
            s.send("suggest");
            let next = s.wait_for("Move: ", seen).expect("a prompt after suggest");
            let (answer, book) = suggestion(&s.text[seen..next])
                .unwrap_or_else(|| panic!("no suggestion in {:?}", &s.text[seen..next]));
            // The book is on by default and knows the start.
            assert!(typed > 0 || book.is_some(), "no book move at the start");
            let square = Notation::Original
                .parse(&answer)
                .unwrap_or_else(|| panic!("bad suggestion {answer:?}"));
            assert!(legal.contains(&square), "suggested an illegal {answer}");
            seen = next + "Move: ".len();
            s.send(&answer);
            square
        } else {
            let square = *legal.last().expect("a legal move");
            s.send(&Notation::Original.name(square).to_lowercase());
            square
        };
        expected = Some(apply(&cells, square, b'X'));
        typed += 1;
        assert!(typed <= 64, "too many moves");
    }
    let (text, status) = s.finish();
    assert!(status.success(), "the game failed: {status}\n{text}");
    let summary = check_game(&text);
    assert!(summary.over, "the typed game did not end:\n{text}");
    assert!(typed >= 5, "only {typed} moves typed");
    assert_eq!(occurrences(&text, "Illegal move"), 0);
}

#[test]
fn auto_finishes_the_game() {
    let run = play(&[], "\n\n\nD3\nauto\n0\n");
    check_finished(&run);
    assert!(run
        .stdout
        .contains("Enter skill level of computer's opponent: "));
    assert!(run.stdout.contains("\nNonplayer moves at "));
    // Once auto is on, the game asks nothing more.
    let auto = run.stdout.find("Enter skill level").unwrap();
    assert!(!run.stdout[auto..].contains("Move: "));
}

/// The original ended the game at the first pass; here a pass only hands
/// the turn over, and the game goes on while either side can move.
#[test]
fn passes_do_not_end_the_game() {
    let configs: [(&str, &str, &[&str]); 4] = [
        ("1", "1", &[]),
        ("0", "0", &["--seed", "2"]),
        ("2", "0", &["--seed", "2"]),
        ("1", "0", &["--seed", "1"]),
    ];
    let mut with_passes = 0;
    for (skill, opponent, args) in configs {
        let run = play(args, &format!("\n\n{skill}\nauto\n{opponent}\n"));
        let summary = check_finished(&run);
        if summary.passes > 0 {
            with_passes += 1;
            let pass = run
                .stdout
                .find("is forced to pass.\n")
                .expect("a pass message");
            assert!(
                run.stdout[pass..].contains(" moves at "),
                "no move after the pass"
            );
        }
    }
    assert!(
        with_passes > 0,
        "none of the games had a pass: the test needs new configurations"
    );
}

#[test]
fn computer_moves_first_when_asked() {
    let run = play(&[], "no\nn\n0\nauto\n0\n");
    check_finished(&run);
    let first_move = run.stdout.find(" moves at ").expect("a move");
    assert!(
        run.stdout[..first_move].ends_with("\nComputer"),
        "the computer should open:\n{}",
        run.context()
    );
    assert!(!run.stdout[..first_move].contains("Move: "));
}

#[test]
fn standard_notation() {
    let run = play(&["--standard"], "\n\n\nf5\nlog\nauto\n1\n");
    check_finished(&run);
    let first = &boards(&run.stdout)[0];
    assert_eq!(first.notation, Notation::Standard);
    // f5 is black's move on the library's start: it flips e5.
    assert!(unprompted(&run.stdout)
        .contains("\n 1: X at f5 taking  1  X ahead by  3  Total taken =  1\n"));
    assert!(run.stdout.contains("\nComputer moves at "));
    // The same typed text names different squares in the two notations:
    // E6 is the original's row E, column 6 (the library's f5), and the
    // standard e6 (column e, row 6).
    for (args, square) in [(&[][..], 37), (&["--standard"][..], 44)] {
        let run = play(args, "\n\n\nE6\nquit\n");
        run.assert_clean_exit();
        let after = &boards(&run.stdout)[1];
        assert_eq!(after.cells, apply(&start_cells(), square, b'X'), "{args:?}");
    }
}

#[test]
fn engine_plays_to_the_end() {
    let run = play(&["--engine", "2"], "\n\nauto\n1\n");
    check_finished(&run);
    assert!(
        !run.stdout.contains("Skill level 0"),
        "--engine answers the skill question"
    );
    assert!(run
        .stdout
        .contains("Skill level: the library's engine at level 2"));
}

/// `--threads N`: the engine searches on N threads (0: one per core) and
/// plays a whole game, solving its end exactly (level 6: from 12 empties).
#[test]
fn engine_plays_on_threads() {
    for args in [
        &["--engine", "6", "--threads", "2"][..],
        &["--engine=6", "--threads=0"],
    ] {
        let run = play(args, "\n\nauto\n1\n");
        check_finished(&run);
        assert!(
            run.stdout
                .contains("Skill level: the library's engine at level 6"),
            "{args:?}"
        );
    }
    // The 1986 levels take no threads: the same game with and without.
    let script = "\n\n2\nauto\n2\n";
    assert_eq!(
        play(&["--threads", "3"], script).stdout,
        play(&[], script).stdout
    );
}

/// `--clock SECONDS`: the engine plays a whole game at level 60 on a game
/// clock of 2 seconds, within it; a clock that is no number of seconds is
/// refused.
#[test]
fn engine_plays_on_a_clock() {
    let start = std::time::Instant::now();
    let run = play(
        &["--engine", "60", "--clock", "2", "--no-book"],
        "\n\nauto\n1\n",
    );
    let took = start.elapsed();
    check_finished(&run);
    // The 1986 level 1 on X's side takes no time to speak of.
    assert!(took < std::time::Duration::from_secs(4), "{took:?}");
    for bad in [
        "-3", "two", "", "1:", ":30", "1:2:3:4", "24:00:01", "86401", "1.5", "1:0x",
    ] {
        let run = play(&["--engine", "8", "--clock", bad], "");
        assert_eq!(run.status.code(), Some(2), "--clock {bad}");
        assert!(
            run.stderr.contains("--clock wants seconds"),
            "--clock {bad}"
        );
    }
}

/// The engine's clock as `stats` shows it, in seconds, or `None` when it
/// shows none; one per `stats` in `out`.
fn engine_clocks(out: &str) -> Vec<Option<f64>> {
    out.split("Statistics after ")
        .skip(1)
        .map(|stats| {
            stats.lines().find_map(|l| {
                l.trim()
                    .strip_prefix("Engine's clock: ")
                    .and_then(|t| t.strip_suffix(" s left"))
                    .map(|t| t.parse().expect("seconds"))
            })
        })
        .collect()
}

/// `stats` shows the engine's clock before its first move and after every
/// move, book moves included; `--clock 0` (as GUIs write a game without a
/// clock) is none, the level deciding; m:ss and h:mm:ss are read.
#[test]
fn stats_shows_the_clock_after_every_move() {
    let script = "\n\nstats\nD3\nstats\nquit\n";
    for (clock, seconds) in [
        ("60", 60.0),
        ("1:00", 60.0),
        ("0:01:00", 60.0),
        ("90", 90.0),
    ] {
        let run = play(&["--engine", "2", "--clock", clock], script);
        run.assert_clean_exit();
        assert!(
            run.stdout.contains(" from the opening book, value "),
            "a book move\n{}",
            run.context()
        );
        let clocks = engine_clocks(&run.stdout);
        assert_eq!(clocks.len(), 2, "--clock {clock}\n{}", run.context());
        assert_eq!(
            clocks[0],
            Some(seconds),
            "--clock {clock}: before the first move"
        );
        let after = clocks[1].unwrap_or_else(|| {
            panic!("--clock {clock}: none after a book move\n{}", run.context())
        });
        assert!(
            after <= seconds && after > seconds - 1.0,
            "--clock {clock}: {after}"
        );
    }
    // After a search too, less what it took.
    let run = play(&["--engine", "2", "--clock", "60", "--no-book"], script);
    run.assert_clean_exit();
    let clocks = engine_clocks(&run.stdout);
    assert!(
        matches!(clocks[..], [Some(_), Some(t)] if t <= 60.0 && t > 59.0),
        "{clocks:?}"
    );
    // No clock: none shown, and the level searches as without --clock.
    for clock in ["0", "0:00", "00:00:00"] {
        let args = ["--engine", "2", "--no-book", "--clock", clock];
        let run = play(&args, script);
        run.assert_clean_exit();
        assert_eq!(engine_clocks(&run.stdout), [None, None], "--clock {clock}");
        let plain = play(&["--engine", "2", "--no-book"], script);
        assert_eq!(
            run.stdout.replace(char::is_numeric, ""),
            plain.stdout.replace(char::is_numeric, ""),
            "--clock {clock}"
        );
    }
}

#[test]
fn a_seed_replays_the_same_game() {
    let script = "\n\n2\nauto\n2\n";
    let a = play(&["--seed", "7"], script);
    let b = play(&["--seed=7"], script);
    check_finished(&a);
    assert_eq!(a.stdout, b.stdout, "the same seed gave two games");
    let plain = play(&[], script).stdout;
    let varied = (1..=5).any(|seed| play(&["--seed", &seed.to_string()], script).stdout != plain);
    assert!(varied, "no seed changed the game");
}

// ---------------------------------------------------------------------------
// The opening book

/// `suggest` gives the book's move and value at the start while the book
/// is on, the 1986 lookahead's move with it off; `book` tells and switches.
#[test]
fn book_on_and_off() {
    let script =
        "\n\n0\nsuggest\nbook off\nsuggest\nbook\nBOOK  On\nsuggest\nbook maybe\nhelp\nquit\n";
    let run = play(&[], script);
    run.assert_clean_exit();
    let plain = unprompted(&run.stdout);
    let answers: Vec<&str> = plain
        .lines()
        .filter(|l| l.starts_with("I suggest moving at "))
        .collect();
    assert_eq!(answers.len(), 3, "{}", run.context());
    let parsed: Vec<(String, Option<i32>)> = answers
        .iter()
        .map(|a| suggestion(a).unwrap_or_else(|| panic!("malformed {a:?}")))
        .collect();
    for (square, _) in &parsed {
        assert!(
            ["D3", "C4", "F5", "E6"].contains(&square.as_str()),
            "{answers:?}"
        );
    }
    assert!(parsed[0].1.is_some(), "on: a book move {answers:?}");
    assert_eq!(parsed[1].1, None, "off: no book move {answers:?}");
    assert_eq!(answers[2], answers[0], "on again: the same book move");
    // Off, the suggestion is the 1986 lookahead's, as without a book.
    let classic = play(&["--no-book"], "\n\n0\nsuggest\nquit\n");
    assert_eq!(
        suggestion(&unprompted(&classic.stdout)),
        Some(parsed[1].clone())
    );
    assert_eq!(occurrences(&plain, "The opening book is off.\n"), 2);
    assert_eq!(occurrences(&plain, "The opening book is on.\n"), 1);
    assert_eq!(occurrences(&plain, "Type book on or book off.\n"), 1);
    assert!(plain.contains(
        "\nbook on, book off   use the opening book for suggest and --engine (now on)\n"
    ));
    assert_eq!(occurrences(&plain, "Illegal move"), 0);

    // --no-book starts with it off; "book on" turns it on.
    let run = play(
        &["--no-book"],
        "\n\n0\nhelp\nsuggest\nbook on\nsuggest\nquit\n",
    );
    run.assert_clean_exit();
    let plain = unprompted(&run.stdout);
    assert!(plain.contains("(now off)\n"));
    let after_on = plain.find("The opening book is on.").expect("book on");
    assert_eq!(
        suggestion(&plain[..after_on]).expect("a suggestion").1,
        None
    );
    assert!(suggestion(&plain[after_on..])
        .expect("a suggestion")
        .1
        .is_some());

    // The book knows only 8x8: on 6x6 it suggests no book move.
    let run = play(&["--size", "6"], "\n\n0\nbook\nsuggest\nquit\n");
    run.assert_clean_exit();
    let plain = unprompted(&run.stdout);
    assert!(plain.contains("The opening book is on (it knows only the 8x8 board).\n"));
    assert_eq!(suggestion(&plain).expect("a suggestion").1, None);
}

/// The engine replies from the book (stats says so), and searches with
/// the book off, from the command line or the `book off` command.
#[test]
fn the_engine_plays_from_the_book() {
    let searched = |run: &Ran| {
        run.assert_clean_exit();
        let stats = run
            .stdout
            .lines()
            .find(|l| l.contains("Last search (engine level 2 for O): move "))
            .unwrap_or_else(|| panic!("no last search\n{}", run.context()))
            .to_string();
        assert_eq!(
            announced(&run.stdout, "Computer moves at ", Notation::Original).len(),
            1
        );
        stats
    };
    let on = searched(&play(&["--engine", "2"], "\n\nD3\nstats\nquit\n"));
    assert!(on.contains(" from the opening book, value "), "{on}");
    for (args, script) in [
        (&["--engine", "2", "--no-book"][..], "\n\nD3\nstats\nquit\n"),
        (&["--engine", "2"][..], "\n\nbook off\nD3\nstats\nquit\n"),
    ] {
        let off = searched(&play(args, script));
        assert!(
            off.contains(", depth 2, score ") && !off.contains(" 0 nodes"),
            "{args:?} {script:?}: {off}"
        );
    }
}

/// The 1986 skill levels play as they did, book or no book.
#[test]
fn the_book_leaves_the_1986_levels_alone() {
    for (args, skill) in [(&[][..], "0"), (&[][..], "2"), (&["--seed", "3"][..], "1")] {
        let script = format!("\n\n{skill}\nD3\nauto\n{skill}\n");
        let on = play(args, &script);
        check_finished(&on);
        let off_args: Vec<&str> = args.iter().copied().chain(["--no-book"]).collect();
        let off = play(&off_args, &script);
        assert_eq!(on.stdout, off.stdout, "skill {skill} {args:?}");
    }
}

// ---------------------------------------------------------------------------
// Commands

#[test]
fn every_command() {
    let script = "\n\n0\nhelp\n?\ninstructions\nprintboard\nsuggest\nlog\nstats\nundo\nredo\n\
                  D3\nlog\nstats\nundo\nlog\nredo\nredo\nundo\nundo\nHELP\nstop\n";
    let run = play(&[], script);
    run.assert_clean_exit();
    let out = &run.stdout;
    let plain = unprompted(out);
    let ctx = || run.context();
    assert!(
        out.ends_with("Move: Bye!\n"),
        "stop ends the game\n{}",
        ctx()
    );
    assert!(!out.contains("The Game is Over."));
    check_game(out);

    // help, ? and HELP (either case)
    for command in [
        "help, ?",
        "quit, stop",
        "instructions",
        "printboard",
        "suggest",
        "auto",
        "log",
        "stats",
        "undo",
        "redo",
        "book on, book off",
    ] {
        assert_eq!(
            plain.lines().filter(|l| l.starts_with(command)).count(),
            3,
            "help lists {command:?}\n{}",
            ctx()
        );
    }
    assert!(out.contains("The four possible first moves are D3, C4, F5 and E6."));

    let all = boards(out);
    let reprint = all
        .iter()
        .find(|b| b.message == "Reprint of Board")
        .expect("printboard");
    assert_eq!(reprint.cells, start_cells());

    let (suggested, _) = suggestion(&plain).expect("suggest answers");
    assert!(
        ["D3", "C4", "F5", "E6"].contains(&suggested.as_str()),
        "suggested {suggested}"
    );

    // log and stats before any move; undo and redo with nothing to do
    assert_eq!(occurrences(out, "No moves yet.\n"), 2, "{}", ctx());
    assert!(out.contains("Statistics after 0 turns (60 empty squares):"));
    assert_eq!(occurrences(out, "Nothing to undo.\n"), 2, "{}", ctx());
    assert_eq!(occurrences(out, "Nothing to redo.\n"), 2, "{}", ctx());

    // D3 and the reply, in the log
    let reply = announced(out, "Computer moves at ", Notation::Original);
    assert_eq!(reply.len(), 1, "one computer move\n{}", ctx());
    let after_d3 = apply(
        &start_cells(),
        Notation::Original.parse("D3").unwrap(),
        b'X',
    );
    let reply_flips = flips(&after_d3, reply[0], b'O').len();
    let position = apply(&after_d3, reply[0], b'O');
    let log_reply = format!(
        " 2: O at {} taking {reply_flips:2}  ",
        Notation::Original.name(reply[0])
    );
    assert_eq!(occurrences(&plain, &log_reply), 1, "{}", ctx());
    assert_eq!(
        occurrences(
            &plain,
            "\n 1: X at D3 taking  1  X ahead by  3  Total taken =  1\n"
        ),
        1
    );

    // stats after the two moves, against the model
    let stats = &plain[plain
        .find("Statistics after 2 turns")
        .expect("stats after D3")..];
    let row = |label: &str| -> Vec<String> {
        let line = stats
            .lines()
            .find(|l| l.trim_start().starts_with(label))
            .unwrap_or_else(|| panic!("no {label:?} in stats\n{stats}"));
        line[2 + 26..]
            .split_whitespace()
            .map(str::to_string)
            .collect()
    };
    let pair = |a: usize, b: usize| vec![a.to_string(), b.to_string()];
    assert_eq!(row("Moves made"), pair(1, 1));
    assert_eq!(row("Passes"), pair(0, 0));
    assert_eq!(
        row("Discs on board"),
        pair(count(&position, b'X'), count(&position, b'O'))
    );
    assert_eq!(
        row("Mobility"),
        pair(
            legal_moves(&position, b'X').len(),
            legal_moves(&position, b'O').len()
        )
    );
    assert_eq!(row("Pieces taken in total"), pair(1, reply_flips));
    assert_eq!(row("Corners held"), pair(0, 0));
    assert_eq!(row("Edges held"), pair(0, 0));
    assert_eq!(
        row("Biggest single capture"),
        [
            "1",
            "at",
            "D3",
            &reply_flips.to_string(),
            "at",
            &Notation::Original.name(reply[0])
        ]
    );
    assert!(
        stats.contains("Last search (1986 lookahead 0 for O): move "),
        "{stats}"
    );
    assert!(stats.contains(" nodes, "));

    // undo takes back D3 and the reply; redo brings both back
    let undone: Vec<&Board> = all
        .iter()
        .filter(|b| b.message == "You took back your move")
        .collect();
    assert_eq!(undone.len(), 2);
    assert!(undone.iter().all(|b| b.cells == start_cells()));
    let redone: Vec<&Board> = all
        .iter()
        .filter(|b| b.message == "Your move is replayed")
        .collect();
    assert_eq!(redone.len(), 1);
    assert_eq!(redone[0].cells, position);
}

/// A whole game of suggested moves with an undo and a redo every third
/// move: undo goes back to the board of the human's previous move (taking
/// back the computer's reply and any passes with it), redo forward to the
/// board it left.
#[test]
fn undo_and_redo_through_a_game() {
    const PROMPT: &str = "Move: ";
    let mut s = Session::start(game(), &[]);
    s.send("");
    s.send("");
    s.send("1");
    let mut seen = 0;
    let mut rounds = 0;
    let mut previous: Option<Cells> = None;
    while let Some(prompt) = s.wait_for(PROMPT, seen) {
        seen = prompt + PROMPT.len();
        let before = boards(&s.text[..prompt]).last().unwrap().cells;
        if rounds % 3 == 2 {
            s.send("undo");
            let p = s.wait_for(PROMPT, seen).expect("a prompt after undo");
            let b = boards(&s.text[seen..p]);
            assert_eq!(b.len(), 1, "undo prints one board");
            assert_eq!(b[0].message, "You took back your move");
            assert_eq!(
                Some(b[0].cells),
                previous,
                "undo goes back to the human's previous move"
            );
            seen = p + PROMPT.len();
            s.send("redo");
            let p = s.wait_for(PROMPT, seen).expect("a prompt after redo");
            let b = boards(&s.text[seen..p]);
            assert_eq!(b.len(), 1, "redo prints one board");
            assert_eq!(b[0].message, "Your move is replayed");
            assert_eq!(b[0].cells, before, "redo goes back to the same board");
            seen = p + PROMPT.len();
        }
        s.send("suggest");
        let p = s.wait_for(PROMPT, seen).expect("a prompt after suggest");
        let (answer, _) = suggestion(&s.text[seen..p]).expect("a suggestion");
        seen = p + PROMPT.len();
        s.send(&answer);
        previous = Some(before);
        rounds += 1;
        assert!(rounds <= 64);
    }
    let (text, status) = s.finish();
    assert!(status.success());
    let summary = check_game(&text);
    assert!(summary.over);
    assert!(rounds >= 6, "only {rounds} moves");
}

#[test]
fn wrong_input_of_every_kind() {
    let mut input: Vec<u8> = b"\n\n0\n".to_vec();
    let mistakes: [&[u8]; 11] = [
        b"Z9", b"D", b"D33", b"00", b"D4", // occupied
        b"A1", // empty, encloses nothing
        b"C3", // next to the discs, encloses nothing
        b"d 3", b"I9", b"pass", b"e 6",
    ];
    for (i, m) in mistakes.iter().enumerate() {
        input.extend_from_slice(m);
        input.push(b'\n');
        if i == 3 {
            input.extend_from_slice(b"\n   \t \n"); // empty lines: no mistake
            input.extend(std::iter::repeat_n(b'D', 10_000)); // very long
            input.push(b'\n');
            input.extend_from_slice(b"D3");
            input.extend(std::iter::repeat_n(b'x', 300)); // long, a move first
            input.push(b'\n');
            input.extend_from_slice(b"\x00\xff\xfe\x01\x1b[2J\x7fD3\r\n"); // binary
            input.extend_from_slice(b"\xc3\xa9\xe2\x82\xac\n"); // UTF-8
        }
    }
    input.extend_from_slice(b"printboard\nd3\nquit\n");
    let run = run_with_input(&[], game(), &[], &input, &[]);
    run.assert_clean_exit();
    let out = &run.stdout;
    let messages: Vec<&str> = out
        .split("Move: ")
        .filter_map(|chunk| chunk.lines().next())
        .filter(|l| l.starts_with("Illegal move"))
        .collect();
    assert_eq!(
        messages.len(),
        15,
        "one message per mistake\n{}",
        run.context()
    );
    for (i, m) in messages.iter().enumerate() {
        let hint = i % 5 == 0;
        assert_eq!(
            *m,
            if hint {
                "Illegal move - type help for command list"
            } else {
                "Illegal move"
            },
            "message {} of {}",
            i + 1,
            messages.len()
        );
    }
    let all = boards(out);
    let reprint = all
        .iter()
        .find(|b| b.message == "Reprint of Board")
        .unwrap();
    assert_eq!(
        reprint.cells,
        start_cells(),
        "a wrong input changed the board"
    );
    // After all that, d3 (lower case) is still taken as a move.
    let last = all
        .iter()
        .rev()
        .find(|b| b.message.starts_with("X just took"));
    assert_eq!(
        last.expect("d3 was played").cells,
        apply(&start_cells(), 26, b'X')
    );
    check_game(out);
}

#[test]
fn wrong_answers_to_the_questions() {
    let run = play(&[], "maybe\nwhatever\nten\n12\n-1\n 3 \nquit\n");
    run.assert_clean_exit();
    assert_eq!(
        occurrences(&run.stdout, "Valid values are between 0 and 9.\n"),
        3
    );
    // "maybe": no instructions; "whatever": the default, going first.
    assert!(!run.stdout.contains("The four possible first moves"));
    assert!(!run.stdout.contains("Computer moves at"));
    assert!(run.stdout.contains("Move: Bye!"));

    let run = play(&[], "\n\n\nauto\n10\nnine\n\n5x\n0\n");
    check_finished(&run);
    assert_eq!(
        occurrences(&run.stdout, "Valid values are between 0 and 9.\n"),
        4
    );
}

#[test]
fn end_of_input_at_every_prompt() {
    let cases: [(&str, &str, Option<&str>); 7] = [
        ("", "Do you want instructions? (Y/N) [No] ", None),
        ("y", "Do you want to go first (Y/N) [Yes] ", None),
        (
            "\n",
            "Do you want to go first (Y/N) [Yes] ",
            Some("Skill level"),
        ),
        (
            "\n\n",
            "Skill level 0 (easy,fast) to 9 (hard,slow) [0] ",
            Some("Beginning"),
        ),
        ("\n\n\n", "Move: ", None),
        ("\n\n\nD3\nlog", "Move: ", None),
        (
            "\n\n\nauto\n",
            "Enter skill level of computer's opponent: ",
            Some("Nonplayer"),
        ),
    ];
    for (input, last_prompt, absent) in cases {
        let run = play(&[], input);
        run.assert_clean_exit();
        assert!(
            run.stdout.ends_with(&format!("{last_prompt}\nBye!\n")),
            "input {input:?} should end at {last_prompt:?} with Bye!\n{}",
            run.context()
        );
        if let Some(text) = absent {
            assert!(
                !run.stdout.contains(text),
                "input {input:?}: {text:?} shown"
            );
        }
        assert!(run.stderr.is_empty(), "stderr: {}", run.stderr);
    }
    // With instructions asked for, at end of input they are printed first.
    let run = play(&[], "y\n");
    assert!(run.stdout.contains("The four possible first moves are"));
}

#[test]
fn command_line() {
    let run = play(&["--help"], "");
    run.assert_clean_exit();
    for flag in [
        "--engine LEVEL",
        "--standard",
        "--seed N",
        "--size N",
        "--no-book",
        "--threads N",
        "--help",
    ] {
        assert!(run.stdout.contains(flag), "--help lists {flag}");
    }
    for bad in [
        &["--engine", "61"][..],
        &["--engine"],
        &["--engine", "x"],
        &["--seed", "-3"],
        &["--size", "7"],
        &["--size", "18"],
        &["--size", "2"],
        &["--size", "x"],
        &["--size"],
        &["--threads", "257"],
        &["--threads", "-1"],
        &["--threads=x"],
        &["--threads"],
        &["--bogus"],
        &["extra"],
    ] {
        let run = play(bad, "\n\n\nquit\n");
        assert_eq!(run.status.code(), Some(2), "{bad:?}\n{}", run.context());
        assert!(!run.stderr.is_empty(), "{bad:?} explains itself");
        assert!(!run.stdout.contains("Move:"), "{bad:?} started a game");
    }
}

#[test]
fn banner_names_the_original() {
    let run = play(&[], "");
    assert!(run
        .stdout
        .starts_with("OTHELLO v1.1.8\nby Jonathan Dubman (1986)\n"));
}

// ---------------------------------------------------------------------------
// Other board sizes (--size N)

/// A board of any size: the model of the rules and the printed layout.
#[derive(Clone, Debug)]
struct Grid {
    n: usize,
    cells: Vec<u8>,
}

impl Grid {
    /// The library's start on the NxN board: white on the upper-left and
    /// lower-right centre squares.
    fn start(n: usize) -> Grid {
        let mut cells = vec![EMPTY; n * n];
        let h = n / 2;
        cells[(h - 1) * n + h - 1] = b'O';
        cells[h * n + h] = b'O';
        cells[(h - 1) * n + h] = b'X';
        cells[h * n + h - 1] = b'X';
        Grid { n, cells }
    }

    fn flips(&self, square: usize, side: u8) -> Vec<usize> {
        let n = self.n as i32;
        let mut all = Vec::new();
        if self.cells[square] != EMPTY {
            return all;
        }
        let (row, col) = (square as i32 / n, square as i32 % n);
        for (dr, dc) in DIRECTIONS {
            let mut line = Vec::new();
            let (mut r, mut c) = (row + dr, col + dc);
            while (0..n).contains(&r) && (0..n).contains(&c) {
                let sq = (r * n + c) as usize;
                if self.cells[sq] == opponent(side) {
                    line.push(sq);
                } else {
                    if self.cells[sq] == side {
                        all.extend(&line);
                    }
                    break;
                }
                r += dr;
                c += dc;
            }
        }
        all
    }

    fn legal_moves(&self, side: u8) -> Vec<usize> {
        (0..self.n * self.n)
            .filter(|&sq| !self.flips(sq, side).is_empty())
            .collect()
    }

    fn apply(&self, square: usize, side: u8) -> Grid {
        let mut next = self.clone();
        for sq in self.flips(square, side) {
            next.cells[sq] = side;
        }
        next.cells[square] = side;
        next
    }

    fn count(&self, side: u8) -> usize {
        self.cells.iter().filter(|&&c| c == side).count()
    }

    /// The name of a square: row letter and column number ("J10"), or with
    /// the standard notation column letter and row number ("j10").
    fn name(&self, square: usize, standard: bool) -> String {
        let (row, col) = (square / self.n, square % self.n);
        if standard {
            format!("{}{}", (b'a' + col as u8) as char, row + 1)
        } else {
            format!("{}{}", (b'A' + row as u8) as char, col + 1)
        }
    }

    fn parse(&self, text: &str, standard: bool) -> Option<usize> {
        let letter = text.chars().next()?.to_ascii_lowercase();
        let number: usize = text.get(1..)?.parse().ok()?;
        let index = (letter as u8).checked_sub(b'a')? as usize;
        let (row, col) = if standard {
            (number.checked_sub(1)?, index)
        } else {
            (index, number.checked_sub(1)?)
        };
        (row < self.n && col < self.n).then_some(row * self.n + col)
    }
}

/// A board of any size as printed by the game.
#[derive(Clone, Debug)]
struct SizedBoard {
    grid: Grid,
    message: String,
}

/// Column width and row label width of the printed NxN board.
fn layout(n: usize, standard: bool) -> (usize, usize) {
    let cell = if n >= 10 { 3 } else { 2 };
    let label = if standard && n >= 10 { 2 } else { 1 };
    (cell, label)
}

/// The column labels above and below the NxN board.
fn column_labels(n: usize, standard: bool) -> String {
    let (cell, label) = layout(n, standard);
    let mut s = " ".repeat(label);
    for col in 0..n {
        let text = if standard {
            ((b'a' + col as u8) as char).to_string()
        } else {
            (col + 1).to_string()
        };
        s.push_str(&format!("{text:>cell$}"));
    }
    s
}

/// Every NxN board in `out`, checking each one's layout (aligned columns,
/// labels on both sides, the same labels above and below) and score line.
fn sized_boards(out: &str, n: usize, standard: bool) -> Vec<SizedBoard> {
    let (cell, label_width) = layout(n, standard);
    let header = format!("{}     You:", column_labels(n, standard));
    let lines: Vec<&str> = out.lines().collect();
    let mut found = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(p) = line.find(&header) else {
            continue;
        };
        assert!(i + n + 1 < lines.len(), "a board is cut short:\n{out}");
        let mut grid = Grid::start(n);
        let mut message = String::new();
        for row in 0..n {
            let text = lines[i + 1 + row];
            let label = if standard {
                (row + 1).to_string()
            } else {
                ((b'A' + row as u8) as char).to_string()
            };
            let width = label_width + cell * n;
            assert!(
                text.starts_with(&format!("{label:>label_width$}"))
                    && text[width..].starts_with(&format!(" {label}")),
                "board row {label} is malformed: {text:?}"
            );
            let b = text.as_bytes();
            for col in 0..n {
                let at = label_width + cell * col;
                assert!(
                    b[at..at + cell - 1].iter().all(|&c| c == b' '),
                    "row {label}: columns out of line in {text:?}"
                );
                let c = b[at + cell - 1];
                assert!(matches!(c, b'X' | b'O' | b'-'), "row {label}: {text:?}");
                grid.cells[row * n + col] = c;
            }
            let rest = &text[width + 1 + label.len()..];
            if row == 1 {
                message = rest.trim().to_string();
            } else {
                assert!(rest.is_empty(), "row {label} has trailing text: {text:?}");
            }
        }
        assert_eq!(
            lines[i + 1 + n],
            column_labels(n, standard),
            "the column labels below the board"
        );
        let (you, me) = (grid.count(b'X'), grid.count(b'O'));
        let ahead = match you.cmp(&me) {
            std::cmp::Ordering::Equal => "We are tied.".to_string(),
            std::cmp::Ordering::Greater => plural("You are ahead by", you - me),
            std::cmp::Ordering::Less => plural("I am ahead by", me - you),
        };
        assert_eq!(
            &line[p + header.len() - "     You:".len()..],
            format!("     You: {you:2}  Me: {me:2}    {ahead}"),
            "score line"
        );
        found.push(SizedBoard { grid, message });
    }
    found
}

/// Checks a whole session on the NxN board as `check_game` does on 8x8:
/// every board follows from the one before by a legal move with its flips
/// or a forced pass, the computer announced its moves, and a finished game
/// ends with the right tally. Returns the number of moves seen.
fn check_sized_game(out: &str, n: usize, standard: bool) -> (usize, bool) {
    let boards = sized_boards(out, n, standard);
    let first = boards.first().expect("the game printed no board");
    assert_eq!(first.message, "Beginning new game");
    assert_eq!(first.grid.cells, Grid::start(n).cells, "the start position");
    let mut side = match boards.get(1) {
        Some(b) if b.grid.count(b'X') == 1 => b'O',
        _ => b'X',
    };
    let mut grid = first.grid.clone();
    let mut moves = 0;
    let mut o_moves = Vec::new();
    for b in &boards[1..] {
        match b.message.as_str() {
            "Reprint of Board" => {
                assert_eq!(b.grid.cells, grid.cells);
                continue;
            }
            "You took back your move" | "Your move is replayed" => {
                grid = b.grid.clone();
                side = b'X';
                o_moves.clear();
                continue;
            }
            _ => {}
        }
        if b.message.contains("pass") {
            assert!(
                grid.legal_moves(side).is_empty(),
                "a pass with a legal move"
            );
            assert_eq!(b.grid.cells, grid.cells, "a pass changed the board");
            side = opponent(side);
            continue;
        }
        let placed: Vec<usize> = (0..n * n)
            .filter(|&sq| grid.cells[sq] == EMPTY && b.grid.cells[sq] != EMPTY)
            .collect();
        assert_eq!(placed.len(), 1, "one new disc per move: {placed:?}");
        let square = placed[0];
        assert_eq!(b.grid.cells[square], side, "moved out of turn");
        let taken = grid.flips(square, side).len();
        assert!(taken > 0, "illegal move {}", grid.name(square, standard));
        assert_eq!(
            b.grid.cells,
            grid.apply(square, side).cells,
            "the board after a move"
        );
        assert_eq!(
            b.message,
            format!(
                "{} just took {taken} piece{}",
                side as char,
                if taken == 1 { "" } else { "s" }
            )
        );
        if side == b'O' {
            o_moves.push(square);
        }
        grid = b.grid.clone();
        side = opponent(side);
        moves += 1;
    }
    let announced: Vec<usize> = out
        .lines()
        .filter_map(|l| l.strip_prefix("Computer moves at "))
        .map(|name| grid.parse(name.trim(), standard).expect("a square name"))
        .collect();
    assert!(
        announced.ends_with(&o_moves),
        "announced {announced:?}, played {o_moves:?}"
    );
    let over = out.contains("\nThe Game is Over.\n");
    if over {
        assert!(grid.legal_moves(b'X').is_empty() && grid.legal_moves(b'O').is_empty());
        let (you, me) = (grid.count(b'X'), grid.count(b'O'));
        assert!(
            out.contains(&format!("\nFINAL TALLY\nYou:  {you}\nMe:   {me}\n")),
            "the final tally"
        );
    }
    (moves, over)
}

#[test]
fn scripted_game_on_6x6() {
    // B3 is the original's row B, column 3: one of black's four openings.
    let script = "\n\n0\nprintboard\nA1\nG1\nB3\nlog\nstats\nsuggest\nundo\nredo\nauto\n0\n";
    let run = play(&["--size", "6"], script);
    run.assert_clean_exit();
    let (moves, over) = check_sized_game(&run.stdout, 6, false);
    assert!(over && moves >= 8, "{}", run.context());
    let plain = unprompted(&run.stdout);
    assert!(plain.contains("\n 1: X at B3 taking  1  X ahead by  3  Total taken =  1\n"));
    assert!(plain.contains("Statistics after 2 turns (30 empty squares):"));
    assert!(plain.contains("I suggest moving at "));
    // A1 is on the board but illegal; G1 is off it.
    assert_eq!(occurrences(&plain, "Illegal move"), 2);
    let boards = sized_boards(&run.stdout, 6, false);
    assert!(boards
        .iter()
        .any(|b| b.message == "You took back your move"));
    // The 6x6 board is printed as the original prints 8x8: two characters a
    // column, rows A-F.
    assert!(run
        .stdout
        .contains("\n  1 2 3 4 5 6     You:  2  Me:  2    We are tied.\nA - - - - - - A\n"));
}

#[test]
fn scripted_game_on_10x10() {
    // E4 (row E, column 4) opens; J10 is the last square, A11 is off the
    // board: both are refused as illegal moves.
    let script = "\n\n1\nJ10\nA11\nE4\nlog\nauto\n1\n";
    let run = play(&["--size", "10"], script);
    run.assert_clean_exit();
    let (moves, over) = check_sized_game(&run.stdout, 10, false);
    assert!(over && moves >= 20, "{}", run.context());
    let plain = unprompted(&run.stdout);
    assert_eq!(occurrences(&plain, "Illegal move"), 2);
    assert!(plain.contains("\n 1: X at E4  taking  1  X ahead by  3  Total taken =  1\n"));
    // Three characters a column: the two-digit numbers line up.
    assert!(run.stdout.contains(
        "\n   1  2  3  4  5  6  7  8  9 10     You:  2  Me:  2    We are tied.\n\
         A  -  -  -  -  -  -  -  -  -  - A\n"
    ));
    // Typed moves with a two-digit column are read as such.
    let run = play(&["--size", "10"], "\n\n0\nE4\nauto\n0\n");
    let grid = Grid::start(10);
    assert_eq!(grid.parse("J10", false), Some(99));
    let (_, over) = check_sized_game(&run.stdout, 10, false);
    assert!(over);
}

#[test]
fn standard_notation_on_10x10_with_the_engine() {
    let run = play(
        &["--size", "10", "--standard", "--engine", "2"],
        "\n\ne4\nauto\n1\n",
    );
    run.assert_clean_exit();
    let (moves, over) = check_sized_game(&run.stdout, 10, true);
    assert!(over && moves >= 20, "{}", run.context());
    // Row numbers are right-aligned in two characters.
    assert!(run.stdout.contains("\n 9  -"));
    assert!(run.stdout.contains("\n10 "));
    assert!(run
        .stdout
        .contains("\n    a  b  c  d  e  f  g  h  i  j     You:  2  Me:  2"));
}

#[test]
fn every_size_plays_to_the_end() {
    for n in [4, 8, 12, 14, 16] {
        let size = n.to_string();
        for (first, standard) in [("\n", false), ("n\n", true)] {
            let mut args = vec!["--size", &size];
            if standard {
                args.push("--standard");
            }
            let run = play(&args, &format!("\n{first}0\nauto\n0\n"));
            run.assert_clean_exit();
            let (moves, over) = check_sized_game(&run.stdout, n, standard);
            assert!(over && moves > 0, "{n}x{n}\n{}", run.context());
            if n == 8 && !standard {
                // Size 8 is the standard board, printed exactly as without --size.
                check_game(&run.stdout);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Sanitizers and valgrind

const CHECKED_SCRIPT: &str = "\n\n1\nhelp\nZ9\n\nD33\nD3\nlog\nstats\nsuggest\nundo\nredo\nprintboard\ninstructions\nauto\n1\n";

#[test]
fn game_under_sanitizers() {
    let exe = sanitized_game();
    let run = run_with_input(&[], exe, &[], CHECKED_SCRIPT.as_bytes(), ASAN_ENV);
    check_finished(&run);
    let run = run_with_input(&[], exe, &["--standard"], b"\n\n\n\x00\xff\n", ASAN_ENV);
    run.assert_clean_exit();
    assert!(run.stdout.ends_with("Move: \nBye!\n"));
    let run = run_with_input(&[], exe, &["--engine", "3"], b"y\nn\nauto\n2\n", ASAN_ENV);
    check_finished(&run);
}

#[test]
fn game_under_valgrind() {
    let Some(valgrind) = valgrind() else {
        println!("note: valgrind is not on PATH: skipping the valgrind run of the game");
        return;
    };
    let run = run_with_input(&valgrind, game(), &[], CHECKED_SCRIPT.as_bytes(), &[]);
    check_finished(&run);
    assert!(
        run.stderr.contains("ERROR SUMMARY: 0 errors"),
        "{}",
        run.stderr
    );
}
