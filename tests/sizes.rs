//! Every board size from 4x4 to 16x16 through the C API (called from Rust),
//! checked against the reference implementation in `common/reference.rs`:
//!
//! - random games on every even size: legal moves, the flips of every
//!   square, passes, game end, counts, board strings and transcripts, undo
//!   back to the start and redo to the end;
//! - perft from the start of every size against the reference's;
//! - the exact solver against plain minimax: 4x4 solved completely by both,
//!   and random endgames of 6x6, 10x10 and 16x16;
//! - sizes, squares and strings out of range for the size.

mod common;

use common::reference::{Cell, RefBoard};
use common::SIZES;
use othello::ffi::board::*;
use othello::ffi::engine::*;
use othello::ffi::othello_color::*;
use othello::ffi::othello_status::{self, *};
use othello::ffi::{othello_color, othello_last_status};
use othello::rng::Rng;
use std::ffi::{c_char, c_int, CStr, CString};

/// An owned board handle.
struct Board(*mut othello_board);

impl Drop for Board {
    fn drop(&mut self) {
        unsafe { othello_board_free(self.0) }
    }
}

impl Board {
    fn new(size: usize) -> Board {
        let b = othello_board_new_sized(size as c_int);
        assert!(!b.is_null(), "new_sized({size})");
        Board(b)
    }

    fn from_string(text: &str) -> Option<Board> {
        let c = CString::new(text).unwrap();
        let b = unsafe { othello_board_from_string(c.as_ptr()) };
        (!b.is_null()).then_some(Board(b))
    }

    fn from_transcript(size: usize, text: &str) -> Option<Board> {
        let c = CString::new(text).unwrap();
        let b = unsafe { othello_board_from_transcript_sized(size as c_int, c.as_ptr()) };
        (!b.is_null()).then_some(Board(b))
    }

    fn size(&self) -> usize {
        unsafe { othello_board_size(self.0) as usize }
    }

    fn text(
        &self,
        f: unsafe extern "C" fn(
            *const othello_board,
            *mut c_char,
            usize,
            *mut usize,
        ) -> othello_status,
    ) -> String {
        let mut buf = vec![0 as c_char; 1024];
        let mut n = 0usize;
        assert_eq!(
            unsafe { f(self.0, buf.as_mut_ptr(), buf.len(), &mut n) },
            OTHELLO_STATUS_OK
        );
        let s = unsafe { CStr::from_ptr(buf.as_ptr()) }
            .to_str()
            .unwrap()
            .to_string();
        assert_eq!(s.len(), n);
        s
    }

    fn board_string(&self) -> String {
        self.text(othello_board_to_string)
    }

    fn transcript(&self) -> String {
        self.text(othello_board_transcript)
    }

    fn legal_moves(&self) -> Vec<usize> {
        let mut moves = vec![0 as c_int; 256];
        let n = unsafe { othello_board_legal_moves(self.0, moves.as_mut_ptr(), moves.len()) };
        moves[..n].iter().map(|&m| m as usize).collect()
    }

    fn flips(&self, sq: usize) -> Result<Vec<usize>, othello_status> {
        let mut out = vec![0 as c_int; 256];
        let mut n = 0usize;
        let st = unsafe {
            othello_board_flips(self.0, sq as c_int, out.as_mut_ptr(), out.len(), &mut n)
        };
        if st == OTHELLO_STATUS_OK {
            Ok(out[..n].iter().map(|&m| m as usize).collect())
        } else {
            Err(st)
        }
    }

    fn play(&mut self, sq: usize) -> Vec<usize> {
        let mut out = vec![0 as c_int; 256];
        let mut n = 0usize;
        let st =
            unsafe { othello_board_play(self.0, sq as c_int, out.as_mut_ptr(), out.len(), &mut n) };
        assert_eq!(st, OTHELLO_STATUS_OK, "play {sq}");
        out[..n].iter().map(|&m| m as usize).collect()
    }

    fn history(&self) -> Vec<c_int> {
        let mut out = vec![0 as c_int; 300];
        let mut n = 0usize;
        let st = unsafe { othello_board_history(self.0, out.as_mut_ptr(), out.len(), &mut n) };
        assert_eq!(st, OTHELLO_STATUS_OK);
        out.truncate(n);
        out
    }
}

