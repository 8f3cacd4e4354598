#![allow(dead_code)]
pub mod reference;

use othello::board::{Bits, S8};
use othello::obf;
use othello::rng::Rng;

/// Every board side the library supports, smallest first: the one list the
/// per-size tests go through.
pub const SIZES: [usize; 7] = [4, 6, 8, 10, 12, 14, 16];

/// The positions of an FFO `.obf` file with their best score and every move
/// that reaches it.
pub fn ffo(path: &str) -> Vec<(othello::Position<S8>, i32, Vec<u32>)> {
    let text = std::fs::read_to_string(path).expect("an FFO file of tests/data");
    obf::parse::<S8>(&text)
        .unwrap_or_else(|e| panic!("{path}:{e}"))
        .into_iter()
        .map(|line| {
            let (_, best) = line.best().expect("an FFO position lists its moves");
            let squares = line
                .scores
                .iter()
                .filter(|&&(_, score)| score == best)
                .map(|&(sq, _)| sq)
                .collect();
            (line.position, best, squares)
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

/// The thread's last error message from the C API (`othello_last_error`).
pub fn last_error() -> String {
    let mut buf = [0 as std::ffi::c_char; 512];
    unsafe { othello::ffi::othello_last_error(buf.as_mut_ptr(), buf.len(), std::ptr::null_mut()) };
    unsafe { std::ffi::CStr::from_ptr(buf.as_ptr()) }
        .to_string_lossy()
        .into_owned()
}
