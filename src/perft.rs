//! Perft: the number of move sequences of a given length, the standard check
//! of move generation. Passes count as a ply; a finished game is a leaf.

use crate::bitboard::Bitboard;
use crate::position::{flips_of, Position};

/// Leaves of the game tree `depth` plies below `pos`.
pub fn perft(pos: Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return if pos.opponent_moves().is_empty() {
            1
        } else {
            perft(pos.pass(), depth - 1)
        };
    }
    if depth == 1 {
        return moves.count() as u64;
    }
    let (p, o) = (pos.player.0, pos.opponent.0);
    moves
        .map(|sq| {
            let f = Bitboard(flips_of(p, o, sq));
            perft(pos.play_with(sq, f), depth - 1)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_counts_to_depth_8() {
        let expected = [4u64, 12, 56, 244, 1396, 8200, 55092, 390216];
        for (d, &n) in expected.iter().enumerate() {
            assert_eq!(perft(Position::start(), d as u32 + 1), n, "depth {}", d + 1);
        }
    }
}