fn cell(c: othello_color) -> Cell {
    match c {
        OTHELLO_COLOR_BLACK => Cell::Black,
        OTHELLO_COLOR_WHITE => Cell::White,
        OTHELLO_COLOR_EMPTY => Cell::Empty,
    }
}

/// The board through the API equals the reference, square by square.
fn assert_same(b: &Board, r: &RefBoard, ctx: &str) {
    let n = r.size;
    for sq in 0..n * n {
        assert_eq!(
            cell(unsafe { othello_board_get(b.0, sq as c_int) }),
            r.cells[sq],
            "{ctx}: square {sq}"
        );
    }
    assert_eq!(
        cell(unsafe { othello_board_side_to_move(b.0) }),
        r.to_move,
        "{ctx}: side"
    );
    assert_eq!(b.legal_moves(), r.moves(), "{ctx}: legal moves");
    assert_eq!(
        unsafe { othello_board_must_pass(b.0) },
        r.must_pass(),
        "{ctx}: must pass"
    );
    assert_eq!(
        unsafe { othello_board_is_game_over(b.0) },
        r.game_over(),
        "{ctx}: game over"
    );
    for (c, colour) in [
        (Cell::Black, OTHELLO_COLOR_BLACK),
        (Cell::White, OTHELLO_COLOR_WHITE),
        (Cell::Empty, OTHELLO_COLOR_EMPTY),
    ] {
        assert_eq!(
            unsafe { othello_board_count(b.0, colour as i32) } as usize,
            r.count(c),
            "{ctx}: count"
        );
    }
    for (c, colour) in [
        (Cell::Black, OTHELLO_COLOR_BLACK),
        (Cell::White, OTHELLO_COLOR_WHITE),
    ] {
        assert_eq!(
            unsafe { othello_board_mobility(b.0, colour as i32) } as usize,
            r.moves_for(c).len(),
            "{ctx}: mobility"
        );
    }
    // The board string: the squares row by row, a space, the side to move.
    let text = b.board_string();
    let letter = |c: Cell| match c {
        Cell::Black => 'X',
        Cell::White => 'O',
        Cell::Empty => '-',
    };
    let expected: String = r
        .cells
        .iter()
        .map(|&c| letter(c))
        .chain([' ', letter(r.to_move)])
        .collect();
    assert_eq!(text, expected, "{ctx}: board string");
}

/// Random games on the `size` board against the reference, with undo and
/// redo through the whole game and the text forms read back.
fn random_games(size: usize, games: usize) {
    let mut rng = Rng::new(1000 + size as u64);
    for g in 0..games {
        let mut b = Board::new(size);
        assert_eq!(b.size(), size);
        let mut r = RefBoard::new(size);
        let mut snapshots = vec![(b.board_string(), r.clone())];
        loop {
            let ctx = format!("{size}x{size} game {g} ply {}", snapshots.len() - 1);
            assert_same(&b, &r, &ctx);
            if r.game_over() {
                break;
            }
            for sq in 0..size * size {
                let want = r.flips_for(r.to_move, sq);
                match b.flips(sq) {
                    Ok(f) => assert_eq!(f, want, "{ctx}: flips of {sq}"),
                    Err(st) => {
                        assert!(want.is_empty(), "{ctx}: {sq} refused ({st:?})");
                        assert_eq!(st, OTHELLO_STATUS_ILLEGAL_MOVE);
                    }
                }
            }
            if r.must_pass() {
                assert_eq!(unsafe { othello_board_pass(b.0) }, OTHELLO_STATUS_OK);
                r.pass();
            } else {
                let moves = r.moves();
                assert_eq!(
                    unsafe { othello_board_pass(b.0) },
                    OTHELLO_STATUS_CANNOT_PASS
                );
                let sq = moves[rng.below(moves.len())];
                assert_eq!(b.play(sq), r.play(sq), "{ctx}: flips played");
            }
            snapshots.push((b.board_string(), r.clone()));
        }
        // Game over: no move, no pass.
        assert_eq!(unsafe { othello_board_pass(b.0) }, OTHELLO_STATUS_GAME_OVER);
        assert_eq!(b.flips(0), Err(OTHELLO_STATUS_GAME_OVER));
        // The text forms read back: the board string (any size) and the
        // transcript (passes implied).
        let end = b.board_string();
        let copy = Board::from_string(&end).expect("the board string reads back");
        assert_eq!(copy.size(), size);
        assert_eq!(copy.board_string(), end);
        let replay = Board::from_transcript(size, &b.transcript()).expect("the transcript replays");
        assert_eq!(replay.board_string(), end);
        assert_eq!(replay.history(), b.history());
        // Undo back through every snapshot, redo to the end.
        for (text, r) in snapshots.iter().rev().skip(1) {
            assert_eq!(unsafe { othello_board_undo(b.0) }, OTHELLO_STATUS_OK);
            assert_eq!(&b.board_string(), text);
            if g == 0 {
                assert_same(&b, r, "undo");
            }
        }
        assert_eq!(
            unsafe { othello_board_undo(b.0) },
            OTHELLO_STATUS_NOTHING_TO_UNDO
        );
        while unsafe { othello_board_can_redo(b.0) } {
            assert_eq!(unsafe { othello_board_redo(b.0) }, OTHELLO_STATUS_OK);
        }
        assert_eq!(b.board_string(), end);
        assert_eq!(
            unsafe { othello_board_move_number(b.0) } as usize,
            snapshots.len()
        );
        let cloned = Board(unsafe { othello_board_clone(b.0) });
        assert_eq!(cloned.board_string(), end);
        assert_eq!(cloned.history(), b.history());
    }
}

