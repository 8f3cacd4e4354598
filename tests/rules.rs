//! The rules checked against perft counts and against the reference
//! implementation in `common/reference.rs` over many random games.

mod common;

use common::reference::{Cell, RefBoard};
use othello::board::perft::perft;
use othello::board::{Bits, S8};
use othello::notation::{self, parse_square, square_name};
use othello::rng::Rng;
use othello::{Color, Move};

type Game = othello::Game<S8>;
type Position = othello::Position<S8>;

fn sq(name: &str) -> u32 {
    parse_square(8, name).unwrap()
}

#[test]
fn perft_from_start_depths_1_to_10() {
    let expected = [
        4u64, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284,
    ];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(Position::start(), d as u32 + 1), n, "depth {}", d + 1);
    }
}

#[test]
#[ignore = "long: run with --ignored in a release build"]
fn perft_from_start_depths_11_and_12() {
    assert_eq!(perft(Position::start(), 11), 212_258_800);
    assert_eq!(perft(Position::start(), 12), 1_939_886_636);
}

#[test]
fn reference_perft_agrees_at_depth_6() {
    assert_eq!(RefBoard::new(8).perft(6), perft(Position::start(), 6));
}

fn cell_of(game: &Game, sq: u32) -> Cell {
    match game.at(sq) {
        Some(Color::Black) => Cell::Black,
        Some(Color::White) => Cell::White,
        None => Cell::Empty,
    }
}

fn assert_same(game: &Game, r: &RefBoard, ctx: &str) {
    for sq in 0..64 {
        assert_eq!(
            cell_of(game, sq),
            r.cells[sq as usize],
            "{ctx}: {}",
            square_name(8, sq)
        );
    }
    let side = match game.side_to_move() {
        Color::Black => Cell::Black,
        Color::White => Cell::White,
    };
    assert_eq!(side, r.to_move, "{ctx}: side to move");
    let moves: Vec<usize> = game.legal_moves().squares().map(|s| s as usize).collect();
    assert_eq!(moves, r.moves(), "{ctx}: legal moves");
    assert_eq!(game.must_pass(), r.must_pass(), "{ctx}: must pass");
    assert_eq!(game.is_game_over(), r.game_over(), "{ctx}: game over");
    assert_eq!(
        game.discs(Color::Black).count() as usize,
        r.count(Cell::Black),
        "{ctx}"
    );
}

#[test]
fn random_games_match_reference_with_exact_undo() {
    let mut rng = Rng::new(20261129);
    for g in 0..400 {
        let mut game = Game::new();
        let mut r = RefBoard::new(8);
        let mut snapshots = vec![game.clone()];
        while !game.is_game_over() {
            let ctx = format!("game {g} ply {}", game.plies());
            assert_same(&game, &r, &ctx);
            // Every empty square: the library's flips equal the reference's.
            for sq in 0..64 {
                let lib: Vec<usize> = game
                    .position()
                    .flips(sq)
                    .squares()
                    .map(|s| s as usize)
                    .collect();
                assert_eq!(
                    lib,
                    r.flips_for(r.to_move, sq as usize),
                    "{ctx} {}",
                    square_name(8, sq)
                );
            }
            if game.must_pass() {
                game.pass().unwrap();
                r.pass();
            } else {
                let moves: Vec<u32> = game.legal_moves().squares().collect();
                let sq = moves[rng.below(moves.len())];
                let flips: Vec<usize> = game
                    .play(sq)
                    .unwrap()
                    .squares()
                    .map(|s| s as usize)
                    .collect();
                assert_eq!(flips, r.play(sq as usize), "{ctx}");
            }
            snapshots.push(game.clone());
        }
        assert_same(&game, &r, "final");
        assert!(game.play(0).is_err());
        assert!(game.pass().is_err());
        // Undo walks back through every snapshot exactly, redo forward again.
        let end = game.clone();
        for snap in snapshots.iter().rev().skip(1) {
            game.undo().unwrap();
            assert_eq!(game.position(), snap.position());
            assert_eq!(game.side_to_move(), snap.side_to_move());
            assert_eq!(game.plies(), snap.plies());
        }
        assert!(game.undo().is_err());
        while game.can_redo() {
            game.redo().unwrap();
        }
        assert_eq!(game.position(), end.position());
        assert_eq!(notation::transcript(&game), notation::transcript(&end));
        // The transcript replays to the same game, passes implied.
        let replay = notation::parse_transcript::<S8>(&notation::transcript(&end)).unwrap();
        assert_eq!(replay.position(), end.position());
        assert_eq!(replay.plies(), end.plies());
        assert!(replay.moves().eq(end.moves()));
    }
}

#[test]
fn board_strings_round_trip_on_random_positions() {
    let mut rng = Rng::new(5);
    let mut game = Game::new();
    for _ in 0..3000 {
        if game.is_game_over() {
            game = Game::new();
        }
        if game.must_pass() {
            game.pass().unwrap();
        } else {
            let moves: Vec<u32> = game.legal_moves().squares().collect();
            game.play(moves[rng.below(moves.len())]).unwrap();
        }
        let s = notation::board_string(&game);
        assert_eq!(s.len(), 66);
        let back = notation::parse_board::<S8>(&s).unwrap();
        assert_eq!(back.position(), game.position());
        assert_eq!(back.side_to_move(), game.side_to_move());
        assert_eq!(notation::board_string(&back), s);
    }
}

#[test]
fn pass_and_game_end_on_small_positions() {
    let rest = "-".repeat(61);
    // Black to move with no disc at all: neither side can move.
    let lone = notation::parse_board::<S8>(&format!("-O-{rest} X")).unwrap();
    assert!(lone.is_game_over());
    // Black a1 wipes out white b1 (flanked with c1): game over, white to move.
    let mut g = notation::parse_board::<S8>(&format!("-OX{rest} X")).unwrap();
    g.play(sq("a1")).unwrap();
    assert!(g.is_game_over());
    assert_eq!(g.position().final_score(), -64);
    // White to move cannot flank anything; black could play c1: white passes.
    let mut h = notation::parse_board::<S8>(&format!("XO-{rest} O")).unwrap();
    assert!(h.must_pass());
    assert!(h.play(sq("c1")).is_err());
    h.pass().unwrap();
    assert_eq!(h.moves().collect::<Vec<_>>(), vec![Move::Pass]);
    h.undo().unwrap();
    assert_eq!(h.side_to_move(), Color::White);
    h.redo().unwrap();
    assert_eq!(h.side_to_move(), Color::Black);
    assert!(h.legal_moves().has(sq("c1")));
}
