#![allow(dead_code)]
pub mod reference;

use othello::board::{Bits, S8};
use othello::notation::{parse_board, parse_square};
use othello::rng::Rng;

/// The positions of an FFO `.obf` file with their best score and every move
/// that reaches it.
pub fn ffo(path: &str) -> Vec<(othello::Position<S8>, i32, Vec<u32>)> {
    let text = std::fs::read_to_string(path).expect("an FFO file of tests/data");
    text.lines()
        .filter(|l| l.len() > 66)
        .map(|line| {
            let game = parse_board::<S8>(&format!("{} {}", &line[..64], &line[65..66])).unwrap();
            let mut fields = line.split(';').skip(1).filter(|f| f.contains(':'));
            let first = fields.next().unwrap();
            let best: i32 = first.split(':').nth(1).unwrap().trim().parse().unwrap();
            let mut moves = vec![first];
            moves.extend(
                fields.filter(|f| {
                    f.split(':').nth(1).unwrap().trim().parse::<i32>().unwrap() == best
                }),
            );
            let squares = moves
                .iter()
                .map(|f| parse_square(8, f.split(':').next().unwrap().trim()).unwrap())
                .collect();
            (game.position(), best, squares)
        })
        .collect()
}

/// Checks a search of an FFO position: exact, the file's best score, one of
/// the moves that reach it, and a line that starts with that move. `what`
/// names the position in the messages.
pub fn assert_solved(r: &othello::engine::SearchResult, best: i32, moves: &[u32], what: &str) {
    assert!(r.exact, "{what}: not exact");
    assert_eq!(r.score, best * 100, "{what}: score");
    assert!(
        moves.contains(&r.best.unwrap()),
        "{what}: move {:?} not in {moves:?}",
        r.best
    );
    assert_eq!(r.pv.first(), r.best.as_ref(), "{what}: line");
}

/// A position after `plies` random plies from the start (a pass uses a
/// ply), with a move to play.
pub fn random_position(rng: &mut Rng, plies: usize) -> othello::Position<S8> {
    loop {
        let mut pos = othello::Position::<S8>::start();
        let mut ok = true;
        for _ in 0..plies {
            let moves: Vec<u32> = pos.legal_moves().squares().collect();
            if moves.is_empty() {
                pos = pos.pass();
                if pos.legal_moves().is_zero() {
                    ok = false;
                    break;
                }
                continue;
            }
            let sq = moves[rng.below(moves.len())];
            pos = pos.play_with(sq, pos.flips(sq));
        }
        if ok && !pos.legal_moves().is_zero() {
            return pos;
        }
    }
}