#[test]
fn random_games_match_the_reference_4x4_and_6x6() {
    // Miri (tests/miri.sh) runs the C API's pointer handling through two
    // games of 4x4 (a game of 6x6 there takes a minute and a half).
    let (small, six) = if cfg!(miri) { (2, 0) } else { (300, 60) };
    random_games(4, small);
    random_games(6, six);
}

#[test]
fn random_games_match_the_reference_8x8_and_10x10() {
    random_games(8, 10);
    random_games(10, 5);
}

#[test]
fn random_games_match_the_reference_12x12() {
    random_games(12, 3);
}

#[test]
fn random_games_match_the_reference_14x14() {
    random_games(14, 2);
}

#[test]
fn random_games_match_the_reference_16x16() {
    random_games(16, 2);
}

#[test]
fn perft_matches_the_reference_on_every_size() {
    for (size, depth) in SIZES.into_iter().zip([11, 7, 6, 5, 5, 4, 4]) {
        let lib = othello::any::perft_start(size as i64, depth).unwrap();
        assert_eq!(
            lib,
            RefBoard::new(size).perft(depth),
            "{size}x{size} depth {depth}"
        );
    }
    // 4x4 to the end of every game: perft stops growing.
    let full = othello::any::perft_start(4, 20).unwrap();
    assert_eq!(othello::any::perft_start(4, 30).unwrap(), full);
}

/// Plain minimax of the final disc difference on the reference board (empties
/// to the winner), from the side to move's point of view.
fn minimax(r: &RefBoard) -> i32 {
    let moves = r.moves();
    if moves.is_empty() {
        if r.game_over() {
            let me = r.count(r.to_move) as i32;
            let you = r.count(r.to_move.other()) as i32;
            let empty = r.count(Cell::Empty) as i32;
            return match me.cmp(&you) {
                std::cmp::Ordering::Greater => me - you + empty,
                std::cmp::Ordering::Less => me - you - empty,
                std::cmp::Ordering::Equal => 0,
            };
        }
        let mut p = r.clone();
        p.pass();
        return -minimax(&p);
    }
    moves
        .into_iter()
        .map(|m| {
            let mut c = r.clone();
            c.play(m);
            -minimax(&c)
        })
        .max()
        .unwrap()
}

fn exact_limits() -> othello_search_limits {
    othello_search_limits {
        level: -1,
        depth: 4,
        exact_empties: 60,
        wld_empties: 60,
        ..Default::default()
    }
}

fn search(e: *mut othello_engine, b: &Board, lim: &othello_search_limits) -> othello_search_result {
    let mut out = othello_search_result::default();
    assert_eq!(
        unsafe { othello_engine_search(e, b.0, lim, &mut out) },
        OTHELLO_STATUS_OK
    );
    out
}

/// The reference board of a board string.
fn reference_of(text: &str) -> RefBoard {
    let (squares, side) = text.split_once(' ').unwrap();
    let size = (squares.len() as f64).sqrt() as usize;
    let mut r = RefBoard::new(size);
    for (c, ch) in r.cells.iter_mut().zip(squares.chars()) {
        *c = match ch {
            'X' => Cell::Black,
            'O' => Cell::White,
            _ => Cell::Empty,
        };
    }
    r.to_move = if side == "X" {
        Cell::Black
    } else {
        Cell::White
    };
    r
}

#[test]
fn four_by_four_solved_by_minimax_and_by_the_solver() {
    let start = RefBoard::new(4);
    let perfect = minimax(&start);
    // Perfect play: 3 black discs, 11 white, and the two empty squares
    // count for the winner.
    assert_eq!(perfect, -10);
    let e = othello_engine_new(4);
    let b = Board::new(4);
    let r = search(e, &b, &exact_limits());
    assert!(r.exact && r.wld && !r.stopped);
    assert_eq!(r.score, perfect);
    // Every position of the first three plies too, and each best move is one
    // that keeps the score.
    let mut frontier = vec![start];
    for _ply in 0..3 {
        let mut next = Vec::new();
        for pos in &frontier {
            for m in pos.moves() {
                let mut c = pos.clone();
                c.play(m);
                if c.must_pass() {
                    c.pass();
                }
                next.push(c);
            }
        }
        frontier = next;
    }
    for pos in &frontier {
        if pos.game_over() {
            continue;
        }
        let letter = |c: Cell| match c {
            Cell::Black => 'X',
            Cell::White => 'O',
            Cell::Empty => '-',
        };
        let text: String = pos
            .cells
            .iter()
            .map(|&c| letter(c))
            .chain([' ', letter(pos.to_move)])
            .collect();
        let b = Board::from_string(&text).unwrap();
        let r = search(e, &b, &exact_limits());
        let exact = minimax(pos);
        assert_eq!(r.score, exact, "{text}");
        let mut after = pos.clone();
        after.play(r.r#move as usize);
        assert_eq!(-minimax(&after), exact, "{text}: best move {}", r.r#move);
    }
    unsafe { othello_engine_free(e) };
}

#[test]
fn solver_equals_minimax_on_random_endgames() {
    let e = othello_engine_new(8);
    let mut rng = Rng::new(77);
    for (size, count, max_empties) in [(6, 25, 9), (10, 6, 8), (12, 3, 7), (16, 3, 7)] {
        let mut checked = 0;
        while checked < count {
            // A random game stopped with a few empties left.
            let mut b = Board::new(size);
            let target = 2 + rng.below(max_empties - 1);
            let mut over = false;
            while unsafe { othello_board_count(b.0, OTHELLO_COLOR_EMPTY as i32) } as usize > target
            {
                if unsafe { othello_board_is_game_over(b.0) } {
                    over = true;
                    break;
                }
                if unsafe { othello_board_must_pass(b.0) } {
                    unsafe { othello_board_pass(b.0) };
                    continue;
                }
                let moves = b.legal_moves();
                b.play(moves[rng.below(moves.len())]);
            }
            if over
                || unsafe { othello_board_is_game_over(b.0) }
                || unsafe { othello_board_must_pass(b.0) }
            {
                continue;
            }
            let r = search(e, &b, &exact_limits());
            let reference = reference_of(&b.board_string());
            let exact = minimax(&reference);
            assert_eq!(r.score, exact, "{}", b.board_string());
            let mut after = reference.clone();
            after.play(r.r#move as usize);
            assert_eq!(
                -minimax(&after),
                exact,
                "{}: move {}",
                b.board_string(),
                r.r#move
            );
            // Analyze: every move scored exactly, the best first.
            let mut scores: Vec<othello_move_score> = (0..64)
                .map(|_| othello_move_score {
                    r#move: 0,
                    score: 0,
                    exact: false,
                })
                .collect();
            let mut n = 0usize;
            let lim = exact_limits();
            assert_eq!(
                unsafe {
                    othello_engine_analyze(e, b.0, &lim, scores.as_mut_ptr(), scores.len(), &mut n)
                },
                OTHELLO_STATUS_OK
            );
            assert_eq!(n, b.legal_moves().len());
            assert_eq!(scores[0].score, exact);
            for s in &scores[..n] {
                let mut c = reference.clone();
                c.play(s.r#move as usize);
                assert_eq!(s.score, -minimax(&c));
                assert!(s.exact);
            }
            checked += 1;
        }
    }
    unsafe { othello_engine_free(e) };
}

#[test]
fn levels_and_strategies_play_legal_moves_on_every_size() {
    let e = othello_engine_new(4);
    for size in SIZES {
        let mut b = Board::new(size);
        for ply in 0..8 {
            let mut lim = exact_limits();
            lim.level = [1, 3, 5][ply % 3];
            lim.strategy = (ply % 5) as i32;
            lim.classic_depth = 2;
            lim.seed = ply as u64;
            let r = search(e, &b, &lim);
            assert!(
                b.legal_moves().contains(&(r.r#move as usize)),
                "{size}: {}",
                r.r#move
            );
            let mut best = -2;
            assert_eq!(
                unsafe { othello_board_best_move(b.0, 2, &mut best) },
                OTHELLO_STATUS_OK
            );
            assert!(b.legal_moves().contains(&(best as usize)));
            b.play(r.r#move as usize);
        }
    }
    unsafe { othello_engine_free(e) };
}

#[test]
fn bad_sizes_squares_and_strings() {
    for size in -1..=20 {
        let b = othello_board_new_sized(size);
        let valid = usize::try_from(size).is_ok_and(|s| SIZES.contains(&s));
        assert_eq!(!b.is_null(), valid, "{size}");
        if valid {
            let n = (size * size) as c_int;
            assert_eq!(unsafe { othello_board_size(b) }, size);
            assert_eq!(unsafe { othello_board_get(b, n) }, OTHELLO_COLOR_EMPTY);
            assert_eq!(othello_last_status(), OTHELLO_STATUS_INVALID_SQUARE);
            assert!(!unsafe { othello_board_is_legal(b, n) });
            let st =
                unsafe { othello_board_play(b, n, std::ptr::null_mut(), 0, std::ptr::null_mut()) };
            assert_eq!(st, OTHELLO_STATUS_INVALID_SQUARE);
            let st =
                unsafe { othello_board_play(b, -1, std::ptr::null_mut(), 0, std::ptr::null_mut()) };
            assert_eq!(st, OTHELLO_STATUS_INVALID_SQUARE);
            unsafe { othello_board_free(b) };
        } else {
            assert_eq!(othello_last_status(), OTHELLO_STATUS_INVALID_ARGUMENT);
        }
    }
    // A 6x6 board string with one square more or less, or a length that is
    // no square count at all, is refused.
    let six = Board::new(6).board_string();
    assert!(Board::from_string(&six).is_some());
    for bad in [
        format!("-{six}"),
        six[1..].to_string(),
        format!("{} X", "-".repeat(50)),
    ] {
        assert!(Board::from_string(&bad).is_none(), "{bad:?}");
        assert_eq!(othello_last_status(), OTHELLO_STATUS_PARSE_ERROR);
    }
    // Square names per size.
    let mut sq = -1;
    let name = CString::new("j10").unwrap();
    assert_eq!(
        unsafe { othello_square_parse_sized(10, name.as_ptr(), &mut sq) },
        OTHELLO_STATUS_OK
    );
    assert_eq!(sq, 99);
    assert_eq!(
        unsafe { othello_square_parse_sized(8, name.as_ptr(), &mut sq) },
        OTHELLO_STATUS_PARSE_ERROR
    );
    assert_eq!(
        unsafe { othello_square_parse_sized(9, name.as_ptr(), &mut sq) },
        OTHELLO_STATUS_INVALID_ARGUMENT
    );
    let mut buf = [0 as c_char; 4];
    assert_eq!(
        unsafe { othello_square_name_sized(16, 255, buf.as_mut_ptr(), 4) },
        OTHELLO_STATUS_OK
    );
    assert_eq!(
        unsafe { CStr::from_ptr(buf.as_ptr()) }.to_str().unwrap(),
        "p16"
    );
    assert_eq!(
        unsafe { othello_square_name_sized(6, 36, buf.as_mut_ptr(), 4) },
        OTHELLO_STATUS_INVALID_SQUARE
    );
}
